"""`--all` with pages requested ahead: every record once and in order, a wrong guess corrected, an error midway."""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, Iterator
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import ResponseShapeError
from svctui.api.resources import leading_count
from svctui.demo.server import DemoServer
from tests.support.bad_server import BadServer, Misbehaviour, answer
from tests.support.cli import demo_env, invoke, jsonl_items, run_binary
from tests.support.demo_http import client_ids

TOKEN = {"SVCTUI_TOKEN_ID": "6f1e2d3c-4b5a-4968-8776-655443322110", "SVCTUI_TOKEN_KEY": "c2VjcmV0LWtleS1mb3ItdGVzdHM="}
SKIP = re.compile(r"[?&]skip=(\d+)")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as running:
        yield running


def events(ids: range, count: int) -> Misbehaviour:
    """A page of bare events with these ids, of `count` in all."""
    data: list[dict[str, Any]] = [{"id": i, "client_id": "c"} for i in ids]
    return answer(200, {"count": count, "skip": 0, "limit": 0, "data": data})


def skip_of(request_line: str) -> int:
    """The skip= of a request line."""
    found = SKIP.search(request_line)
    assert found, request_line
    return int(found.group(1))


def test_the_binary_writes_every_task_once_and_in_order(demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server.db_path)[0]
    env = demo_env(demo_server)
    one_page = invoke(["tasks", "list", client_id, "--limit", "1000", "-o", "jsonl"], env=env)
    assert one_page.exit_code == 0, one_page.stderr
    lines = one_page.stdout.splitlines()
    assert 20 < len(lines) < 1000
    paged = run_binary(
        ["tasks", "list", client_id, "--all", "--page-size", str(len(lines) // 5), "-o", "jsonl"], env=env
    )
    assert paged.code == 0, paged.stderr
    assert paged.stdout == one_page.stdout  # 6 pages, requested two ahead: the same bytes as one page


@pytest.mark.anyio
async def test_pages_are_asked_for_before_the_page_before_them_arrives(bad: BadServer) -> None:
    bad.route = lambda line: events(range(skip_of(line) + 1, min(skip_of(line) + 3, 10) + 1), 10)
    async with ApiClient(bad.base_url, None, max_retries=0) as client:
        pages = client.events.pages(page_size=3)
        assert isinstance(pages, AsyncGenerator)
        first = await anext(pages)
        assert [e.id for e in first.data] == [1, 2, 3]
        assert client.requests_sent == 3  # pages 2 and 3 are on their way before page 1 is handed over
        second = await anext(pages)
        assert [e.id for e in second.data] == [4, 5, 6] and client.requests_sent == 4  # and page 4 before page 2
        await pages.aclose()  # pages 3 and 4 are dropped, not read
        assert client.requests_sent == 4


@pytest.mark.anyio
async def test_a_short_page_drops_the_request_ahead_and_asks_where_it_ended(bad: BadServer) -> None:
    def route(line: str) -> Misbehaviour:
        skip = skip_of(line)
        end = 5 if skip == 3 else min(skip + 3, 9)  # the page from 3 comes back with two of three
        return events(range(skip + 1, end + 1), 9)

    bad.route = route
    async with ApiClient(bad.base_url, None, max_retries=0) as client:
        ids = [event.id async for event in client.events.iter(page_size=3)]
        assert ids == list(range(1, 10))
        # skip 0, then 3 and 6 ahead; 3 ends at 5, so 6 is dropped and 5 asked for; then 8
        assert client.requests_sent == 5
    assert sorted({skip_of(line) for line in bad.requests}) in ([0, 3, 5, 6, 8], [0, 3, 5, 8])


def test_an_error_on_page_3_leaves_pages_1_and_2_written_and_says_so(bad: BadServer) -> None:
    refused = answer(
        400, {"http_status": 400, "request_id": "r-3", "errors": [{"context": "", "message": "no page 3"}]}
    )

    def route(line: str) -> Misbehaviour:
        skip = skip_of(line)
        if skip == 0:
            return events(range(1, 3), 6)
        if skip == 2:  # page 2 trickles in while page 3's refusal is already back
            page = events(range(3, 5), 6)
            return Misbehaviour("drip", body=page.body, interval=0.001)
        return refused

    bad.route = route
    result = invoke(
        ["events", "list", "--all", "--page-size", "2", "-o", "jsonl"], env={"SVCTUI_BASE_URL": bad.base_url, **TOKEN}
    )
    assert result.exit_code != 0, result.stderr
    assert [item["id"] for item in jsonl_items(result.stdout)] == [1, 2, 3, 4]
    assert "the output is cut short: 4 events were written before the error below; --skip 4 continues" in result.stderr
    assert "no page 3" in result.stderr and "Traceback" not in result.stderr
    assert result.stderr.index("cut short") < result.stderr.index("no page 3")


@pytest.mark.anyio
async def test_the_pages_after_the_first_go_out_before_it_is_validated(bad: BadServer) -> None:
    def route(line: str) -> Misbehaviour:
        if skip_of(line) == 0:  # an answer that fails validation, but whose count says there is more
            return answer(200, b'{"count": 9, "skip": 0, "limit": 3, "data": [{"id": "not a number"}]}')
        return events(range(skip_of(line) + 1, skip_of(line) + 4), 9)

    bad.route = route
    async with ApiClient(bad.base_url, None, max_retries=0) as client:
        with pytest.raises(ResponseShapeError):
            [event async for event in client.events.iter(page_size=3)]
        assert client.requests_sent == 3  # pages 2 and 3 were asked for on page 1's bytes, then dropped


def test_the_leading_count_is_read_only_from_an_envelope_that_starts_with_it() -> None:
    assert leading_count(b'{"count":4000,"limit":1000,"skip":0,"data":[{"count":1}]}') == 4000
    assert leading_count(b' {\n  "count" : 12 }') == 12
    assert leading_count(b'{"data":[{"count":1}],"count":5}') is None
    assert leading_count(b'{"count":"5"}') is None
    assert leading_count(b"") is None
