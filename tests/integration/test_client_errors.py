"""Error shapes through a real loopback server: JSON envelope, plain text, HTML, CE 404, bad 200s, no server."""

from __future__ import annotations

import threading

import httpx
import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import (
    ENTERPRISE_ONLY_MESSAGE,
    ApiConnectionError,
    ApiError,
    ApiStatusError,
    ApiTimeout,
    BadRequest,
    EnterpriseOnly,
    Forbidden,
    NotFound,
    RateLimited,
    ResponseShapeError,
    ServerError,
    Unauthorized,
    status_error,
)
from svctui.api.signing import BearerAuth, SignatureAuth
from tests.support.recording_server import JWT, TOKEN_KEY, RecordingServer, Reply, SleepRecorder, client_for

pytestmark = pytest.mark.anyio

REQUEST_ID = "1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9"
DIGEST = "unable to validate request signature for client: digest validation failed: signature digest mismatch"


def envelope_body(status: int, message: str, request_id: str = REQUEST_ID) -> dict[str, object]:
    return {
        "http_status": status,
        "timestamp": "2026-03-01T10:00:00.123456789Z",
        "request_id": request_id,
        "errors": [{"context": "", "message": message}],
    }


async def test_json_envelope_gives_status_messages_and_request_id(server: RecordingServer) -> None:
    server.enqueue(Reply(401, envelope_body(401, DIGEST)))
    async with client_for(server) as client:
        with pytest.raises(Unauthorized) as info:
            await client.tags.list()
    error = info.value
    assert (error.status, error.messages, error.request_id) == (401, [DIGEST], REQUEST_ID)
    assert error.method == "GET" and error.url.endswith("/api/v2/asset-group-tags")
    assert error.user_message() == f"HTTP 401 Unauthorized — {DIGEST} (request id {REQUEST_ID})"
    assert str(error) == error.user_message()
    assert '"http_status": 401' in error.body


async def test_request_id_falls_back_to_the_header(server: RecordingServer) -> None:
    server.enqueue(Reply(403, envelope_body(403, "not authorized", request_id="")))
    async with client_for(server) as client:
        with pytest.raises(Forbidden) as info:
            await client.selectors.delete(1, 1)
    assert info.value.request_id is not None
    assert len(info.value.request_id) == 36
    assert info.value.request_id in info.value.user_message()


async def test_plain_text_429_is_readable(server: RecordingServer) -> None:
    server.enqueue(
        Reply(
            429,
            "Limit exceeded",
            headers={"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1900000003"},
            content_type="text/plain; charset=utf-8",
        )
    )
    async with client_for(server, max_retries=0) as client:
        with pytest.raises(RateLimited) as info:
            await client.events.list()
    error = info.value
    assert error.messages == ["Limit exceeded"]
    assert error.reset_at == 1900000003.0
    assert error.user_message().startswith("HTTP 429 Too Many Requests — Limit exceeded (request id ")


async def test_html_502_gives_the_page_title(server: RecordingServer) -> None:
    page = (
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1>"
        "</center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n"
    )
    server.enqueue(*[Reply(502, page, content_type="text/html")] * 3)
    async with client_for(server) as client:
        with pytest.raises(ServerError) as info:
            await client.events.list()
    assert info.value.messages == ["502 Bad Gateway"]
    assert info.value.user_message().startswith("HTTP 502 Bad Gateway — 502 Bad Gateway")
    assert len(server.requests) == 3


async def test_html_without_title_gives_its_first_text(server: RecordingServer) -> None:
    page = "<html><head><style>body{color:red}</style></head><body><p>Upstream   is\n down &amp; out</p></body></html>"
    server.enqueue(Reply(504, page, content_type="text/html"))
    async with client_for(server, max_retries=0) as client:
        with pytest.raises(ServerError) as info:
            await client.events.list()
    assert info.value.messages == ["Upstream is down & out"]


