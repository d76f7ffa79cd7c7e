"""A small misbehaving HTTP server for client fault tests: raw sockets on 127.0.0.1, one request per connection.

Each request gets the `Misbehaviour` its request line routes to (`route`, e.g. by skip=), else the next scripted
one (or the default): drip a body one byte at a time, declare a huge Content-Length and send a short body, cut a
chunked body, reset the connection mid-body, hang up without answering, answer garbage or HTML with 200, redirect,
or answer a plain status. Every answer is bounded in time (`MAX_SECONDS`), so a test against the old code fails
instead of hanging. It does not check auth; it counts requests.
"""

from __future__ import annotations

import json
import socket
import socketserver
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

MAX_SECONDS = 20.0  # no answer lasts longer than this
EVENTS_PAGE = {"count": 1, "skip": 0, "limit": 0, "data": [{"id": 1, "client_id": "c"}]}
TAGS = {"data": {"tags": [{"id": 1, "type": 1, "name": "Tier Zero", "position": 1}]}}


@dataclass
class Misbehaviour:
    """One scripted answer: `kind` says how, the other fields say with what."""

    kind: str  # answer, drip, short, chunked_cut, chunked_big, reset, hang_up
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    declared: int | None = None  # Content-Length to claim (short); None = len(body)
    interval: float = 1.0  # seconds between dripped bytes


def answer(status: int, body: bytes | str | dict[str, Any], content_type: str = "application/json") -> Misbehaviour:
    """A plain, complete answer."""
    data = json.dumps(body).encode() if isinstance(body, dict) else body.encode() if isinstance(body, str) else body
    return Misbehaviour("answer", status=status, body=data, content_type=content_type)


def _head(status: int, content_type: str, headers: dict[str, str], length: int | None) -> bytes:
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", f"Content-Type: {content_type}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append("Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        owner: BadServer = self.server.owner  # type: ignore[attr-defined]
        sock: socket.socket = self.request
        sock.settimeout(MAX_SECONDS)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                return
            received += chunk
        line = received.split(b"\r\n", 1)[0].decode("latin-1")
        owner.arrived(line)
        step = owner.next_step(line)
        try:
            _perform(sock, step)
        except OSError:
            return  # the client gave up (its deadline or size cap): that is the point


def _perform(sock: socket.socket, step: Misbehaviour) -> None:
    stop = time.monotonic() + MAX_SECONDS
    if step.kind == "answer":
        sock.sendall(_head(step.status, step.content_type, step.headers, len(step.body)) + step.body)
    elif step.kind == "drip":
        sock.sendall(_head(step.status, step.content_type, step.headers, len(step.body)))
        for byte in step.body:
            if time.monotonic() > stop:
                return
            sock.sendall(bytes([byte]))
            time.sleep(step.interval)
    elif step.kind == "short":
        declared = step.declared if step.declared is not None else len(step.body) * 2
        sock.sendall(_head(step.status, step.content_type, step.headers, declared) + step.body)
    elif step.kind == "chunked_cut":
        sock.sendall(_head(step.status, step.content_type, step.headers, None))
        sock.sendall(f"{len(step.body):x}\r\n".encode() + step.body + b"\r\n")  # no terminating 0-chunk
    elif step.kind == "chunked_big":
        sock.sendall(_head(step.status, step.content_type, step.headers, None))
        piece = b" " * 65536
        while time.monotonic() < stop:
            sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    elif step.kind == "hang_up":
        return  # the connection closes with no answer at all (a server going down as the request arrives)
    elif step.kind == "reset":
        sock.sendall(_head(step.status, step.content_type, step.headers, len(step.body) * 2) + step.body)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # with a zero linger, close sends RST
    else:
        raise ValueError(f"unknown misbehaviour {step.kind!r}")


class BadServer:
    """The misbehaving server in a thread; a context manager. `requests` lists the request lines received."""

    def __init__(self, default: Misbehaviour | None = None) -> None:
        self.default = default or answer(200, EVENTS_PAGE)
        # when set: the answer for a request line (e.g. by its skip=), ahead of the queue; None falls through to it
        self.route: Callable[[str], Misbehaviour | None] | None = None
        self.requests: list[str] = []
        self._queue: deque[Misbehaviour] = deque()
        self._lock = threading.Lock()
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Handler, bind_and_activate=True)
        self._server.daemon_threads = True
        self._server.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:<port>"""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> BadServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def enqueue(self, *steps: Misbehaviour) -> None:
        """Answer the next requests with these, in order; then the default."""
        with self._lock:
            self._queue.extend(steps)

    def arrived(self, request_line: str) -> None:
        """Count a request."""
        with self._lock:
            self.requests.append(request_line)

    def next_step(self, request_line: str = "") -> Misbehaviour:
        """The scripted answer for the request that just arrived: `route`'s, else the queue's, else the default."""
        routed = self.route(request_line) if self.route is not None else None
        if routed is not None:
            return routed
        with self._lock:
            return self._queue.popleft() if self._queue else self.default
