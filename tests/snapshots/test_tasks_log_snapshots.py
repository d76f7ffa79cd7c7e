"""SVG snapshots of a run's log in the tasks screen's detail pane (L), zoomed (z) with a search and the level
filter, at 80x24 and 160x45: a partially complete run with a failed domain (its ERROR line, the headline above)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.demo.runlogs import NO_LOG_EVERY
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from tests.support.snapshots import SnapCompare, pressing
from tests.support.tasks import query, tasks_screen
from tests.support.tui import make_app, settle

SIZES = [(80, 24), (160, 45)]


def failed_domain_run(server: DemoServer) -> tuple[str, int]:
    """(client, task) of the first partially complete run with a failed domain and a log."""
    row = query(
        server,
        "SELECT t.client_id, t.id FROM tasks t JOIN domain_results r ON r.job_id = t.id WHERE r.success = 0 "
        f"AND r.message != '' AND t.status = 8 AND t.id % {NO_LOG_EVERY} != 11 ORDER BY t.id LIMIT 1",
    )[0]
    return str(row[0]), int(row[1])


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_log_in_the_detail_pane(snap_compare: SnapCompare, demo_server: DemoServer, size: tuple[int, int]) -> None:
    client, task = failed_domain_run(demo_server)
    app = make_app(demo_server, settings=Settings(recent_clients=[client]))
    assert snap_compare(app, terminal_size=size, run_before=pressing("L", screen="2", task_id=task))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_log_zoomed_searched_and_filtered(
    snap_compare: SnapCompare, demo_server: DemoServer, size: tuple[int, int]
) -> None:
    client, task = failed_domain_run(demo_server)
    app = make_app(demo_server, settings=Settings(recent_clients=[client]))
    keys = ("L", "z", "w", "slash", *"ldap", "enter")
    assert snap_compare(app, terminal_size=size, run_before=pressing(*keys, screen="2", task_id=task))


def test_log_zoomed_and_wrapped(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    """ctrl+w: the long lines (the failed domain's ERROR line) go on over the next screen lines at 80 columns."""
    client, task = failed_domain_run(demo_server)
    app = make_app(demo_server, settings=Settings(recent_clients=[client]))
    keys = ("L", "z", "ctrl+w")
    assert snap_compare(app, terminal_size=(80, 24), run_before=pressing(*keys, screen="2", task_id=task))


def ok_run_with_a_log(server: DemoServer) -> tuple[str, int]:
    """(client, task) of the first complete run that kept a log."""
    row = query(
        server,
        "SELECT client_id, id FROM tasks WHERE status = 2 AND log_path IS NOT NULL AND start_time != 0 "
        f"AND id % {NO_LOG_EVERY} != 11 ORDER BY id LIMIT 1",
    )[0]
    return str(row[0]), int(row[1])


def test_headline_read_ahead_for_a_complete_run(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    """Issue 29 item 3: the cursor rested on a complete run (the log not opened): the headline above the tabs says
    how its log ended."""
    client, task = ok_run_with_a_log(demo_server)
    app = make_app(demo_server, settings=Settings(recent_clients=[client]))
    steps = pressing(screen="2", task_id=task)

    async def run_before(pilot: Pilot[Any]) -> None:
        await steps(pilot)
        screen = tasks_screen(pilot.app)  # type: ignore[arg-type]
        if not screen.detail.display:
            await pilot.press("p")
            await settle(pilot)
        detail = screen.task_detail
        assert detail.item is not None and detail.item.id == task
        detail._prefetch()  # what the rest's timer calls (a headless app sets none: no timer in a picture)
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 30), run_before=run_before)
