"""The async API client: typed list/get/delete calls, pagination iterators, retries, and readable errors.

One `httpx.AsyncClient` per profile, `follow_redirects=False` (a signed request must not be redirected),
`Prefer: wait=N` on every request. GET and DELETE are retried on connection errors, timeouts, 408 and 5xx, and a
GET also on an answer cut short or not in the API's shape; every retry is a new send, so the auth flow signs it
afresh. Request starts are paced per route by the client's one shared RateLimiter (svctui.api.limiter: a quiet route
may start a burst), and a 429 is waited out through it for up to `rate_limit_budget` seconds of waiting in all (not
a count of tries); `max_retries=0` turns every retry off.

Deadlines: with `Prefer: wait=N` the whole exchange (send, answer, body) must finish within N + `deadline_margin`
seconds (DeadlineExceeded). With wait=-1 (no server-side limit) the answer may take as long as the server likes,
but once it starts the body must finish within UNLIMITED_WAIT_BODY_DEADLINE seconds, and never stall for more
than IDLE_TIMEOUT seconds between bytes. Bodies over `max_response_bytes` are refused (ResponseTooLarge).

A body of THREAD_PARSE_BYTES or more (a page of hundreds of records: tens to hundreds of ms of validation) is
parsed in a worker thread, so the event loop that awaits it (the dashboard's) keeps drawing meanwhile. The first
`get` of a model builds its validator in a worker thread while the request is on its way, not after the answer.

Many such bodies at once (the Clients screen's 50 answers) are another matter: pydantic validates a page without letting
go of the GIL for long, and a few threads validating together keep the loop waiting for it. With PARSE_IN_TURN set (an
asyncio.Lock), a large page's items are validated on the event loop instead, one body at a time (holding the lock):
whole under WHOLE_IN_TURN_BYTES, else SLICE_ITEMS items at a time, the loop free between slices; the page is the same
(`parse_in_turn`), and a body that does not fit is parsed whole, as always, for the error to name the right place.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import random
import re
import ssl
import time
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast, get_origin

import httpx
from pydantic import ValidationError

from svctui import __version__
from svctui.api.body import (
    DEFAULT_MAX_RESPONSE_BYTES,
    IDLE_TIMEOUT,
    deadline_error,
    read_body,
    release_stream,
    too_large,
)
from svctui.api.errors import (
    ApiConnectionError,
    ApiError,
    ApiStatusError,
    ApiTimeout,
    DeadlineExceeded,
    EnterpriseOnly,
    NotFound,
    NotTheApi,
    RateLimited,
    ResponseCutShort,
    ResponseShapeError,
    ServerGone,
    looks_like_html,
    shorten,
    status_error,
)
from svctui.api.limiter import HeldTooLong, RateLimiter, route_key
from svctui.api.limits import (
    DEFAULT_PREFER_WAIT,
    PREFER_WAIT_RULE,
    REPLACEMENT_TASK_ENDPOINT,
    TaskEndpoint,
    prefer_wait_allowed,
)
from svctui.api.models import DataEnvelope, Page, adapter, adapter_built, parse_json
from svctui.api.resources import (
    BODY_ARRIVED,
    ClientsResource,
    EventsResource,
    JobsResource,
    SelectorsResource,
    TagsResource,
    TasksResource,
    forget,
)

PREFER_RE = re.compile(r"^wait=(-1|[0-9]+)$")
RETRY_STATUSES = frozenset({408, 429})
RETRY_METHODS = frozenset({"GET", "DELETE"})
MAX_BACKOFF = 8.0
MAX_RATE_LIMIT_WAIT = 60.0
MAX_HOLD = 300.0  # a 429 asking a wait past the deadline holds its route this long at most (not waited: refused)
DEFAULT_USER_AGENT = f"svctui/{__version__}"
DEADLINE_MARGIN = 30.0  # seconds beyond the Prefer wait for the whole exchange, body included
UNLIMITED_WAIT_BODY_DEADLINE = 300.0  # wait=-1: the body, once the answer started, within 5 minutes


THREAD_PARSE_BYTES = 64 * 1024  # from this body size on, `get` validates in a thread (a thread hop is ~0.1 ms)
SLICE_ITEMS = 25  # a page's items validated per slice with PARSE_IN_TURN (~1-2 ms of the loop for 25 tasks)
# In turns, a body under this is validated whole, straight from its bytes (a client's 200 recent runs, ~250 KiB, are
# one short step), cheaper than decoding it first and validating it in slices
WHOLE_IN_TURN_BYTES = 512 * 1024
# Set (for a task and the ones it starts), `get` validates a large page on the event loop in turns: see the docstring.
PARSE_IN_TURN: contextvars.ContextVar[asyncio.Lock | None] = contextvars.ContextVar(
    "svctui_parse_in_turn", default=None
)

Sleep = Callable[[float], Awaitable[None]]
M = TypeVar("M")
R = TypeVar("R")


@dataclass(frozen=True)
class ServerInfo:
    """What `probe()` learned: the edition (events exist only on enterprise)."""

    edition: Literal["enterprise", "community"]


@dataclass
class Budget:
    """The time one logical request may take, retries and 429 waits included: `deadline_at` (loop time; None with
    Prefer wait=-1), and with wait=-1 `body_until`, set when a first answer starts; `tries` sent so far."""

    deadline_at: float | None
    body_until: float | None = None
    tries: int = 0

    @classmethod
    def start(cls, seconds: float | None) -> Budget:
        """A budget of `seconds` from now (None: no deadline)."""
        return cls(None if seconds is None else asyncio.get_running_loop().time() + seconds)

    def left(self) -> float | None:
        """Seconds until the deadline (None: no deadline)."""
        return None if self.deadline_at is None else self.deadline_at - asyncio.get_running_loop().time()

    def left_for_a_try(self) -> float | None:
        """Seconds another try may still take: to the deadline, or with wait=-1 to the body limit every try shares
        once an answer started (None: no limit yet)."""
        until = self.deadline_at if self.deadline_at is not None else self.body_until
        return None if until is None else until - asyncio.get_running_loop().time()


def may_have_been_done(error: ApiError) -> bool:
    """Whether the server may have done a request that failed with `error`: not when it refused it (a 4xx, 429
    included) or it never left (no connection made); yes when it was sent and not answered, answered cut short,
    answered with a body that is not the API's, or with a 5xx."""
    if isinstance(error, ApiStatusError):
        return error.status >= 500
    never_left = isinstance(error.__cause__, httpx.ConnectError | httpx.ConnectTimeout)
    return not (isinstance(error, ApiConnectionError) and never_left)


