"""Every private name of Textual, rich and textual-plotext that svctui uses, in one place, each with what it buys.

Textual is pinned to the minor version these were read from (pyproject: `textual>=8.2.8,<8.3`), and
tests/unit/test_textual_internals.py fails, naming the name and what it was for, when the installed Textual no
longer has one. Nothing outside this module touches a `_name` of Textual or rich (the same test checks that).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from rich.segment import Segment
from rich.style import Style
from rich.text import TextType
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey, FooterLabel
from textual.widgets.data_table import CellKey, ColumnKey, DuplicateKey, Row, RowKey

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen
    from textual_plotext import PlotextPlot
    from textual_plotext.plot import Plot  # a type only: plotext loads with the first plot, not at start

__all__ = ["FooterKey", "FooterLabel"]

Cell = TypeVar("Cell")
Lines = list[list[Segment]]  # a rendered cell: its lines of segments

# What each device buys and, for a performance device, the bench row that needs it (its figures are in
# docs/PERFORMANCE.md, "Textual's internals"): one line a device, said once however many names it reads.
# behaviour, not performance: no public export or hook does these
KEY_FOOTER = "KeyFooter: minor keys, and a group's label with its keys, dropped on narrow terminals (no public export)"
ORDERED_INPUT = "OrderedInput: a bound key runs before the keys typed after it (Textual #6605)"
ROW_HIGHLIGHT = "RowTable: a flashing or marked row's highlight on every cell and past the last column"
# performance devices
THREAD_PLOT = "plot_size, plot_theme_name, register_plot_theme: a plot built in a thread (stall-plot-history, -drop-*)"
CURRENT_CSS = "styled_with_current_css: a tab's screen made with the app's CSS counter, no second parse (first-row)"
FIXED_LAYOUT = "FixedLayoutTable: fixed-width cells and rows left unmeasured (stall-first-page, -page-turn, -filter)"
APPEND_ROWS = "append_rows: a page's rows added in one go, as add_row each would (stall-page-turn, stall-filter)"
CELLS_IN_PLACE = "row_cells: a row's cells read and written in place (stall-page-turn, clients-fill)"
STYLED_CELL = "styled_cell: a cell laid out once, styled and cached as DataTable does (stall-*, fleet-1000-fill)"
ROWS_KEPT = "rendered_rows_stale, columns_resized: rows kept, redrawn (stall-first-page, -page-turn, fleet-1000-fill)"
FORGET_ROWS = "forget_rendered_rows: a changed row repaints alone (fleet-1000-fill, clients-fill)"

# (owner, private name) -> the devices it serves; tests/unit/test_textual_internals.py checks each is still there.
PRIVATE_NAMES: dict[tuple[str, str], str] = {
    ("textual.widgets._footer", "FooterKey"): KEY_FOOTER,
    ("textual.widgets._footer", "FooterLabel"): KEY_FOOTER,
    ("App", "_check_bindings"): ORDERED_INPUT,
    ("Input", "_on_key"): ORDERED_INPUT,
    ("DataTable", "_get_row_style"): ROW_HIGHLIGHT,
    ("DataTable", "_render_cell"): ROW_HIGHLIGHT,
    ("textual_plotext.plot", "Plot._set_size"): THREAD_PLOT,
    ("textual_plotext", "PlotextPlot._get_plotext_theme_name"): THREAD_PLOT,
    ("textual_plotext", "PlotextPlot._register_theme"): THREAD_PLOT,
    ("Screen", "_css_update_count"): CURRENT_CSS,
    ("App", "_css_update_count"): CURRENT_CSS,
    ("DataTable", "_update_column_widths"): FIXED_LAYOUT,
    ("DataTable", "_update_dimensions"): FIXED_LAYOUT,
    ("DataTable", "_total_row_height"): FIXED_LAYOUT,
    ("DataTable", "_require_update_dimensions"): f"{FIXED_LAYOUT}; {APPEND_ROWS}; {ROWS_KEPT}",
    ("DataTable", "_row_locations"): APPEND_ROWS,
    ("DataTable", "_new_rows"): APPEND_ROWS,
    ("DataTable", "_data"): f"{CELLS_IN_PLACE}; {APPEND_ROWS}",
    ("DataTable", "_update_count"): f"{STYLED_CELL}; {ROWS_KEPT}; {APPEND_ROWS}",
    ("DataTable", "_cell_render_cache"): f"{STYLED_CELL}; {FORGET_ROWS}",
    ("DataTable", "_show_hover_cursor"): STYLED_CELL,
    ("DataTable", "_pseudo_class_state"): STYLED_CELL,
    ("DataTable", "_get_styles_to_render_cell"): STYLED_CELL,
    ("DataTable", "_row_render_cache"): FORGET_ROWS,
    ("DataTable", "_row_renderable_cache"): FORGET_ROWS,
    ("DataTable", "_line_cache"): FORGET_ROWS,
}

# Textual widgets svctui names in CSS or a query, which Textual does not export (type name -> what it is used for);
# tests/unit/test_textual_internals.py checks Textual still has a widget of each name.
UNEXPORTED_TYPES: dict[str, str] = {
    "ToastRack": "app.tcss: toasts above the status line; over a dialog, in its last row",
    "ToastHolder": "SvcTuiApp._fewer_toasts: all but the newest toasts held back on a small terminal",
    "Toast": "app.tcss: a toast's width, one line over a dialog",
}


# ----- screens -----------------------------------------------------------------------------------------------------
def styled_with_current_css(screen: Screen[Any]) -> None:
    """Mark a screen made for a mode as styled with the app's stylesheet as it is now: made with a CSS counter
    behind the app's, Textual re-parses every stylesheet (twice) although the screen's own CSS is parsed as it is
    loaded and mounted."""
    screen._css_update_count = screen.app._css_update_count


# ----- plots -------------------------------------------------------------------------------------------------------
def plot_size(plot: Plot, width: int, height: int) -> None:
    """Size a textual-plotext figure drawn off the widget (in a thread) as PlotextPlot.render sizes its own: the
    figure's private canvas size, which `plotsize` alone leaves unset (textual-plotext issue 5)."""
    plot.plotsize(width, height)
    plot._set_size(width, height)


