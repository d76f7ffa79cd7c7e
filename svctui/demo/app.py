"""The demo server's ASGI app: Starlette routes plus the real server's middleware order.

Pre-routing (every request): latency and transport faults, `Prefer` parsing (400 before anything else), request
id, HSTS and Preference-Applied headers. Routing: unknown paths get Go's plain-text `404 page not found` (so
`/api/v2/events` on the community edition answers before authentication). Post-routing: authentication (a bad
header or signature fails here, before any rate limit). Per route: rate limit (plain-text 429), permission
(`not authenticated` for a request without credentials), random 500s, then the handler in a thread under the
`Prefer: wait` timeout.
"""

from __future__ import annotations

import asyncio
import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from svctui.api.limits import DEPRECATED_TASK_ENDPOINT, REPLACEMENT_TASK_ENDPOINT
from svctui.demo import auth, db, handlers, runlogs
from svctui.demo.faults import FaultInjector, send_fault
from svctui.demo.query import Problem, go_atoi
from svctui.demo.ratelimit import RateLimiter
from svctui.demo.responses import error_response, json_response, plain_text

HSTS = "max-age=31536000; includeSubDomains; preload"
MAX_BODY_BYTES = 1024 * 1024  # a request body above this is 413, refused before or while reading it
MAX_TARGET_BYTES = 16 * 1024  # a request target (path and query) above this is 414
MSG_BODY_TOO_LARGE = "http: request body too large"  # Go's http.MaxBytesReader
Handler = Callable[[Any, handlers.Call], handlers.Result]
# Environment access control (ETAC): a user without access to every environment may not read selectors or their
# member counts (403), while DELETE and POST are not gated, as on the real server
ETAC_ROUTES = frozenset({"selectors", "selector", "selector-member-counts"})
MSG_NO_ACCESS = "user does not have access to this resource"


@dataclass
class DemoState:
    """Everything the app needs while serving."""

    db_path: Path
    edition: str
    jwt_secret: str = field(repr=False)
    limiter: RateLimiter
    injector: FaultInjector
    request_count: int = 0
    anchor: datetime | None = None  # a fixed clock (tests): the data's "now"; None: the real time
    without: frozenset[str] = frozenset()  # endpoints of OPTIONAL_ROUTES taken away (an older server's)
    restricted_user: bool = False  # ETAC: every user lacks access to some environment (ETAC_ROUTES answer 403)

    def now(self) -> datetime:
        """The server's clock: the fixed anchor when there is one, else the current UTC time."""
        return self.anchor if self.anchor is not None else datetime.now(UTC)


def parse_prefer(value: str) -> int:
    """The `wait` seconds of a Prefer header as the real server reads it; ValueError with its message."""
    values: dict[str, str] = {}
    for part in value.split(","):
        key, sep, rest = part.strip().partition("=")
        if key.strip():
            values[key.strip()] = rest.strip() if sep else ""
    if "wait" not in values:
        raise ValueError("leave field empty or specify with : 'wait=x'")
    wait = go_atoi(values["wait"])
    if wait < -1:
        raise ValueError("incorrect bypass limit value")
    return wait


def go_parse_query(raw: bytes) -> list[tuple[str, str]]:
    """url.ParseQuery: `&`-separated pairs, `+` is a space; pairs with `;` or a bad escape are dropped."""
    pairs: list[tuple[str, str]] = []
    for segment in raw.decode("latin-1").split("&"):
        if ";" in segment or not segment:
            continue
        key, _, value = segment.partition("=")
        try:
            pairs.append((_unescape(key), _unescape(value)))
        except ValueError:
            continue
    return pairs


def _unescape(text: str) -> str:
    text = text.replace("+", " ")
    index = text.find("%")
    while index != -1:
        digits = text[index + 1 : index + 3]
        if len(digits) != 2 or any(c not in "0123456789abcdefABCDEF" for c in digits):
            raise ValueError("invalid URL escape")
        index = text.find("%", index + 3)
    return unquote_to_bytes(text).decode("utf-8", "replace")


