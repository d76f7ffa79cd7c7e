"""A command's first request, sent before the command's imports and handed to its ApiClient when it asks the same.

A read command spends ~0.2 s of CPU importing its modules, pydantic, the API models and httpx before its first
request goes out, and the server then needs its own time for the page (~0.1 s for 1,000 tasks) while the command
waits. svctui.commands.early recognises a few plain command lines and, with a profile wholly from the environment,
starts that first request here (stdlib http.client in a thread) as the process starts, so the server works on it
while the command imports. The command then runs exactly as before; its ApiClient takes this answer instead of
sending the request itself only when the request is the same one: the same base URL, path and query string, the
same token id, key and scheme, the same `Prefer` and `User-Agent` (`EarlyRequest.fits`, checked when the client
is made, and the path and query compared when the first GET is built). Anything else, and any failure of the
early request (refused, a timeout, an answer over EARLY_MAX_BYTES), and the client sends its own request as
before; the early answer is then dropped unread. The answer, taken, goes through the client's usual checks (size
cap, status, retries, validation) as if the client had received it.

Only GETs signed with a token (not a JWT) over http, or https verified as httpx verifies by default (certifi, or
SSL_CERT_FILE / SSL_CERT_DIR), are sent early, and none while a proxy variable is set (httpx would use the proxy).
The early request asks for an unencoded body (`Accept-Encoding: identity`); it is otherwise the request the
client would send.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from svctui import __version__
from svctui.api.limits import DEFAULT_PREFER_WAIT
from svctui.api.paging import AHEAD, leading_count
from svctui.api.signature import DEFAULT_SCHEME_PREFIX, compute_signature, rfc3339_now

if TYPE_CHECKING:
    import http.client
    import ssl

EARLY_MAX_BYTES = 64 * 1024 * 1024  # the client's default size cap; a larger answer is dropped, the client asks again
CONNECT_TIMEOUT = 5.0  # as the client's connect timeout
READ_MARGIN = 10.0  # as the client's read timeout: the Prefer wait plus this
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")
IDENTITY = "identity"
USER_AGENT = f"svctui/{__version__}"  # as svctui.api.client.DEFAULT_USER_AGENT
# Pages asked for early after the first (with --all): the page iterator's AHEAD and one more. At most 1 + this many
# pages are held before the command takes them (~1.3 MB a page of 1,000 tasks).
EARLY_FOLLOWERS = AHEAD + 1


@dataclass(frozen=True)
class EarlyAnswer:
    """What the server answered the early request: status, reason, headers in order, the whole body."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes


@dataclass(frozen=True)
class EarlyTarget:
    """One signed GET: where, what, and with which credentials, Prefer and User-Agent (the key is never shown)."""

    base_url: str  # scheme://host[:port][/path] without a trailing slash, as ApiClient.base_url
    path_query: str  # the API path and query string, e.g. /api/v2/events?skip=0&limit=100
    token_id: str
    token_key: str = field(repr=False)
    scheme_prefix: str
    prefer: str  # wait=N
    user_agent: str

    @property
    def raw_target(self) -> str:
        """The request target on the wire: the base URL's own path, then the API path and query."""
        return urlsplit(self.base_url).path.rstrip("/") + self.path_query


def can_send_early(base_url: str, environ: Mapping[str, str]) -> bool:
    """True when an early request to `base_url` would go where httpx would send it: http or https, no proxy set."""
    scheme = urlsplit(base_url).scheme
    proxied = any(environ.get(name) or environ.get(name.upper()) for name in PROXY_VARIABLES)
    return scheme in ("http", "https") and not proxied


@dataclass(frozen=True)
class FollowingPages:
    """For a paged read (`--all`): how the following pages' targets are made and where they start. When the first
    page's bytes say the count goes beyond it, the early request asks for up to EARLY_FOLLOWERS more pages, one
    after the other on its connection: the pages the client's page iterator (svctui.api.resources.paginate) asks
    for next, and one beyond, so the server is not idle while the command validates and writes the first pages."""

    target_at: Callable[[int], str]  # skip -> the API path and query of the page of `page_size` items from there
    skip: int
    page_size: int
    stop: int | None = None  # no page from here on (`--limit`: the command writes no more)


