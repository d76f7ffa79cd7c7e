"""SVG snapshots of the Completed tasks screen at 120x36 with local zone CET (times show local and UTC): deltas,
quick filters, the drops view and a wrong key (auth failure).
Its states at 80x24 and 160x45 are in test_matrix_tasks.py.

The client is the one with the first seeded drop of the demo data; its drop task shows the domain-results pane,
and the deltas. Review changed SVGs before accepting them with `--snapshot-update` (rsvg-convert, look).
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
from tests.support.snapshots import SnapCompare, pressing
from tests.support.tasks import drop_case
from tests.support.tui import SIZE, make_app, wrong_key_profile

THEMES = ["textual-dark", "svctui-paper"]
LOCAL_ZONE = "CET-1CEST,M3.5.0,M10.5.0/3"  # a POSIX rule: needs no tz database
# The screen shows its own notice for the deprecated endpoint; the app routes the client's notice away from
# Python warnings, so a DeprecationWarning here is a bug.
pytestmark = pytest.mark.filterwarnings("error:completed-tasks is deprecated:DeprecationWarning")


@pytest.fixture(autouse=True)
def local_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is CET for these snapshots (the zone is read again once the variable is restored)."""
    monkeypatch.setenv("TZ", LOCAL_ZONE)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def app_on_drop_client(demo_server: DemoServer, theme: str = "textual-dark", **kwargs: Any) -> SvcTuiApp:
    case = drop_case(demo_server)
    return make_app(demo_server, settings=Settings(theme=theme, recent_clients=[case.client_id]), **kwargs)


def on_tasks(*keys: str, task_id: int | None = None) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Open the tasks screen, optionally filter to one task, then press `keys`."""
    return pressing(*keys, screen="2", task_id=task_id)


@pytest.fixture
def drop_task(demo_server: DemoServer) -> int:
    """The task of the first seeded drop."""
    return drop_case(demo_server).task_id


@pytest.mark.parametrize("theme", THEMES)
def test_deltas(snap_compare: SnapCompare, demo_server: DemoServer, drop_task: int, theme: str) -> None:
    run_before = on_tasks("W", task_id=drop_task)
    assert snap_compare(app_on_drop_client(demo_server, theme), terminal_size=SIZE, run_before=run_before)


def test_quick_filter_failed_last_24h(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    assert snap_compare(app_on_drop_client(demo_server), terminal_size=SIZE, run_before=on_tasks("f"))


def test_runs_with_drops(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    assert snap_compare(app_on_drop_client(demo_server), terminal_size=SIZE, run_before=on_tasks("d", "P"))


@pytest.mark.parametrize("theme", THEMES)
def test_auth_failure(snap_compare: SnapCompare, demo_server: DemoServer, fixed_request_ids: None, theme: str) -> None:
    app = app_on_drop_client(demo_server, theme, profile=wrong_key_profile(demo_server))
    assert snap_compare(app, terminal_size=SIZE, run_before=on_tasks())