class ContextMiddleware:
    """Pre-routing middleware: faults, Prefer, request id and the headers every routed response carries."""

    def __init__(self, app: ASGIApp, state: DemoState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI connection scope."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.state.request_count += 1
        injector = self.state.injector
        if injector.faults.latency_ms and injector.applies(scope["path"]):
            await asyncio.sleep(injector.faults.latency_ms / 1000)
        if scope["path"].startswith("/api/"):
            kind = injector.transport_fault(scope["path"])
            if kind:
                await send_fault(kind, send)
                return
        prefer = Headers(scope=scope).get("prefer", "")
        wait = 0
        if prefer:
            try:
                wait = parse_prefer(prefer)
            except ValueError as exc:
                response = error_response(400, f"Prefer header has an invalid value: {exc}", "")
                await response(scope, receive, send)
                return
        request_id = str(uuid.uuid4())
        scope.setdefault("state", {}).update({"request_id": request_id, "wait": wait})
        extra = {"RequestID": request_id, "Strict-Transport-Security": HSTS}
        if wait > 0:
            extra["Preference-Applied"] = f"wait={wait:.2f}"
        elif wait == -1:
            extra["Preference-Applied"] = "wait=-1; bypass=enabled"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def request_target(scope: Scope) -> str:
    """The request target as received: raw path, and `?` plus the raw query string when there is one."""
    raw_path: bytes = scope.get("raw_path") or scope["path"].encode("utf-8")
    query: bytes = scope.get("query_string", b"")
    target = raw_path.decode("latin-1")
    return f"{target}?{query.decode('latin-1')}" if query else target


def _run(db_path: Path, handler: Handler, call: handlers.Call) -> handlers.Result:
    conn = db.connect(db_path)
    try:
        return handler(conn, call)
    finally:
        conn.close()


def _find_token(db_path: Path) -> Callable[[str], db.Token | None]:
    def find(token_id: str) -> db.Token | None:
        conn = db.connect(db_path)
        try:
            return db.find_token(conn, token_id)
        finally:
            conn.close()

    return find


def _declared_length(request: Request) -> int:
    """The Content-Length the client declared (0 when absent or unreadable: the read itself is capped too)."""
    try:
        return int(request.headers.get("content-length", "0"))
    except ValueError:
        return 0


async def _read_body(request: Request) -> bytes:
    """The request body, read in chunks and refused (413) as soon as it passes MAX_BODY_BYTES."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise Problem(413, MSG_BODY_TOO_LARGE)
        chunks.append(chunk)
    return b"".join(chunks)


def guarded(state: DemoState, route: str, handler: Handler, write: bool = False) -> Callable[[Request], Any]:
    """An endpoint running the per-route chain: rate limit, auth, permission, faults, handler under timeout."""

    async def endpoint(request: Request) -> Response:
        request_id: str = request.scope.get("state", {}).get("request_id", "")
        wait: int = request.scope.get("state", {}).get("wait", 0)
        target = request_target(request.scope)
        if len(target) > MAX_TARGET_BYTES:
            return plain_text(414, "414 URI Too Long")  # Go net/http answers this itself, in plain text
        if _declared_length(request) > MAX_BODY_BYTES:
            return error_response(413, MSG_BODY_TOO_LARGE, request_id)
        try:  # the real server authenticates in post-routing middleware, before the route's rate limiter
            # first everything but the body's digest: a request that fails there is refused with its body unread
            def headers(name: str) -> str:
                return request.headers.get(name, "")

            find_token = functools.cache(_find_token(state.db_path))  # one token lookup for both passes
            checked = auth.authenticate(headers, request.method, target, None, find_token, state.jwt_secret)
            body = b"" if checked is None else await _read_body(request)  # no credentials: 401 below, body unread
            principal = (
                None
                if checked is None
                else auth.authenticate(headers, request.method, target, body, find_token, state.jwt_secret)
            )
        except ClientDisconnect:  # the client gave up (a stale query cancelled): nobody to answer, nothing to log
            return Response(status_code=499)
        except Problem as problem:
            return error_response(problem.status, problem.message, request_id)
        except Exception:  # a database error: the real server's generic 500, never a traceback
            return error_response(500, handlers.MSG_INTERNAL, request_id)
        limit_headers: dict[str, str] = {}
        if state.limiter.enabled:
            ip = request.client.host if request.client else ""
            decision = state.limiter.hit(ip, route)
            limit_headers = decision.headers()
            if not decision.allowed:
                return plain_text(429, "Limit exceeded", limit_headers)
        try:
            if principal is None:
                raise Problem(401, "not authenticated")
            if write and principal.role != "admin":
                raise Problem(403, "not authorized")
            if state.restricted_user and route in ETAC_ROUTES:
                raise Problem(403, MSG_NO_ACCESS)
            if state.injector.server_error(request.url.path):
                raise Problem(500, handlers.MSG_INTERNAL)
            call = handlers.Call(
                dict(request.path_params), go_parse_query(request.scope.get("query_string", b"")), body, state.now()
            )
            status, payload = await _with_timeout(state, handler, call, wait, request.url.path)
        except Problem as problem:
            return error_response(problem.status, problem.message, request_id, limit_headers)
        except Exception:  # a database error: the real server's generic 500, never a traceback
            return error_response(500, handlers.MSG_INTERNAL, request_id, limit_headers)
        return json_response(status, payload, limit_headers)

    return endpoint


async def _with_timeout(
    state: DemoState, handler: Handler, call: handlers.Call, wait: int, path: str
) -> handlers.Result:
    async def work() -> handlers.Result:
        if state.injector.slow(path):
            await asyncio.sleep(state.injector.faults.slow_seconds)
        return await run_in_threadpool(_run, state.db_path, handler, call)

    if wait <= 0:
        return await work()
    try:
        return await asyncio.wait_for(work(), timeout=wait)
    except TimeoutError:
        raise Problem(500, "request timed out") from None


async def _not_found(request: Request, exc: Exception) -> Response:
    return plain_text(404, "404 page not found")


async def _method_not_allowed(request: Request, exc: Exception) -> Response:
    return Response(status_code=405)


def create_app(state: DemoState) -> ASGIApp:
    """The ASGI app for `state` (edition decides whether /api/v2/events and /api/v2/clients exist)."""
    tags = "/api/v2/asset-group-tags"
    routes = [
        *(
            Route(f"/api/v2/clients/{{client_id}}/{name}", guarded(state, name, handlers.list_tasks))
            for name in (DEPRECATED_TASK_ENDPOINT, REPLACEMENT_TASK_ENDPOINT)
            if name not in state.without
        ),
        Route(tags, guarded(state, "tags", handlers.list_tags)),
        Route(f"{tags}/{{tag_id}}/selectors", guarded(state, "selectors", handlers.list_selectors)),
        Route(
            f"{tags}/{{tag_id}}/selectors",
            guarded(state, "create-selector", handlers.create_selector, write=True),
            methods=["POST"],
        ),
        Route(
            f"{tags}/{{tag_id}}/selectors/{{selector_id}}/members/counts",
            guarded(state, "selector-member-counts", handlers.selector_member_counts),
        ),
        Route(f"{tags}/{{tag_id}}/selectors/{{selector_id}}", guarded(state, "selector", handlers.get_selector)),
        Route(
            f"{tags}/{{tag_id}}/selectors/{{selector_id}}",
            guarded(state, "delete-selector", handlers.delete_selector, write=True),
            methods=["DELETE"],
        ),
    ]
    if state.edition == "enterprise":  # on the community edition these are Go's plain-text 404 before any auth
        routes[:0] = [
            Route("/api/v2/events", guarded(state, "events", handlers.list_events)),
            Route("/api/v2/clients", guarded(state, "clients", handlers.list_clients)),
            Route("/api/v2/clients/{client_id}", guarded(state, "client", handlers.get_client)),
            Route("/api/v2/jobs/{job_id}/log", guarded(state, "job-log", runlogs.job_log)),
        ]
        if "jobs-finished" not in state.without:  # every client's finished runs (enterprise servers of 2025 on)
            routes.insert(0, Route("/api/v2/jobs/finished", guarded(state, "jobs-finished", handlers.finished_jobs)))
    app = Starlette(
        routes=routes,
        exception_handlers={404: _not_found, 405: _method_not_allowed},
    )
    app.router.redirect_slashes = False
    return ContextMiddleware(app, state)
