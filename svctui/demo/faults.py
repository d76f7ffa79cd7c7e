"""Injected failures for reliability tests and demos: HTML proxy pages, malformed and truncated JSON, dropped
connections, slow answers, latency and random 500s. All off unless configured; `Faults.only_path` keeps them to
the requests whose path contains it.
"""

from __future__ import annotations

import json
import random
import threading
from typing import Any

from starlette.types import Send

from svctui.demo.config import FAULT_KINDS, Faults

PROXY_PAGE = (
    b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
    b"<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)
MALFORMED_BODY = b'{"count": 3, "skip": 0, "limit": 0, "data": [{"id": 1, "client_id": "'


class FaultInjector:
    """Decides, per request, which fault (if any) fires; the configuration can be swapped while serving."""

    def __init__(self, faults: Faults, seed: int = 0) -> None:
        faults.validate()
        self._faults = faults
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    @property
    def faults(self) -> Faults:
        """The current configuration."""
        return self._faults

    @faults.setter
    def faults(self, value: Faults) -> None:
        value.validate()
        self._faults = value

    def applies(self, path: str) -> bool:
        """True when the faults may hit a request for `path` (every one unless `only_path` narrows them)."""
        return self._faults.only_path in path

    def _roll(self, rate: float) -> bool:
        if rate <= 0:
            return False
        with self._lock:
            return self._rng.random() < rate

    def transport_fault(self, path: str) -> str | None:
        """The transport-level fault for this request (html, malformed, truncated or reset), or None."""
        if not self.applies(path):
            return None
        for kind in FAULT_KINDS:
            if kind != "slow" and self._roll(self._faults.kinds.get(kind, 0.0)):
                return kind
        return None

    def slow(self, path: str) -> bool:
        """True when this request should stall for `slow_seconds`."""
        return self.applies(path) and self._roll(self._faults.kinds.get("slow", 0.0))

    def server_error(self, path: str) -> bool:
        """True when this request should fail with the 500 envelope."""
        return self.applies(path) and self._roll(self._faults.error_rate)


async def send_fault(kind: str, send: Send) -> None:
    """Answer (or drop) the request as the fault `kind` says."""
    if kind == "reset":
        transport: Any = getattr(getattr(send, "__self__", None), "transport", None)
        if transport is not None and hasattr(transport, "abort"):
            transport.abort()
            return
        raise ConnectionResetError("demo fault: connection reset")
    if kind == "html":
        await _send(send, 502, b"text/html", PROXY_PAGE)
        return
    if kind == "malformed":
        await _send(send, 200, b"application/json", MALFORMED_BODY)
        return
    full = (json.dumps({"count": 200, "skip": 0, "limit": 0, "data": [{"id": n} for n in range(200)]}) + "\n").encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(full)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": full[: len(full) // 2], "more_body": True})
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is not None and hasattr(transport, "close"):
        transport.close()


async def _send(send: Send, status: int, content_type: bytes, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
