"""Issue 28 item 7, "free room goes to names first", on the paged tables: Events cut client names
(`SHARPHOUND-FR…`) at 80 columns beside blank room in the id and next-run columns, and cut the next run at 160 with
the detail pane open; the Selectors table cut names beside a flags column twice as wide as its cells."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable

from svctui.tui.widgets.paged_table import PagedTable
from tests.integration.test_tui_names_room import blank_cells, cut_names
from tests.support.selectors import on_cleanup
from tests.support.tui import on_events, settle

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