def profile_target(
    path_query: str, *, base_url: str, token_id: str, token_key: str, environ: Mapping[str, str]
) -> EarlyTarget | None:
    """`path_query` for a profile of these settings and otherwise the defaults (scheme prefix, Prefer wait), as
    svctui.store.model.build_profile makes it; None when it cannot be sent early (see `can_send_early`)."""
    if not can_send_early(base_url, environ):
        return None
    return EarlyTarget(
        base_url=base_url.strip().rstrip("/"),
        path_query=path_query,
        token_id=token_id,
        token_key=token_key,
        scheme_prefix=DEFAULT_SCHEME_PREFIX,
        prefer=f"wait={DEFAULT_PREFER_WAIT}",
        user_agent=USER_AGENT,
    )


def env_profile_target(path_query: str, environ: Mapping[str, str]) -> EarlyTarget | None:
    """`path_query` for the profile the environment alone makes (SVCTUI_BASE_URL, SVCTUI_TOKEN_ID and
    SVCTUI_TOKEN_KEY, read as svctui.store.envprofile reads them, with no SVCTUI_PROFILE and no SVCTUI_JWT), or None."""

    def get(name: str) -> str:
        return environ.get(name, "").strip()

    base_url, token_id, token_key = get("SVCTUI_BASE_URL"), get("SVCTUI_TOKEN_ID"), get("SVCTUI_TOKEN_KEY")
    if get("SVCTUI_PROFILE") or get("SVCTUI_JWT") or not (base_url and token_id and token_key):
        return None
    return profile_target(path_query, base_url=base_url, token_id=token_id, token_key=token_key, environ=environ)


