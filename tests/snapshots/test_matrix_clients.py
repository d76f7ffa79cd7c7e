"""The snapshot matrix of the Clients screen (key 4): every health state worst first, and the screen loading, empty,
failed, stale, with one client stale (its refresh failed, the others fresh) and with one client that could not be
checked, at 80x24 and 160x45, dark and light.

One start-up per state (tests/support/matrix.py resizes and re-themes the running app for the four pictures).
Review changed SVGs before accepting them with `--snapshot-update` (/tmp/svgtext.py prints their text rows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.live import Tick
from svctui.tui.screens.clients import ClientsScreen
from tests.support.live import live_app, refresh_now
from tests.support.matrix import FAILING, SLOW, compare_matrix, gone_stale, pressing_only, settled_steps, under_faults
from tests.support.tasks import query
from tests.support.tui import make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]
UNKNOWN_CLIENT = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


async def on_clients(pilot: Pilot[Any]) -> None:
    """Settle, press 4, settle; notifications cleared."""
    await settle(pilot)
    await pilot.press("4")
    await settled_steps(pilot)


async def test_data(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(make_app(demo_server), on_clients, snapshot, tmp_path)


async def test_loading(snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, tmp_path: Path) -> None:
    steps = under_faults(fresh_demo_server, SLOW, pressing_only("4"))
    await compare_matrix(make_app(fresh_demo_server), steps, snapshot, tmp_path, wait_for_workers=False)


async def test_empty(snapshot: SnapshotAssertion, demo_server_community: DemoServer, tmp_path: Path) -> None:
    """A community server (no client list) and no client chosen yet: the screen says how to add one."""
    await compare_matrix(make_app(demo_server_community), on_clients, snapshot, tmp_path)


async def test_server_error(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    await compare_matrix(
        make_app(fresh_demo_server), under_faults(fresh_demo_server, FAILING, on_clients), snapshot, tmp_path
    )


async def test_one_client_not_checked(
    snapshot: SnapshotAssertion, demo_server_community: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    """A remembered client the server does not know: its row says why (404), the others are judged."""
    lab = query(demo_server_community, "SELECT id FROM clients WHERE name = 'SHARPHOUND-LAB'")[0][0]
    settings = Settings(recent_clients_by_profile={"demo": [UNKNOWN_CLIENT, lab]})
    await compare_matrix(make_app(demo_server_community, settings=settings), on_clients, snapshot, tmp_path)


async def test_stale(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    app, clock = live_app(fresh_demo_server)

    await compare_matrix(app, gone_stale(fresh_demo_server, clock, on_clients), snapshot, tmp_path)


async def test_one_client_stale(
    snapshot: SnapshotAssertion, fresh_older_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    """A live refresh that fails for one client only (faults on its runs' path, on a server without jobs/finished,
    where each client is read on its own): its row keeps the last answer's
    verdict, values and place, dimmed, with `stale: HTTP 500` in its last-run cell; the other rows are fresh and the
    status line counts the one. The client is not the one under the cursor, so its row shows dimmed (the pilot test
    in test_tui_live_refresh.py reads the detail pane's error)."""
    app, clock = live_app(fresh_older_demo_server)

    async def steps(pilot: Pilot[Any]) -> None:
        await on_clients(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, ClientsScreen)
        members = screen.ordered_members()
        failing = next(member.client_id for member in members if member.name == "SHARPHOUND-FRA-03")
        assert screen.current_key() != failing
        fresh_older_demo_server.faults = Faults(error_rate=1.0, only_path=f"/api/v2/clients/{failing}/")
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert screen.results[failing].error is not None
        assert [member.client_id for member in screen.ordered_members()] == [m.client_id for m in members]

    await compare_matrix(app, steps, snapshot, tmp_path)
