"""svctui.tui.heap: the app's collector policy (full passes held while a load runs, its results frozen after)."""

from __future__ import annotations

import asyncio
import contextvars
import gc
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
from textual.app import App
from textual.pilot import Pilot

from svctui.tui.heap import FULL_HELD, HeapPolicy

pytestmark = pytest.mark.anyio
FREED = 1_000  # frozen objects of the app's own freed by reference counting meanwhile (a load keeps 100,000)


@pytest.fixture
def anyio_backend() -> str:
    """asyncio only (Textual runs on it)."""
    return "asyncio"


class PolicyApp(App[None]):
    """An app that installs the policy as SvcTuiApp does: as it mounts, removed as it unmounts."""

    def __init__(self) -> None:
        super().__init__()
        self.policy = HeapPolicy(self)

    def on_mount(self) -> None:
        self.policy.install()

    def on_unmount(self) -> None:
        self.policy.uninstall()


@asynccontextmanager
async def running_policy() -> AsyncIterator[tuple[PolicyApp, Pilot[None]]]:
    app = PolicyApp()
    before = gc.get_threshold()
    try:
        async with app.run_test() as pilot:
            yield app, pilot
        assert gc.get_threshold() == before, "the app closed: the collector as it was"
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


async def until(pilot: Pilot[None], condition: Callable[[], bool]) -> None:
    """Pause until `condition()` holds (however long the machine takes; a bound only against a hang)."""
    for _ in range(2000):
        if condition():
            return
        await pilot.pause(0.01)


def allocating(kept: list[object], gate: asyncio.Event) -> Callable[[], Awaitable[None]]:
    """A load: 100,000 young objects kept (the collector passes over its middle generation meanwhile), then a wait."""

    async def load() -> None:
        kept.extend({"values": [index]} for index in range(50_000))
        await gate.wait()

    return load


async def loaded(app: PolicyApp, pilot: Pilot[None], group: str, kept: list[object]) -> bool:
    """Run a load of worker group `group` that keeps 100,000 objects, until it is done and nothing is held; True
    when full passes were held while it ran."""
    gate = asyncio.Event()
    worker = app.run_worker(allocating(kept, gate), group=group)
    await until(pilot, lambda: len(kept) == 50_000)
    for _ in range(3):  # the collector has reported its passes; the app's loop looked
        await pilot.pause()
    held = app.policy.holding
    gate.set()
    await until(pilot, lambda: worker.is_finished)
    await until(pilot, lambda: not app.policy.holding)
    return held


async def test_full_collections_are_held_while_a_clients_round_or_a_history_loads() -> None:
    kept: list[object] = []
    async with running_policy() as (app, pilot):
        young, middle, full = gc.get_threshold()
        for group in ("load:judge", "load:history"):
            gate = asyncio.Event()
            app.run_worker(allocating(kept, gate), group=group)
            await until(pilot, lambda: app.policy.holding)
            assert gc.get_threshold() == (young, middle, FULL_HELD), f"no full pass while {group} runs"
            gate.set()
            await until(pilot, lambda: not app.policy.holding)
            assert gc.get_threshold() == (young, middle, full), "full passes on again once it is done"


async def test_a_history_or_a_log_is_frozen_once_loaded_a_page_is_not() -> None:
    """A page replaced by the next is not frozen (a frozen cycle is never freed: rss-100k); a history or a log is,
    and frozen objects are still freed by reference counting."""
    page: list[object] = []
    history: list[object] = []
    log: list[object] = []
    async with running_policy() as (app, pilot):
        app.policy.settle()  # the first page (the start-up heap) frozen: done once
        frozen = gc.get_freeze_count()
        assert not await loaded(app, pilot, "load:page", page), "a page: not held (pages come back to back)"
        assert gc.get_freeze_count() <= frozen, "a page: nothing frozen"
        assert await loaded(app, pilot, "load:history", history)
        assert gc.get_freeze_count() >= frozen + len(history) * 2 - FREED, "a history: frozen as the hold ends"
        frozen = gc.get_freeze_count()
        await loaded(app, pilot, "log-read", log)  # not held: frozen when the watch sees it done
        await until(pilot, lambda: gc.get_freeze_count() >= frozen + len(log) * 2 - FREED)
        assert gc.get_freeze_count() >= frozen + len(log) * 2 - FREED, "a log: frozen"
        frozen = gc.get_freeze_count()
        history.clear()
        assert gc.get_freeze_count() <= frozen - 100_000, "frozen, still freed by reference counting"


async def test_the_first_clients_round_is_frozen_a_later_one_and_a_second_settle_are_not() -> None:
    """A live round's dead cycles would be kept for good: only the first round (the fleet's runs, kept by the later
    ones) is frozen; the start-up heap once, by the app's first page."""
    first: list[object] = []
    again: list[object] = []
    async with running_policy() as (app, pilot):
        assert await loaded(app, pilot, "load:judge", first)
        assert gc.get_freeze_count() >= len(first) * 2, "the first Clients round frozen"
        frozen = gc.get_freeze_count()
        assert await loaded(app, pilot, "load:judge", again)
        app.policy.settle()
        assert gc.get_freeze_count() <= frozen, "a later round not, nor a settle after a freeze"


async def test_a_look_from_a_context_without_the_app_still_lets_go() -> None:
    """The collector reports from any thread or callback, outside the app's context: the watch still runs (a timer
    made there failed on Textual's missing active app, and the hold was never let go)."""
    gate = asyncio.Event()
    async with running_policy() as (app, pilot):
        app.run_worker(allocating([], gate), group="load:history")
        await until(pilot, lambda: len(app.workers) > 0 and all(worker.is_running for worker in app.workers))
        contextvars.Context().run(app.policy.look)
        assert app.policy.holding
        gate.set()
        await until(pilot, lambda: not app.policy.holding)
        assert not app.policy.holding


async def test_a_worker_that_is_not_a_big_load_holds_nothing() -> None:
    kept: list[object] = []
    gate = asyncio.Event()
    async with running_policy() as (app, pilot):
        app.run_worker(allocating(kept, gate), group="plot-build")
        await until(pilot, lambda: len(kept) == 50_000)
        for _ in range(3):
            await pilot.pause()
        assert not app.policy.holding and gc.get_threshold()[2] != FULL_HELD
        gate.set()


async def test_an_app_closing_in_the_middle_of_a_load_lets_go_of_the_hold() -> None:
    gate = asyncio.Event()
    async with running_policy() as (app, pilot):  # running_policy checks the threshold after the close
        app.run_worker(allocating([], gate), group="load:history")
        await until(pilot, lambda: app.policy.holding)
        assert app.policy.holding
    assert not app.policy.installed
