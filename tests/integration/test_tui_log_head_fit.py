"""Issue 28 item 7 on the run's log: at 80 columns the line above the log was cut mid-word (`… · fin…`); it shows
whole facts only and counts those left out (`+2 more (z)`); zoomed (`z`, the line wraps there) every fact."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.tasks.log_tab import fit_parts
from tests.integration.test_tui_tasks_log import failed_domain_task, open_log
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, only_task, text_of
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def test_fit_parts_keeps_whole_parts_and_counts_the_rest() -> None:
    parts = ["40 lines, 0 errors, 1 warning", "1 method resolved", "CONTOSO.COM 0:13:57", "finished in 00:14:00"]
    assert fit_parts(parts, 200) == " · ".join(parts)
    assert fit_parts(parts, 78) == "40 lines, 0 errors, 1 warning · 1 method resolved · +2 more (z)"
    assert (
        fit_parts(parts, 90) == "40 lines, 0 errors, 1 warning · 1 method resolved · CONTOSO.COM 0:13:57 · +1 more (z)"
    )
    assert fit_parts(parts, 50) == "40 lines, 0 errors, 1 warning · +3 more (z)"
    assert fit_parts(parts, 20) == "40 lines, 0 errors,…"


async def test_the_log_head_at_80_columns_cuts_no_fact(demo_server: DemoServer) -> None:
    client, task, domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await pilot.resize_terminal(80, 24)
        await only_task(pilot, screen, task)
        pane = await open_log(pilot, screen)
        head = pane.query_one("#log-head", Static)
        shown = text_of(head)
        parts = pane.head_parts
        assert len(" · ".join(parts)) > head.content_region.width, "the test needs a summary wider than 80 columns"
        assert "…" not in shown and len(shown) <= head.content_region.width, shown
        left = re.search(r"\+(\d+) more \(z\)$", shown)
        assert left is not None, shown
        assert all(part in shown for part in parts[: len(parts) - int(left.group(1))]), (shown, parts)
        await pilot.press("z")
        await settle(pilot)
        assert " · ".join(parts) in " ".join(text_of(head).split()).replace("\n", " "), text_of(head)
        assert domain in text_of(head)
