"""Pilot tests of issue 13 on Completed tasks: focus after choosing a client, one baseline for compare and plot,
a 200 that is not the API's, status/header/table agreeing while loading and after the server died, "not OK"."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.palette import dashboard_commands
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.paged_table import PagedTable
from tests.support.tasks import (
    NO_DEPRECATION_WARNING,
    client_ids,
    on_tasks,
    open_picker,
    open_tasks,
    query,
    tasks_app,
    text_of,
)
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_choosing_a_client_keeps_the_keyboard_on_the_task_list(demo_server: DemoServer) -> None:
    first, second = client_ids(demo_server)[:2]
    app = tasks_app(demo_server, first)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tasks(pilot)
        screen.set_focus(screen.query_one(DomainResultsPane).table)  # e.g. after a click in the lower pane
        await settle(pilot)
        await open_picker(pilot)
        await pilot.press(*second[:8], "enter")
        await settle(pilot)
        assert screen.client_id == second and screen.table.row_count > 1
        assert isinstance(app.focused, PagedTable) and app.focused is screen.table, app.focused
        before = screen.table.cursor_row
        await pilot.press("j")
        assert screen.table.cursor_row == before + 1, "j moves the tasks, not the domain results"
        footer_keys = {binding.key for _, binding, _, _ in app.active_bindings.values()}
        assert "left_square_bracket" in footer_keys and "slash" in footer_keys, "the list's keys stay active"


async def test_not_ok_quick_filter_says_what_it_sends_and_matches_exactly_the_three_statuses(
    demo_server: DemoServer,
) -> None:
    client = client_ids(demo_server)[0]
    expected = query(demo_server, "SELECT count(*) FROM tasks WHERE client_id = ? AND status IN (4, 5, 8)", client)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        commands = [command.title for command in dashboard_commands(app, screen)]
        assert "Quick filter: Not OK (o)" in commands, "the quick filter is in the palette too"
        await pilot.press("o")
        await settle(pilot)
        assert screen.quick == "not-ok"
        sent = {(f.column, f.op, f.value) for f in screen.filters}
        assert sent == {("status", "neq", str(code)) for code in (-1, 0, 1, 2, 3, 6, 7)}
        assert screen.window.count == expected[0][0] > 0
        assert {task.status for task in screen.table.items} <= {4, 5, 8}
        notice = text_of(screen.query_one("#quick-notice", Static))
        assert "Timed out, Failed or Partially complete" in notice and "only ANDs" in notice, notice
        assert "Press o again to clear" in notice
        await pilot.press("o")
        await settle(pilot)
        assert screen.quick is None and not screen.filters
