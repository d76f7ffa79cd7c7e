"""A generic, keyed-diff DataTable for one server-side page of records, with sort keys and row marks.

Use it with a `RowAdapter` that says how to key a record and how to render each column:

    adapter = RowAdapter(key=lambda e: str(e.id), columns=[
        ColumnDef(Column("id", "id", least=6), lambda e: str(e.id), sort="id"),
        ColumnDef(Column("client", "client", least=22), lambda e: e.client_name or e.client_id),
    ], fit_order=("id", "client"))
    table = PagedTable(adapter, id="events-table")
    table.show_items(page.data)        # keyed diff: changed cells updated, gone rows removed, new rows added

The table never talks to the network. `s` cycles the sort of the column under the cursor (off -> ascending ->
descending -> off), `S` reverses it, a header click does what `s` does; each change posts `SortChanged` and the
screen reloads from the server. Sort priority is shown in the header (`id ▲1`). `space` marks a row, `v` marks
the range from the last marked row to the cursor; marks and the cursor survive refreshes (they are keyed).

So that a new page does not hold the event loop (the stall rows of docs/PERFORMANCE.md): every column has a fixed
width and every row one line, so no cell is measured (`fixed_layout`) and new rows are appended at once
(`append_rows`); the load worker renders a page's cells and lays out its first screenful in a thread (`prepare`),
and `draw_ahead()` draws the new lines in slices before the frame, with the app's screen updates held.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import islice
from typing import ClassVar, Generic, Protocol, TypeVar

from rich.cells import cell_len
from rich.console import ConsoleOptions
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, Row
from textual.worker import Worker

from svctui.api.filters import SortKey
from svctui.table_fit import Column, fit_columns, ranked
from svctui.tui.breakpoints import narrow_terminal
from svctui.tui.messages import ColumnsFitted, MarksChanged, RowFocused, SortChanged
from svctui.tui.textual_internals import Lines, rendered_rows_stale
from svctui.tui.widgets.row_table import (
    Look,
    RowTable,
    cell_changed,
    cell_key_at,
    cell_text,
    ellipsized,
    look,
    one_line,
)
from svctui.visible import visible

T = TypeVar("T")
MARK_COLUMN = "_mark"
REBUILD_MIN_GONE = 16  # from this many rows gone (and >= 1/4 of the table), clear and re-add instead
MARK_ON = "●"
ASCENDING = "▲"
DESCENDING = "▼"
EN_DASH = "\u2013"
PREPARE_MIN_ROWS = 50  # fewer records than this are rendered on the loop (the thread hop is not worth it)
PRERENDER_ROWS = 120  # at most this many rows of a prepared page are laid out ahead (no more than the screen's height)
DRAW_AHEAD_LINES = 12  # lines drawn per event-loop slice by `draw_ahead` (~0.5 ms a line)
DRAW_AHEAD_PAUSE = 0.001  # seconds between those slices: a timer due meanwhile (not only work queued) runs first


AS_WIDE = Column("", "")  # ColumnDef.narrow's default: on a narrow terminal as on a wide one


@dataclass(frozen=True)
class ColumnDef(Generic[T]):
    """One displayed column: how it fits the table (`fit`, svctui.table_fit's one column description: key, title,
    its width as `least`, what it is cut to, the width a name grows to as `most`), its cells, its server sort column.
    Every column is as wide as its widest cell on the page at most (fitted: RowAdapter.fit_order)."""

    fit: Column
    render: Callable[[T], str | Text]
    sort: str | None = None
    copy_text: Callable[[T], str] | None = None
    export_text: Callable[[T], str] | None = None  # the whole value in a CSV export, where `render` cuts it itself
    # how it fits under breakpoints.NARROW_TERMINAL columns (a narrower `least`); None: left out there (a minor
    # column: the detail pane and exports still have it)
    narrow: Column | None = AS_WIDE

    def __post_init__(self) -> None:
        if self.narrow is AS_WIDE:
            object.__setattr__(self, "narrow", self.fit)

    @property
    def key(self) -> str:
        """The column's key (its fit's)."""
        return self.fit.key

    @property
    def label(self) -> str:
        """The column's header (its fit's title)."""
        return self.fit.title

    def fit_at(self, narrow: bool) -> Column | None:
        """How it fits on a narrow terminal or a wide one (None: left out)."""
        return self.narrow if narrow else self.fit


@dataclass(frozen=True)
class RowAdapter(Generic[T]):
    """How records of type T become table rows: a stable key, the columns and their ranks (`fit_order`)."""

    key: Callable[[T], str]
    columns: Sequence[ColumnDef[T]]
    # Column keys, the one that matters most first (each column's rank): the table's columns are fitted to its
    # width (svctui.table_fit): each column keeps its width (or is cut to its `cut_to`), the free room goes to the
    # name columns first, and what does not fit is left out with every column after it (the rank is strict: a later
    # column never takes the room of an earlier one; the detail pane and exports still have them, and the status
    # line names them). The table never scrolls sideways.
    fit_order: Sequence[str]

    def column(self, key: str) -> ColumnDef[T] | None:
        """The column definition with this key, or None."""
        return next((column for column in self.columns if column.key == key), None)


def fit_description(adapter: RowAdapter[T], wanted: dict[str, int], narrow: bool = False) -> list[Column]:
    """The columns of `adapter` to show at these widths (`wanted`, in display order) as `fit_columns` takes them:
    each its own fit (`ColumnDef.fit_at(narrow)`) at least as wide as wanted, ranked by the adapter's fit order
    (`table_fit.ranked`: the first never left out); its `most` caps its natural width (`natural_widths`) instead."""
    fits = [fit for column in adapter.columns if column.key in wanted and (fit := column.fit_at(narrow)) is not None]
    return ranked([replace(fit, least=wanted[fit.key], most=0) for fit in fits], adapter.fit_order)


def natural_widths(
    adapter: RowAdapter[T], wanted: dict[str, int], widest: Mapping[str, int] | None = None, narrow: bool = False
) -> dict[str, int]:
    """Each column's natural width in a fitted table: its width, or its `most` where that is wider; with its widest
    cell on the page (`widest`) that cell, up to its `most`: a short name leaves no blank room, and a cell cut on a
    narrow terminal grows back whole when there is room."""
    most = {column.key: fit.most for column in adapter.columns if (fit := column.fit_at(narrow)) is not None}
    cells = widest or {}

    def natural(key: str, width: int) -> int:
        if key not in cells:
            return max(width, most.get(key, 0))
        return max(width, min(most[key], cells[key]) if most.get(key) else cells[key])

    return {key: natural(key, width) for key, width in wanted.items()}


class HasId(Protocol):
    """A record with an id (every list of the API)."""

    @property
    def id(self) -> int:
        """The record's id."""