def plot_theme_name(plot: PlotextPlot, app_theme: str) -> str:
    """The plotext theme PlotextPlot.render would draw `plot` in under the app's theme `app_theme`."""
    return plot._get_plotext_theme_name(app_theme)


def register_plot_theme(plot: PlotextPlot, app_theme: str) -> None:
    """Register the app's theme with plotext as PlotextPlot does on mount and on a theme switch (plotext looks a
    theme up by name, so a figure built in a thread needs it registered first)."""
    plot._register_theme(app_theme)


# ----- toasts ------------------------------------------------------------------------------------------------------
# ----- keys in the order they were typed --------------------------------------------------------------------------
class BoundKeysFirstInput(Input):
    """An Input whose bound (non-printable) keys run their bindings in its own key handler, before the keys queued
    behind them are inserted (see svctui/tui/widgets/ordered_input.py)."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable and await app_check_bindings(self.app, event.key):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)


async def app_check_bindings(app: App[Any], key: str) -> bool:
    """Run the bindings `key` has from the focused widget up to the screen, as the app does after a key bubbles;
    True when one ran."""
    return bool(await app._check_bindings(key))


# ----- DataTable: row highlight -----------------------------------------------------------------------------------
class HighlightedRows(DataTable[Cell], Generic[Cell]):
    """A DataTable whose rows can add a style of their own (`row_highlight`) to the whole line, and whose cells are
    drawn by `cell_lines` (the public hooks RowTable fills)."""

    def row_highlight(self, row_index: int, *, in_cursor_cell: bool = False) -> Style:
        """What a row adds to its style (none here)."""
        return Style()

    def cell_lines(self, row: int, column: int, style: Style, width: int, cursor: bool, hover: bool) -> Lines:
        """A cell drawn as DataTable draws it; `style` already holds its row's highlight."""
        return super()._render_cell(row, column, style, width, cursor, hover)

    def _get_row_style(self, row_index: int, base_style: Style) -> Style:
        return super()._get_row_style(row_index, base_style) + self.row_highlight(row_index)

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> Lines:
        highlighted = base_style + self.row_highlight(row_index, in_cursor_cell=cursor)
        return self.cell_lines(row_index, column_index, highlighted, width, cursor, hover)


# ----- DataTable: cells read and written in place -------------------------------------------------------------------
def row_cells(table: DataTable[Cell], row_key: RowKey) -> dict[ColumnKey, Cell] | None:
    """The row's cells by column, as the table holds them (writable: see `forget_rendered_rows`), or None."""
    return table._data.get(row_key)


def forget_rendered_rows(table: DataTable[Any], keys: set[RowKey]) -> None:
    """Drop the rendered cells and lines of these rows only (update_cell drops every row's: a repaint of every
    visible cell for one changed row)."""
    cells_cache, rows_cache = table._cell_render_cache, table._row_render_cache
    for cell_key in [cell_key for cell_key in cells_cache.keys() if cell_key[0] in keys]:  # noqa: SIM118 - no __iter__
        cells_cache.discard(cell_key)
    for line_key in [line_key for line_key in rows_cache.keys() if line_key[0] in keys]:  # noqa: SIM118
        rows_cache.discard(line_key)
    table._row_renderable_cache.clear()  # keyed by row index: cheap to rebuild
    table._line_cache.clear()  # lines are joined from the cached rows: cheap to rebuild


def columns_resized(table: DataTable[Any]) -> None:
    """After columns' widths were set in place (`Column.width`): the virtual size recomputed and every row drawn again
    from its cells, the rows kept (clear(columns=True) and adding them again built a thousand rows anew)."""
    table._require_update_dimensions = True
    table._update_count += 1
    table.check_idle()
    table.refresh()


def rendered_rows_stale(table: DataTable[Any]) -> None:
    """Every rendered row drawn again (their cache keys hold this counter), as DataTable does on a resize."""
    table._update_count += 1


