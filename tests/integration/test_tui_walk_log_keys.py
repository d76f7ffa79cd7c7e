"""Newcomer walk (issue 27): the log's keys work only where a log is loaded; elsewhere `/` is the filter editor."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_editor import FilterEditor
from tests.integration.test_tui_tasks_log import failed_domain_task, open_log
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_after_the_list_moved_on_slash_filters_instead_of_searching_no_log(demo_server: DemoServer) -> None:
    """`L` then `f`: the tab says `L opens the log of run N` (no log loaded), yet the footer offered the log's keys
    and `/` searched the empty log (`“kerb” not found`). Now the log's keys are off and `/` opens the filter editor."""
    client, _task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        pane = await open_log(pilot, screen)
        assert pane.task_id is not None
        assert pane.check_action("search", ()) is True
        await pilot.press("f")
        await settle(pilot)
        assert pane.task_id is None, "another run is under the cursor: its log is not read until L"
        assert pane.check_action("search", ()) is False and pane.check_action("error", (1,)) is False
        await pilot.press("slash")
        await settle(pilot)
        assert isinstance(app.screen, FilterEditor)
