"""Issue 28 item 7, "free room goes to names first", on the paged tables: Events cut client names
(`SHARPHOUND-FR…`) at 80 columns beside blank room in the id and next-run columns, and cut the next run at 160 with
the detail pane open; the Selectors table cut names beside a flags column twice as wide as its cells."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.widgets.paged_table import PagedTable
from tests.integration.test_tui_names_room import blank_cells, cut_names, plain
from tests.snapshots.test_selectors_audit_snapshots import write_log
from tests.support.selectors import AuditHost, on_cleanup
from tests.support.selectors_run import big_tag_server
from tests.support.tasks import open_tasks, query, tasks_app
from tests.support.tui import on_events, settle, with_screen

pytestmark = pytest.mark.anyio


def widths(table: DataTable[Any]) -> dict[str, int]:
    """Each shown column's width."""
    return {str(column.key.value): column.width for column in table.columns.values()}


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_events_never_cut_a_client_name_beside_blank_room(demo_server: Any, size: tuple[int, int]) -> None:
    async with on_events(demo_server, size=size) as (_app, pilot, screen):
        await settle(pilot)
        table = screen.query_one(PagedTable)
        cut = cut_names(table, "client")
        assert not cut or blank_cells(table) <= 0, (widths(table), cut, blank_cells(table))
        assert not cut, widths(table)


async def test_events_at_160_with_the_pane_open_show_the_next_run_whole(demo_server: Any) -> None:
    async with on_events(demo_server, size=(160, 45)) as (_app, pilot, screen):
        await pilot.press("p")
        await settle(pilot)
        table = screen.query_one(PagedTable)
        assert not cut_names(table, "next"), widths(table)
        assert not cut_names(table, "client"), widths(table)


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_selectors_never_cut_a_name_beside_blank_room(demo_server: Any, size: tuple[int, int]) -> None:
    async with on_cleanup(demo_server, size=size) as (_app, pilot, screen):
        await settle(pilot)
        table = screen.selector_table
        cut = cut_names(table, "name")
        assert not cut or blank_cells(table) <= 0, (widths(table), cut, blank_cells(table))
        if size == (160, 45):  # a name is whole before a column ranked after it (updated, by) shows
            assert not cut, widths(table)
        else:
            assert cut, "the test needs names longer than the room"


async def test_the_audit_tab_gives_its_free_room_to_names_first(tmp_path: Path) -> None:
    """The Audit tab at 80x24 cut the chosen run's selector names (`Members of HR da…`) while its outcome column
    held blank cells; the names and the messages (and a run's tag and counts) take the free room first."""
    with big_tag_server(tmp_path) as demo:
        write_log(demo)
        async with with_screen(demo, AuditHost(), size=(80, 24)) as (app, pilot):
            await settle(pilot)
            table = app.screen.query_one("#audit-selectors", DataTable)
            # the name takes what the outcome column held blank (17 cells before), the outcome keeps 15 cells for
            # `restored → 1201` (test_restore_from_the_audit_tab_recreates_the_deleted_selectors_once)
            assert widths(table)["name"] >= 24 and widths(table)["outcome"] == 15, widths(table)
            runs = app.screen.query_one("#audit-runs", DataTable)
            assert not cut_names(runs, "tag"), widths(runs)


async def test_the_tasks_results_column_fits_the_drop_marks_that_arrive_later(demo_server: DemoServer) -> None:
    """The walk at 80x24 on SHARPHOUND-FRA-03: `2 ok  …` where a run's drop mark (`  ▼1`) arrived with the client's
    history after the page had fitted its columns; the results column fits its cells again."""
    fra = str(query(demo_server, "SELECT id FROM clients WHERE name = ?", "SHARPHOUND-FRA-03")[0][0])
    async with tasks_app(demo_server, fra).run_test(size=(80, 24)) as pilot:
        screen = await open_tasks(pilot)
        table = screen.table
        marked = [plain(table.get_cell(row.key, "results")) for row in table.ordered_rows]
        assert any("▼" in text for text in marked), "the test needs a run with a drop on the first page"
        assert not cut_names(table, "results"), widths(table)


async def test_the_status_line_names_the_columns_left_out_after_a_resize(demo_server: Any) -> None:
    """A resize from 160 to 80 columns refits the table after the screen had redrawn its status line: it said
    `+6 columns` where the table left out 5; it names those the table leaves out now, at each size."""
    async with on_cleanup(demo_server, size=(160, 45), settings=Settings(page_size=20)) as (_app, pilot, screen):
        await pilot.press("i")  # a prompt on top: the screen below refits all the same
        await settle(pilot)
        for width, height in ((80, 24), (160, 45), (80, 24)):
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            shown = str(screen.query_one("#status-line", Static).render())
            left_out = screen.selector_table.left_out
            assert left_out and f"+{len(left_out)} column" in shown, (width, shown, left_out)
