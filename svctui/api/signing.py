"""Chained HMAC request signing (spec 5.2) and httpx auth flows that sign exactly what goes on the wire."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Generator
from datetime import UTC, datetime

import httpx

DEFAULT_SCHEME_PREFIX = "bhe"


def compute_signature(token_key: str, method: str, request_target: str, request_date: str, body: bytes) -> str:
    """Return the base64 Signature: HMAC chain over method+target, RequestDate[:13], then the body."""
    step1 = hmac.new(token_key.encode("utf-8"), (method + request_target).encode("utf-8"), hashlib.sha256)
    step2 = hmac.new(step1.digest(), request_date[:13].encode("utf-8"), hashlib.sha256)
    step3 = hmac.new(step2.digest(), body, hashlib.sha256)
    return base64.b64encode(step3.digest()).decode("ascii")


def signature_matches(expected: str, received: str) -> bool:
    """Compare two signatures in constant time."""
    return hmac.compare_digest(expected.encode("ascii", "replace"), received.encode("ascii", "replace"))


def rfc3339_now() -> str:
    """The current time as aware RFC 3339 in UTC with an uppercase T (what RequestDate carries)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class SignatureAuth(httpx.Auth):
    """httpx.Auth that signs each request as sent: method + url.raw_path, RequestDate[:13], content."""

    requires_request_body = True

    def __init__(
        self,
        token_id: str,
        token_key: str,
        scheme_prefix: str = DEFAULT_SCHEME_PREFIX,
        clock: Callable[[], str] = rfc3339_now,
    ) -> None:
        self.token_id = token_id
        self._token_key = token_key
        self.scheme_prefix = scheme_prefix
        self._clock = clock

    def __repr__(self) -> str:
        return f"SignatureAuth(token_id={self.token_id!r}, token_key='**********', scheme={self.scheme!r})"

    __str__ = __repr__

    @property
    def scheme(self) -> str:
        """The Authorization scheme word, e.g. `bhesignature`."""
        return f"{self.scheme_prefix}signature"

    def sign(self, request: httpx.Request) -> None:
        """Set Authorization, RequestDate and Signature on `request` from its wire bytes."""
        request_date = self._clock()
        target = request.url.raw_path.decode("ascii")
        signature = compute_signature(self._token_key, request.method, target, request_date, request.content)
        request.headers["Authorization"] = f"{self.scheme} {self.token_id}"
        request.headers["RequestDate"] = request_date
        request.headers["Signature"] = signature

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Sign and send; a retry is a new send and so runs this again with a fresh date."""
        self.sign(request)
        yield request


class BearerAuth(httpx.Auth):
    """httpx.Auth that sends `Authorization: Bearer <JWT>`."""

    def __init__(self, jwt: str) -> None:
        self._jwt = jwt

    def __repr__(self) -> str:
        return "BearerAuth(jwt='**********')"

    __str__ = __repr__

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """Attach the bearer token."""
        request.headers["Authorization"] = f"Bearer {self._jwt}"
        yield request
