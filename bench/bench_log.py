"""Worst event-loop stall of the dashboard while it reads, scrolls and searches a run's log of several MB.

Rows (the tests' dashboard on a demo server child process, as bench_stall's rows; budget 50 ms of stall each):

- `stall-log-load`: `L` on a run whose demo log is ~5.8 MB (60,000 lines): the answer streamed, decoded and parsed
  in the log pane's worker, batches of lines shown as they come, the summary computed, until the read ended.
- `stall-log-scroll`: 40 page-downs, `G`, `g` and 40 page-ups over that log (the view draws only the rows on screen).
- `stall-log-search`: a search over every line (as enter in the search field runs it: in a thread), then `w`
  (warnings and errors only) and `w` again, each until its result is shown.
- `stall-log-search-keys`: the same search from the keys: `/` (the field takes the focus), the text typed, enter
  (the focus back on the log): the focus changes re-lay the screen out, as on any focus change there.
- `stall-log-wrap`: `ctrl+w` (every line wrapped to the view's width), 20 page-downs, `G`, `g`, `w` twice (the
  wrapped rows counted again for the filter) and `ctrl+w` back.

The first read of a big log makes the demo generate it (~0.5 s in the child, then cached): one untimed read
first, so the rows time the dashboard, not the demo.
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path

from bench.bench_stall import STALL_REPEATS, make_app, serving, stall_row
from bench.harness import Comparison
from bench.support import LagMonitor, launched_as, screen_settled, until
from svctui.api.filters import Filter
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.process import DemoProcess
from svctui.demo.runlogs import BIG_EVERY, NO_LOG_EVERY
from svctui.startup import DASHBOARD
from svctui.store.settings import Settings
from svctui.tui.screens.tasks.screen import TasksScreen
from tests.support.tui import settle

SIZE = (160, 50)


def big_run(demo: DemoProcess) -> tuple[str, int]:
    """(client, task) of the demo's first run with a big log."""
    assert demo.prepared is not None
    with sqlite3.connect(str(demo.prepared.path)) as conn:
        row = conn.execute(
            f"SELECT client_id, id FROM tasks WHERE id % {BIG_EVERY} = 5 AND ad_structure_collection = 1 "
            f"AND id % {NO_LOG_EVERY} != 11 AND start_time > 0 AND log_path IS NOT NULL ORDER BY id LIMIT 1"
        ).fetchone()
    return str(row[0]), int(row[1])


async def log_rows(demo: DemoProcess) -> list[Comparison]:
    """Load, scroll and search the big log."""
    client_id, task_id = big_run(demo)
    app = make_app(demo, settings=Settings(recent_clients=[client_id]))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.switch_mode("tasks")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TasksScreen), screen
        screen.set_filters([Filter("id", "eq", str(task_id))])
        await settle(pilot)
        pane = screen.task_detail.log_pane
        view = pane.view

        async def load() -> None:
            pane.task_id = None  # read it again
            screen.action_open_log()
            await until(lambda: not pane.loading)
            await screen_settled(pilot)

        await load()  # untimed: the demo generates the log once
        size = sum(len(line.message) + len(line.stamp) + 2 for line in view.lines)
        monitor = LagMonitor()
        monitor.start()
        await asyncio.sleep(0.05)

        async def scroll() -> None:
            for key in ("pagedown",) * 40 + ("G", "g") + ("pageup",) * 40:
                await pilot.press(key)

        async def search() -> None:
            view.search("happy graphing")  # what enter in the search field runs
            for keys in ((), ("w",), ("w",)):
                await pilot.press(*keys)
                await pilot.app.workers.wait_for_complete()
                await screen_settled(pilot)
            assert view.matches, "the search found the closing line"

        async def search_field() -> None:
            for keys in (("slash",), tuple("happy graphing"), ("enter",)):
                await pilot.press(*keys)
                await pilot.app.workers.wait_for_complete()
                await screen_settled(pilot)

        async def wrapped() -> None:
            for key in ("ctrl+w", *("pagedown",) * 20, "G", "g", "w", "w", "ctrl+w"):
                await pilot.press(key)
                await pilot.app.workers.wait_for_complete()
            await screen_settled(pilot)

        what = f"a {size / 1e6:.1f} MB log of {len(view.lines):,} lines"
        rows = [
            await stall_row("stall-log-load", f"tasks: L reads {what}", pilot, monitor, load, STALL_REPEATS),
            await stall_row("stall-log-scroll", f"tasks: 82 page keys over {what}", pilot, monitor, scroll, 3),
            await stall_row("stall-log-search", f"tasks: search, then w twice, over {what}", pilot, monitor, search, 3),
            await stall_row(
                "stall-log-search-keys",
                f"tasks: `/`, a search typed, enter, over {what}",
                pilot,
                monitor,
                search_field,
                3,
                "The search field takes the focus and gives it back: each focus change re-lays the screen out "
                "(the footer's keys change), as any focus change on the tasks screen does.",
            ),
            await stall_row(
                "stall-log-wrap", f"tasks: ctrl+w, 24 keys, ctrl+w over {what}", pilot, monitor, wrapped, 3
            ),
        ]
        await monitor.stop()
    return rows


async def _run() -> list[Comparison]:
    with (
        tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp,
        DemoProcess(sizes=DemoSizes(), db_path=Path(tmp) / "logs.sqlite3", rate_limit=0, anchor=FIXED_ANCHOR) as demo,
    ):
        serving(demo)
        return await log_rows(demo)


def run() -> list[Comparison]:
    """The log stall rows. The dashboard tuned as `svctui` tunes it at launch."""
    with launched_as(DASHBOARD):
        return asyncio.run(_run())
