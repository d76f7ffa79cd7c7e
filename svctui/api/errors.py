"""Exceptions of the API client, filled from the error envelope, a plain-text body or an HTML page.

Every error has `user_message()`: one or two lines for a person (status, the server's messages, the request id).
Nothing here ever holds a request header, so the token key and the JWT cannot leak into a message.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from http import HTTPStatus

from pydantic import ValidationError

from svctui.api.models import ErrorEnvelope, parse_json
from svctui.visible import visible

MESSAGE_LIMIT = 300
BODY_LIMIT = 64 * 1024
ENTERPRISE_ONLY_MESSAGE = "events are an enterprise feature: this server is the community edition"
CLIENTS_ENTERPRISE_ONLY_MESSAGE = "the clients listing is an enterprise feature: this server is the community edition"
_ENTERPRISE_ROUTE_RE = re.compile(r"/api/v2/(events|clients(/[^/]+)?)/?$")
LOG_ENTERPRISE_ONLY_MESSAGE = "run logs are an enterprise feature: this server is the community edition"
_LOG_ROUTE_RE = re.compile(r"/api/v2/jobs/[^/]+/log/?$")  # a run's log (GET /api/v2/jobs/{job_id}/log)
PROXY_HINT = "a proxy between you and the server could not reach it"
RATE_LIMIT_HINT = "try --concurrency 1, or try again later"

_TITLE_RE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_DROP_BLOCKS_RE = re.compile(r"<(script|style|head)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"<[^>]*>")
_SPACE_RE = re.compile(r"\s+")


def shorten(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Collapse whitespace and cut `text` to `limit` characters, marking the cut with `…`; its control characters
    (a proxy page's title with terminal escapes) shown (`visible`)."""
    text = visible(_SPACE_RE.sub(" ", text).strip())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def html_text(body: str) -> str:
    """The readable gist of an HTML page: its title, else its first text."""
    title = _TITLE_RE.search(body)
    if title and title.group(1).strip():
        return shorten(html.unescape(_TAG_RE.sub(" ", title.group(1))))
    text = _TAG_RE.sub(" ", _DROP_BLOCKS_RE.sub(" ", body))
    return shorten(html.unescape(text))


def looks_like_html(body: str, content_type: str = "") -> bool:
    """True when the body is an HTML page (by content type or by its first character)."""
    return "html" in content_type.lower() or body.lstrip().startswith("<")


def reason_phrase(status: int) -> str:
    """The standard reason phrase of a status code, or '' for an unknown code."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


class ApiError(Exception):
    """Base of every error the API client raises."""

    # A request that changes something (DELETE, POST) was sent more than once and an earlier attempt may have been
    # done by the server (no answer, an answer cut short or not the API's, a 5xx): this error, the last attempt's,
    # may then be about the earlier one's work (a 404 to a DELETE the first attempt did). Set by ApiClient.
    after_lost_answer: bool = False

    def user_message(self) -> str:
        """One or two lines for a person (control characters shown: it may quote what the server sent)."""
        return visible(str(self.args[0]), lines=True) if self.args else type(self).__name__


class ApiStatusError(ApiError):
    """The server answered with a non-success status."""

    def __init__(
        self,
        status: int,
        messages: list[str],
        *,
        request_id: str | None = None,
        body: str = "",
        method: str = "",
        url: str = "",
        reason: str = "",
        from_api: bool = False,
    ) -> None:
        self.status = status
        self.messages = messages
        self.request_id = visible(request_id) if request_id else None  # a header or body: shown, never obeyed
        self.body = body
        self.method = method
        self.url = url
        self.reason = reason or reason_phrase(status)
        self.from_api = from_api  # the body was the API's error envelope (not a proxy's page), as status_error finds
        super().__init__(self.user_message())

    def user_message(self) -> str:
        """E.g. `HTTP 401 Unauthorized — <server message> (request id 1b2c...)`."""
        head = f"HTTP {self.status} {self.reason}".rstrip()
        text = "; ".join(self.messages)
        line = visible(f"{head} — {text}" if text else head)  # the reason phrase is the server's too
        return f"{line} (request id {self.request_id})" if self.request_id else line

    def __str__(self) -> str:
        return self.user_message()


class BadRequest(ApiStatusError):
    """400: the request was malformed (bad filter, bad signature header, bad Prefer value)."""


class Unauthorized(ApiStatusError):
    """401: not authenticated, unknown token, clock skew or signature mismatch."""


class Forbidden(ApiStatusError):
    """403: authenticated but not allowed (or a default selector that cannot be deleted)."""


NO_ACCESS_MARKER = "does not have access to this resource"
NO_ACCESS_WORDS = (
    "this user cannot browse selectors on this server: environment access control keeps them from users without "
    "access to every environment; the token works, and deleting by typed ids may still be allowed"
)


class NoEnvironmentAccess(Forbidden):
    """403 `user does not have access to this resource`: environment access control (ETAC) keeps the selector list,
    one selector and member counts from this user, while DELETE and POST are not gated. Not a bad token."""

    def user_message(self) -> str:
        """The status line, then what it means in words."""
        return f"{super().user_message()}: {NO_ACCESS_WORDS}"


class NotFound(ApiStatusError):
    """404: no such resource (for a repeated delete: already gone)."""


class EnterpriseOnly(NotFound):
    """Plain-text 404 on /api/v2/events or /api/v2/clients[/{id}]: the server is the community edition."""

    def user_message(self) -> str:
        """The edition message, not the router's `404 page not found`."""
        if _LOG_ROUTE_RE.search(self.url.split("?", 1)[0]):
            return LOG_ENTERPRISE_ONLY_MESSAGE
        return CLIENTS_ENTERPRISE_ONLY_MESSAGE if "/api/v2/clients" in self.url else ENTERPRISE_ONLY_MESSAGE


