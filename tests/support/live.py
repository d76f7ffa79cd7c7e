"""Helpers for the live refresh tests: a hand-moved monotonic clock, an app on it, a refresh now, a failed run."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from svctui.api.models import TaskStatus
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from svctui.tui.live import LiveRefresh, Tick
from tests.support.tui import RecordingApp, make_app, settle

SECONDS = 60  # the interval the tests set; time only moves when a test moves it


class HandClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock on."""
        self.now += seconds


class HandTicked(LiveRefresh):
    """Live refresh that only the test ticks: no timer (a tick a second would refresh while a test waits)."""

    def start(self) -> None:
        """Start no timer: the test calls `tick()`."""


def live_app(server: DemoServer, *, seconds: int = SECONDS, **settings: Any) -> tuple[RecordingApp, HandClock]:
    """A dashboard on `server` refreshing every `seconds` on a hand-moved clock (settings from `settings`)."""
    app = make_app(server, settings=Settings(**settings), refresh_seconds=seconds)
    clock = HandClock()
    app.live = HandTicked(app, seconds, clock)
    return app, clock


async def refresh_now(pilot: Pilot[Any], clock: HandClock) -> Tick:
    """Let the interval pass, run one tick, wait for what it started; what the tick did."""
    app = pilot.app
    assert isinstance(app, SvcTuiApp)
    clock.advance(app.live.seconds)
    done = app.live.tick()
    await settle(pilot)
    return done


async def a_502_leaves_the_rows_stale_until_the_next_answer(
    pilot: Pilot[Any], clock: HandClock, server: DemoServer, table: Any, status_line: Callable[[], str]
) -> None:
    """A refresh the server answers with a 502 keeps the rows on screen, dimmed, and the status line starts with
    why and how to retry; the next good answer clears the mark (one check for every screen with live refresh)."""
    rows = table.row_count
    server.faults = Faults(kinds={"html": 1.0})
    assert await refresh_now(pilot, clock) is Tick.REFRESHED
    assert table.row_count == rows and table.has_class("-stale")
    assert status_line().startswith("stale: The server answered 502  ·  r to retry"), status_line()
    assert pilot.app.header_info.problem == "HTTP 502"  # type: ignore[attr-defined]
    server.faults = Faults()
    assert await refresh_now(pilot, clock) is Tick.REFRESHED
    assert not table.has_class("-stale") and "stale" not in status_line()
    await settle(pilot)  # the header's probe, sent alongside the refresh (the server is back on every screen)
    assert pilot.app.header_info.problem is None, "the header still says the server failed"  # type: ignore[attr-defined]


def insert_failed_run(server: DemoServer, client_id: str, message: str = "LDAP bind failed") -> int:
    """A new failed run of `client_id`, a minute after its newest run (a copy of it, updated after every other
    run): its id."""
    with sqlite3.connect(str(server.db_path)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(tasks)")]
        newest = conn.execute(
            "SELECT id FROM tasks WHERE client_id = ? AND deleted_at IS NULL ORDER BY execution_time DESC, id DESC",
            (client_id,),
        ).fetchone()[0]
        new_id = int(conn.execute("SELECT max(id) + 1 FROM tasks").fetchone()[0])
        changed = {
            "id": "?",
            "status": str(int(TaskStatus.FAILED)),
            "status_message": "?",
            "execution_time": "execution_time + 60000000",
            # written just now, as a real server's new run is (a live round asks for the runs updated since)
            "updated_at": "(SELECT max(updated_at) FROM tasks) + 1000000",
        }
        select = ", ".join(changed.get(column, column) for column in columns)
        conn.execute(
            f"INSERT INTO tasks ({', '.join(columns)}) SELECT {select} FROM tasks WHERE id = ?",
            (new_id, message, newest),
        )
    return new_id
