"""A fault proxy: a real loopback HTTP proxy in front of a server (the demo server), misbehaving by rule.

Each request is matched against the rules in order (`method`, a `path` substring, `times` left); the first that
matches decides what happens, and a request no rule matches is forwarded as it is. Kinds:

- `pass`: forward and relay the answer unchanged (a rule that only counts).
- `garbage`: answer 200 with `body` (not JSON by default) without forwarding; with `forward=True` the server acts
  first and its answer is replaced (the server deleted it, the client reads garbage).
- `drop`: forward, let the server act and answer, then close the client's connection with no answer at all.
- `drip`: forward, then relay the answer `chunk` bytes every `interval` seconds (a slow or stuck link).
- `escape`: forward, then add `escape` (an OSC title, a screen clear) to every JSON string value at `keys`.
- `html_title`: answer `status` (502) with an HTML error page whose `<title>` holds `escape`, without forwarding.
- `status429`: answer 429 without forwarding, with `headers` (huge, negative or non-numeric Retry-After and
  X-RateLimit-Reset) and a plain-text `Limit exceeded` body, or the API's JSON envelope with `json_body=True`.

Requests are read whole (head and Content-Length body) and forwarded with http.client over a new connection; the
proxy answers `Connection: close`, so each of its answers is one connection. Signed requests pass unchanged: the
signature covers method, target, date and body, not the host. `seen` lists `(method, target, rule kind)` of every
request; `forwarded` counts what reached the server. Every drip ends within MAX_SECONDS, so a test of old code
fails instead of hanging.
"""

from __future__ import annotations

import http.client
import json
import socket
import socketserver
import struct
import threading
import time
import uuid
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

MAX_SECONDS = 30.0  # the longest a dripped answer lasts
TITLE_ESCAPE = "\x1b]0;pwned\x07\x1b[2J"
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "proxy-connection"}


@dataclass
class Rule:
    """One fault: `kind` (see the module docstring) for requests matching `method` and `path` (None: any), for the
    next `times` of them (None: every one)."""

    kind: str
    method: str | None = None
    path: str | None = None
    times: int | None = None
    status: int = 200
    body: bytes = b"<<garbage, not the API's answer>>"
    headers: dict[str, str] = field(default_factory=dict)
    forward: bool = False
    interval: float = 1.0
    chunk: int = 1
    escape: str = TITLE_ESCAPE
    keys: tuple[str, ...] = ("name", "description")
    json_body: bool = False

    def matches(self, method: str, target: str) -> bool:
        """Whether this rule takes the request (and has uses left)."""
        if self.times is not None and self.times <= 0:
            return False
        if self.method is not None and self.method != method:
            return False
        return self.path is None or self.path in urlsplit(target).path