class NotTheApi(NotFound):
    """The router's plain-text 404 where every BloodHound server (either edition) answers: not the v2 API."""

    @classmethod
    def of(cls, error: ApiStatusError) -> NotTheApi:
        """This error in place of `error` (the same status, message, request id and URL)."""
        return cls(
            error.status, error.messages, request_id=error.request_id, body=error.body, method=error.method,
            url=error.url, reason=error.reason, from_api=False,
        )  # fmt: skip

    def user_message(self) -> str:
        """What the answer means, then the router's words."""
        return (
            f"{super().user_message()} — every BloodHound server (either edition) answers "
            "/api/v2/asset-group-tags: this is not the BloodHound v2 API"
        )


def route_missing(error: BaseException) -> bool:
    """True for the router's own plain-text `404 page not found`: the server has no such endpoint (an older or
    community server), as opposed to the API's 404 envelope for a resource it does not hold, or a proxy's page."""
    return (
        isinstance(error, NotFound)
        and not error.from_api
        and not looks_like_html(error.body)
        and "page not found" in error.body.lower()
    )


class RateLimited(ApiStatusError):
    """429: over the rate limit; `reset_at` (unix seconds) and `retry_after` (seconds) when the server said.

    `limited_for` is how many seconds the client waited out the limit before giving up (0 = it did not wait).
    """

    reset_at: float | None = None
    retry_after: float | None = None
    retry_at: float | None = None
    limited_for: float = 0.0
    past_deadline: float | None = None  # the wait asked for runs past the request's deadline (seconds): not waited
    headers: Mapping[str, str] | None = None  # the response's headers, for the client's rate limiter

    def user_message(self) -> str:
        """The status line plus what to do: how long the limit was waited out, and a hint."""
        if self.past_deadline is not None:
            asked = self.asked_wait()
            wait = f"asks to wait {asked:,.0f} s" if asked is not None and asked > 0 else "holds these requests"
            waited = f" (waited {self.limited_for:.0f} s already)" if self.limited_for > 0 else ""
            return (
                f"{super().user_message()}; the server {wait}, past the {self.past_deadline:g} s this request may "
                f"take in all{waited}: not waited: {RATE_LIMIT_HINT}"
            )
        if self.limited_for > 0:
            return f"{super().user_message()}; the server kept limiting requests for {self.limited_for:.0f} s: " + (
                RATE_LIMIT_HINT
            )
        return f"{super().user_message()}; the server is limiting requests: {RATE_LIMIT_HINT}"

    def asked_wait(self) -> float | None:
        """The wait the answer asked for, in seconds from now (X-RateLimit-Reset, else Retry-After), uncapped."""
        import time

        if self.reset_at is not None:
            return self.reset_at - time.time()
        if self.retry_after is not None:
            return self.retry_after
        return None if self.retry_at is None else self.retry_at - time.time()


class ServerError(ApiStatusError):
    """5xx: the server (or a proxy in front of it) failed."""

    def user_message(self) -> str:
        """The status line; a 502 says that a proxy could not reach the server."""
        line = super().user_message()
        return f"{line} ({PROXY_HINT})" if self.status == 502 else line


class ApiConnectionError(ApiError):
    """The request never got an HTTP answer: refused, reset, DNS, TLS."""

    def __init__(self, message: str, *, method: str = "", url: str = "") -> None:
        super().__init__(message)
        self.method = method
        self.url = url


