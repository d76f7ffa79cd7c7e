"""A small loopback HTTP server for wire tests: records every request as received and checks its signature.

It runs the stdlib `ThreadingHTTPServer` in a thread. Each request is recorded with its raw request line (path and
query exactly as they arrived) and body; the signature is recomputed over what was RECEIVED, and a request that
does not verify gets the real server's 401. Tests can queue one-shot replies (500, 429, HTML, ...) that are served
before the default routes, which answer like the v2 API from a small in-memory data set.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import uuid
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from svctui.api.client import ApiClient
from svctui.api.filters import server_reads
from svctui.api.signing import SignatureAuth, compute_signature, signature_matches

TOKEN_ID = "6f1e2d3c-4b5a-4968-8776-655443322110"
TOKEN_KEY = "c2VjcmV0LWtleS1mb3ItdGVzdHMtb25seQ=="
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.bm90LWEtcmVhbC1zaWduYXR1cmU"
CLIENT_ID = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
SIGNATURE_PREFIX = "unable to validate request signature for client: "
_SELECTOR_PATH = re.compile(r"^/api/v2/asset-group-tags/(\d+)/selectors(?:/(\d+))?$")
_TASKS_PATH = re.compile(r"^/api/v2/clients/([^/]+)/(completed-tasks|completed-jobs)$")


@dataclass
class Recorded:
    """One request as the server received it."""

    method: str
    target: str
    request_line: str
    headers: dict[str, str]
    body: bytes
    verified: bool
    problem: str = ""
    request_id: str = ""  # the RequestID header of the answer, once sent

    @property
    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)

    @property
    def path(self) -> str:
        """The path part of the raw target."""
        return urlsplit(self.target).path

    @property
    def params(self) -> list[tuple[str, str]]:
        """The query as the server decodes it (repeated names kept in order)."""
        return parse_qsl(urlsplit(self.target).query, keep_blank_values=True)

    def param(self, name: str) -> str | None:
        """The first value of query parameter `name`."""
        return next((value for key, value in self.params if key == name), None)

    def filters_read(self) -> list[tuple[str, tuple[str, str] | None]]:
        """What the real server's filter rule reads from each non-paging parameter."""
        paging = {"skip", "limit", "sort_by", "hydrate_domains", "hydrate_ous"}
        return [(key, server_reads(value)) for key, value in self.params if key not in paging]


@dataclass
class Reply:
    """A scripted answer."""

    status: int
    body: bytes | str | dict[str, Any] = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"
    hold: threading.Event | None = None


