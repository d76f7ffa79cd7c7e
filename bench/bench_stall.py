"""Worst event-loop stall of the dashboard while it shows data, and filter → table time, headless (Pilot).

Each stall row runs the real dashboard (`SvcTuiApp` through the tests' `make_app`, frozen clock) on a demo server
over loopback (rate limit off) inside `run_test`, with bench.support.LagMonitor firing a 5 ms timer on the app's
own loop. An action is started, the bench waits until its result is on screen (the page applied and the screen's
messages processed, or the history applied and the plot drawn) and records the worst lateness of the timer over
that window. The baseline is the same monitor over the same wall time with the app idle, right after. Subject and
baseline are medians over the repeats; the note gives the absolute worst. Issue 15's budget is 50 ms of stall each.

- `stall-first-page`: the events screen's first page of 1,000 rows on an emptied table (`reset()`: no filters,
  first page, load).
- `stall-page-turn`: `]` on the events screen, 1,000 rows replaced by the next 1,000.
- `stall-filter`: a filter applied (`set_filters`, as the editor's apply does) → 1,000 other rows shown.
- `stall-plot-history`: the tasks screen, plot tab open, reloads the history of a client with 50,000 tasks
  (`load_history()`: as shipped, the newest HISTORY_LIMIT tasks in pages, drop detection, the plot redrawn).
- `stall-drop-detection`: the same load with the history cap raised to every one of the 50,000 tasks (the bench
  sets `loaders.HISTORY_LIMIT` for this row only), so drop detection (and the plot's series) run over 50,000
  tasks the way the screen runs them (in the load worker's thread, with the plot's series; the loop applies the
  result and draws the plot).

`filter-to-table`: a filter applied on the events screen with a 500-row page → the table shows the new rows,
median of 7, against the bare round trip of the same request (same ListQuery) with an ApiClient alone.

The demo server runs in a child process (`DemoProcess`, as `svctui --demo` runs it), not in a thread of the
measured process. What is measured is the dashboard's loop, and a real server is another machine: with the server
in a thread (`DemoServer`) its request handling (routing, SQLite, JSON of 1,000 rows) would run under the same GIL,
so whenever the loop's thread was runnable it would wait for the server's slices, and the server's work would show
up as dashboard stalls and in filter-to-table's time. Before any row is measured the bench waits for the child to
answer a request (`serving()`), so no measured action pays for the child's start (its first connection would wait
in the accept queue until the child serves). The baseline request of filter-to-table goes to the same child.
"""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import statistics
import tempfile
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from textual.pilot import Pilot

from bench.harness import Comparison, Measurement, human
from bench.support import LagMonitor, launched_as, screen_settled, until
from svctui.api.client import ApiClient
from svctui.api.filters import EVENTS, Filter
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.process import DemoProcess
from svctui.startup import DASHBOARD
from svctui.store.settings import Settings
from svctui.triage import detect_drops
from svctui.tui.launch import demo_profile
from svctui.tui.screens import list_screen
from svctui.tui.screens.tasks import loaders
from svctui.tui.screens.tasks.screen import TasksScreen
from tests.support.tui import RecordingApp, events_screen, settle
from tests.support.tui import make_app as _make_app

SIZE = (160, 50)
BUDGET = 0.050
STALL_REPEATS = 3
FILTER_REPEATS = 7
EVENT_SIZES = DemoSizes(events=3500, tasks=200, selectors=10)
BIG_TASKS = 50_000
TASK_SIZES = DemoSizes(clients=1, events=20, tasks=BIG_TASKS, tags=2, selectors=10)


def make_app(demo: DemoProcess, settings: Settings) -> RecordingApp:
    """The tests' dashboard (frozen clock) on the demo child's admin token."""
    return _make_app(profile=demo_profile(demo), settings=settings)


def serving(demo: DemoProcess) -> None:
    """Wait until the demo child answers (it serves a little after `start()` returns), so no timed action pays
    for its start."""
    deadline = time.monotonic() + 60
    auth = SignatureAuth(demo.token_id, demo.token_key)
    with httpx.Client(base_url=demo.base_url, auth=auth, timeout=60) as http:
        while True:
            try:
                http.get("/api/v2/clients", params={"limit": 1}).raise_for_status()
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


def only_client(demo: DemoProcess) -> str:
    """The id of the demo's first client (the only one when generated with clients=1), read from its SQLite file."""
    assert demo.prepared is not None, "the demo server is not started"
    with sqlite3.connect(str(demo.prepared.path)) as conn:
        row = conn.execute("SELECT id FROM clients ORDER BY id LIMIT 1").fetchone()
    return str(row[0])


