"""Newcomer walk (issue 27): the dashboard's words say what the user sees, in the user's words."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.help import HelpScreen, collect_keys, help_content
from svctui.tui.widgets.count_plot import CountPlot
from tests.support.tasks import (
    NO_DEPRECATION_WARNING,
    drop_case,
    on_tasks,
    open_tasks,
    query,
    tasks_app,
    text_of,
)
from tests.support.tui import on_events, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_a_client_without_runs_says_so_in_words_and_L_has_no_run_to_open(demo_server: DemoServer) -> None:
    """`This client has no completed-jobs` named the endpoint; `L` said `No run under the cursor: its log opens
    with L.` (the key just pressed)."""
    never_ran = query(demo_server, "SELECT id FROM clients WHERE id NOT IN (SELECT client_id FROM tasks)")[0][0]
    async with on_tasks(demo_server, never_ran) as (app, pilot, screen):
        body = text_of(screen.state_panel.query_one("#state-body", Static))
        assert "This client has no completed runs" in body and "completed-jobs" not in body.split("\n")[0], body
        await pilot.press("L")
        await settle(pilot)
        assert app.notes[-1].message == "No run to open the log of (the list is empty).", app.notes[-1]


async def test_the_tasks_status_line_says_the_sort_in_words(demo_server: DemoServer) -> None:
    """The status line showed the API's `sort -execution_time`."""
    client = query(demo_server, "SELECT client_id FROM tasks LIMIT 1")[0][0]
    app = tasks_app(demo_server, client)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await open_tasks(pilot)
        line = text_of(screen.query_one("#status-line", Static))
        assert "sorted by execution time ▼" in line and "-execution_time" not in line, line


async def test_help_says_what_s_does_in_words(demo_server: DemoServer) -> None:
    """`s Sort by this column: ▲ ▼ off; after sorts set` was unclear."""
    async with on_events(demo_server) as (app, _pilot, screen):
        row = next(row for row in collect_keys(app, screen) if row.binding_id == "table.sort")
        assert row.tooltip == "Sort by this column ▲; again: ▼; again: off. With a sort set, it adds a second (▲2)"


async def test_clients_help_is_headed_by_the_screens_name(demo_server: DemoServer) -> None:
    """Clients' `?` was headed `This screen` where the other screens use their name."""
    async with on_events(demo_server) as (app, pilot, _screen):
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        text = help_content(help_screen.rows, help_screen.noun).plain
        assert "Clients" in text and "This screen" not in text


async def test_the_cramped_plot_says_the_drops_are_below_only_when_they_show(demo_server: DemoServer) -> None:
    """At 80x24 (80x18 since the pane takes 3/5 there), in the runs with drops (`d`), the plot said `the drops are
    listed below` with nothing below it (the title's two lines and the line asking for room took the pane's rows)."""
    case = drop_case(demo_server)
    app = tasks_app(demo_server, case.client_id)
    async with app.run_test(size=(80, 18)) as pilot:  # at 80x24 the pane (3/5) has room for the list
        screen = await open_tasks(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("P")
        await settle(pilot)
        plot = screen.query_one(CountPlot)
        for _ in range(12):
            if plot.field_drops():
                break
            await pilot.press("n")
            await settle(pilot)
        assert plot.has_class("-cramped") and plot.field_drops()
        room = text_of(plot.query_one("#count-plot-room", Static))
        listing = plot.query_one("#count-plot-drops", Static)
        shown = listing.region.height > 0 and listing.region.bottom <= plot.region.bottom
        assert not shown, "this layout has no room for the list (else the test proves nothing)"
        assert "listed below" not in room, room
