"""The morning check validated and judged in turns on the event loop (svctui.fleet `in_turns`, the dashboard's
way): the same pages and verdicts as in threads, one body at a time, the loop free between slices of a page."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from svctui.api.client import SLICE_ITEMS, THREAD_PARSE_BYTES, WHOLE_IN_TURN_BYTES, ApiClient
from svctui.api.errors import ResponseShapeError
from svctui.api.filters import COMPLETED_TASKS
from svctui.api.models import CompletedTask, Page
from svctui.api.resources import list_params
from svctui.api.signing import SignatureAuth
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.fleet import find_fleet, fleet_health, recent_runs_query

pytestmark = pytest.mark.anyio
PAGE = Page[CompletedTask]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class TurnNotingClient(ApiClient):
    """The real client, noting where each body was validated: whole (`parse`, and on which thread) or in turns."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.whole: list[tuple[int, bool]] = []  # (body bytes, on the loop's thread)
        self.in_turns: list[int] = []  # body bytes
        self.at_once = 0  # bodies being validated in turns right now
        self.most_at_once = 0

    def parse(self, model: Any, response: httpx.Response) -> Any:
        """Note the thread, then parse as usual."""
        self.whole.append((len(response.content), threading.current_thread() is threading.main_thread()))
        return super().parse(model, response)

    async def parse_in_turn(self, model: Any, response: httpx.Response) -> Any:
        """Note how many bodies are in turns together, then parse in turns as usual."""
        self.in_turns.append(len(response.content))
        self.at_once += 1
        self.most_at_once = max(self.most_at_once, self.at_once)
        try:
            return await super().parse_in_turn(model, response)
        finally:
            self.at_once -= 1


@pytest.fixture
async def client(demo_server: DemoServer) -> AsyncIterator[TurnNotingClient]:
    """A noting client of the session's demo server, open for the test."""
    noting = TurnNotingClient(demo_server.base_url, SignatureAuth(demo_server.token_id, demo_server.token_key))
    async with noting:
        yield noting


async def test_in_turns_the_fleet_is_judged_as_in_threads_one_body_at_a_time_on_the_loop(
    client: TurnNotingClient,
) -> None:
    fleet = await find_fleet(client)
    client.whole.clear()  # the client list
    threaded = await fleet_health(client, fleet.members, FIXED_ANCHOR)
    big = [size for size, on_loop in client.whole if size >= THREAD_PARSE_BYTES]
    assert big and not any(on_loop for size, on_loop in client.whole if size >= THREAD_PARSE_BYTES)
    client.whole.clear()
    turns = await fleet_health(client, fleet.members, FIXED_ANCHOR, in_turns=True)
    assert [result.health for result in turns] == [result.health for result in threaded]
    assert all(result.health is not None for result in turns)
    assert sorted(client.in_turns) == sorted(big), "every big page validated in turns"
    assert all(on_loop for _size, on_loop in client.whole), "on the loop, never in a thread"
    assert all(size < WHOLE_IN_TURN_BYTES for size, _on_loop in client.whole), "only bodies of a short step whole"
    assert client.most_at_once == 1, "one body at a time (several in threads held the GIL away from the loop)"


async def recent_runs(client: ApiClient) -> httpx.Response:
    """The biggest recent-runs answer among the demo's clients (a 2xx with its body read)."""
    fleet = await find_fleet(client)
    params = list_params(COMPLETED_TASKS, recent_runs_query(), hydrate_default=True)
    answers = [
        await client.request("GET", f"/api/v2/clients/{member.client_id}/completed-jobs", params)
        for member in fleet.members
    ]
    return max(answers, key=lambda response: len(response.content))


def grown(response: httpx.Response, size: int) -> httpx.Response:
    """The answer with its runs repeated until the body is at least `size` bytes (a page too big for one step)."""
    page = json.loads(response.content)
    runs = page["data"]
    while len(json.dumps(page)) < size:
        page["data"] = page["data"] + runs
    page["count"] = len(page["data"])
    return httpx.Response(200, content=json.dumps(page).encode(), request=response.request)