class ServerGone(ApiConnectionError):
    """Not sent: the server is known to be gone (the embedded demo's process ended), its port may be another's."""


class ApiTimeout(ApiConnectionError):
    """The server did not answer in time."""


class DeadlineExceeded(ApiTimeout):
    """The whole exchange (answer and body) did not complete within the request's total deadline."""

    def __init__(self, message: str, *, deadline: float, method: str = "", url: str = "", tries: int = 1) -> None:
        super().__init__(message, method=method, url=url)
        self.deadline = deadline
        self.tries = tries  # requests sent within the deadline (retries included)


class ResponseCutShort(ApiConnectionError):
    """The server started an answer (status `status`) but the body stopped before its end."""

    def __init__(self, message: str, *, status: int, method: str = "", url: str = "") -> None:
        super().__init__(message, method=method, url=url)
        self.status = status


class ResponseShapeError(ApiError):
    """A success response whose body is not what the API promises."""

    def __init__(self, message: str, *, status: int = 0, excerpt: str = "", method: str = "", url: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.excerpt = excerpt
        self.method = method
        self.url = url


class ResponseTooLarge(ApiError):
    """The answer is larger than the size cap (settings.toml `max_response_mb`); it was not read (further)."""

    def __init__(self, message: str, *, limit: int, method: str = "", url: str = "") -> None:
        super().__init__(message)
        self.limit = limit
        self.method = method
        self.url = url


_BY_STATUS: Mapping[int, type[ApiStatusError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    429: RateLimited,
}


def _parse_envelope(content: bytes) -> ErrorEnvelope | None:
    if not content.lstrip().startswith(b"{"):
        return None
    try:
        return parse_json(ErrorEnvelope, content)
    except (ValidationError, ValueError):
        return None


def header_number(value: str | None) -> float | None:
    """A finite float from a header value (e.g. X-RateLimit-Reset), else None."""
    try:
        number = float(value) if value is not None else None
    except ValueError:
        return None
    return number if number is not None and math.isfinite(number) else None


def _http_date(value: str | None) -> float | None:
    try:
        return parsedate_to_datetime(value).timestamp() if value else None
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def request_id_of(headers: Mapping[str, str]) -> str | None:
    """The server's request id of an answer (the real server's `RequestID` header, else `X-Request-Id`); headers
    case-insensitive (httpx.Headers)."""
    return headers.get("RequestID") or headers.get("X-Request-Id") or None


def status_error(
    status: int,
    content: bytes,
    headers: Mapping[str, str],
    *,
    method: str = "",
    url: str = "",
    path: str = "",
    reason: str = "",
) -> ApiStatusError:
    """Build the exception for a non-success response; never fails on an odd body.

    `headers` must be case-insensitive (httpx.Headers); `path` is the URL path, used to spot the community
    edition's 404 on events and clients.
    """
    body = content[:BODY_LIMIT].decode("utf-8", "replace")
    header_request_id = request_id_of(headers)
    envelope = _parse_envelope(content)
    cls: type[ApiStatusError] = _BY_STATUS.get(status, ServerError if status >= 500 else ApiStatusError)
    if envelope is not None:
        messages = [shorten(d.message) for d in envelope.errors if d.message.strip()]
        request_id = envelope.request_id or header_request_id
    else:
        request_id = header_request_id
        is_html = looks_like_html(body, headers.get("content-type", ""))
        gist = html_text(body) if is_html else shorten(body)
        messages = [gist] if gist else []
        if status == 404 and not is_html and (_ENTERPRISE_ROUTE_RE.search(path) or _LOG_ROUTE_RE.search(path)):
            cls = EnterpriseOnly  # the router's plain text; a proxy's HTML 404 says nothing about the edition
    if status == 403 and any(NO_ACCESS_MARKER in message for message in messages):
        cls = NoEnvironmentAccess
    if 300 <= status < 400:
        location = visible(headers.get("location", ""))
        messages.append(
            f"the server redirected to {location or 'another address'}; signed requests are not redirected, "
            "so check the base URL (http or https, host, path)"
        )
    error = cls(
        status, messages, request_id=request_id, body=body, method=method, url=url, reason=reason,
        from_api=envelope is not None,
    )  # fmt: skip
    if isinstance(error, RateLimited):
        error.reset_at = header_number(headers.get("X-RateLimit-Reset"))
        error.retry_after = header_number(headers.get("Retry-After"))
        if error.retry_after is None:
            error.retry_at = _http_date(headers.get("Retry-After"))
    return error