Rec = TypeVar("Rec", bound=HasId)


def by_id(
    *columns: ColumnDef[Rec],
    render: Callable[[Callable[[Rec], str]], Callable[[Rec], str | Text]] | None = None,
    fit_order: Sequence[str],
) -> RowAdapter[Rec]:
    """An adapter keyed by the record's id, whose first column is the id (sortable) and then `columns`;
    `render` wraps the id cell's renderer (a screen's styling of every cell); `fit_order` as RowAdapter's."""

    def ident(record: Rec) -> str:
        return str(record.id)

    first = ColumnDef(Column("id", "id", least=6), render(ident) if render is not None else ident, sort="id")
    return RowAdapter(key=ident, columns=(first, *columns), fit_order=fit_order)


@dataclass
class PageWindow:
    """Server-side paging state: skip, limit and the total the server reported."""

    skip: int = 0
    limit: int = 100
    count: int | None = None
    shown: int = 0

    def label(self) -> str:
        """`rows 51-100 of 1,204` (with an en dash), `no rows`, or `rows 1-100` while the total is unknown."""
        if self.count == 0 or (self.count is None and not self.shown):
            return "no rows"
        first, last = self.skip + 1, self.skip + self.shown
        total = f" of {self.count:,}" if self.count is not None else ""
        return f"rows {first:,}{EN_DASH}{last:,}{total}" if self.shown else f"rows {first:,}{EN_DASH}…{total}"

    def next_skip(self) -> int | None:
        """The skip of the next page, or None on the last page."""
        if self.count is not None and self.skip + self.limit >= self.count:
            return None
        if self.count is None and self.shown < self.limit:
            return None
        return self.skip + self.limit

    def previous_skip(self) -> int | None:
        """The skip of the previous page, or None on the first page."""
        return None if self.skip <= 0 else max(0, self.skip - self.limit)


class RowMark(Text):
    """The mark cell of a row: remembers the row key so server order can be restored by sorting on it."""

    def __init__(self, row_key: str, marked: bool, color: str = "") -> None:
        super().__init__(MARK_ON if marked else " ", style=f"bold {color}".strip() if marked else "", end="")
        self.row_key = row_key


