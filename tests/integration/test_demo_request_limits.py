"""The demo server's limits on what it reads: a request that fails authentication is answered without its body
being read, a body over the cap is a 413 (declared or streamed), a request target over the cap is a 414."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx

from svctui.demo.app import MAX_BODY_BYTES, MAX_TARGET_BYTES
from svctui.demo.server import DemoServer
from tests.support.demo_http import error_of, signed

SELECTORS = "/api/v2/asset-group-tags/1/selectors"
ANSWER_WAIT = 10.0  # a server that waits for the body never answers: the read times out and the test fails


def head_only(demo: DemoServer, method: str, target: str, headers: dict[str, str]) -> bytes:
    """Send a request line and headers but none of the body they announce; the answer read so far."""
    parts = urlsplit(demo.base_url)
    lines = [f"{method} {target} HTTP/1.1", f"Host: {parts.netloc}", *(f"{k}: {v}" for k, v in headers.items())]
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=ANSWER_WAIT) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        received = b""
        try:
            while b"\r\n\r\n" not in received or not received.rstrip().endswith((b"}", b"Long")):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        except TimeoutError:
            pass
    return received


def test_unauthenticated_write_is_answered_before_its_body(demo_server: DemoServer) -> None:
    answer = head_only(demo_server, "POST", SELECTORS, {"Content-Length": "900000", "Content-Type": "text/plain"})
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]
    assert b"not authenticated" in answer


def test_unknown_token_is_refused_before_the_body(demo_server: DemoServer) -> None:
    headers = {
        "Content-Length": "900000",
        "Authorization": "bhesignature 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
        "RequestDate": "2026-03-02T12:00:00Z",
        "Signature": "AAAA",
    }
    answer = head_only(demo_server, "POST", SELECTORS, headers)
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:200]
    assert b"resource not found" in answer


def test_a_declared_body_over_the_cap_is_413_unread(demo_server: DemoServer) -> None:
    headers = {"Content-Length": str(MAX_BODY_BYTES + 1), "Authorization": f"Bearer {demo_server.jwt}"}
    answer = head_only(demo_server, "POST", SELECTORS, headers)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert b"http: request body too large" in answer


def test_a_streamed_body_over_the_cap_is_413(demo_server: DemoServer) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    with signed(demo_server) as http:
        response = http.post(SELECTORS, content=chunks())
    assert error_of(response, 413) == "http: request body too large"


def test_a_signed_body_under_the_cap_still_counts(demo_server: DemoServer) -> None:
    with signed(demo_server) as http:
        response = http.post(SELECTORS, content=b" " * (MAX_BODY_BYTES - 10) + b"[1]")
    assert error_of(response, 400) == "error unmarshalling JSON payload"


def test_a_long_request_target_is_414_not_500(demo_server: DemoServer) -> None:
    with signed(demo_server) as http:
        response = http.get(SELECTORS, params={"name": "eq:" + "a" * MAX_TARGET_BYTES})
        assert response.status_code == 414 and response.text == "414 URI Too Long\n"
        assert http.get(SELECTORS, params={"name": "eq:" + "a" * 4000}).status_code == 200
    # beyond what httpx sends (64 KiB), and beyond the HTTP parser's default 16 KiB head
    answer = head_only(demo_server, "GET", f"{SELECTORS}?name=eq:{'a' * 70_000}", {})
    assert answer.startswith(b"HTTP/1.1 414 "), answer[:200]


def test_unauthenticated_client_gets_the_same_401_as_before(demo_server: DemoServer) -> None:
    with httpx.Client(base_url=demo_server.base_url, timeout=30) as http:
        assert error_of(http.post(SELECTORS, json={"name": "x"}), 401) == "not authenticated"