class EarlyRequest:
    """The early GET of `target` and, with `following`, of the next pages, one after the other on one connection,
    sent by `start()` in a daemon thread; `claim(raw_target)` hands over the answer of one of them, once."""

    def __init__(
        self,
        target: EarlyTarget,
        environ: Mapping[str, str] | None = None,
        following: FollowingPages | None = None,
    ) -> None:
        self.target = target
        self.following = following
        self._environ = dict(os.environ if environ is None else environ)
        self._lock = threading.Lock()
        self.first: concurrent.futures.Future[EarlyAnswer] = concurrent.futures.Future()  # the answer to `target`
        self._answers = {target.raw_target: self.first}

    def __repr__(self) -> str:
        return f"EarlyRequest({self.target!r})"

    def start(self) -> EarlyRequest:
        """Send it in a daemon thread (a process that ends first does not wait for it)."""
        threading.Thread(target=self._run, name="svctui-early-request", daemon=True).start()
        return self

    def claim(self, raw_target: str) -> concurrent.futures.Future[EarlyAnswer] | None:
        """The answer (to come) of the request sent early for `raw_target`, once; None when there is none."""
        with self._lock:
            return self._answers.pop(raw_target, None)

    @property
    def unclaimed(self) -> list[str]:
        """The targets sent (or to be sent) early whose answers no one has claimed."""
        with self._lock:
            return list(self._answers)

    def _run(self) -> None:
        first = self.target.raw_target
        with self._lock:
            futures = {first: self._answers[first]}
        try:
            connection = self._connection()
            try:
                answer = self._get(connection, first)
                followers = self._followers(answer)
                with self._lock:
                    for raw_target in followers:  # registered before the first answer is handed over
                        futures[raw_target] = self._answers[raw_target] = concurrent.futures.Future()
                futures.pop(first).set_result(answer)
                for raw_target in followers:
                    futures.pop(raw_target).set_result(self._get(connection, raw_target))
            finally:
                connection.close()
        except Exception as exc:  # whatever it was, the client sends its own requests
            for future in futures.values():
                future.set_exception(exc)

    def _followers(self, answer: EarlyAnswer) -> list[str]:
        """The raw targets of the pages to ask for after the first, as the client's page iterator would."""
        following = self.following
        count = leading_count(answer.body) if following is not None and answer.status == 200 else None
        if following is None or count is None:
            return []
        base_path = self.target.raw_target.removesuffix(self.target.path_query)
        at = following.skip + following.page_size
        targets: list[str] = []
        end = count if following.stop is None else min(count, following.stop)
        while len(targets) < EARLY_FOLLOWERS and at < end:
            targets.append(base_path + following.target_at(at))
            at += following.page_size
        return targets

    def _connection(self) -> http.client.HTTPConnection:
        import http.client

        url = urlsplit(self.target.base_url)
        host = url.hostname or ""
        if url.scheme == "https":
            return http.client.HTTPSConnection(host, url.port, timeout=CONNECT_TIMEOUT, context=self._tls_context())
        return http.client.HTTPConnection(host, url.port, timeout=CONNECT_TIMEOUT)

    def _tls_context(self) -> ssl.SSLContext:
        """The context httpx makes for `verify=True` (its trust_env reads SSL_CERT_FILE and SSL_CERT_DIR)."""
        import ssl

        if self._environ.get("SSL_CERT_FILE"):
            return ssl.create_default_context(cafile=self._environ["SSL_CERT_FILE"])
        if self._environ.get("SSL_CERT_DIR"):
            return ssl.create_default_context(capath=self._environ["SSL_CERT_DIR"])
        import certifi

        return ssl.create_default_context(cafile=certifi.where())

    def _get(self, connection: http.client.HTTPConnection, raw_target: str) -> EarlyAnswer:
        """One signed GET of `raw_target` on `connection` (kept alive for the next), its whole answer."""
        target = self.target
        date = rfc3339_now()
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": IDENTITY,
            "Prefer": target.prefer,
            "User-Agent": target.user_agent,
            "Authorization": f"{target.scheme_prefix}signature {target.token_id}",
            "RequestDate": date,
            "Signature": compute_signature(target.token_key, "GET", raw_target, date, b""),
        }
        if connection.sock is None:
            connection.connect()
            wait = int(target.prefer.removeprefix("wait="))
            if connection.sock is not None:
                connection.sock.settimeout(None if wait < 0 else wait + READ_MARGIN)
        connection.request("GET", raw_target, headers=headers)
        response = connection.getresponse()
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read(256 * 1024):
            size += len(chunk)
            if size > EARLY_MAX_BYTES:
                raise ValueError(f"the early answer is over {EARLY_MAX_BYTES} bytes")
            chunks.append(chunk)
        return EarlyAnswer(response.status, response.reason, response.getheaders(), b"".join(chunks))

    def fits(self, *, base_url: str, prefer: str, user_agent: str, auth: object, verify: bool | str) -> bool:
        """True when a client made with these settings would send these requests exactly as they were sent."""
        from svctui.api.signing import SignatureAuth

        target = self.target
        if (base_url, prefer, user_agent) != (target.base_url, target.prefer, target.user_agent):
            return False
        if urlsplit(base_url).scheme == "https" and verify is not True:
            return False
        if not isinstance(auth, SignatureAuth):
            return False
        return auth.signs_as(target.token_id, target.token_key, target.scheme_prefix)


_lock = threading.Lock()
_pending: EarlyRequest | None = None


def start(
    target: EarlyTarget,
    environ: Mapping[str, str] | None = None,
    following: FollowingPages | None = None,
) -> EarlyRequest:
    """Send `target` (and the pages `following` it) early; the next `take()` hands it over (one per process)."""
    global _pending
    early = EarlyRequest(target, environ, following).start()
    with _lock:
        _pending = early
    return early


def take() -> EarlyRequest | None:
    """The early request started in this process, once (None when there is none or it was taken)."""
    global _pending
    with _lock:
        early, _pending = _pending, None
    return early
