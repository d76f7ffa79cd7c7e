"""Pilot tests of RowTable.update_row in a tiny App: a changed row is repainted alone, the others keep their renders."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import pytest
from rich.color import Color
from rich.segment import Segment
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets.data_table import RowKey

from svctui.tui.textual_internals import HighlightedRows
from svctui.tui.widgets.row_table import RowTable
from tests.support.tui import drawn_cells, laid_out_texts

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class TableApp(App[None]):
    """Hosts one RowTable of these columns (key, width) and rows (key, cells)."""

    def __init__(self, columns: list[tuple[str, int]], rows: list[tuple[str, list[Text]]]) -> None:
        super().__init__()
        self.columns, self.rows = columns, rows

    def compose(self) -> ComposeResult:
        yield RowTable[Text](id="table")

    def on_mount(self) -> None:
        table = self.query_one(RowTable)
        for key, width in self.columns:
            table.add_column(key, key=key, width=width)
        for key, cells in self.rows:
            table.add_row(*cells, key=key)


def one_table() -> TableApp:
    """A RowTable of three rows."""
    return TableApp([("name", 10), ("state", 10)], [(key, [Text(f"row {key}"), Text("pending")]) for key in "abc"])


def shown(table: RowTable[Text]) -> list[str]:
    """The table's lines as drawn now (header first)."""
    return [table.render_line(y).text for y in range(4)]


@asynccontextmanager
async def drawn_table() -> AsyncIterator[tuple[Pilot[None], RowTable[Text], list[str]]]:
    """The three-row table, drawn once; then every cell drawn afresh is recorded in the list yielded."""
    app = one_table()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        assert "pending" in shown(table)[2]
        yield pilot, table, drawn_cells(table)


async def test_update_row_repaints_that_row_alone_and_keeps_the_others_cached() -> None:
    async with drawn_table() as (pilot, table, drawn):
        assert table.update_row("b", [Text("row b"), Text("done")]) is True
        await pilot.pause()
        lines = shown(table)  # every line drawn: the frame drew the changed row, the others come from the caches
        assert "done" in lines[2] and "pending" in lines[1] and "pending" in lines[3]
        assert sorted(drawn) == ["done", "row b"], "update_cell would have thrown every rendered cell away"
        assert table.get_row(RowKey("b")) == [Text("row b"), Text("done")]
        drawn.clear()
        assert table.update_row("b", [Text("row b"), Text("done")]) is False
        shown(table)
        assert drawn == [], "nothing changed: nothing repainted"


async def test_update_rows_repaints_only_the_rows_that_changed() -> None:
    async with drawn_table() as (_pilot, table, drawn):
        same = [Text("row c"), Text("pending")]
        changed = table.update_rows({"a": [Text("row a"), Text("done")], "b": [Text("row b"), Text("x")], "c": same})
        assert changed == ["a", "b"]
        assert "x" in shown(table)[2]
        assert sorted(drawn) == ["done", "row a", "row b", "x"], "row c is drawn from the caches"


async def test_update_rows_redraws_a_cell_whose_words_stay_and_colour_changes() -> None:
    """A status turning red with the same words is a change (rich Text's == ignores the base style)."""
    app = one_table()
    async with app.run_test(size=(40, 8)) as pilot:
        app.set_focus(None)  # no focused cursor row over the colours
        table = app.query_one(RowTable)
        await pilot.pause()
        changed = table.update_rows({"b": [Text("row b"), Text("pending", style="#ff0000")]})
        await pilot.pause()
        drawn = [segment.style for segment in table.render_line(2) if "pending" in segment.text]
        assert drawn and all(style is not None and style.color == Color.parse("#ff0000") for style in drawn)
        assert changed == ["b"]


async def test_update_column_repaints_only_the_rows_whose_cell_changed() -> None:
    """The tasks screen puts the drop marks in the results column when a history arrives: only those rows redraw."""
    async with drawn_table() as (pilot, table, drawn):
        cells = {"a": Text("pending"), "b": Text("done"), "c": Text("pending", style="bold"), "gone": Text("x")}
        assert table.update_column("state", cells) == {"b", "c"}, "a style change is a change; unknown rows skipped"
        await pilot.pause()
        lines = shown(table)
        assert "pending" in lines[1] and "done" in lines[2] and "pending" in lines[3]
        assert sorted(drawn) == ["done", "pending", "row b", "row c"], "row a is drawn from the caches"
        drawn.clear()
        assert table.update_column("state", cells) == set()
        shown(table)
        assert drawn == [], "nothing changed: nothing repainted"


