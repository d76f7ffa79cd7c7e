"""The snapshot matrix of the Completed tasks screen (key 2): its states, tabs and dialogs at 80x24 and 160x45, dark
and light. The client is the one with the first seeded drop of the demo data (its drop task shows the domain results
and the plot); "empty" is the registered client that never ran.

One start-up per state (tests/support/matrix.py resizes and re-themes the running app for the four pictures).
Review changed SVGs before accepting them with `--snapshot-update` (/tmp/svgtext.py prints their text rows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot
from textual.widgets import Input, Select

from svctui.demo.data_health import FLEET_NEW_CLIENT
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from tests.support.live import live_app
from tests.support.matrix import (
    FAILING,
    SLOW,
    Steps,
    compare_matrix,
    gone_stale,
    pressing_only,
    settled_steps,
    under_faults,
)
from tests.support.tasks import NO_DEPRECATION_WARNING, drop_case, only_task, query, tasks_screen
from tests.support.tui import make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone"), NO_DEPRECATION_WARNING]


def on_client(server: DemoServer, client_id: str = "") -> SvcTuiApp:
    """A dashboard remembering `client_id` (the drop client unless given)."""
    return make_app(server, settings=Settings(recent_clients=[client_id or drop_case(server).client_id]))


def on_tasks(*keys: str, task_id: int | None = None) -> Steps:
    """Settle, press 2, optionally filter to one task, press `keys`; notifications cleared."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        if task_id is not None:
            await only_task(pilot, tasks_screen(pilot.app), task_id)  # type: ignore[arg-type]
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await settled_steps(pilot)

    return steps


async def test_data(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(on_client(demo_server), on_tasks(), snapshot, tmp_path)


async def test_loading(snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, tmp_path: Path) -> None:
    steps = under_faults(fresh_demo_server, SLOW, pressing_only("2"))
    await compare_matrix(on_client(fresh_demo_server), steps, snapshot, tmp_path, wait_for_workers=False)


async def test_empty(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """The registered client that never ran: no tasks, and the screen says so."""
    [(never_ran,)] = query(demo_server, "SELECT id FROM clients WHERE name = ?", FLEET_NEW_CLIENT)
    await compare_matrix(on_client(demo_server, never_ran), on_tasks(), snapshot, tmp_path)


async def test_server_error(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    steps = under_faults(fresh_demo_server, FAILING, on_tasks())
    await compare_matrix(on_client(fresh_demo_server), steps, snapshot, tmp_path)


async def test_stale(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    app, clock = live_app(fresh_demo_server, recent_clients=[drop_case(fresh_demo_server).client_id])

    await compare_matrix(app, gone_stale(fresh_demo_server, clock, on_tasks("j", "space")), snapshot, tmp_path)


async def test_no_client_picker(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """No client remembered: the picker of known clients."""
    await compare_matrix(make_app(demo_server), on_tasks("C"), snapshot, tmp_path)


async def test_domain_results(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    steps = on_tasks("R", task_id=drop_case(demo_server).task_id)
    await compare_matrix(on_client(demo_server), steps, snapshot, tmp_path)


async def test_plot(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    steps = on_tasks("P", task_id=drop_case(demo_server).task_id)
    await compare_matrix(on_client(demo_server), steps, snapshot, tmp_path)


async def test_deltas_zoomed(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """`W` `z`: the comparison on the whole screen; at 80x24 a cut domain heading ends with `…` and a domain left
    out is named (`+1 column: …`), no column off screen (issue 28)."""
    drop = drop_case(demo_server, 1)  # three domains, one of them removed since
    steps = on_tasks("W", "z", task_id=drop.task_id)
    await compare_matrix(on_client(demo_server, drop.client_id), steps, snapshot, tmp_path)


async def test_quick_filter_not_ok(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """`o`: more chips than the line has room for at 80x24: `+N more` and `x clears all` in view (issue 28)."""
    await compare_matrix(on_client(demo_server), on_tasks("o"), snapshot, tmp_path)


async def test_plot_zoomed(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """`z`: the detail pane on the whole screen, so the plot has its rows at 80x24 too."""
    steps = on_tasks("P", "z", task_id=drop_case(demo_server).task_id)
    await compare_matrix(on_client(demo_server), steps, snapshot, tmp_path)


async def test_filter_editor(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """The editor with the most rows, one of them wrong (inline error), the time and status rows set."""

    async def steps(pilot: Pilot[Any]) -> None:
        await on_tasks("slash")(pilot)
        await pilot.press(*"event_id=eq:abc")
        editor = pilot.app.screen
        editor.query_one("#row-end_time").query_one(".filter-op", Select).value = "gte"
        editor.query_one("#row-end_time").query_one(Input).value = "-24h"
        editor.query_one("#row-status").query_one(".filter-value", Select).value = "failed"
        await pilot.press("enter")
        await settle(pilot)

    await compare_matrix(on_client(demo_server), steps, snapshot, tmp_path)
