"""SVG snapshots at 80x24, the smallest terminal the dashboard is made for: each screen keeps the columns that
matter (id, status, time, client) first, the plot its rows (or a line asking for room), the footer its main keys
and the filter editor its buttons. One theme: the layout, not the colours, is under test here.

Review changed SVGs before accepting them with `--snapshot-update` (/tmp/svgtext.py prints their text rows).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from tests.support.selectors import open_cleanup
from tests.support.snapshots import SnapCompare
from tests.support.snapshots import pressing as shared_pressing
from tests.support.tasks import drop_case
from tests.support.tui import make_app, settle

SMALL = (80, 24)
Steps = Callable[[Pilot[Any]], Awaitable[None]]
pytestmark = pytest.mark.filterwarnings("error:GET /api/v2/clients:DeprecationWarning")


@pytest.fixture(autouse=True)
def utc_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC here (the zone is read again once the variable is restored)."""
    monkeypatch.setenv("TZ", "UTC0")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def small_app(demo_server: DemoServer, **settings: Any) -> SvcTuiApp:
    case = drop_case(demo_server)
    return make_app(demo_server, settings=Settings(recent_clients=[case.client_id], **settings))


def pressing(*keys: str, screen: str = "", task_id: int | None = None) -> Steps:
    """The shared steps, notifications cleared before the picture."""
    return shared_pressing(*keys, screen=screen, task_id=task_id, quiet=True)


def test_events(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    assert snap_compare(small_app(demo_server), terminal_size=SMALL, run_before=pressing())


def test_tasks_filter_editor(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    """The editor with the most rows: they scroll, the buttons stay in view."""
    assert snap_compare(small_app(demo_server), terminal_size=SMALL, run_before=pressing("slash", screen="2"))


def test_tasks(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    assert snap_compare(small_app(demo_server), terminal_size=SMALL, run_before=pressing(screen="2"))


def test_tasks_plot(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    run_before = pressing("P", screen="2", task_id=drop_case(demo_server).task_id)
    assert snap_compare(small_app(demo_server), terminal_size=SMALL, run_before=run_before)


def test_selectors(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_cleanup(pilot)
        screen.selector_table.move_cursor(row=0, column=1, animate=False)
        await settle(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)

    assert snap_compare(small_app(demo_server, page_size=20), terminal_size=SMALL, run_before=run_before)


def test_help(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    """The key list fits its dialog (the binding ids are left out under 100 columns)."""
    assert snap_compare(small_app(demo_server), terminal_size=SMALL, run_before=pressing("question_mark"))