_pages_applied: weakref.WeakKeyDictionary[list_screen.ListScreen[Any], list[int]] = weakref.WeakKeyDictionary()


def applied(screen: list_screen.ListScreen[Any]) -> int:
    """How many pages the screen has shown since this was first asked about it: counted through its `page_arrived`
    hook, which each page for the latest request passes once, in the handler that then shows it."""
    counter = _pages_applied.get(screen)
    if counter is None:
        counter = _pages_applied[screen] = [0]
        arrived = screen.page_arrived

        def counted(page: Any, query: ListQuery) -> None:
            counter[0] += 1
            arrived(page, query)

        screen.page_arrived = counted  # type: ignore[method-assign]
    return counter[0]


async def shown(pilot: Pilot[Any], screen: list_screen.ListScreen[Any], before: int) -> None:
    """Wait until the screen showed a page after `before` pages (see `applied`), and its table and messages are
    done."""
    await until(lambda: applied(screen) > before)
    await screen_settled(pilot)


async def stall(
    pilot: Pilot[Any], monitor: LagMonitor, action: Callable[[], Awaitable[None]]
) -> tuple[float, float, float]:
    """(worst lateness during `action`, worst lateness idle for as long, how long `action` took).

    Before each window the app settles (workers done, messages processed) and garbage is collected, untimed, so
    neither window pays for what the other left behind.
    """
    await settle(pilot)
    gc.collect()
    monitor.reset()
    start = time.perf_counter()
    await action()
    elapsed = time.perf_counter() - start
    worst = monitor.worst()
    await settle(pilot)
    gc.collect()
    return worst, await monitor.idle(elapsed), elapsed


async def stall_row(
    name: str,
    what: str,
    pilot: Pilot[Any],
    monitor: LagMonitor,
    action: Callable[[], Awaitable[None]],
    repeats: int,
    note: str = "",
) -> Comparison:
    """`repeats` stalls of `action` against as many idle windows of the same length."""
    runs = [await stall(pilot, monitor, action) for _ in range(repeats)]
    busy, idle, took = ([run[i] for run in runs] for i in range(3))
    verdict = "within" if max(busy) <= BUDGET else "over"
    return Comparison(
        name,
        f"worst lateness of a 5 ms loop timer: {what} vs the idle app over the same wall time",
        Measurement("idle app, same wall time", statistics.median(idle), min(idle)),
        Measurement(what, statistics.median(busy), min(busy)),
        f"absolute worst stall {human(max(busy))} ({verdict} the 50 ms budget), per run "
        f"{', '.join(human(b) for b in busy)}; idle worst {human(max(idle))}; the action took "
        f"{', '.join(human(t) for t in took)} ({repeats} runs). {note}".strip(),
    )


def id_above(value: int) -> Filter:
    """`id > value` on the events."""
    return Filter.build(EVENTS, "id", "gt", str(value))


async def events_rows(demo: DemoProcess) -> list[Comparison]:
    """First page, page turn and filter on the events screen, 1,000-row pages."""
    app = make_app(demo, settings=Settings(page_size=1000))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = events_screen(app)
        monitor = LagMonitor()
        monitor.start()
        await asyncio.sleep(0.05)

        async def first_page() -> None:
            before = applied(screen)
            screen.reset()
            await shown(pilot, screen, before)

        async def page_turn() -> None:
            if screen.window.next_skip() is None:
                screen.window.skip = 0  # back to page 1 (not timed: the load is what counts)
            before = applied(screen)
            await pilot.press("right_square_bracket")
            await shown(pilot, screen, before)

        thresholds = iter([1000, 500, 1500, 700, 1200])

        async def apply_filter() -> None:
            before = applied(screen)
            screen.set_filters([id_above(next(thresholds))])
            await shown(pilot, screen, before)

        rows = [
            await stall_row(
                "stall-first-page", "events: first page of 1,000 rows", pilot, monitor, first_page, STALL_REPEATS
            ),
            await stall_row(
                "stall-page-turn", "events: `]`, 1,000 rows → the next 1,000", pilot, monitor, page_turn, STALL_REPEATS
            ),
            await stall_row(
                "stall-filter", "events: filter applied → 1,000 other rows", pilot, monitor, apply_filter, STALL_REPEATS
            ),
        ]
        await monitor.stop()
    return rows