async def test_community_edition_404_on_events(server: RecordingServer) -> None:
    server.enqueue(Reply(404, "404 page not found", content_type="text/plain; charset=utf-8"))
    async with client_for(server) as client:
        with pytest.raises(EnterpriseOnly) as info:
            await client.events.list()
        assert isinstance(info.value, NotFound)
        assert info.value.user_message() == ENTERPRISE_ONLY_MESSAGE
        assert str(info.value) == ENTERPRISE_ONLY_MESSAGE
        server.enqueue(Reply(404, "404 page not found", content_type="text/plain; charset=utf-8"))
        assert (await client.probe()).edition == "community"
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    ("reply", "call", "message"),
    [
        (Reply(404, envelope_body(404, "resource not found")), "events", "resource not found"),
        (Reply(404, "<html><title>404 Not Found</title></html>", content_type="text/html"), "events", "404 Not Found"),
        (None, "selector", "resource not found"),
    ],
    ids=["json-404-on-events", "proxy-html-404-on-events", "router-404-elsewhere"],
)
async def test_other_404s_are_not_enterprise_only(
    server: RecordingServer, reply: Reply | None, call: str, message: str
) -> None:
    """Only the router's plain-text 404 on /api/v2/events means community edition."""
    if reply is not None:
        server.enqueue(reply)
    async with client_for(server) as client:
        with pytest.raises(NotFound) as info:
            await (client.events.list() if call == "events" else client.selectors.get(99, 1))
    assert not isinstance(info.value, EnterpriseOnly)
    assert info.value.messages == [message]
    assert ENTERPRISE_ONLY_MESSAGE not in info.value.user_message()


async def test_unparseable_200_is_a_response_shape_error(server: RecordingServer) -> None:
    portal = Reply(200, "<html><body>Welcome to the captive portal</body></html>", content_type="text/html")
    server.enqueue(portal, portal, portal)
    async with client_for(server) as client:
        with pytest.raises(ResponseShapeError) as info:
            await client.events.list()
    assert len(server.requests) == 3, "a GET answered out of shape is retried like a 5xx"
    assert "Welcome to the captive portal" in info.value.excerpt
    assert info.value.status == 200
    assert "GET /api/v2/events (HTTP 200)" in info.value.user_message()


async def test_wrong_json_shape_names_the_field(server: RecordingServer) -> None:
    server.enqueue(*[Reply(200, {"count": 1, "skip": 0, "limit": 0, "data": [{"id": "seven"}]})] * 3)
    async with client_for(server) as client:
        with pytest.raises(ResponseShapeError) as info:
            await client.events.list()
    assert "data.0.id" in info.value.user_message()


async def test_connection_refused(server: RecordingServer) -> None:
    sleep = SleepRecorder()
    async with ApiClient(RecordingServer.refused_url(), BearerAuth(JWT), sleep=sleep) as client:
        with pytest.raises(ApiConnectionError) as info:
            await client.tags.list()
    assert not isinstance(info.value, ApiTimeout)
    assert "cannot reach http://127.0.0.1:" in info.value.user_message()
    assert len(sleep.calls) == 2


async def test_timeout(server: RecordingServer) -> None:
    hold = threading.Event()
    server.enqueue(Reply(200, {"data": {"tags": []}}, hold=hold))
    timeout = httpx.Timeout(5.0, read=0.2)
    async with client_for(server, timeout=timeout, max_retries=0) as client:
        with pytest.raises(ApiTimeout) as info:
            await client.tags.list()
    hold.set()
    assert "no answer in time" in info.value.user_message()
    assert isinstance(info.value, ApiConnectionError)


@pytest.mark.parametrize(
    ("status", "cls"),
    [(400, BadRequest), (401, Unauthorized), (403, Forbidden), (404, NotFound), (409, ApiStatusError)],
)
async def test_no_retry_on_client_errors(server: RecordingServer, status: int, cls: type[ApiStatusError]) -> None:
    sleep = SleepRecorder()
    server.enqueue(Reply(status, envelope_body(status, "nope")), Reply(status, envelope_body(status, "nope")))
    async with client_for(server, sleep=sleep) as client:
        with pytest.raises(cls):
            await client.selectors.delete(1, 1)
    assert len(server.requests) == 1
    assert sleep.calls == []


async def test_408_is_retried(server: RecordingServer) -> None:
    server.enqueue(Reply(408, "Request Timeout", content_type="text/plain"))
    async with client_for(server) as client:
        assert [tag.name for tag in await client.tags.list()] == ["Tier Zero", "Owned"]
    assert len(server.requests) == 2


