"""SVG snapshots of live refresh: the Events and Clients screens after a refresh that failed (rows kept, dimmed,
marked stale).

Review changed SVGs before accepting them with `--snapshot-update` (/tmp/svgtext.py prints their text rows).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from tests.support.live import live_app, refresh_now
from tests.support.tui import SIZE, settle

SnapCompare = Callable[..., bool]


@pytest.mark.parametrize("theme", ["textual-dark", "svctui-paper"])
def test_stale_after_a_failed_refresh(
    snap_compare: SnapCompare, fresh_demo_server: DemoServer, fixed_request_ids: None, theme: str
) -> None:
    app, clock = live_app(fresh_demo_server, theme=theme)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("j", "j", "space")
        fresh_demo_server.faults = Faults(kinds={"html": 1.0})
        await refresh_now(pilot, clock)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_clients_stale_after_a_failed_refresh(
    snap_compare: SnapCompare, fresh_demo_server: DemoServer, fixed_request_ids: None
) -> None:
    app, clock = live_app(fresh_demo_server)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        fresh_demo_server.faults = Faults(kinds={"html": 1.0})
        await refresh_now(pilot, clock)

    assert snap_compare(app, terminal_size=(160, 40), run_before=run_before)