@dataclass(frozen=True)
class PreparedCells(Generic[T]):
    """Cells rendered ahead (in a thread) for `show_items`: per row key, the record and its cells after the mark,
    valid for these very column definitions under this theme."""

    columns: Sequence[ColumnDef[T]]
    theme: str
    rows: dict[str, tuple[T, list[Text]]]
    laid_out: dict[tuple[Look, int], tuple[ConsoleOptions, list[Segment] | None]] = field(default_factory=dict)


def same_columns(first: Sequence[ColumnDef[T]], second: Sequence[ColumnDef[T]]) -> bool:
    """True when both show the same columns in the same order (cells rendered for one fit the other at any width)."""
    return first is second or [column.key for column in first] == [column.key for column in second]


def widest_cells(
    columns: Sequence[ColumnDef[T]],
    shown: Sequence[ColumnDef[T]],
    records: Sequence[T],
    cells_of: dict[str, list[Text]],
) -> dict[str, int]:
    """Each column of `columns`' widest cell among `records`: measured on the cells about to be shown (`cells_of`,
    by row key, the mark first, for the `shown` columns), else rendered (pure: runs in a thread too)."""
    position = {column.key: index + 1 for index, column in enumerate(shown)}  # after the mark
    widest: dict[str, int] = {}
    for column in columns:
        at = position.get(column.key)
        if at is not None and cells_of:
            widest[column.key] = max((cell_len(cells[at].plain) for cells in cells_of.values()), default=0)
        else:
            widest[column.key] = max((cell_len(visible(str(column.render(item)))) for item in records), default=0)
    return widest


RETELL_ROWS = 50  # rows whose clock-relative cell is told again per turn of the event loop (~5 ms)


def render_cells(columns: Sequence[ColumnDef[T]], record: T) -> list[Text]:
    """The cells of `record` in `columns` (strings become plain Text), without the mark cell."""
    cells: list[Text] = []
    for column in columns:
        rendered = column.render(record)
        cells.append(cell_text(rendered))
    return cells


def sort_label(label: str, column: str | None, sort: Sequence[SortKey]) -> str:
    """A header label with the sort arrow and priority, e.g. `id ▲1`."""
    for priority, key in enumerate(sort, start=1):
        if column is not None and key.column == column:
            arrow = DESCENDING if key.descending else ASCENDING
            return f"{label} {arrow}{priority}" if len(sort) > 1 else f"{label} {arrow}"
    return label


def cycle_sort(sort: Sequence[SortKey], column: str) -> tuple[SortKey, ...]:
    """`s`: a column not sorted is added ascending (lowest priority); ascending -> descending; descending -> off."""
    current = next((key for key in sort if key.column == column), None)
    if current is None:
        return (*sort, SortKey(column))
    if not current.descending:
        return tuple(SortKey(column, True) if key.column == column else key for key in sort)
    return tuple(key for key in sort if key.column != column)


def reverse_sort(sort: Sequence[SortKey], column: str) -> tuple[SortKey, ...]:
    """`S`: flip the column's direction; a column not sorted is added descending."""
    if all(key.column != column for key in sort):
        return (*sort, SortKey(column, True))
    return tuple(SortKey(key.column, not key.descending) if key.column == column else key for key in sort)


