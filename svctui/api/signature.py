"""The request signature itself (spec 5.2), stdlib only: what svctui.api.signing's auth flow and an early request
(svctui.api.early, sent before httpx is imported) both sign with."""

from __future__ import annotations

import base64
import hashlib
import hmac
from datetime import UTC, datetime

DEFAULT_SCHEME_PREFIX = "bhe"  # the Authorization scheme word is PREFIX + "signature"


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
