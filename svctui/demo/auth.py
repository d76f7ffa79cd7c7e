"""Authentication of the demo server: signed requests and bearer JWTs, with the real statuses and messages.

Signed requests are checked against the request target exactly as received (raw path, `?`, raw query) and the
raw body, in the real server's order: header shape, token id, RequestDate, Signature, token lookup, disabled
user, clock skew (±1 h), then the constant-time digest comparison.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from svctui.api.signing import compute_signature, signature_matches
from svctui.demo.db import Token
from svctui.demo.query import Problem
from svctui.demo.timefmt import go_rfc3339, parse_request_date

SIGNATURE_PREFIX = "unable to validate request signature for client: "
MAX_SKEW = timedelta(hours=1)
JWT_LIFETIME = timedelta(days=7)
MALFORMED = {  # the real messages (the date's repeats its prefix)
    "requestdate": "malformed request date: malformed request date",
    "signature": "malformed signature header",
}
T = TypeVar("T")
_B64_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


@dataclass(frozen=True)
class Principal:
    """Who a request authenticated as: `admin` or `read-only`, and how (`signature` or `bearer`)."""

    role: str
    method: str


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def mint_jwt(secret: str, subject: str, now: float | None = None) -> str:
    """An HS256 session JWT for `subject`, valid for a week."""
    issued = int(now if now is not None else time.time())
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": subject, "iss": "svctui-demo", "iat": issued, "exp": issued + int(JWT_LIFETIME.total_seconds())}
    payload = _b64url(json.dumps(claims, separators=(",", ":")).encode())
    digest = hmac.new(secret.encode(), f"{header}.{payload}".encode(), hashlib.sha256).digest()
    return f"{header}.{payload}.{_b64url(digest)}"


def verify_jwt(secret: str, token: str, now: float | None = None) -> bool:
    """True when `token` is an HS256 JWT signed with `secret` and not expired."""
    parts = token.split(".")
    if len(parts) != 3:
        return False
    try:
        header = json.loads(_b64url_decode(parts[0]))
        claims = json.loads(_b64url_decode(parts[1]))
        signature = _b64url_decode(parts[2])
    except (ValueError, binascii.Error):
        return False
    if not isinstance(header, dict) or header.get("alg") != "HS256" or not isinstance(claims, dict):
        return False
    expected = hmac.new(secret.encode(), f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, signature):
        return False
    expiry = claims.get("exp")
    return isinstance(expiry, int) and expiry > (now if now is not None else time.time())


def _go_base64(text: str) -> bytes:
    """base64.StdEncoding.DecodeString: strict alphabet and padding; ValueError with Go's message."""
    for index, char in enumerate(text):
        if char not in _B64_ALPHABET:
            raise ValueError(f"illegal base64 data at input byte {index}")
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error:
        # Go reports where the incomplete last quantum starts, or the end for bad padding.
        at = len(text) - len(text) % 4 if "=" not in text else len(text)
        raise ValueError(f"illegal base64 data at input byte {at}") from None


def _skew_error(server: datetime, client: datetime) -> str | None:
    """The real message when the client's time is more than an hour ahead of or behind the server's, else None."""
    server_here = server.astimezone(client.tzinfo)
    word, delta = ("ahead", client - server_here) if server_here < client else ("behind", server_here - client)
    if delta <= MAX_SKEW:
        return None
    minutes = (delta - MAX_SKEW).total_seconds() / 60
    return (
        f"signature too far {word} by {minutes:.2f} minutes. Server time is {go_rfc3339(server_here)}. "
        f"Client time is {go_rfc3339(client)}"
    )


def _fail(status: int, reason: str) -> Problem:
    return Problem(status, SIGNATURE_PREFIX + reason)


def _header(headers: Callable[[str], str], name: str, what: str, parse: Callable[[str], T]) -> tuple[str, T]:
    """A required signing header as sent and parsed; the real 400 when it is missing or malformed."""
    raw = headers(name)
    if not raw:
        raise _fail(400, f"no {what} header")
    try:
        return raw, parse(raw)
    except ValueError as exc:
        raise _fail(400, f"{MALFORMED[name]}: {exc}") from None


async def verify_signature(
    token_id: uuid.UUID,
    headers: Callable[[str], str],
    method: str,
    target: str,
    read_body: Callable[[], Awaitable[bytes]],
    find_token: Callable[[str], Token | None],
    now: datetime | None = None,
) -> Token:
    """Check a signed request; the token it was signed with, or Problem with the real status and message.

    The body is read only once every check that does not need it has passed.
    """
    raw_date, request_date = _header(headers, "requestdate", "request date", parse_request_date)
    _, received = _header(headers, "signature", "signature", _go_base64)
    token = find_token(str(token_id))
    if token is None:
        raise _fail(401, "resource not found")
    if token.disabled:
        raise _fail(403, "user disabled")
    skew = _skew_error(now or datetime.now(UTC), request_date)
    if skew:
        raise _fail(401, skew)
    expected = compute_signature(token.key, method, target, raw_date[:13], await read_body())
    if not signature_matches(expected, base64.b64encode(received).decode("ascii")):
        raise _fail(401, "digest validation failed: signature digest mismatch")
    return token


async def authenticate(
    headers: Callable[[str], str],
    method: str,
    target: str,
    read_body: Callable[[], Awaitable[bytes]],
    find_token: Callable[[str], Token | None],
    jwt_secret: str,
) -> Principal | None:
    """Authenticate a request by its Authorization header: who it is, None when there is no such header (the
    permission check later answers 401 `not authenticated`), or Problem with the real status and message.

    `read_body` is awaited only to check a signature's digest, after every other check passed: a request that
    fails authentication otherwise is answered without its body being read."""
    authorization = headers("authorization")
    if not authorization:
        return None
    parts = authorization.split(" ")
    if len(parts) != 2:
        raise Problem(400, "Expected only two components for the Authorization header.")
    scheme, parameter = parts[0].lower(), parts[1]
    if scheme == "bearer":
        if not verify_jwt(jwt_secret, parameter):
            raise Problem(401, "authentication is invalid")
        return Principal(role="admin", method="bearer")
    if scheme == "bhesignature":
        try:
            token_id = uuid.UUID(parameter)
        except ValueError:
            raise Problem(400, "Token ID is malformed.") from None
        token = await verify_signature(token_id, headers, method, target, read_body, find_token)
        return Principal(role=token.role, method="signature")
    raise Problem(400, f"Unexpected authorization scheme: {scheme}.")
