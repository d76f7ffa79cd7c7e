"""Issue 28 item 7, "free room goes to names first": at 80x24 the deletion review never cuts a selector name while
its table leaves blank cells (it cut names to 16 cells beside 10-50 blank ones: fixed thirds, not the cells)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.widgets import DataTable

from svctui.tui.screens.selectors.review import ReviewScreen
from tests.support.selectors_run import big_tag_server, plan_of, tag_selectors
from tests.support.tui import settle, with_screen

pytestmark = pytest.mark.anyio

SMALL = (80, 24)


def blank_cells(table: DataTable[Any]) -> int:
    """The cells of the table's width no text takes in any row: right of the last column, and in each column beyond
    its widest cell (or title)."""
    used = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
    inside = 0
    for column in table.columns.values():
        cells = [table.get_cell(row.key, column.key) for row in table.ordered_rows]
        widest = max([cell_len(column.label.plain), *(cell_len(plain(cell)) for cell in cells)])
        inside += max(0, column.width - widest)
    return table.scrollable_content_region.width - used + inside


def plain(cell: object) -> str:
    """A cell's text."""
    return cell.plain if isinstance(cell, Text) else str(cell)


def cut_names(table: DataTable[Any], key: str) -> list[str]:
    """The cells of column `key` wider than the column (shown cut with `…`)."""
    width = _width(table, key)
    cells = [table.get_cell(row.key, key) for row in table.ordered_rows]
    return [text for text in map(plain, cells) if cell_len(text) > width]


def _width(table: DataTable[Any], key: str) -> int:
    """The shown width of column `key`."""
    return next(column.width for column in table.columns.values() if column.key.value == key)


async def test_the_review_gives_its_free_room_to_the_selector_names_at_80x24(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default]
        longest = sorted(selectors, key=lambda selector: -cell_len(selector.name))[:5]
        async with with_screen(demo, ReviewScreen(plan_of(demo, longest)), size=SMALL) as (app, pilot):
            await settle(pilot)
            table = app.screen.query_one("#review-table", DataTable)
            cut = cut_names(table, "name")
            assert cut, "the test needs names longer than the room (pick longer ones)"
            assert blank_cells(table) <= 0, (cut, blank_cells(table))