# ----- DataTable: a cell laid out ahead, styled as DataTable styles it ----------------------------------------------
def styled_cell(
    table: DataTable[Any],
    keys: tuple[RowKey, ColumnKey],
    at: tuple[int, int],
    line: list[Segment],
    style: Style,
    cursor: bool,
    hover: bool,
) -> Lines:
    """A cell's one line (laid out exactly its width, unstyled) with the styles DataTable gives the cell at `at`
    (`style` holds its row's highlight; then the cursor, hover, fixed rows and columns), cached as DataTable caches
    its rendered cells: the same key, so its own invalidations drop it."""
    row, column = at
    cache_key = (*keys, style, cursor, hover, table._show_hover_cursor, table._update_count, table._pseudo_class_state)
    cached: Lines | None = table._cell_render_cache.get(cache_key)
    if cached is not None:
        return cached
    style += Style.from_meta({"row": row, "column": column})
    component_style, post_style = table._get_styles_to_render_cell(
        False,
        False,
        row < table.fixed_rows or column < table.fixed_columns,
        hover,
        cursor,
        table.show_cursor,
        table._show_hover_cursor,
        table.cursor_foreground_priority == "css",
        table.cursor_background_priority == "css",
    )
    console = table.app.console
    # One line exactly `width` wide: what render_lines(Styled(Padding(cell))) yields for it, styles applied here.
    pre, post = console.get_style(style + component_style), console.get_style(post_style)
    lines = [list(Segment.apply_style(line, style=pre, post_style=post))]
    table._cell_render_cache[cache_key] = lines
    return lines


# ----- DataTable: fixed-width one-line rows, appended in one go ------------------------------------------------------
class FixedLayoutTable(HighlightedRows[Cell], Generic[Cell]):
    """A DataTable that, while `fixed_layout()` holds, skips measuring cells whose width no column uses."""

    _row_labels_added = False  # as DataTable's own flag, which it sets only when it measures the new rows

    def fixed_layout(self) -> bool:
        """True when no column sizes to its content and no row has a label (here: never)."""
        return False

    def clear(self, columns: bool = False) -> Self:
        """Clear the table as DataTable does, its LRU caches emptied entry by entry first: `discard` unlinks each from
        the cache's ring of [prev, next, key, value] links, which `clear` alone leaves a reference cycle holding the old
        rows and lines until a full collection (rss-100k)."""
        for cache in vars(self).values():
            if isinstance(cache, LRUCache):
                placeholder = object()
                cache.set(placeholder, None)  # the ring's last link points at itself: let that be this one
                for key in list(cache.keys()):
                    if key is not placeholder:
                        cache.discard(key)  # unlinked from the ring: freed by reference counting
                cache.clear()
        self._row_labels_added = False
        return super().clear(columns)

    def has_row_labels(self) -> bool:
        """True when a row was added with a label (which takes a column of its own) since the table was cleared."""
        return self._row_labels_added

    def add_row(
        self, *cells: Cell, height: int | None = 1, key: str | None = None, label: TextType | None = None
    ) -> RowKey:
        """Add a row as DataTable does, noting whether it has a label."""
        self._row_labels_added = self._row_labels_added or label is not None
        return super().add_row(*cells, height=height, key=key, label=label)

    def append_rows(self, rows: Sequence[tuple[str, list[Any]]]) -> None:
        """Add one-line rows at the bottom, as `add_row` each would, with the per-table work done once (add_row
        re-validates the cursor per row)."""
        if rows and self.row_count == 0:  # the first row by add_row, which highlights the cursor on it
            first_key, first_cells = rows[0]
            super().add_row(*first_cells, key=first_key)
            rows = rows[1:]
        if not rows:
            return
        column_keys = [column.key for column in self.ordered_columns]
        locations, data, table_rows, new = self._row_locations, self._data, self.rows, self._new_rows
        for key, cells in rows:
            row_key = RowKey(key)
            if row_key in locations:
                raise DuplicateKey(f"The row key {row_key!r} already exists.")
            if len(cells) > len(column_keys):
                raise ValueError("More values provided than there are columns.")
            locations[row_key] = len(table_rows)
            data[row_key] = dict(zip(column_keys, cells, strict=False))
            table_rows[row_key] = Row(row_key, 1, None, False)
            new.add(row_key)
        self._require_update_dimensions = True
        self.cursor_coordinate = self.cursor_coordinate  # clamp it to the table, as add_row does
        self._update_count += 1
        self.check_idle()

    def _update_column_widths(self, updated_cells: set[CellKey]) -> None:
        if self.fixed_layout():  # an updated cell changes no fixed-width column's width
            self._require_update_dimensions = True
            return
        super()._update_column_widths(updated_cells)

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        if not self.fixed_layout() or any(self.rows[key].auto_height for key in new_rows if key in self.rows):
            super()._update_dimensions(new_rows)
            return
        width = sum(column.get_render_width(self) for column in self.columns.values())  # no row label: no label column
        header_height = self.header_height if self.show_header else 0
        self.virtual_size = Size(width, self._total_row_height + header_height)