def prefer_header(wait: int | str) -> str:
    """The `Prefer` value for `wait` (seconds, -1 = no limit, or the text `wait=N`); ValueError when malformed."""
    text = wait.strip() if isinstance(wait, str) else str(wait)
    value = text if text.startswith("wait=") else f"wait={text}"
    match = PREFER_RE.fullmatch(value)
    if isinstance(wait, bool) or not match or not prefer_wait_allowed(int(match.group(1))):
        raise ValueError(
            f"Prefer wait must be {PREFER_WAIT_RULE} (sent as wait=N, matching ^wait=(-1|[0-9]+)$); got {wait!r}"
        )
    return value


def backoff_delay(attempt: int, jitter: float) -> float:
    """`min(0.5 * 2**n, 8) * (1 - 0.25 * jitter)` for retry number `attempt` (0-based), jitter in [0, 1)."""
    base: float = min(0.5 * 2.0 ** min(attempt, 16), MAX_BACKOFF)
    return base * (1 - 0.25 * jitter)


class ApiClient:
    """Async client of the v2 API; use as `async with ApiClient(...) as client:`."""

    def __init__(
        self,
        base_url: str,
        auth: httpx.Auth | None,
        *,
        prefer_wait: int = DEFAULT_PREFER_WAIT,
        verify: bool | str = True,
        max_retries: int = 2,
        transport: httpx.AsyncBaseTransport | None = None,
        user_agent: str = DEFAULT_USER_AGENT,
        timeout: httpx.Timeout | None = None,
        sleep: Sleep | None = None,
        clock: Callable[[], float] = time.time,
        jitter: Callable[[], float] = random.random,
        on_deprecation: Callable[[str], None] | None = None,
        on_learn: Callable[[str, object], None] | None = None,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        deadline_margin: float = DEADLINE_MARGIN,
        rate_limit_budget: float = MAX_RATE_LIMIT_WAIT,
    ) -> None:
        url = httpx.URL(base_url.strip())
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError(f"base URL must look like https://host[:port]; got {self._safe_url(url)!r}")
        if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
            raise ValueError(f"max_retries must be a whole number >= 0; got {max_retries!r}")
        self.prefer = prefer_header(prefer_wait)
        wait = int(self.prefer.removeprefix("wait="))
        self.base_url = self._safe_url(url).rstrip("/")
        self.max_retries = max_retries
        self.deprecation_notices: list[str] = []
        self._auth = auth
        self._sleep: Sleep = sleep or asyncio.sleep
        self._clock = clock
        self._jitter = jitter
        self._on_deprecation = on_deprecation
        self._on_learn = on_learn
        # What this server has, learnt from its answers (or told by the caller, from an earlier session): the task
        # endpoint used when a query names none, and whether `GET /api/v2/jobs/finished` exists (None: not asked yet).
        self.task_endpoint: TaskEndpoint = REPLACEMENT_TASK_ENDPOINT
        self.jobs_finished: bool | None = None
        self.requests_sent = 0  # every request put on the wire, retries included (counted by an httpx event hook)
        self.retrying = True  # False after stop_retrying(): a failed try is final, a 429 is not waited out
        self.gone = ""  # why nothing is sent any more (refuse())
        if isinstance(max_response_bytes, bool) or not isinstance(max_response_bytes, int) or max_response_bytes < 1:
            raise ValueError(f"max_response_bytes must be a whole number >= 1; got {max_response_bytes!r}")
        self.max_response_bytes = max_response_bytes
        self.deadline: float | None = None if wait < 0 else wait + deadline_margin
        self.rate_limit_budget = rate_limit_budget
        self._naps: set[asyncio.Future[None]] = set()
        self.limiter = RateLimiter(sleep=self._nap, wall_clock=clock)
        self._http = httpx.AsyncClient(
            base_url=str(url).rstrip("/"),
            auth=auth,
            headers={"Prefer": self.prefer, "User-Agent": user_agent, "Accept": "application/json"},
            timeout=timeout or httpx.Timeout(10.0, connect=5.0, read=None if wait < 0 else wait + 10.0),
            verify=_tls_verify(verify) if url.scheme == "https" or isinstance(verify, str) else _plain_http_context(),
            follow_redirects=False,
            transport=transport,
            event_hooks={"request": [self._count_request]},
        )
        self.events = EventsResource(self)
        self.tasks = TasksResource(self)
        self.clients = ClientsResource(self)
        self.jobs = JobsResource(self)
        self.tags = TagsResource(self)
        self.selectors = SelectorsResource(self)

    @staticmethod
    def _safe_url(url: httpx.URL) -> str:
        """The URL without user info (which could hold a password)."""
        return str(url.copy_with(username=None, password=None)) if url.userinfo else str(url)

    def __repr__(self) -> str:
        auth = type(self._auth).__name__ if self._auth is not None else None
        return f"ApiClient(base_url={self.base_url!r}, auth={auth}, prefer={self.prefer!r})"

    @property
    def account(self) -> str:
        """Who this client speaks as, without a secret: the signing token's id ("bearer" for a JWT, "" for none)."""
        token_id = getattr(self._auth, "token_id", None)
        if isinstance(token_id, str):
            return token_id
        return "bearer" if self._auth is not None else ""

    async def __aenter__(self) -> ApiClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def _count_request(self, _request: httpx.Request) -> None:
        self.requests_sent += 1

    def stop_retrying(self) -> None:
        """From now on no request is tried again and no 429 waited out (a cancelled run: nothing more is sent); the
        waits under way end now."""
        self.retrying = False
        for nap in list(self._naps):
            nap.cancel()

    def refuse(self, reason: str) -> None:
        """From now on nothing is sent: every request fails at once with ServerGone(`reason`) (the server is gone and
        whatever takes its port next is not it)."""
        self.gone = reason
        self.stop_retrying()

    async def _nap(self, seconds: float) -> None:
        """Sleep `seconds` (a backoff, a 429's wait, pacing), or less: until stop_retrying()."""
        if not self.retrying:
            return
        nap = asyncio.ensure_future(self._sleep(seconds))
        self._naps.add(nap)
        try:
            await nap
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self.retrying or (task is not None and task.cancelling()):
                raise  # the caller itself is cancelled (a second Ctrl-C, a worker replaced)
        finally:
            self._naps.discard(nap)

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def verify(self) -> ServerInfo:
        """Prove the credentials, then tell the edition: `GET /api/v2/asset-group-tags` first, which both editions
        authenticate (a community server answers `/api/v2/events` with the router's 404 before it checks anything),
        then `probe()`. NotTheApi when neither answers but with the router's plain `404 page not found`."""
        try:
            await self.get(DataEnvelope, "/api/v2/asset-group-tags")  # the envelope only: odd tags pass
        except NotFound as exc:
            if exc.from_api or looks_like_html(exc.body):
                raise
            info = await self.probe()  # a server without the tag list: the events list authenticates on enterprise
            if info.edition == "community":
                raise NotTheApi.of(exc) from None
            return info
        return await self.probe()

    async def probe(self) -> ServerInfo:
        """One cheap `GET /api/v2/events?limit=1`: enterprise if it answers, community on the plain-text 404."""
        try:
            # the envelope only: odd event fields must not fail a probe
            await self.get(Page[dict[str, Any]], "/api/v2/events", [("limit", "1")])
        except EnterpriseOnly:
            return ServerInfo(edition="community")
        return ServerInfo(edition="enterprise")

    def deprecated(self, notice: str) -> None:
        """Record a deprecation notice once per client: callback if given, else `warnings.warn`."""
        if notice in self.deprecation_notices:
            return
        self.deprecation_notices.append(notice)
        if self._on_deprecation is not None:
            self._on_deprecation(notice)
        else:
            warnings.warn(notice, DeprecationWarning, stacklevel=4)

    def learned(self, name: str, value: object) -> None:
        """Keep a fact learnt about the server (`task_endpoint`) and pass it to `on_learn` (the caller may remember
        it for the next session)."""
        if getattr(self, name) == value:
            return
        setattr(self, name, value)
        if self._on_learn is not None:
            self._on_learn(name, value)

    async def request(
        self, method: str, path: str, params: Sequence[tuple[str, str]] = (), json_body: bytes | None = None
    ) -> httpx.Response:
        """Send with retries (a POST only after a 429); a 2xx response (body read), or the last attempt's ApiError."""

        async def as_is(response: httpx.Response) -> httpx.Response:
            return response

        return await self._with_retries(method, path, params, as_is, json_body)

    async def _with_retries(
        self,
        method: str,
        path: str,
        params: Sequence[tuple[str, str]],
        finish: Callable[[httpx.Response], Awaitable[R]],
        json_body: bytes | None = None,
        keep_open: bool = False,
    ) -> R:
        """Send, then `finish` the 2xx response; retry what may pass, wait out 429s within the time budget.
        With `keep_open` a 2xx answer's body is left unread for `finish` (see `stream_get`)."""
        if self.gone:
            raise ServerGone(self.gone, method=method, url=f"{self.base_url}{path}")
        attempt = 0
        limited_for = 0.0
        route = route_key(method, path)
        maybe_done = False  # an earlier attempt of a request that changes something may have been done
        budget = Budget.start(self.deadline)
        last: ApiError | None = None
        while True:
            try:
                await self.limiter.acquire(route, budget.deadline_at)
            except HeldTooLong as held:
                raise self._held(method, path, held.seconds, budget, limited_for) from None
            if last is not None and not self.retrying:
                self.limiter.release(route)
                raise last  # stopped while waiting to try again: not sent again
            try:
                budget.tries += 1
                outcome = await self._attempt(method, path, params, json_body, route, budget, keep_open)
            finally:
                self.limiter.release(route)
            try:
                if isinstance(outcome, httpx.Response):
                    return await finish(outcome)
                raise outcome
            except ApiError as error:
                last = error
                error.after_lost_answer = maybe_done
                maybe_done = maybe_done or (method != "GET" and may_have_been_done(error))
                if not self.retrying:
                    raise
                if isinstance(error, RateLimited) and self._retryable(method, error) and self.max_retries > 0:
                    wait = self.limiter.limited(error, route)
                    left = budget.left()
                    if limited_for + wait > self.rate_limit_budget or (left is not None and wait >= left):
                        error.limited_for = limited_for
                        if left is not None and wait >= left:
                            error.past_deadline = self.deadline
                            # the route's other requests fail at once too, instead of waiting to be refused
                            self.limiter.hold(route, min(error.asked_wait() or wait, MAX_HOLD))
                        raise
                    limited_for += wait
                    continue  # acquire() waits out the block, spread with every other waiting request
                if (
                    not self._retryable(method, error)
                    or attempt >= self.max_retries
                    or isinstance(error, DeadlineExceeded)
                ):
                    raise  # past the deadline (or, with wait=-1, the body limit every try shares): no time for more
                delay = backoff_delay(attempt, self._jitter())
                left = budget.left_for_a_try()
                if left is not None and delay >= left:
                    raise  # no time for another try within the request's deadline (or, wait=-1, its body limit)
            await self._nap(delay)
            attempt += 1

    def _held(self, method: str, path: str, seconds: float, budget: Budget, limited_for: float) -> RateLimited:
        """The error of a request not sent: its route is held by a 429 past the request's deadline."""
        url = f"{self.base_url}{path}"
        error = RateLimited(
            429,
            [f"not sent: the server's rate limit holds these requests for another {seconds:.0f} s"],
            method=method,
            url=url,
        )
        error.limited_for = limited_for
        error.past_deadline = self.deadline
        return error

    async def _attempt(
        self,
        method: str,
        path: str,
        params: Sequence[tuple[str, str]],
        json_body: bytes | None = None,
        route: str = "",
        budget: Budget | None = None,
        keep_open: bool = False,
    ) -> httpx.Response | ApiError:
        target = f"{self.base_url}{path}"
        response: httpx.Response | None = None
        budget = budget or Budget.start(self.deadline)
        try:
            async with asyncio.timeout_at(budget.deadline_at or budget.body_until) as deadline:
                headers = {"Content-Type": "application/json"} if json_body is not None else None
                built = self._http.build_request(method, path, params=list(params), content=json_body, headers=headers)
                response = await self._http.send(built, stream=True)
                if keep_open and response.is_success:
                    self.limiter.observe(response.headers, route)
                    return response  # the caller reads the body as it streams, and closes it
                if budget.deadline_at is None:  # wait=-1: the body (of every try from now on) has its own limit
                    if budget.body_until is None:
                        budget.body_until = asyncio.get_running_loop().time() + UNLIMITED_WAIT_BODY_DEADLINE
                    deadline.reschedule(budget.body_until)
                try:
                    idle = IDLE_TIMEOUT if self.deadline is None else None  # else httpx's read timeout is the idle cap
                    await read_body(response, limit=self.max_response_bytes, idle=idle, method=method, url=target)
                finally:
                    await response.aclose()
                    release_stream(response)  # the body is freed with the response, not by a full collection
        except TimeoutError as exc:
            status = None if response is None else response.status_code
            late = deadline_error(
                method, target, self.deadline, self.prefer, status, UNLIMITED_WAIT_BODY_DEADLINE, budget.tries
            )
            late.__cause__ = exc
            return late
        except httpx.TimeoutException as exc:
            timeout = ApiTimeout(
                f"{method} {target}: no answer in time ({type(exc).__name__})", method=method, url=target
            )
            timeout.__cause__ = exc
            return timeout
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            if response is not None:
                cut = ResponseCutShort(
                    f"{method} {target}: the server's answer (HTTP {response.status_code}) was cut short "
                    f"({_reason(exc)})",
                    status=response.status_code,
                    method=method,
                    url=target,
                )
                cut.__cause__ = exc
                return cut
            failure = ApiConnectionError(f"cannot reach {self.base_url}: {_reason(exc)}", method=method, url=target)
            failure.__cause__ = exc
            return failure
        except httpx.DecodingError as exc:
            raise ResponseShapeError(
                f"{method} {target}: the response body could not be decoded ({_reason(exc)})", method=method, url=target
            ) from exc
        except httpx.RequestError as exc:
            raise ApiConnectionError(
                f"cannot send {method} {target}: {_reason(exc)}", method=method, url=target
            ) from exc
        if response.status_code != 429:  # a 429's own Reset is read by limiter.limited(), against the local clock
            self.limiter.observe(response.headers, route)
        if response.is_success:
            return response
        url = self._safe_url(response.request.url)
        error = status_error(
            response.status_code,
            response.content,
            response.headers,
            method=method,
            url=url,
            path=response.request.url.path,
            reason=response.reason_phrase,
        )
        if isinstance(error, RateLimited):
            error.headers = response.headers
        return error

    @staticmethod
    def _retryable(method: str, error: ApiError) -> bool:
        if isinstance(error, RateLimited):
            return True  # refused before anything was done: safe to send again, whatever the method
        if method not in RETRY_METHODS:
            return False
        if isinstance(error, ResponseCutShort):
            return method == "GET"  # a DELETE that was answered is not sent again
        if isinstance(error, ApiConnectionError):
            return "CERTIFICATE_VERIFY_FAILED" not in str(error)
        if isinstance(error, ResponseShapeError):
            return method == "GET"
        if isinstance(error, ApiStatusError):
            return error.status in RETRY_STATUSES or error.status >= 500
        return False

    def parse(self, model: type[M], response: httpx.Response) -> M:
        """Validate a success body into `model`; ResponseShapeError with a short excerpt when it does not fit."""
        try:
            return parse_json(model, response.content)
        except (ValidationError, ValueError) as exc:
            method, url = response.request.method, self._safe_url(response.request.url)
            excerpt = shorten(response.content[:400].decode("utf-8", "replace"), 120)
            detail = _shape_detail(exc)
            raise ResponseShapeError(
                f"unexpected response to {method} {response.request.url.path} (HTTP {response.status_code}): "
                f"{detail}; body starts: {excerpt or '(empty)'}",
                status=response.status_code,
                excerpt=excerpt,
                method=method,
                url=url,
            ) from None

    async def parse_in_turn(self, model: type[M], response: httpx.Response) -> M:
        """`parse` for a page model (a `data` list of items) a slice at a time: the body decoded, the envelope
        validated without its items, then SLICE_ITEMS items per slice, the event loop free between slices (the same
        page as `parse`). A body that does not fit anywhere is parsed whole by `parse`, which words the error; so is
        one under WHOLE_IN_TURN_BYTES (a step of a few ms). Each body starts a loop turn of its own: bodies that came
        in together are validated one a turn, not all in the turn they arrived in."""
        await asyncio.sleep(0)
        if len(response.content) < WHOLE_IN_TURN_BYTES:
            return self.parse(model, response)
        items_type = page_items(model)
        try:
            raw = json.loads(response.content)
        except ValueError:
            return self.parse(model, response)
        items = raw.get("data") if isinstance(raw, dict) else None
        if items_type is None or not isinstance(items, list):
            return self.parse(model, response)
        await asyncio.sleep(0)
        try:
            page = adapter(model).validate_python({**raw, "data": []})
            validated: list[Any] = []
            for start in range(0, len(items), SLICE_ITEMS):
                validated.extend(adapter(items_type).validate_python(items[start : start + SLICE_ITEMS]))
                await asyncio.sleep(0)
        except ValidationError:
            return self.parse(model, response)
        page.data = validated  # the envelope's own field, set as validation would have set it
        return cast(M, page)

    async def stream_get(
        self, path: str, params: Sequence[tuple[str, str]] = (), *, max_bytes: int | None = None
    ) -> AsyncIterator[bytes]:
        """GET `path` and yield its 2xx body as it arrives, nothing of it held here (retried as `get` is until the
        answer starts). A connection lost mid-body is ResponseCutShort, a body past `max_bytes` ResponseTooLarge
        (after the bytes up to it, even when its Content-Length announced more), a gap of IDLE_TIMEOUT seconds
        between two pieces ApiTimeout."""

        async def as_is(response: httpx.Response) -> httpx.Response:
            return response

        response = await self._with_retries("GET", path, params, as_is, keep_open=True)
        target = self._safe_url(response.request.url)
        size = 0  # a Content-Length over max_bytes is not refused: the caller can use the part before the cap
        try:
            stream = response.aiter_bytes()
            while True:
                try:
                    chunk = await asyncio.wait_for(anext(stream), IDLE_TIMEOUT)
                except StopAsyncIteration:
                    break
                size += len(chunk)
                if max_bytes is not None and size > max_bytes:
                    yield chunk[: len(chunk) - (size - max_bytes)]
                    raise too_large(max_bytes, "GET", target, "grew past the limit")
                yield chunk
        except TimeoutError:
            raise ApiTimeout(
                f"GET {target}: the answer stalled for {IDLE_TIMEOUT:g} s", method="GET", url=target
            ) from None
        except httpx.TimeoutException as exc:
            raise ApiTimeout(
                f"GET {target}: the answer stalled ({type(exc).__name__})", method="GET", url=target
            ) from exc
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            raise ResponseCutShort(
                f"GET {target}: the server's answer (HTTP {response.status_code}) was cut short after {size:,} "
                f"bytes ({_reason(exc)})",
                status=response.status_code,
                method="GET",
                url=target,
            ) from exc
        finally:
            await response.aclose()
            release_stream(response)

    async def get(self, model: type[M], path: str, params: Sequence[tuple[str, str]] = ()) -> M:
        """GET `path` and parse the body into `model`; an answer not in that shape is retried like a 5xx."""

        turn = PARSE_IN_TURN.get()
        built = adapter_built(model) and (turn is None or page_items_built(model))
        warming = None if built else asyncio.ensure_future(asyncio.to_thread(build_parsers, model, turn is not None))

        async def finish(response: httpx.Response) -> M:
            arrived = BODY_ARRIVED.get()
            if arrived is not None:
                arrived(response.content)
            if warming is not None:
                await asyncio.shield(warming)
            if len(response.content) >= THREAD_PARSE_BYTES:
                if turn is not None and page_items(model) is not None:
                    async with turn:  # one body at a time, in slices, on the loop
                        return await self.parse_in_turn(model, response)
                return await asyncio.to_thread(self.parse, model, response)  # off the loop: validation is pure CPU
            return self.parse(model, response)

        try:
            return await self._with_retries("GET", path, params, finish)
        finally:
            if warming is not None:
                warming.add_done_callback(forget)  # the request may have failed before it was awaited