async def test_a_page_in_turns_is_the_page_parse_makes_and_the_loop_runs_between_its_slices(
    client: TurnNotingClient,
) -> None:
    response = grown(await recent_runs(client), WHOLE_IN_TURN_BYTES)
    whole = client.parse(PAGE, response)
    assert len(whole.data) > 3 * SLICE_ITEMS
    turns = 0
    done = False

    async def count_turns() -> None:
        nonlocal turns
        while not done:
            turns += 1
            await asyncio.sleep(0)

    counting = asyncio.ensure_future(count_turns())
    await asyncio.sleep(0)
    try:
        sliced = await client.parse_in_turn(PAGE, response)
    finally:
        done = True
        await counting
    assert sliced == whole and sliced.model_dump() == whole.model_dump()
    assert sliced.model_fields_set == whole.model_fields_set and sliced.model_extra == whole.model_extra
    assert turns >= len(whole.data) // SLICE_ITEMS, "the loop ran other work between the slices"


async def test_a_page_of_a_short_step_in_turns_is_validated_whole(client: TurnNotingClient) -> None:
    response = await recent_runs(client)
    assert THREAD_PARSE_BYTES <= len(response.content) < WHOLE_IN_TURN_BYTES
    client.whole.clear()
    page = await client.parse_in_turn(PAGE, response)
    assert client.whole == [(len(response.content), True)], "whole, straight from the bytes, on the loop"
    assert page == client.parse(PAGE, response)


async def test_pages_that_came_in_together_are_validated_one_a_loop_turn(
    client: TurnNotingClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27's stall budget (clients-fill): bodies of a short step whose answers completed in the same turn of the
    loop were all validated in that turn (the turn's lock is never contended when a body takes no await): ~20 pages
    of ~2.5 ms each held the loop 50-70 ms. Each now starts a turn of its own."""
    response = await recent_runs(client)
    assert len(response.content) < WHOLE_IN_TURN_BYTES, "a body validated whole, in one step"
    turns = 0
    done = False
    seen: list[int] = []  # the loop's turn at each body's validation
    parse = client.parse

    def noting(model: Any, body: httpx.Response) -> Any:
        seen.append(turns)
        return parse(model, body)

    async def count_turns() -> None:
        nonlocal turns
        while not done:
            turns += 1
            await asyncio.sleep(0)

    async def in_turn(lock: asyncio.Lock) -> Any:
        async with lock:  # as ApiClient.get holds PARSE_IN_TURN's lock
            return await client.parse_in_turn(PAGE, response)

    monkeypatch.setattr(client, "parse", noting)
    counting = asyncio.ensure_future(count_turns())
    await asyncio.sleep(0)
    lock = asyncio.Lock()
    try:
        pages = await asyncio.gather(*(in_turn(lock) for _ in range(5)))
    finally:
        done = True
        await counting
    assert all(page == pages[0] for page in pages)
    assert len(seen) == 5 and len(set(seen)) == 5, f"one body a turn of the loop, not {seen}"


def answer(body: bytes) -> httpx.Response:
    """A 2xx answer to a recent-runs request carrying `body`."""
    request = httpx.Request("GET", "http://127.0.0.1:1/api/v2/clients/c1/completed-jobs")
    return httpx.Response(200, content=body, request=request)


@pytest.mark.parametrize(
    "body",
    [
        b'{"count": 2, "data": [{"id": 1, "client_id": "c1"}, {"client_id": "c1"}]}',  # the 2nd task has no id
        b'{"count": 2, "data": [' + b'{"id": 1, "client_id": "c1"},' * 20_000 + b'{"id": "x", "client_id": "c1"}]}',
        b'{"data": []}',  # no count
        b'{"count": 1, "data": {"id": 1}}',  # data not a list
        b'{"count": 1, "data": [',  # cut short
        b"[]",
    ],
    ids=["missing-id", "bad-id-in-a-later-slice", "no-count", "data-not-a-list", "not-json", "not-an-object"],
)
async def test_a_body_not_in_shape_fails_in_turns_as_it_does_whole(body: bytes) -> None:
    async with ApiClient("http://127.0.0.1:1", None) as client:
        with pytest.raises(ResponseShapeError) as whole:
            client.parse(PAGE, answer(body))
        with pytest.raises(ResponseShapeError) as sliced:
            await client.parse_in_turn(PAGE, answer(body))
    assert str(sliced.value) == str(whole.value)
