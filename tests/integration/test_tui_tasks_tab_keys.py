"""The detail's tab keys typed quickly: each key's tab is the one shown and the keys go where it is shown (CI, stop
35: `R` then `P` in one read of the terminal left the Domain results tab on screen; `R`'s focus on the results
table, landing after `P` had shown the plot, took its pane back, Textual's `TabPane.Focused`)."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import TabbedContent

from svctui.demo.server import DemoServer
from svctui.tui.screens.tasks.detail import TABS, TaskDetail
from svctui.tui.screens.tasks.log_tab import LogPane
from svctui.tui.widgets.domain_results import DomainResultsPane
from tests.support.tasks import client_ids, open_tasks, tasks_app
from tests.support.tui import settle

pytestmark = pytest.mark.anyio

BURSTS = [("R", "P"), ("R", "W"), ("R", "T"), ("L", "R", "P"), ("R", "L"), ("P", "R")]


@pytest.mark.parametrize("burst", [True, False], ids=["one-read", "one-by-one"])
@pytest.mark.parametrize("keys", BURSTS, ids=["".join(keys) for keys in BURSTS])
async def test_tab_keys_end_on_the_last_keys_tab_with_the_keys_where_it_shows(
    demo_server: DemoServer, keys: tuple[str, ...], burst: bool
) -> None:
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_tasks(pilot)
        for key in keys:
            if burst:  # one read of the terminal: every key queued before the first is handled
                app.post_message(events.Key(key, key))
            else:
                await pilot.press(key)
                await settle(pilot)
        await settle(pilot)
        detail = screen.query_one(TaskDetail)
        last = {"R": "results", "P": "plot", "W": "compare", "T": "fields", "L": "log"}[keys[-1]]
        assert detail.query_one(TabbedContent).active == TABS[last]
        results, log = detail.query_one(DomainResultsPane), detail.query_one(LogPane)
        wanted = {"results": results.table, "log": log.view}.get(last, screen.table)  # else back to the runs
        assert app.focused is wanted, "the keys go to the tab shown, never to a hidden one"