async def filter_to_table(demo: DemoProcess) -> Comparison:
    """Filter applied → table updated with a 500-row page, vs the same request with the client alone."""
    app = make_app(demo, settings=Settings(page_size=500))
    app_times: list[float] = []
    bare_times: list[float] = []
    async with (
        app.run_test(size=SIZE) as pilot,
        ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client,
    ):
        await settle(pilot)
        screen = events_screen(app)
        await client.events.list(screen.current_query())  # the bare client's connection is warm too
        for index in range(FILTER_REPEATS):
            before = applied(screen)
            start = time.perf_counter()
            screen.set_filters([id_above(300 + 150 * index)])
            await shown(pilot, screen, before)
            app_times.append(time.perf_counter() - start)
            assert screen.table.row_count == 500, screen.table.row_count
            query = screen.current_query()
            start = time.perf_counter()
            page = await client.events.list(query)
            bare_times.append(time.perf_counter() - start)
            assert len(page.data) == 500
    return Comparison(
        "filter-to-table",
        "events, 500-row page over loopback: filter applied → table shows the new rows, vs the same request "
        "with ApiClient alone",
        Measurement("ApiClient: same request, bare round trip", statistics.median(bare_times), min(bare_times)),
        Measurement("dashboard: set_filters → rows shown", statistics.median(app_times), min(app_times)),
        f"medians of {FILTER_REPEATS}, alternating; the issue's budget is 150 ms median for the subject "
        f"(here {human(statistics.median(app_times))}). The dashboard's time includes the same request "
        "(validation into models included) plus building and drawing 500 rows.",
    )


async def tasks_rows(demo: DemoProcess) -> list[Comparison]:
    """History, plot and drops of a 50,000-task client on the tasks screen, as shipped and over every task."""
    client_id = only_client(demo)
    app = make_app(demo, settings=Settings(recent_clients=[client_id]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.switch_mode("tasks")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TasksScreen), screen
        screen.action_show_tab("plot")
        await settle(pilot)
        monitor = LagMonitor()
        monitor.start()
        await asyncio.sleep(0.05)

        async def history() -> None:
            screen.runs.clear()
            screen.load_history()
            await until(lambda: screen.runs.tasks is not None)
            await screen_settled(pilot)

        shipped = loaders.HISTORY_LIMIT
        plot = await stall_row(
            "stall-plot-history",
            f"tasks: history of a {BIG_TASKS:,}-task client loaded, plot drawn",
            pilot,
            monitor,
            history,
            STALL_REPEATS,
            f"As shipped: the newest {shipped:,} tasks (loaders.HISTORY_LIMIT), pages of {loaders.HISTORY_PAGE:,}.",
        )
        loaders.HISTORY_LIMIT = BIG_TASKS
        try:
            every = await stall_row(
                "stall-drop-detection",
                f"tasks: history with drop detection over all {BIG_TASKS:,} tasks, plot drawn",
                pilot,
                monitor,
                history,
                1,
            )
            assert screen.runs.tasks is not None and len(screen.runs.tasks) == BIG_TASKS
            tasks = screen.runs.tasks
        finally:
            loaders.HISTORY_LIMIT = shipped
        await monitor.stop()
    start = time.process_time()
    drops = detect_drops(tasks)
    alone = time.process_time() - start
    every = replace(
        every,
        note=f"{every.note} One run (fetching 50 pages takes a while); loaders.HISTORY_LIMIT raised to {BIG_TASKS:,} "
        f"for this row. detect_drops alone over the same tasks: {human(alone)} CPU ({len(drops)} drops).",
    )
    return [plot, every]


async def _run() -> list[Comparison]:
    with tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp:
        with DemoProcess(sizes=EVENT_SIZES, db_path=Path(tmp) / "events.sqlite3", rate_limit=0,
                         anchor=FIXED_ANCHOR) as demo:  # fmt: skip
            serving(demo)
            rows = await events_rows(demo)
            rows.append(await filter_to_table(demo))
        with DemoProcess(sizes=TASK_SIZES, db_path=Path(tmp) / "tasks.sqlite3", rate_limit=0,
                         anchor=FIXED_ANCHOR) as demo:  # fmt: skip
            serving(demo)
            rows += await tasks_rows(demo)
    return rows


def run() -> list[Comparison]:
    """The five stall rows and filter-to-table. The dashboard tuned as `svctui` tunes it at launch."""
    with launched_as(DASHBOARD):
        return asyncio.run(_run())
