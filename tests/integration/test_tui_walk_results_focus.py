"""Newcomer walk (issue 27): `R` gives the domain results the keys, and only what is shown takes the focus."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.textual_internals import FooterKey
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.key_footer import KeyFooter
from tests.integration.test_tui_tasks_log import failed_domain_task
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, only_task
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_R_focuses_the_domain_table_and_down_moves_the_domain(demo_server: DemoServer) -> None:
    """↑/↓ after R moved the task table, and tab reached the domain table third: L always opened the first domain."""
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        await pilot.press("R")
        await settle(pilot)
        results = screen.query_one(DomainResultsPane)
        assert screen.focused is results.table
        first = screen.task_detail.domain_name
        await pilot.press("down")
        await settle(pilot)
        assert screen.task_detail.domain_name != first, "↓ moved the domain under the cursor"


async def test_tab_from_the_task_table_reaches_the_shown_parts_only(demo_server: DemoServer) -> None:
    """The detail pane itself (its tabs hold the parts) takes no focus: tab goes to the tab strip, then the
    domain table; zoomed, the keys go to the domain table (`?` showed nothing focused)."""
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        chain = screen.focus_chain
        assert screen.task_detail not in chain
        assert all(widget.display for widget in chain)
        await pilot.press("z")
        await settle(pilot)
        assert screen.focused is screen.query_one(DomainResultsPane).table
        await pilot.press("z")
        await settle(pilot)
        assert screen.focused is screen.table


async def test_results_shown_while_another_tab_is_up_fit_the_pane_when_back(demo_server: DemoServer) -> None:
    """Newcomer walk: a stray `▌` under the domain results at 80x24 was the scrollbar of a table with all 15 columns:
    the run was shown again (a refresh) while another tab was up (no width), and back on the tab the columns were
    not fitted again (the width was the one fitted before)."""
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        pane = screen.query_one(DomainResultsPane)
        await pilot.press("P")
        await settle(pilot)
        assert pane.size.width == 0, "the results tab is hidden (else the test proves nothing)"
        pane.show_task(pane.shown_task, pane.shown_drops)  # what a refresh of the run does
        await settle(pilot)
        await pilot.press("R", "z")
        await settle(pilot)
        table = pane.table
        assert table.virtual_size.width <= table.size.width and not table.show_horizontal_scrollbar


async def test_zoomed_domain_results_footer_leaves_out_the_hidden_task_lists_keys(demo_server: DemoServer) -> None:
    """Newcomer's walk: zoomed domain results (R, z) still showed the task table's `/ Filter p Detail C Client …` in
    the footer; zoomed, it shows the keys that act on what is shown (z Back, L Log), and all again once back."""
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        await pilot.press("R", "z")
        await settle(pilot)
        said = [key.description for key in screen.query_one(KeyFooter).query(FooterKey) if key.display]
        assert not {"Filter", "Detail", "Client"} & set(said), said
        assert {"Back", "Log"} <= set(said), said
        await pilot.press("z")
        await settle(pilot)
        said = [key.description for key in screen.query_one(KeyFooter).query(FooterKey) if key.display]
        assert {"Filter", "Detail"} <= set(said), said
