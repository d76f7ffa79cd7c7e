"""Issue 28 item 7 and issue 27 item 3: every fitted table names the columns it leaves out (`+3 columns: run, who,
server`, the list screens' wording) and fits itself again when the terminal is resized."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from svctui.demo.server import DemoServer
from svctui.table_fit import left_out_hint
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.run import RunScreen
from svctui.tui.widgets.domain_results import DomainResultsPane
from tests.integration.test_tui_cut_text import failed_run
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import big_tag_server, plan_of, tag_selectors
from tests.support.tasks import client_ids, open_tasks, tasks_app
from tests.support.tui import make_app, running, settle, with_screen

pytestmark = pytest.mark.anyio
NARROW, WIDE = (80, 24), (160, 45)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def status_of(screen: Any) -> str:
    """The screen's status line as shown."""
    return str(screen.query_one("#status-line", Static).render())


def strip_key_of(screen: Any) -> str:
    """The line above the Clients table: the strip's key, then the columns the table leaves out."""
    return str(screen.query_one("#clients-strip-key", Static).render())


def keys_of(table: DataTable[Any]) -> list[str]:
    """The keys of the columns a table shows, in order."""
    return [str(column.key.value) for column in table.ordered_columns]


async def test_the_clients_table_names_what_it_leaves_out_and_refits_on_resize(demo_server: DemoServer) -> None:
    """At 80 columns type, check-in, next run, job, version and host were left out with no sign: the status line says
    so where it has room, else the line above the table."""
    app = make_app(demo_server)
    async with running(app, NARROW) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen)
        narrow_keys, narrow_left_out = keys_of(screen.table), screen.left_out
        assert narrow_left_out and "host" in narrow_left_out, narrow_left_out
        hint = left_out_hint(narrow_left_out)
        assert hint not in status_of(screen) and strip_key_of(screen).endswith(hint), strip_key_of(screen)
        await pilot.resize_terminal(200, 45)  # the columns as wide as their cells: at 240 every one shows
        await settle(pilot)
        assert len(keys_of(screen.table)) > len(narrow_keys), "a wider terminal shows more columns"
        assert screen.left_out == ["host"] and "+1 column: host" in status_of(screen), status_of(screen)
        assert "column" not in strip_key_of(screen), "said once, in the status line where it has room"
        await pilot.resize_terminal(*NARROW)
        await settle(pilot)
        assert keys_of(screen.table) == narrow_keys and strip_key_of(screen).endswith(hint)


async def test_the_audit_tab_names_the_run_columns_it_leaves_out_and_refits_on_resize(
    demo_server: DemoServer,
) -> None:
    """At 80 columns the run, who and server columns were left out silently."""
    failed_run(demo_server)
    async with on_cleanup(demo_server, size=NARROW) as (_app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        tab = screen.query_one(AuditTab)
        runs = tab.query_one("#audit-runs", DataTable)
        left_out = tab.left_out["audit-runs"]
        assert left_out and {"run", "who", "server"} & set(left_out), left_out
        assert left_out_hint(left_out) in status_of(screen), status_of(screen)
        narrow = keys_of(runs)
        await pilot.resize_terminal(*WIDE)
        await settle(pilot)
        assert len(keys_of(runs)) == 8 and keys_of(runs) != narrow, "every run column fits at 160 columns"
        assert not tab.left_out["audit-runs"] and "columns" not in status_of(screen), status_of(screen)


async def test_the_domain_results_name_the_columns_they_leave_out(demo_server: DemoServer) -> None:
    """At 80 columns the message and the last counts were left out with no sign they exist."""
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_tasks(pilot)
        with_results = next(task for task in screen.table.items if task.domain_results)
        screen.table.move_cursor(row=screen.table.get_row_index(str(with_results.id)))
        await settle(pilot)
        pane = screen.query_one(DomainResultsPane)
        header = str(pane.query_one("#domain-results-header", Static).render())
        assert pane.left_out and "Message" in pane.left_out, pane.left_out
        assert left_out_hint(pane.left_out) in header, header
        await pilot.resize_terminal(*WIDE)
        await settle(pilot)
        header = str(pane.query_one("#domain-results-header", Static).render())
        assert not pane.left_out and "columns" not in header, header


async def test_at_60_columns_the_domain_results_hint_never_wraps_onto_a_line_of_its_own(
    demo_server: DemoServer,
) -> None:
    """Tmux walk at 60x20 (issue 28): `+10 columns` wrapped onto a line of its own under the task's first line. Where
    the first line has no room for it, it ends the `executed` line; every header line fits the pane."""
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=(60, 20)) as pilot:
        screen = await open_tasks(pilot)
        with_results = next(task for task in screen.table.items if task.domain_results)
        screen.table.move_cursor(row=screen.table.get_row_index(str(with_results.id)))
        await settle(pilot)
        pane = screen.query_one(DomainResultsPane)
        header = pane.query_one("#domain-results-header", Static)
        lines = str(header.render()).splitlines()
        assert pane.left_out and left_out_hint(pane.left_out) in "\n".join(lines)
        assert all(len(line) <= header.content_size.width for line in lines), lines


async def test_the_outcome_table_names_the_columns_it_leaves_out(tmp_path: Path) -> None:
    """Narrower than its columns' least widths, the run's outcome table left the request id out silently."""
    with big_tag_server(tmp_path) as demo:
        defaults = [selector for selector in tag_selectors(demo) if selector.is_default][:2]
        screen = RunScreen(plan_of(demo, defaults), lambda tag_id, selector_id: None)
        async with with_screen(demo, screen, size=(60, 24)) as (_app, pilot):
            assert screen.finished
            table = screen.query_one("#run-table", DataTable)
            left_out = [
                key for key in ("id", "name", "outcome", "status", "message", "request") if key not in keys_of(table)
            ]
            assert left_out, keys_of(table)
            line = str(screen.query_one(".outcome-whole", Static).render()).replace("\n", " ")
            assert line.startswith("+"), line
            assert "column" in line.split(" · ")[0], line
            await pilot.resize_terminal(*WIDE)
            await settle(pilot)
            assert len(keys_of(table)) == 6
            line = str(screen.query_one(".outcome-whole", Static).render())
            assert not line.startswith("+"), line
