"""The Completed tasks detail's tab strip at 60 columns: every tab in view from the first (newcomer walk: with the Log
tab open at 60x20 the strip was scrolled to it and began `sults [R]`)."""

from __future__ import annotations

import pytest
from textual.widgets import Tab, Tabs

from svctui.demo.server import DemoServer
from svctui.tui.screens.tasks.detail import TaskDetail
from tests.support.tasks import client_ids, open_tasks, tasks_app
from tests.support.tui import settle

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("keys", [("p", "z", "L"), ("p", "z", "L", "R")])
async def test_the_tab_strip_starts_at_its_first_tab_at_60_columns(
    demo_server: DemoServer, keys: tuple[str, ...]
) -> None:
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_tasks(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        detail = screen.query_one(TaskDetail)
        strip = detail.query_one(Tabs)
        shown = [tab for tab in strip.query(Tab) if tab.display]
        assert len(shown) == 5, "the Log tab is open too"
        assert strip.query_one("#tabs-scroll").scroll_x == 0
        assert shown[0].region.x == detail.region.x and shown[0].label.plain == "Results [R]"
        assert all(tab.region.right <= detail.region.right for tab in shown), [tab.label.plain for tab in shown]