@dataclass
class Answer:
    """An answer to relay: status, headers (without hop-by-hop ones), body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def head(self) -> bytes:
        """Status line and headers, with Content-Length and `Connection: close`."""
        phrase = HTTPStatus(self.status).phrase if self.status in HTTPStatus._value2member_map_ else "Odd"
        lines = [f"HTTP/1.1 {self.status} {phrase}"]
        lines += [f"{name}: {value}" for name, value in self.headers if name.lower() not in HOP_HEADERS]
        lines += [f"Content-Length: {len(self.body)}", "Connection: close"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def escaped(value: Any, keys: tuple[str, ...], escape: str) -> Any:
    """`value` (parsed JSON) with `escape` added to every string under one of `keys`, at any depth."""
    if isinstance(value, dict):
        return {
            key: (item + escape if key in keys and isinstance(item, str) else escaped(item, keys, escape))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [escaped(item, keys, escape) for item in value]
    return value


def too_many_requests(rule: Rule) -> Answer:
    """The 429 of a `status429` rule: plain text like the real server's, or the API's envelope."""
    request_id = str(uuid.uuid4())
    headers = [("RequestID", request_id), *rule.headers.items()]
    if rule.json_body:
        envelope = {
            "http_status": 429,
            "timestamp": "2026-03-01T09:00:00.000000000Z",
            "request_id": request_id,
            "errors": [{"context": "", "message": "Limit exceeded"}],
        }
        return Answer(429, [("Content-Type", "application/json"), *headers], json.dumps(envelope).encode())
    return Answer(429, [("Content-Type", "text/plain; charset=utf-8"), *headers], b"Limit exceeded")


class FaultProxy:
    """The proxy in a thread, in front of `upstream` (a base URL); a context manager. Add rules with `add`."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.upstream_host = parts.hostname or "127.0.0.1"
        self.upstream_port = parts.port or 80
        self.rules: list[Rule] = []
        self.seen: list[tuple[str, str, str]] = []
        self.forwarded = 0
        self._lock = threading.Lock()
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Handler, bind_and_activate=True)
        self._server.daemon_threads = True
        self._server.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:<port> of the proxy."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> FaultProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def add(self, *rules: Rule) -> FaultProxy:
        """Append rules (matched in order, before forwarding as is)."""
        with self._lock:
            self.rules.extend(rules)
        return self

    def kinds_seen(self, kind: str) -> int:
        """How many requests the rules of `kind` took."""
        with self._lock:
            return sum(1 for seen in self.seen if seen[2] == kind)

    def pick(self, method: str, target: str) -> Rule | None:
        """The rule for this request (its use counted), or None to forward it as is."""
        with self._lock:
            rule = next((rule for rule in self.rules if rule.matches(method, target)), None)
            if rule is not None and rule.times is not None:
                rule.times -= 1
            self.seen.append((method, target, rule.kind if rule is not None else "forward"))
            return rule

    def forward(self, method: str, target: str, headers: list[tuple[str, str]], body: bytes) -> Answer:
        """Send the request on to the upstream server and read its whole answer."""
        connection = http.client.HTTPConnection(self.upstream_host, self.upstream_port, timeout=MAX_SECONDS)
        try:
            connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", f"{self.upstream_host}:{self.upstream_port}")
            for name, value in headers:
                if name.lower() not in HOP_HEADERS:
                    connection.putheader(name, value)
            connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            answer = Answer(response.status, response.getheaders(), response.read())
        finally:
            connection.close()
        with self._lock:
            self.forwarded += 1
        return answer


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        owner: FaultProxy = self.server.owner  # type: ignore[attr-defined]
        sock: socket.socket = self.request
        sock.settimeout(MAX_SECONDS)
        try:
            request = _read_request(sock)
            if request is None:
                return
            method, target, headers, body = request
            rule = owner.pick(method, target)
            _answer(sock, owner, rule, method, target, headers, body)
        except OSError:
            return  # the client gave up (its deadline, a Ctrl-C): that is often the point


def _read_request(sock: socket.socket) -> tuple[str, str, list[tuple[str, str]], bytes] | None:
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _version = lines[0].split(" ", 2)
    headers = [(name.strip(), value.strip()) for name, _, value in (line.partition(":") for line in lines[1:])]
    length = next((int(value) for name, value in headers if name.lower() == "content-length"), 0)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        body += chunk
    return method, target, headers, body


def _answer(
    sock: socket.socket,
    owner: FaultProxy,
    rule: Rule | None,
    method: str,
    target: str,
    headers: list[tuple[str, str]],
    body: bytes,
) -> None:
    kind = rule.kind if rule is not None else "forward"
    if rule is None or kind == "pass":
        answer = owner.forward(method, target, headers, body)
        sock.sendall(answer.head() + answer.body)
    elif kind == "garbage":
        if rule.forward:
            owner.forward(method, target, headers, body)
        answer = Answer(rule.status, [("Content-Type", "application/json")], rule.body)
        sock.sendall(answer.head() + answer.body)
    elif kind == "drop":
        owner.forward(method, target, headers, body)  # the server acted; its answer goes nowhere
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # with a zero linger: a reset, no answer
    elif kind == "drip":
        answer = owner.forward(method, target, headers, body)
        sock.sendall(answer.head())
        stop = time.monotonic() + MAX_SECONDS
        for start in range(0, len(answer.body), rule.chunk):
            if time.monotonic() > stop:
                return
            sock.sendall(answer.body[start : start + rule.chunk])
            time.sleep(rule.interval)
    elif kind == "escape":
        answer = owner.forward(method, target, headers, body)
        if answer.body.lstrip().startswith((b"{", b"[")):
            answer.body = json.dumps(escaped(json.loads(answer.body), rule.keys, rule.escape)).encode()
        sock.sendall(answer.head() + answer.body)
    elif kind == "html_title":
        status = rule.status if rule.status != 200 else 502
        page = f"<html><head><title>{status} Bad Gateway {rule.escape}</title></head><body>down</body></html>"
        answer = Answer(status, [("Content-Type", "text/html")], page.encode())
        sock.sendall(answer.head() + answer.body)
    elif kind == "status429":
        answer = too_many_requests(rule)
        sock.sendall(answer.head() + answer.body)
    else:
        raise ValueError(f"unknown fault {kind!r}")
