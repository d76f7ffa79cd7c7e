"""Pilot tests of issue 13 on Completed tasks: focus after choosing a client, one baseline for compare and plot,
a 200 that is not the API's, status/header/table agreeing while loading and after the server died, "not OK"."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.paged_table import PagedTable
from tests.support.tasks import NO_DEPRECATION_WARNING, client_ids, open_picker, open_tasks, tasks_app
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