def page_items(model: Any) -> Any:
    """The `list[Item]` type of a page model's `data` field (e.g. `Page[CompletedTask]`), else None."""
    fields = getattr(model, "model_fields", None)
    data = fields.get("data") if isinstance(fields, dict) else None
    annotation = getattr(data, "annotation", None)
    return annotation if get_origin(annotation) is list else None


def page_items_built(model: Any) -> bool:
    """True once the validator of `model`'s items (`page_items`) is built, or when it has none."""
    items = page_items(model)
    return items is None or adapter_built(items)


def build_parsers(model: Any, items: bool = False) -> None:
    """Build `model`'s validator and, with `items`, its page items' (for `parse_in_turn`): once per process."""
    adapter(model)
    if items and (items_type := page_items(model)) is not None:
        adapter(items_type)


@functools.cache
def _plain_http_context() -> ssl.SSLContext:
    """For an http:// base URL: a context that trusts no CA, so building the client does not load the CA bundle
    (~50-100 ms on the first frame's path). It is never used: redirects are not followed, and any TLS handshake
    with it would fail verification, never pass."""
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _tls_verify(verify: bool | str) -> bool | ssl.SSLContext:
    """True/False, or an SSL context trusting the CA bundle at the path `verify`."""
    if not isinstance(verify, str):
        return verify
    try:
        return ssl.create_default_context(cafile=verify)
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"cannot use {verify!r} as a CA bundle: {exc}") from None


def _reason(exc: Exception) -> str:
    text = str(exc).strip()
    if "CERTIFICATE_VERIFY_FAILED" in text:
        return f"TLS certificate verification failed ({shorten(text, 160)}); set verify to a CA bundle path"
    return shorten(text, 160) or type(exc).__name__


def _shape_detail(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        parts = []
        for item in exc.errors()[:3]:
            where = ".".join(str(part) for part in item["loc"]) or "body"
            parts.append(f"{where}: {item['msg']}")
        more = f" (+{exc.error_count() - 3} more)" if exc.error_count() > 3 else ""
        return "; ".join(parts) + more
    return shorten(str(exc), 160)
