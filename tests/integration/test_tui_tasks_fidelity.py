"""Pilot tests of issue 13 on Completed tasks: focus after choosing a client, one baseline for compare and plot,
a 200 that is not the API's, status/header/table agreeing while loading and after the server died, "not OK"."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.tui.palette import dashboard_commands
from svctui.tui.widgets.app_header import AppHeader
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.paged_table import PagedTable
from svctui.tui.widgets.state_panel import StateKind
from svctui.tui.widgets.status_bar import StatusBar
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


async def test_a_200_that_is_not_the_api_says_so_and_the_header_keeps_the_edition(
    fresh_demo_server: DemoServer,
) -> None:
    client = client_ids(fresh_demo_server)[0]
    async with on_tasks(fresh_demo_server, client) as (app, pilot, screen):
        assert app.header_info.edition == "enterprise" and app.header_info.problem is None
        fresh_demo_server.faults = Faults(kinds={"malformed": 1.0})  # a 200 with broken JSON, every request
        await pilot.press("r")
        await settle(pilot)
        panel = " ".join(str(widget.render()) for widget in screen.state_panel.query(Static))
        assert "The server's answer is not the API's" in panel and "answered 200" not in panel
        assert app.header_info.edition == "enterprise", "the answer came from something: the edition stays"
        header = str(screen.query_one(AppHeader).render())
        assert "enterprise" in header and "answer not the API's" in header and "HTTP 200" not in header, header
        bar = str(screen.query_one(StatusBar).render())
        assert "no tasks to break down" not in bar and "did not load" in bar, bar
        fresh_demo_server.faults = Faults()
        await pilot.press("r")
        await settle(pilot)
        assert screen.table.row_count == 100 and app.header_info.problem is None, "the header asks again"
        assert app.header_info.edition == "enterprise"


async def test_status_line_names_the_rows_on_screen_while_the_next_page_loads(demo_server: DemoServer) -> None:
    client = client_ids(demo_server)[0]
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        total = screen.window.count
        assert total is not None and total > 200
        first_page = [task.id for task in screen.table.items]
        screen.action_next_page()  # no await until the checks: the answer cannot have been applied yet
        status = text_of(screen.query_one("#status-line", Static))
        assert [task.id for task in screen.table.items] == first_page
        assert f"rows 1\u2013100 of {total:,}" in status and "loading rows 101\u2013200…" in status, status
        assert "rows 101\u2013200 of" not in status and " ms" not in status, status
        await settle(pilot)
        status = text_of(screen.query_one("#status-line", Static))
        assert f"rows 101\u2013200 of {total:,}" in status and "loading" not in status, status
        assert [task.id for task in screen.table.items] != first_page


async def test_after_the_server_died_the_header_says_so_and_the_latency_goes(fresh_demo_server: DemoServer) -> None:
    client = client_ids(fresh_demo_server)[0]
    async with on_tasks(fresh_demo_server, client) as (app, pilot, screen):
        assert screen.stats.last_ms is not None  # (a frozen test app does not print it)
        fresh_demo_server.stop()
        await pilot.press("r")
        await settle(pilot)
        assert screen.state_panel.kind is StateKind.ERROR and screen.window.shown == 0
        assert app.header_info.edition is None and app.header_info.problem == "cannot reach the server"
        header = str(screen.query_one(AppHeader).render())
        assert "enterprise" not in header and "cannot reach the server" in header, header
        status = text_of(screen.query_one("#status-line", Static))
        assert screen.stats.last_ms is None, "the last answer's latency is not this load's"
        assert " ms" not in status and "rows 1" not in status, status