class LongTable(TableApp):
    """Hosts a RowTable of 40 rows, more than the screen shows; counts the rows it is asked to refresh."""

    def __init__(self) -> None:
        rows = [(str(index), [Text(f"row {index}"), Text("pending")]) for index in range(40)]
        super().__init__([("name", 10), ("state", 10)], rows)
        self.refreshed: list[int] = []

    def count_refreshes(self) -> None:
        """From now on, note each row the table is asked to refresh."""
        table = self.query_one(RowTable)
        refresh_row = table.refresh_row

        def counted(row_index: int) -> RowTable[Text]:
            self.refreshed.append(row_index)
            return refresh_row(row_index)

        table.refresh_row = counted  # type: ignore[method-assign]


async def test_an_update_below_the_window_refreshes_no_line_and_shows_when_scrolled_to() -> None:
    """fleet-1000-fill: refresh_row sums the heights of every row above the one it refreshes; a row below the
    window is not refreshed (nothing of it is drawn), its renders are dropped all the same."""
    app = LongTable()
    async with app.run_test(size=(40, 8)) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        app.count_refreshes()
        assert table.update_rows({"1": [Text("row 1"), Text("one")], "30": [Text("row 30"), Text("thirty")]})
        assert app.refreshed == [1], "only the row on screen is refreshed"
        await pilot.pause()
        table.move_cursor(row=30, animate=False)
        await pilot.pause()
        top = int(table.scroll_y)
        lines = [table.render_line(y).text for y in range(table.size.height)]
        assert any("thirty" in line for line in lines), (top, lines)


LOOKS = [
    Text("plain"),
    Text("red words", style="#ff0000"),
    Text.assemble(("ok", "bold green"), " and ", ("no", "italic")),
    Text("a name far too long for its column"),
    Text("日本語のテキスト"),
    Text("✓ ✗ ◷ ▼"),
    Text(""),
    Text("bell\x07 here"),
]


def many_looks() -> TableApp:
    """A RowTable whose cells take every path a one-line cell can: styles, spans, cut with `…`, wide characters,
    blanks, a control character shown, and many rows of the same look."""
    rows = [
        (str(index), [LOOKS[index % len(LOOKS)], Text("checking…", style="dim"), Text(str(index))])
        for index in range(30)
    ]
    return TableApp([("name", 12), ("state", 8), ("note", 6)], rows)


def frame(table: RowTable[Text]) -> list[list[Segment]]:
    """Every visible line of the table drawn now, its rendered cells and lines dropped first."""
    table.notify_style_update()
    return [list(strip) for strip in table.render_lines(Region(0, 0, table.size.width, table.size.height))]


async def test_a_row_tables_frame_is_the_one_datatable_draws() -> None:
    """Cells laid out once per look and width, then only styled, draw the very segments DataTable draws (the cursor
    row, zebra stripes, a flashing row)."""
    app = many_looks()
    async with app.run_test(size=(40, 16)) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        table.move_cursor(row=3)
        table.flash({"5", "6"})
        await pilot.pause()
        fast = frame(table)
        table.cell_lines = partial(HighlightedRows.cell_lines, table)  # type: ignore[method-assign]
        assert frame(table) == fast, "the same segments as DataTable's own drawing, line by line"


async def test_cells_of_one_look_are_laid_out_once_and_a_sort_lays_none_out_again() -> None:
    """fleet-1000-fill: a sort or new rows make DataTable draw every visible cell again; the cells are only styled
    again, none is laid out by rich again (a full Clients table: ~300 cells, ~30 ms laid out)."""
    app = many_looks()
    laid_out = laid_out_texts(app)
    async with app.run_test(size=(40, 16)) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        assert laid_out.count("checking…") == 1, "thirty cells of one look: laid out once"
        assert len(laid_out) == len(set(laid_out)), laid_out
        headers = {"name", "state", "note"}  # the header row is DataTable's to draw
        seen = set(laid_out) - headers
        laid_out.clear()
        drawn = drawn_cells(table)
        table.sort("note", key=lambda cell: -int(cell.plain), reverse=False)
        await pilot.pause()
        assert len(drawn) >= 3 * (table.size.height - 1), "every visible cell drawn again after the sort"
        again = (set(laid_out) - headers) & seen
        assert not again, "none laid out again: their lines are known by look and width (only rows new to the screen)"
        assert "checking…" not in laid_out
        assert "29" in table.render_line(1).text, "the sort shows"
