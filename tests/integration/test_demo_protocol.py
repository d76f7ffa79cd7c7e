"""Protocol behaviour of the demo server: community-edition 404, unknown routes, Prefer, rate limiting, faults."""

from __future__ import annotations

import json
import logging
import time
import uuid
from pathlib import Path

import httpx
import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoOptions, DemoServer
from tests.support.demo_http import error_of, own_server, raw, sign_headers, signed

TAGS = "/api/v2/asset-group-tags"
EVENTS = "/api/v2/events"


def test_events_on_community_edition_is_a_plain_404_before_auth(demo_server_community: DemoServer) -> None:
    with raw(demo_server_community) as anonymous, signed(demo_server_community) as client:
        for response in (anonymous.get(EVENTS), client.get(EVENTS, params={"limit": "1"})):
            assert response.status_code == 404
            assert response.headers["content-type"] == "text/plain; charset=utf-8"
            assert response.text == "404 page not found\n"
            assert str(uuid.UUID(response.headers["RequestID"])) == response.headers["RequestID"], "set pre-routing"
        assert client.get(TAGS).status_code == 200, "the other endpoints exist on both editions"


def test_events_exist_on_enterprise(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        assert client.get(EVENTS, params={"limit": "1"}).status_code == 200


@pytest.mark.parametrize(
    "path", ["/api/v2/nothing", "/api/v2/events/", "/api/v2/asset-group-tags/1/selectors/2/x", "/"]
)
def test_unknown_routes_are_plain_404(demo_server: DemoServer, path: str) -> None:
    with signed(demo_server) as client:
        response = client.get(path)
    assert (response.status_code, response.text) == (404, "404 page not found\n")


@pytest.mark.parametrize(
    ("query", "paging", "name"),
    [
        ("limit=2;x", (0, 50), ""),  # Go drops a pair holding a semicolon (since Go 1.17): default limit 50
        ("limit=%zz&skip=1", (1, 50), ""),  # and a pair with a bad percent escape; the other pairs stay
        ("limit=3&name=~eq:Domain+Admins", (0, 3), "Domain Admins"),  # `+` is a space
        ("limit=3&name=~eq:Domain%20Admins;x", (0, 3), ""),  # the whole filter pair is dropped, not cut at `;`
    ],
)
def test_query_is_parsed_like_go(demo_server: DemoServer, query: str, paging: tuple[int, int], name: str) -> None:
    """The raw query as a Go server reads it (url.ParseQuery via URL.Query); signed over the raw target."""
    target = f"{TAGS}/1/selectors?{query}"
    with raw(demo_server) as client:
        response = client.get(target, headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", target))
        everything = client.get(
            TAGS + "/1/selectors?limit=-1",
            headers=sign_headers(demo_server.token_id, demo_server.token_key, "GET", TAGS + "/1/selectors?limit=-1"),
        )
    assert response.request.url.raw_path.decode() == target, "sent exactly as written"
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["skip"], body["limit"]) == paging
    total = everything.json()["count"]
    if name:
        assert 0 < body["count"] < total
        assert all(name in selector["name"] for selector in body["data"]["selectors"])
    else:
        assert body["count"] == total, "no filter applied"


def test_every_error_has_a_fresh_request_id(demo_server: DemoServer) -> None:
    with raw(demo_server) as anonymous:
        first, second = anonymous.get(TAGS), anonymous.get(TAGS)
    assert error_of(first, 401) == error_of(second, 401) == "not authenticated"
    assert first.json()["request_id"] != second.json()["request_id"]


def test_wrong_method_is_405(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        assert client.post(EVENTS).status_code == 405
        assert client.delete(TAGS).status_code == 405


@pytest.mark.parametrize(
    ("prefer", "detail"),
    [
        ("wait=abc", 'strconv.Atoi: parsing "abc": invalid syntax'),
        ("wait=1.5", 'strconv.Atoi: parsing "1.5": invalid syntax'),
        ("wait", 'strconv.Atoi: parsing "": invalid syntax'),
        ("respond-async", "leave field empty or specify with : 'wait=x'"),
        ("wait=-2", "incorrect bypass limit value"),
    ],
)
def test_invalid_prefer_is_400_before_anything_else(demo_server: DemoServer, prefer: str, detail: str) -> None:
    with raw(demo_server) as client:
        response = client.get(TAGS, headers={"Prefer": prefer})
    assert error_of(response, 400, request_id=False) == f"Prefer header has an invalid value: {detail}"


@pytest.mark.parametrize(
    ("prefer", "applied"),
    [
        ("wait=5", "wait=5.00"),
        ("wait=30", "wait=30.00"),
        ("handling=lenient, wait=7", "wait=7.00"),
        ("wait=-1", "wait=-1; bypass=enabled"),
    ],
)
def test_prefer_applied(demo_server: DemoServer, prefer: str, applied: str) -> None:
    with signed(demo_server) as client:
        response = client.get(TAGS, headers={"Prefer": prefer})
    assert response.status_code == 200
    assert response.headers["Preference-Applied"] == applied


def test_prefer_wait_zero_applies_nothing(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        response = client.get(TAGS, headers={"Prefer": "wait=0"})
    assert response.status_code == 200 and "Preference-Applied" not in response.headers


def test_slow_answer_beyond_prefer_wait_times_out(demo_template_db: Path, tmp_path: Path) -> None:
    faults = Faults(kinds={"slow": 1.0}, slow_seconds=2.0)
    with own_server(demo_template_db, tmp_path, faults=faults, rate_limit=0) as demo, signed(demo) as client:
        response = client.get(TAGS, headers={"Prefer": "wait=1"})
        assert error_of(response, 500) == "request timed out"
        demo.faults = Faults()
        assert client.get(TAGS, headers={"Prefer": "wait=1"}).status_code == 200


def test_rate_limit_is_plain_text_per_route_with_headers(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=3) as demo, signed(demo) as client:
        first = client.get(TAGS)
        assert first.status_code == 200
        assert first.headers["X-RateLimit-Limit"] == "3"
        assert first.headers["X-RateLimit-Remaining"] == "2"
        limited = None
        for _ in range(50):
            response = client.get(TAGS)
            if response.status_code == 429:
                limited = response
                break
        assert limited is not None, "the limiter never answered 429"
        assert limited.text == "Limit exceeded\n"
        assert limited.headers["content-type"] == "text/plain; charset=utf-8"
        assert limited.headers["X-RateLimit-Limit"] == "3"
        assert limited.headers["X-RateLimit-Remaining"] == "0"
        assert int(limited.headers["X-RateLimit-Reset"]) >= int(time.time())
        assert "Retry-After" not in limited.headers
        assert str(uuid.UUID(limited.headers["RequestID"])) == limited.headers["RequestID"], "set pre-routing"
        other_route = client.get("/api/v2/asset-group-tags/1/selectors", params={"limit": "1"})
        assert other_route.status_code == 200, "the limit counts per route"


def test_rate_limit_counts_unauthenticated_requests_too(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=2) as demo, raw(demo) as client:
        statuses = [client.get(TAGS).status_code for _ in range(40)]
    assert statuses[:2] == [401, 401]
    assert 429 in statuses


def test_failed_authentication_comes_before_the_rate_limit(demo_template_db: Path, tmp_path: Path) -> None:
    """The real server authenticates in post-routing middleware: a bad signature is a 401 that the per-route
    limiter never sees (no X-RateLimit-* headers, no 429, no share of the budget)."""
    with own_server(demo_template_db, tmp_path, rate_limit=2) as demo, raw(demo) as client:
        failures = [client.get(TAGS, headers=sign_headers(demo.token_id, "wrong-key", "GET", TAGS)) for _ in range(10)]
        good = client.get(TAGS, headers=sign_headers(demo.token_id, demo.token_key, "GET", TAGS))
    for response in failures:
        assert error_of(response, 401).endswith("digest validation failed: signature digest mismatch")
        assert "X-RateLimit-Limit" not in response.headers
    assert good.status_code == 200 and good.headers["X-RateLimit-Remaining"] == "1"


def test_rate_limit_off_sends_no_headers(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        assert "X-RateLimit-Limit" not in client.get(TAGS).headers


def test_error_rate_answers_500_envelope_after_auth(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, faults=Faults(error_rate=1.0), rate_limit=0) as demo:
        with signed(demo) as client:
            message = error_of(client.get(TAGS), 500)
        with raw(demo) as anonymous:
            assert anonymous.get(TAGS).status_code == 401
    assert message == "an internal error has occurred that is preventing the service from servicing this request"


def test_transport_faults(demo_template_db: Path, tmp_path: Path) -> None:
    with (
        own_server(demo_template_db, tmp_path, faults=Faults(kinds={"html": 1.0}), rate_limit=0) as demo,
        signed(demo) as client,
    ):
        page = client.get(TAGS)
        assert page.status_code == 502 and page.headers["content-type"] == "text/html"
        assert "<title>502 Bad Gateway</title>" in page.text
        demo.faults = Faults(kinds={"malformed": 1.0})
        broken = client.get(TAGS)
        assert broken.status_code == 200
        with pytest.raises(json.JSONDecodeError):
            json.loads(broken.content)
        demo.faults = Faults(kinds={"truncated": 1.0})
        with pytest.raises(httpx.RemoteProtocolError):
            client.get(TAGS)
        demo.faults = Faults(kinds={"reset": 1.0})
        with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError, httpx.ConnectError)):
            client.get(TAGS)
        demo.faults = Faults(latency_ms=20)
        assert client.get(TAGS).status_code == 200


def test_request_count_counts_every_request(fresh_demo_server: DemoServer) -> None:
    before = fresh_demo_server.request_count
    with signed(fresh_demo_server) as client:
        client.get(TAGS)
        client.get("/nowhere")
    assert fresh_demo_server.request_count == before + 2


def test_repr_holds_no_secret(demo_server: DemoServer) -> None:
    text = repr(demo_server) + repr(demo_server.credentials)
    assert demo_server.token_key not in text
    assert demo_server.credentials.read_only.key not in text
    assert demo_server.credentials.jwt_secret not in text
    options = DemoOptions(token_key="a-secret-key-value")
    assert "a-secret-key-value" not in repr(options)


def test_a_client_that_gives_up_leaves_no_traceback(demo_template_db: Path, tmp_path: Path) -> None:
    """A request the client abandons (a TUI cancelling a stale query) is dropped quietly, as Go's server does."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(level=logging.ERROR)
    with own_server(demo_template_db, tmp_path, faults=Faults(latency_ms=300), rate_limit=0) as demo:
        logging.getLogger("uvicorn.error").addHandler(keep)  # after start: uvicorn's logging config resets handlers
        try:
            with signed(demo) as impatient, pytest.raises(httpx.ReadTimeout):
                impatient.get(TAGS, timeout=httpx.Timeout(5.0, read=0.05))
            with signed(demo) as patient:
                assert patient.get(TAGS).status_code == 200  # served after the abandoned one was handled
        finally:
            logging.getLogger("uvicorn.error").removeHandler(keep)
    assert [record.getMessage() for record in records] == []