def envelope(status: int, message: str, request_id: str, context: str = "") -> dict[str, Any]:
    """The real server's error envelope (note the empty context)."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f") + "123Z"
    return {
        "http_status": status,
        "timestamp": stamp,
        "request_id": request_id,
        "errors": [{"context": context, "message": message}],
    }


def sample_events(count: int) -> list[dict[str, Any]]:
    """Deterministic events with realistic refs."""
    return [
        {
            "id": n,
            "client_id": CLIENT_ID,
            "rrule": "DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU",
            "session_collection": n % 2 == 0,
            "ad_structure_collection": True,
            "domains": [{"objectid": f"S-1-5-21-1004-2004-{n}", "name": "CORP.EXAMPLE.COM", "exists": True}],
            "ous": [],
        }
        for n in range(1, count + 1)
    ]


def sample_tasks(count: int) -> list[dict[str, Any]]:
    """Deterministic completed tasks."""
    return [
        {
            "id": n,
            "client_id": CLIENT_ID,
            "client_name": "collector-1",
            "event_id": {"Int32": 1, "Valid": True},
            "status": 2 if n % 3 else 5,
            "execution_time": "2026-03-01T10:00:00.123456789Z",
            "end_time": "0001-01-01T00:00:00Z",
            "domain_results": [],
        }
        for n in range(1, count + 1)
    ]


def sample_selectors(tag_id: int, count: int) -> list[dict[str, Any]]:
    """Deterministic selectors of one tag."""
    return [
        {"id": n, "asset_group_tag_id": tag_id, "name": f"selector {n}", "is_default": n == 1, "seeds": []}
        for n in range(1, count + 1)
    ]


class RecordingServer:
    """Loopback v2-ish server that records and verifies every request; a context manager."""

    def __init__(self, *, events: int = 7, tasks: int = 5, selectors: int = 4, check_skew: bool = True) -> None:
        self.token_id = TOKEN_ID
        self.token_key = TOKEN_KEY
        self.check_skew = check_skew
        self.requests: list[Recorded] = []
        self.events = sample_events(events)
        self.tasks = sample_tasks(tasks)
        self.tags = [{"id": 1, "type": 1, "name": "Tier Zero", "position": 1}, {"id": 2, "type": 3, "name": "Owned"}]
        self.selectors = {1: sample_selectors(1, selectors)}
        self.next_selector_id = 1000  # ids of POSTed selectors: never one used before, as on the real server
        self.count_override: int | None = None
        self._queue: deque[Reply] = deque()
        self._holds: list[threading.Event] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.02,), name="recording-server", daemon=True
        )

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:<port>"""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        for hold in self._holds:
            hold.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def enqueue(self, *replies: Reply) -> None:
        """Serve these replies, in order, to the next requests (before the default routes)."""
        with self._lock:
            for reply in replies:
                if reply.hold is not None:
                    self._holds.append(reply.hold)
                self._queue.append(reply)

    def handle(self, recorded: Recorded) -> Reply:
        """Record, verify, then answer from the queue or the default routes."""
        with self._lock:
            self.requests.append(recorded)
            queued = self._queue.popleft() if self._queue else None
        if queued is not None:
            return queued
        if not recorded.verified:
            return Reply(401, {"problem": recorded.problem})
        return self.route(recorded)

    def verify(self, method: str, target: str, headers: dict[str, str], body: bytes) -> tuple[bool, str]:
        """Check the auth over what was received; (ok, the real server's message when not)."""
        scheme, _, credential = headers.get("authorization", "").partition(" ")
        if not scheme:
            return False, "not authenticated"
        if scheme.lower() == "bearer":
            return (True, "") if credential == JWT else (False, "authentication is invalid")
        ok, problem = self._verify_signature(scheme, credential, method, target, headers, body)
        return ok, problem if ok else SIGNATURE_PREFIX + problem

    def _verify_signature(
        self, scheme: str, token_id: str, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[bool, str]:
        if scheme.lower() != "bhesignature":
            return False, f"Unexpected authorization scheme: {scheme}."
        if token_id != self.token_id:
            return False, "resource not found"
        date = headers.get("requestdate", "")
        try:
            sent = datetime.fromisoformat(date.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            return False, f"malformed request date: {date}"
        if sent.tzinfo is None:
            return False, f"malformed request date: {date}"
        if self.check_skew and abs(datetime.now(UTC) - sent) > timedelta(hours=1):
            return False, "signature too far from the server's clock"
        expected = compute_signature(self.token_key, method, target, date, body)
        if not signature_matches(expected, headers.get("signature", "")):
            return False, "digest validation failed: signature digest mismatch"
        return True, ""

    def route(self, recorded: Recorded) -> Reply:
        """The default answers, shaped like the real server's."""
        path, method = recorded.path, recorded.method
        if method == "GET" and path == "/api/v2/events":
            return self._page(recorded, self.events, None)
        tasks = _TASKS_PATH.match(path)
        if method == "GET" and tasks:
            return self._page(recorded, self.tasks, None)
        if method == "GET" and path == "/api/v2/asset-group-tags":
            return Reply(200, {"data": {"tags": self.tags}})
        selector = _SELECTOR_PATH.match(path)
        if selector:
            tag_id, selector_id = int(selector.group(1)), selector.group(2)
            items = self.selectors.get(tag_id)
            if items is None:
                return Reply(404, {"problem": "resource not found"})
            if selector_id is None and method == "GET":
                return self._page(recorded, items, "selectors", default_limit=50)
            if selector_id is None and method == "POST":
                return self._create_selector(tag_id, items, recorded.body)
            found = next((item for item in items if str(item["id"]) == selector_id), None)
            if found is None:
                return Reply(404, {"problem": "resource not found"})
            if method == "GET":
                return Reply(200, {"data": {"selector": found}})
            if method == "DELETE":
                items.remove(found)
                return Reply(204)
        return Reply(404, "404 page not found", content_type="text/plain; charset=utf-8")

    def _create_selector(self, tag_id: int, items: list[dict[str, Any]], body: bytes) -> Reply:
        """POST a selector as the real server does: 400 without a name, 409 when a non-default selector of the tag
        has the name, else 201 `{"data": selector}` (created enabled, under a new id)."""
        sent = json.loads(body)
        if not str(sent.get("name") or "").strip():
            return Reply(400, {"problem": "name: a non-empty name is required"})
        if any(item["name"] == sent["name"] and not item["is_default"] for item in items):
            return Reply(409, {"problem": "asset group tag selector name must be unique"})
        with self._lock:
            self.next_selector_id += 1
            new_id = self.next_selector_id
        created = {
            "id": new_id,
            "asset_group_tag_id": tag_id,
            "name": sent["name"],
            "description": sent.get("description", ""),
            "auto_certify": sent.get("auto_certify", 0),
            "is_default": False,
            "allow_disable": True,
            "disabled_at": None,
            "seeds": [{"type": seed["type"], "value": seed["value"]} for seed in sent.get("seeds", [])],
        }
        items.append(created)
        return Reply(201, {"data": created})

    def _page(
        self, recorded: Recorded, items: list[dict[str, Any]], key: str | None, default_limit: int = 100
    ) -> Reply:
        skip = int(recorded.param("skip") or 0)
        limit = int(recorded.param("limit") or default_limit)
        chunk = items[skip:] if limit == -1 else items[skip : skip + limit]
        count = len(items) if self.count_override is None else self.count_override
        data: Any = {key: chunk} if key else chunk
        return Reply(200, {"count": count, "skip": skip, "limit": max(limit, 0), "data": data})

    @staticmethod
    def refused_url() -> str:
        """A loopback URL where nothing listens (connection refused)."""
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        return f"http://127.0.0.1:{port}"

    def targets(self) -> Iterator[str]:
        """The raw request targets received, in order."""
        return (recorded.target for recorded in self.requests)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""

    def _serve(self) -> None:
        owner: RecordingServer = self.server.owner  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {key.lower(): value for key, value in self.headers.items()}
        ok, problem = owner.verify(self.command, self.path, headers, body)
        recorded = Recorded(self.command, self.path, self.requestline, headers, body, ok, problem)
        reply = owner.handle(recorded)
        if reply.hold is not None:
            reply.hold.wait(timeout=30)
        request_id = recorded.request_id = str(uuid.uuid4())
        payload = reply.body
        if isinstance(payload, dict):
            if "problem" in payload:
                payload = envelope(reply.status, str(payload["problem"]), request_id)
            payload = json.dumps(payload).encode()
        elif isinstance(payload, str):
            payload = payload.encode()
        try:
            self.send_response(reply.status)
            self.send_header("RequestID", request_id)
            if reply.status != 204:
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            if reply.status != 204:
                self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = _serve
    do_DELETE = _serve
    do_POST = _serve
    do_PUT = _serve


class SleepRecorder:
    """An injectable `sleep` that records the delays and returns at once."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


def client_for(server: RecordingServer, **kwargs: Any) -> ApiClient:
    """An ApiClient signing with the server's token; retries sleep through a SleepRecorder unless told otherwise."""
    kwargs.setdefault("sleep", SleepRecorder())
    return ApiClient(server.base_url, SignatureAuth(server.token_id, server.token_key), **kwargs)