class PagedTable(RowTable[Text], Generic[T]):
    """A DataTable of one page of T records, refreshed by keyed diff, with server sort keys and marks (the vi
    keys j/k/g/G come from RowTable)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_mark", "Mark", show=False, id="table.mark", tooltip="Mark or unmark the row"),
        Binding("v", "mark_range", "Range", show=False, id="table.range", tooltip="Mark from the last mark"),
        Binding(
            "s",
            "cycle_sort",
            "Sort",
            id="table.sort",
            tooltip="Sort by this column ▲; again: ▼; again: off. With a sort set, it adds a second (▲2)",
        ),
        Binding("S", "reverse_sort", "Reverse", show=False, id="table.reverse", tooltip="Reverse this sort"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"pagedtable--cursor-row"}
    DEFAULT_CSS = """
    PagedTable > .pagedtable--cursor-row { background: $block-cursor-blurred-background 45%; }
    PagedTable:focus > .pagedtable--cursor-row { background: $block-cursor-background 30%; }
    """

    def __init__(self, adapter: RowAdapter[T], *, id: str | None = None, classes: str | None = None) -> None:
        # Fixed: the mark and the first (id) column stay in view when the table scrolls sideways.
        super().__init__(id=id, classes=classes, cursor_type="cell", zebra_stripes=True, fixed_columns=2)
        self.adapter = adapter
        self.sort_keys: tuple[SortKey, ...] = ()
        self._items: dict[str, T] = {}
        self._marked: set[str] = set()
        self._marked_records: dict[str, T] = {}  # the record of each row marked here, as last seen (mark order)
        self._anchor: str | None = None
        self._last_focused: str | None = None
        self.narrow = False
        self.shown_columns: list[ColumnDef[T]] = list(adapter.columns)
        self.shown_widths: dict[str, int] = {}  # the shown columns' widths (see column_widths)
        self._widest: dict[str, int] = {}  # a fitted table's columns: the widest cell of the rows shown (_measure)
        self._prepared: PreparedCells[T] | None = None
        self._drawing_ahead: Worker[None] | None = None
        self._drawn_width = 0  # the width the rendered rows were drawn at

    def row_highlight(self, row_index: int, *, in_cursor_cell: bool = False) -> Style:
        """The whole cursor row is highlighted; the cell under the cursor keeps the stronger cursor style (it is
        the cell `c` copies and `s` sorts by); a row that changed in the last refresh flashes over it."""
        style = Style()
        if row_index >= 0 and row_index == self.cursor_row and self.show_cursor and not in_cursor_cell:
            style += self.get_component_rich_style("pagedtable--cursor-row")
        return style + super().row_highlight(row_index, in_cursor_cell=in_cursor_cell)

    def on_mount(self) -> None:
        """Create the mark column and the adapter's columns (on a narrow terminal: without the minor ones)."""
        self._add_columns()

    def on_resize(self, event: events.Resize) -> None:
        """When the screen crosses NARROW_TERMINAL (its breakpoint class, set before this runs), or a fitted
        table's widths change, the columns are rebuilt (rows, marks and cursor kept).

        DataTable's own handler throws away every rendered row on any resize (its update counter is in every cache
        key), though only the width changes a rendered row (the space right of the last column): `render_lines`
        does that when the width it draws at changed. So the table shown again after the loading panel, at the
        width it was drawn at, keeps its rows (with DataTable's handler every line of a first page was drawn twice:
        in the frame that showed it, then again after the resize that frame caused)."""
        event.prevent_default()
        if narrow_terminal(self.screen) == self.narrow and self.column_widths() == self.shown_widths:
            self.keep_cursor_in_view()
            return
        self._rebuild()

    def _rebuild(self) -> None:
        """Add the columns again at the widths they take now (rows, marks and cursor kept)."""
        records, key, column = self.items, self.current_key, self.cursor_column
        self._reset_columns(self.column_widths())
        self.show_items(records, follow_row=False)
        if key is not None and key in self._items:
            self.move_cursor(row=self.get_row_index(key), column=min(column, len(self.columns) - 1), animate=False)

    def _reset_columns(self, widths: dict[str, int]) -> None:
        """No rows, the columns added again at `widths` (the status line told when the columns left out change)."""
        if set(widths) != set(self.shown_widths):
            self.post_message(ColumnsFitted())  # the columns left out changed: the status line says which
        self.clear(columns=True)
        self._items.clear()
        self._add_columns(widths)
        self.set_sort(self.sort_keys)

    def column_widths(self, cells_widest: Mapping[str, int] | None = None) -> dict[str, int]:
        """The width of each column to show, in display order (on a narrow terminal: without the minor ones), fitted to
        the table's width (see RowAdapter.fit_order), for the rows shown or for rows whose columns' widest cells are
        `cells_widest`."""
        shown_widest = self._widest if cells_widest is None else cells_widest
        narrow = narrow_terminal(self.screen)
        fits = {
            column.key: (column, fit) for column in self.adapter.columns if (fit := column.fit_at(narrow)) is not None
        }
        wanted = {
            key: max(fit.least, len(fit.title) + (3 if column.sort else 0)) for key, (column, fit) in fits.items()
        }
        widest: dict[str, int] = {}  # the widest cell on the page, or the label with its arrow
        if shown_widest:  # short columns no wider than their cells: the room goes to the names
            for key, (column, fit) in fits.items():
                if key in shown_widest:
                    label = cell_len(sort_label(column.label, column.sort, self.sort_keys))
                    widest[key] = max(shown_widest[key], label)
                    # a name (`most`) is whole before a column ranked after it shows (else cut to its `cut_to`)
                    wanted[key] = min(fit.most or wanted[key], widest[key])
        room = self.size.width - self.styles.scrollbar_size_vertical - (1 + 2 * self.cell_padding)  # less the marks
        if room <= 0:  # not laid out yet (a resize fits it)
            return wanted
        columns = fit_description(self.adapter, wanted, narrow)
        natural = natural_widths(self.adapter, wanted, widest, narrow)
        return fit_columns(columns, natural, room, 2 * self.cell_padding).widths

    def _add_columns(self, widths: dict[str, int] | None = None) -> None:
        self.narrow = narrow_terminal(self.screen)
        self.shown_widths = self.column_widths() if widths is None else widths
        self.shown_columns = [column for column in self.adapter.columns if column.key in self.shown_widths]
        self.add_column("", width=1, key=MARK_COLUMN)
        for column in self.shown_columns:
            self.add_column(column.label, width=self.shown_widths[column.key], key=column.key)

    @property
    def left_out(self) -> list[str]:
        """The labels of the columns the table leaves out at this width (the detail pane still has them)."""
        shown = {column.key for column in self.shown_columns}
        return [column.label for column in self.adapter.columns if column.key not in shown]

    # ----- data -------------------------------------------------------------------------------------------
    @property
    def marked(self) -> frozenset[str]:
        """Keys of the marked rows (they may be on other pages)."""
        return frozenset(self._marked)

    @property
    def items(self) -> list[T]:
        """The records in display (server) order."""
        return [self._items[row.key.value] for row in self.ordered_rows if row.key.value in self._items]

    @property
    def marked_items(self) -> list[T]:
        """The records of the marked rows, in mark order, from any page they were marked on."""
        return [record for key, record in self._marked_records.items() if key in self._marked]

    def item(self, key: str) -> T | None:
        """The record with this key on the current page."""
        return self._items.get(key)

    @property
    def current_key(self) -> str | None:
        """The key of the row under the cursor."""
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return key if key in self._items else None

    @property
    def current_item(self) -> T | None:
        """The record under the cursor."""
        key = self.current_key
        return self._items.get(key) if key is not None else None

    @property
    def current_column(self) -> ColumnDef[T] | None:
        """The column definition under the cursor (None on the mark column)."""
        if not self.columns:
            return None
        key = self.ordered_columns[self.cursor_column].key.value
        return self.adapter.column(key) if key else None

    def current_cell_text(self) -> str:
        """The value of the cell under the cursor (for copying): the column's `copy_text`, else a time as the
        record holds it (`2026-11-24T10:15:42.125Z`, not the minute shown), else the full text shown."""
        item, column = self.current_item, self.current_column
        if item is None or column is None:
            return ""
        if column.copy_text is not None:
            return column.copy_text(item)
        raw = getattr(item, column.sort, None) if column.sort else None
        if isinstance(raw, datetime):
            return raw.isoformat().replace("+00:00", "Z")
        rendered = column.render(item)
        return rendered.plain if isinstance(rendered, Text) else rendered

    def _cells(self, key: str, item: T) -> list[Text]:
        mark = self.mark_cell(key, key in self._marked)
        prepared = self._prepared
        fits = prepared is not None and same_columns(prepared.columns, self.shown_columns)
        if prepared is not None and fits and prepared.theme == self.app.theme:
            ahead = prepared.rows.get(key)
            if ahead is not None and ahead[0] is item:
                return [mark, *ahead[1]]
        return [mark, *map(ellipsized, render_cells(self.shown_columns, item))]

    async def retell_column(self, column_key: str, rows_per_turn: int = RETELL_ROWS) -> None:
        """Render one column's cells again for every row (a value told relative to the clock, `in 5m`),
        `rows_per_turn` rows per turn of the event loop; only the cells that changed are redrawn. A row replaced or
        gone meanwhile (a new page) is left to whoever replaced it."""
        column = next((column for column in self.shown_columns if column.key == column_key), None)
        if column is None:
            return
        rows = list(self._items.items())
        for start in range(0, len(rows), rows_per_turn):
            for key, item in rows[start : start + rows_per_turn]:
                if self._items.get(key) is not item:
                    continue
                cell = ellipsized(render_cells((column,), item)[0])
                if cell_changed(self.get_cell(key, column_key), cell):
                    self.update_cell(key, column_key, cell)
            await asyncio.sleep(0)
        self.refit()

    def refit(self) -> None:
        """Fit the columns again when cells changed in place changed how wide the page's widest cells are
        (names that arrived after the page, a countdown that got shorter)."""
        if not self._items:
            return
        shown = [column.key for column in self.shown_columns]
        cells_of = {key: [Text(), *(self.get_cell(key, column) for column in shown)] for key in self._items}
        self._widest = self._measure(list(self._items.values()), cells_of)  # the cells on show, as changed in place
        if self.column_widths() != self.shown_widths:
            self._rebuild()

    def _measure(self, records: Sequence[T], cells_of: dict[str, list[Text]]) -> dict[str, int]:
        """Each column's widest cell among `records` (see widest_cells)."""
        return widest_cells(self.adapter.columns, self.shown_columns, records, cells_of)

    def discard_prepared(self) -> None:
        """Forget cells rendered ahead (what they were rendered from changed, e.g. the tasks' drop marks)."""
        self._prepared = None

    async def prepare(self, records: Sequence[T]) -> None:
        """Render the cells of `records` in a worker thread, for the next `show_items` of these records to use
        (called from a load worker, so the event loop does not spend ~0.1 ms a row on it)."""
        if len(records) < PREPARE_MIN_ROWS:
            return
        columns, theme, key = self.shown_columns, self.app.theme, self.adapter.key
        console, padding = self.app.console, self.cell_padding
        first_rows = min(PRERENDER_ROWS, self.app.size.height)  # a new page shows its top rows: one screenful

        all_columns = self.adapter.columns

        def render_all() -> tuple[dict[str, tuple[T, list[Text]]], dict[str, int]]:
            rows = {key(record): (record, list(map(ellipsized, render_cells(columns, record)))) for record in records}
            cells_of = {row_key: [Text(), *cells] for row_key, (_record, cells) in rows.items()}
            return rows, widest_cells(all_columns, columns, records, cells_of)

        rows, widest = await asyncio.to_thread(render_all)
        # laid out at the widths the columns will have for these cells (a fitted table: their widest cells)
        fitted = self.column_widths(widest) if widest and same_columns(columns, self.shown_columns) else {}
        widths = [
            fitted[column.key] + 2 * padding if column.key in fitted else self._column_width(column.key)
            for column in columns
        ]
        options = [self._cell_options(width) for width in widths]

        def lay_out() -> dict[tuple[Look, int], tuple[ConsoleOptions, list[Segment] | None]]:
            laid_out: dict[tuple[Look, int], tuple[ConsoleOptions, list[Segment] | None]] = {}
            for _record, cells in islice(rows.values(), first_rows):
                for cell, cell_options in zip(cells, options, strict=True):
                    if cell_options is not None:
                        line = one_line(console.render(Padding(cell, (0, padding)), cell_options), cell_options)
                        if line is not None:
                            laid_out[look(cell), cell_options.max_width] = (cell_options, line)
            return laid_out

        self._prepared = PreparedCells(columns, theme, rows, await asyncio.to_thread(lay_out))

    def _column_width(self, key: str) -> int | None:
        column = self.columns.get(ColumnKey(key))
        return column.get_render_width(self) if column is not None else None

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the visible lines (RowTable works cell options out once per width for the frame). Rows rendered at
        another width are drawn again (see `on_resize`)."""
        if self.size.width != self._drawn_width:
            self._drawn_width = self.size.width
            rendered_rows_stale(self)  # the space after the last column changed
        return super().render_lines(crop)

    def _cropped_away(self, column_index: int, row: Row | None, base_style: Style) -> bool:
        """True for a fixed column's cell drawn in the scrolled part of a line while a frame is drawn: DataTable
        draws each fixed column twice, in the fixed part of the line (its base style carries the `fixed` meta) and
        again at the start of the scrolled part, which `_render_line` crops away before anything shows; a blank
        cell of the same width makes the same line."""
        if column_index >= self.fixed_columns or row is None or row.height != 1 or self._frame_widths is None:
            return False
        return not base_style.meta.get("fixed")

    def cell_lines(self, row_index: int, col_index: int, style: Style, width: int, cursor: bool, hover: bool) -> Lines:
        """As RowTable draws a cell (see `laid_out_line`), but a fixed column's copy that the line crops away is a
        blank of its width (see `_cropped_away`)."""
        if row_index >= 0 and 0 <= col_index < self.fixed_columns:
            keys = cell_key_at(self, row_index, col_index)
            if keys is not None and self._cropped_away(col_index, self.rows.get(keys[0]), style):
                return [[Segment(" " * width)]]
        return super().cell_lines(row_index, col_index, style, width, cursor, hover)

    def show_items(self, records: Sequence[T], *, follow_row: bool = True) -> set[str]:
        """Show exactly `records`, in order, by keyed diff (marks kept); the keys of the rows new or whose record
        changed.

        With `follow_row` (a refresh of the same query) the cursor stays on its row, or its position when the row
        is gone; without it (a new filter, sort or page) the cursor goes to the first row, same column.
        """
        changed: set[str] = set()
        wanted = {self.adapter.key(record): record for record in records}
        order = {key: position for position, key in enumerate(wanted)}
        cursor_key, cursor = self.current_key, self.cursor_coordinate
        cells_of: dict[str, list[Text]] = {}
        # the columns fitted to the new rows' cells before any row is added (no redraw)
        cells_of = {key: self._cells(key, record) for key, record in wanted.items()}
        self._widest = self._measure(records, cells_of) if records else {}
        widths = self.column_widths()
        if widths != self.shown_widths and self.columns:
            shown_before = [column.key for column in self.shown_columns]
            self._reset_columns(widths)
            if [column.key for column in self.shown_columns] != shown_before:
                cells_of = {}  # another set of columns: the cells are made again for it
        column_keys = [MARK_COLUMN, *(column.key for column in self.shown_columns)]
        gone = [key for key in self._items if key not in wanted]
        new_rows: list[tuple[str, list[Text]]] = []
        with self.app.batch_update():
            if len(gone) >= REBUILD_MIN_GONE and len(gone) * 4 >= len(self._items):
                # DataTable.remove_row rebuilds its row index on every call (O(rows) each): when many rows go
                # (a page turn, a new filter) one clear and re-add is cheaper. Marks live in self._marked.
                self.clear()
                self._items.clear()
            else:
                for key in gone:
                    self.remove_row(key)
                    del self._items[key]
            for key, record in wanted.items():
                cells = cells_of.get(key) or self._cells(key, record)
                if key in self._items:
                    for column_key, cell in zip(column_keys, cells, strict=True):
                        if cell_changed(self.get_cell(key, column_key), cell):
                            self.update_cell(key, column_key, cell)
                    if self._items[key] != record:  # the record, not its cells: "in 5m" ticking is no change
                        changed.add(key)
                else:
                    new_rows.append((key, cells))
                    changed.add(key)
                self._items[key] = record
                if key in self._marked:
                    self._marked_records[key] = record
            self.append_rows(new_rows)
            if self._prepared is not None and new_rows:
                self.lines_laid_out(self._prepared.laid_out)
            self._prepared = None
            current_order = [row.key.value for row in self.ordered_rows]
            if current_order != list(wanted):
                self.sort(MARK_COLUMN, key=lambda mark: order[mark.row_key])
            if follow_row:
                self._restore_cursor(cursor_key, cursor)
            elif self.row_count:
                self.move_cursor(row=0, column=max(cursor.column, 1), animate=False, scroll=self._can_scroll())
        self._post_focus()
        return changed

    def draw_ahead(self) -> None:
        """Draw the visible lines now, DRAW_AHEAD_LINES per turn of the event loop, holding the app's screen
        updates until the last (see the module docstring); nothing while the table has no size."""
        width, height = self.size
        if width <= 0 or height <= 0 or not self.row_count:
            return
        held = self.app.batch_update()
        held.__enter__()  # released in `draw` however it ends (never cancelled: a newer one makes it stop)

        async def draw() -> None:
            try:
                for top in range(0, height, DRAW_AHEAD_LINES):
                    await asyncio.sleep(DRAW_AHEAD_PAUSE)  # the loop turns: input, timers and the rest run in between
                    if self._drawing_ahead is not worker or (width, height) != tuple(self.size) or not self.is_mounted:
                        return
                    self.render_lines(Region(0, top, width, min(DRAW_AHEAD_LINES, height - top)))
            finally:
                held.__exit__(None, None, None)
                if self._drawing_ahead is worker:
                    self._drawing_ahead = None

        worker = self.run_worker(draw(), name="draw-ahead", group="draw-ahead")
        self._drawing_ahead = worker

    def fixed_layout(self) -> bool:
        """True when no column sizes to its content (every PagedTable column has a width) and no row has a label:
        then no cell's measured width is ever used."""
        return not self.has_row_labels() and not any(column.auto_width for column in self.columns.values())

    def _restore_cursor(self, key: str | None, cursor: Coordinate) -> None:
        if not self.row_count:
            return
        row = self.get_row_index(key) if key is not None and key in self._items else min(cursor.row, self.row_count - 1)
        self.move_cursor(row=row, column=max(cursor.column, 1), animate=False, scroll=self._can_scroll())

    def _can_scroll(self) -> bool:
        """Scroll to the cursor only when the table has a size: hidden (while loading) it would scroll past the
        mark column to fit the cell into a zero-width region."""
        return self.display and self.size.width > 0

    def _post_focus(self) -> None:
        key = self.current_key
        if key != self._last_focused:
            self._last_focused = key
            self.post_message(RowFocused(key))

    def on_data_table_cell_highlighted(self, _event: DataTable.CellHighlighted) -> None:
        """Tell the screen when the cursor moved to another row."""
        self._post_focus()

    # ----- marks ------------------------------------------------------------------------------------------
    def mark_cell(self, key: str, marked: bool) -> RowMark:
        """The mark cell of a row: `●` in bold and the theme's `$mark` colour when marked."""
        if not marked:
            return RowMark(key, False)
        from svctui.tui.widgets.status_colors import theme_color  # (it imports the API models: after the first frame)

        return RowMark(key, True, theme_color(self.app, "mark", "accent"))

    def _set_marked(self, keys: Sequence[str], marked: bool) -> None:
        for key in keys:
            if marked:
                self._marked.add(key)
                if key in self._items:
                    self._marked_records[key] = self._items[key]
            else:
                self._marked.discard(key)
                self._marked_records.pop(key, None)
            if key in self._items:
                self.update_cell(key, MARK_COLUMN, self.mark_cell(key, marked))
        self.post_message(MarksChanged(self.marked))

    def clear_marks(self) -> None:
        """Unmark every row."""
        self._set_marked(sorted(self._marked), False)
        self._anchor = None

    def action_toggle_mark(self) -> None:
        """Mark or unmark the row under the cursor."""
        key = self.current_key
        if key is not None:
            self._set_marked([key], key not in self._marked)
            self._anchor = key

    def action_mark_range(self) -> None:
        """Mark every row between the last marked row (or the top) and the cursor."""
        key = self.current_key
        if key is None:
            return
        keys = [row.key.value for row in self.ordered_rows if row.key.value is not None]
        start = keys.index(self._anchor) if self._anchor in keys else 0
        end = keys.index(key)
        low, high = sorted((start, end))
        self._set_marked(keys[low : high + 1], True)
        self._anchor = key

    # ----- sorting ----------------------------------------------------------------------------------------
    def set_sort(self, sort: Sequence[SortKey]) -> None:
        """Show `sort` in the headers (no message; the screen owns the request)."""
        self.sort_keys = tuple(sort)
        if self._items and self.column_widths() != self.shown_widths:
            self._rebuild()  # a column's header gained or lost its arrow (its width follows its label)
            return
        for column in self.adapter.columns:
            shown = self.columns.get(ColumnKey(column.key))
            if shown is not None:
                shown.label = Text(sort_label(column.label, column.sort, self.sort_keys))
        # The header line is cached until the data changes; a sort that leaves the rows as they were must still
        # show its new arrows (this drops the rendered lines and repaints).
        self.notify_style_update()

    def _change_sort(
        self, column: ColumnDef[T] | None, change: Callable[[Sequence[SortKey], str], tuple[SortKey, ...]]
    ) -> None:
        if column is None or column.sort is None:
            sortable = ", ".join(c.label for c in self.adapter.columns if c.sort) or "none"
            name = column.label if column is not None else "this column"
            self.notify(
                f"The server cannot sort by {name}; sortable columns here: {sortable} "
                "(ctrl+p, 'Sort by', for sortable fields not shown)",
                severity="warning",
            )
            return
        new_sort = change(self.sort_keys, column.sort)
        self.set_sort(new_sort)
        self.post_message(SortChanged(new_sort))

    def action_cycle_sort(self) -> None:
        """Cycle the sort of the column under the cursor."""
        self._change_sort(self.current_column, cycle_sort)

    def action_reverse_sort(self) -> None:
        """Reverse the sort of the column under the cursor."""
        self._change_sort(self.current_column, reverse_sort)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        """A header click cycles that column's sort."""
        event.stop()
        self._change_sort(self.adapter.column(event.column_key.value or ""), cycle_sort)

    # ----- movement ---------------------------------------------------------------------------------------
    def export_rows(self, records: Sequence[T] | None = None) -> tuple[list[str], list[list[str]]]:
        """Column labels and the plain text of `records` (default: every row, in display order) for CSV export: each
        value whole (a column's `export_text` where its cell is cut), never cut to the column's width."""
        headers = [column.label for column in self.adapter.columns]
        rows = []
        for record in self.items if records is None else records:
            cells = [
                column.export_text(record) if column.export_text is not None else column.render(record)
                for column in self.adapter.columns
            ]
            rows.append([cell.plain if isinstance(cell, Text) else cell for cell in cells])
        return headers, rows
