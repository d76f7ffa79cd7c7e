"""SVG snapshots of the Clients screen (key 4): every health state worst first, at 160x45 in two themes and 80x24.

Review changed SVGs before accepting them with `--snapshot-update` (/tmp/svgtext.py prints their text rows).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from tests.support.snapshots import SnapCompare, steady_cursor
from tests.support.tui import make_app, settle

LARGE, SMALL = (160, 45), (80, 24)


async def on_clients(pilot: Pilot[Any]) -> None:
    await settle(pilot)
    await pilot.press("4")
    await settle(pilot)
    await steady_cursor(pilot)
    pilot.app.clear_notifications()
    await settle(pilot)


@pytest.mark.parametrize("theme", ["textual-dark", "svctui-paper"])
def test_clients(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    app = make_app(demo_server, settings=Settings(theme=theme))
    assert snap_compare(app, terminal_size=LARGE, run_before=on_clients)


def test_clients_small(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    assert snap_compare(make_app(demo_server), terminal_size=SMALL, run_before=on_clients)
