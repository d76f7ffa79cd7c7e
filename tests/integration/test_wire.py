"""Wire test: every request the client makes — filters, follow-up pages, retries — verifies on a loopback server
that recomputes the signature over the raw request line and body it received."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from email.utils import formatdate

import pytest

from svctui.api.client import ApiClient, backoff_delay
from svctui.api.errors import ServerError, Unauthorized
from svctui.api.filters import COMPLETED_TASKS, EVENTS, SELECTORS, Filter, SortKey
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth, rfc3339_now
from tests.support.recording_server import CLIENT_ID, RecordingServer, Reply, SleepRecorder

pytestmark = pytest.mark.anyio

RESET_NOW = 1_900_000_000.0
DIGEST_MISMATCH = "digest validation failed: signature digest mismatch"


def client_for(
    server: RecordingServer, sleep: SleepRecorder, clock: Callable[[], str] = rfc3339_now, **kwargs: object
) -> ApiClient:
    auth = SignatureAuth(server.token_id, server.token_key, clock=clock)
    return ApiClient(
        server.base_url,
        auth,
        sleep=sleep,
        jitter=lambda: 0.5,
        clock=lambda: RESET_NOW,
        on_deprecation=lambda notice: None,
        **kwargs,  # type: ignore[arg-type]
    )


def assert_all_verified(server: RecordingServer) -> None:
    assert server.requests, "no request reached the server"
    for recorded in server.requests:
        assert recorded.verified, f"{recorded.request_line}: {recorded.problem}"


async def test_every_kind_of_request_verifies(server: RecordingServer) -> None:
    sleep = SleepRecorder()
    since = Filter.build(EVENTS, "created_at", "gte", "2026-01-01T00:00:00.123456789+05:00")
    rrule = Filter.build(EVENTS, "rrule", "~eq", "FREQ=WEEKLY;INTERVAL=1")
    status = Filter.build(COMPLETED_TASKS, "status", "eq", "failed")
    name = Filter.build(SELECTORS, "name", "~eq", "selector")
    async with client_for(server, sleep) as client:
        await client.events.list(ListQuery((since, rrule), (SortKey("id", True),), limit=2, hydrate_ous=False))
        await client.tasks.list(
            CLIENT_ID, ListQuery((status,), (SortKey("execution_time"),), endpoint="completed-jobs")
        )
        await client.tasks.list(CLIENT_ID, ListQuery(endpoint="completed-tasks"))
        await client.tags.list()
        await client.selectors.list(1, ListQuery((name,), limit=-1))
        await client.selectors.get(1, 2)
        await client.selectors.delete(1, 3)
        assert (await client.probe()).edition == "enterprise"
    assert_all_verified(server)
    first = server.requests[0]
    assert first.request_line.startswith("GET /api/v2/events?created_at=gte")
    assert "~eq" in first.target
    assert first.filters_read() == [
        ("created_at", ("gte", "2025-12-31T19:00:00.123456789Z")),
        ("rrule", ("~eq", "FREQ=WEEKLY;INTERVAL=1")),
    ]
    assert first.param("hydrate_ous") == "false"
    assert [r.method for r in server.requests] == ["GET"] * 6 + ["DELETE", "GET"]
    assert server.requests[1].filters_read() == [("status", ("eq", "5"))]
    assert server.requests[1].path == f"/api/v2/clients/{CLIENT_ID}/completed-jobs"
    assert sleep.calls == []


async def test_follow_up_pages_verify_and_stop_at_count(server: RecordingServer) -> None:
    rrule = Filter.build(EVENTS, "rrule", "~eq", "BYDAY=TU")
    async with client_for(server, SleepRecorder()) as client:
        ids = [event.id async for event in client.events.iter(ListQuery((rrule,)), page_size=3)]
    assert ids == [1, 2, 3, 4, 5, 6, 7]
    assert_all_verified(server)
    asked = sorted((int(r.param("skip") or -1), r.param("limit")) for r in server.requests)
    assert asked == [(0, "3"), (3, "3"), (6, "3")]  # pages 2 and 3 go out together (two ahead): either may land first
    assert all(r.param("rrule") == "~eq:BYDAY=TU" for r in server.requests)


async def test_selector_and_task_pages(server: RecordingServer) -> None:
    async with client_for(server, SleepRecorder()) as client:
        selector_pages = [page async for page in client.selectors.pages(1, page_size=3)]
        tasks = [task async for task in client.tasks.iter(CLIENT_ID, ListQuery(endpoint="completed-jobs"), page_size=2)]
    assert [len(page.data.selectors) for page in selector_pages] == [3, 1]
    assert [task.id for task in tasks] == [1, 2, 3, 4, 5]
    assert len(server.requests) == 2 + 3
    assert_all_verified(server)


async def test_pages_stop_on_an_empty_page_even_if_count_says_more(server: RecordingServer) -> None:
    server.count_override = 1000
    async with client_for(server, SleepRecorder()) as client:
        pages = [page async for page in client.events.pages(ListQuery(skip=2), page_size=5)]
    assert [len(page.data) for page in pages] == [5, 0]
    skips = [int(r.param("skip") or -1) for r in server.requests]
    assert skips[0] == 2 and sorted(skips[1:]) in ([7], [7, 12])  # 12: asked for ahead, dropped unread
    assert_all_verified(server)


async def test_retry_after_500_is_signed_afresh(server: RecordingServer) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    dates = iter([now.isoformat(), now.astimezone(timezone(timedelta(hours=-5))).isoformat()])
    sleep = SleepRecorder()
    server.enqueue(Reply(500, {"problem": "an internal error has occurred that is preventing the service"}))
    async with client_for(server, sleep, clock=lambda: next(dates)) as client:
        page = await client.events.list(ListQuery((Filter.build(EVENTS, "id", "gt", "0"),), limit=2))
    assert [event.id for event in page.data] == [1, 2]
    first, second = server.requests
    assert first.target == second.target
    assert first.headers["requestdate"] != second.headers["requestdate"]
    assert first.headers["signature"] != second.headers["signature"]
    assert_all_verified(server)
    assert sleep.calls == [backoff_delay(0, 0.5)] == [0.4375]


async def test_retry_after_plain_text_429_waits_for_the_reset(server: RecordingServer) -> None:
    sleep = SleepRecorder()
    limited = Reply(
        429,
        "Limit exceeded",
        headers={"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(RESET_NOW) + 3)},
        content_type="text/plain; charset=utf-8",
    )
    server.enqueue(limited)
    async with client_for(server, sleep) as client:
        async for _ in client.selectors.iter(
            1, ListQuery((Filter.build(SELECTORS, "created_at", "gt", "2026-01-01T00:00:00Z"),))
        ):
            pass
    assert sleep.calls == [pytest.approx(3.0, abs=0.05)]  # less the ms spent between the 429 and the wait
    assert len(server.requests) == 2
    assert_all_verified(server)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"Retry-After": formatdate(RESET_NOW + 5, usegmt=True)}, 5.0),
        ({"X-RateLimit-Reset": str(int(RESET_NOW) + 4), "Retry-After": "9"}, 4.0),
        ({"X-RateLimit-Reset": str(int(RESET_NOW) - 30)}, 1.0),
        ({}, 1.0),
        ({"X-RateLimit-Reset": str(int(RESET_NOW) + 50)}, 50.0),
    ],
)
async def test_429_waits_at_least_one_second(server: RecordingServer, headers: dict[str, str], expected: float) -> None:
    sleep = SleepRecorder()
    server.enqueue(Reply(429, {"problem": "Too many requests"}, headers=headers))
    async with client_for(server, sleep) as client:
        await client.tags.list()
    assert sleep.calls == [pytest.approx(expected, abs=0.05)]  # less the ms spent between the 429 and the wait
    assert_all_verified(server)


async def test_delete_is_retried_and_retries_run_out(server: RecordingServer) -> None:
    sleep = SleepRecorder()
    server.enqueue(*[Reply(503, "<html><title>503 Service Unavailable</title></html>", content_type="text/html")] * 3)
    async with client_for(server, sleep) as client:
        with pytest.raises(ServerError) as info:
            await client.selectors.delete(1, 2)
    assert info.value.status == 503
    assert info.value.messages == ["503 Service Unavailable"]
    assert [r.method for r in server.requests] == ["DELETE"] * 3
    assert sleep.calls == [backoff_delay(0, 0.5), backoff_delay(1, 0.5)] == [0.4375, 0.875]
    assert_all_verified(server)


async def test_wrong_key_fails_like_the_real_server(server: RecordingServer) -> None:
    auth = SignatureAuth(server.token_id, "not-the-key")
    async with ApiClient(server.base_url, auth, sleep=SleepRecorder()) as client:
        with pytest.raises(Unauthorized) as info:
            await client.tags.list()
    assert info.value.messages == ["unable to validate request signature for client: " + DIGEST_MISMATCH]
    assert not server.requests[0].verified
    assert len(server.requests) == 1


def test_backoff_formula() -> None:
    assert [backoff_delay(n, 0.0) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert backoff_delay(0, 0.999) == pytest.approx(0.5 * (1 - 0.25 * 0.999))
    assert backoff_delay(10_000, 0.0) == 8.0