async def test_redirect_is_not_followed(server: RecordingServer) -> None:
    server.enqueue(Reply(301, "", headers={"Location": "https://elsewhere.example/api/v2/events"}))
    async with client_for(server) as client:
        with pytest.raises(ApiStatusError) as info:
            await client.events.list()
    assert info.value.status == 301
    assert "redirected to https://elsewhere.example/api/v2/events" in info.value.user_message()
    assert len(server.requests) == 1


async def test_secrets_never_in_messages_or_reprs(server: RecordingServer) -> None:
    server.enqueue(Reply(401, envelope_body(401, DIGEST)), Reply(500, "boom", content_type="text/plain"))
    seen: list[str] = []
    for auth in (SignatureAuth(server.token_id, TOKEN_KEY), BearerAuth(JWT)):
        async with ApiClient(server.base_url, auth, max_retries=0) as client:
            seen.append(repr(client))
            with pytest.raises(ApiError) as info:
                await client.events.list()
            seen += [str(info.value), repr(info.value), info.value.user_message()]
            seen += [str(vars(info.value))]
    async with ApiClient(RecordingServer.refused_url(), BearerAuth(JWT), max_retries=0) as client:
        with pytest.raises(ApiConnectionError) as refused:
            await client.tags.list()
        seen += [str(refused.value), repr(refused.value), str(vars(refused.value))]
    for text in seen:
        assert TOKEN_KEY not in text
        assert JWT not in text


async def test_bearer_auth_round_trip(server: RecordingServer) -> None:
    async with ApiClient(server.base_url, BearerAuth(JWT)) as client:
        assert len(await client.tags.list()) == 2
    async with ApiClient(server.base_url, BearerAuth("wrong.jwt.value"), max_retries=0) as client:
        with pytest.raises(Unauthorized) as info:
            await client.tags.list()
    assert info.value.messages == ["authentication is invalid"]


async def test_undecodable_body_is_a_response_shape_error(server: RecordingServer) -> None:
    server.enqueue(Reply(200, b"definitely not gzip", headers={"Content-Encoding": "gzip"}))
    async with client_for(server) as client:
        with pytest.raises(ResponseShapeError, match="could not be decoded"):
            await client.tags.list()


async def test_probe_checks_only_the_envelope(server: RecordingServer) -> None:
    server.enqueue(Reply(200, {"count": 1, "skip": 0, "limit": 1, "data": [{"id": "not-an-int", "new": 1}]}))
    server.enqueue(*[Reply(200, "<html><title>Router login</title></html>", content_type="text/html")] * 3)
    async with client_for(server) as client:
        assert (await client.probe()).edition == "enterprise"
        with pytest.raises(ResponseShapeError, match="Router login"):
            await client.probe()
    assert [r.target for r in server.requests] == ["/api/v2/events?limit=1"] * 4  # the bad answer: 1 + 2 retries


@pytest.mark.parametrize(
    ("body", "content_type", "messages"),
    [
        (b'{"error": "odd json"}', "application/json", ['{"error": "odd json"}']),
        (b'{"http_status": 500, "errors": []}', "application/json", []),
        (b"\xff\xfe broken \x80 utf-8", "text/plain", ["\ufffd\ufffd broken \ufffd utf-8"]),
        (b"", "text/plain", []),
        (b"x" * 1000, "text/plain", ["x" * 299 + "…"]),
        (b"<!DOCTYPE html><html><body><script>var a=1;</script><h1>Oops</h1></body></html>", "", ["Oops"]),
    ],
)
def test_status_error_never_fails_on_odd_bodies(body: bytes, content_type: str, messages: list[str]) -> None:
    headers = httpx.Headers({"Content-Type": content_type, "RequestID": REQUEST_ID})
    error = status_error(500, body, headers, method="GET", url="http://h/api/v2/events", path="/api/v2/events")
    assert isinstance(error, ServerError)
    assert error.messages == messages
    assert error.request_id == REQUEST_ID
    assert error.user_message().startswith("HTTP 500 Internal Server Error")
