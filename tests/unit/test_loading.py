"""The dashboard's one load helper: the latest answer wins, failures are messages, threads work, nothing bubbles."""

from __future__ import annotations

import asyncio

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.widgets import Static

from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    """asyncio only (Textual runs on it)."""
    return "asyncio"


class LoadingApp(App[None]):
    """Records what its loads deliver."""

    def __init__(self) -> None:
        super().__init__()
        self.loads = Loads(self)
        self.seen: list[tuple[str, object]] = []
        self.release_first = asyncio.Event()

    def compose(self) -> ComposeResult:
        yield Static("loads")

    @on(Loaded)
    def _loaded(self, message: Loaded[object]) -> None:
        if self.loads.is_current(message):
            self.seen.append((message.channel.name, message.value))

    @on(LoadFailed)
    def _failed(self, message: LoadFailed) -> None:
        if self.loads.is_current(message):
            self.seen.append((message.channel.name, f"failed: {message.error}"))


async def test_a_newer_load_cancels_the_older_and_only_it_is_shown() -> None:
    app = LoadingApp()
    async with app.run_test() as pilot:

        async def slow() -> str:
            await app.release_first.wait()
            return "old"

        async def fast() -> str:
            return "new"

        page: Channel[str] = Channel("page")
        first = app.loads.start(page, slow)
        await pilot.pause()  # the first load is in flight
        second = app.loads.start(page, fast)
        await second.wait()
        await pilot.pause()
        assert first.is_cancelled
        assert app.seen == [("page", "new")]


async def test_a_stale_answer_that_arrives_anyway_is_dropped() -> None:
    app = LoadingApp()
    async with app.run_test() as pilot:
        gate = asyncio.Event()

        async def answer() -> str:
            await gate.wait()
            return "late"

        history: Channel[str] = Channel("history")
        app.loads.start(history, answer)
        app.loads.invalidate(history)  # e.g. the client changed: whatever is in flight is stale
        gate.set()
        app.post_message(Loaded(history, 1, "late", 0.0))
        await pilot.pause()
        assert app.seen == []


async def test_failures_are_messages_and_channels_are_independent() -> None:
    app = LoadingApp()
    async with app.run_test() as pilot:

        async def broken() -> str:
            raise RuntimeError("server said no")

        app.loads.start(Channel[str]("counts"), broken)
        app.loads.start_in_thread(Channel[dict[str, str]]("settings"), lambda: {"theme": "dark"})
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert sorted(app.seen, key=str) == [("counts", "failed: server said no"), ("settings", {"theme": "dark"})]


def test_a_screens_partial_answer_is_checked_like_a_load_of_its_channel() -> None:
    """Issue 10: a stale answer is dropped in one place. The Clients screen's answers, one per client, belong to the
    client list's load (channel and number): Loads.is_current keeps them while that load is the latest, and drops
    them once another list was asked for (the screen compared the numbers itself)."""
    from svctui.fleet import Member, MemberHealth
    from svctui.tui.screens.clients import FLEET, ClientJudged

    loads = Loads(Static())
    seq = loads.invalidate(FLEET)
    answer = ClientJudged(seq, MemberHealth(Member("c1"), None))
    assert loads.is_current(answer)
    loads.invalidate(FLEET)
    assert not loads.is_current(answer)


def test_a_channel_answers_only_its_own_loads() -> None:
    """A channel is told apart by the object, not its name: two screens' "page" channels never take each other's
    answers, and `answers` is what types a handler's `message.value`."""
    first, second = Channel[int]("page"), Channel[int]("page")
    message = Loaded(first, 1, 7, 0.0)
    assert first.answers(message) and not second.answers(message)
    assert repr(first) == "Channel('page')"
