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
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.widgets import DataTable, Input
from textual.widgets._footer import FooterKey, FooterLabel
from textual.widgets.data_table import CellKey, ColumnKey, DuplicateKey, Row, RowKey

if TYPE_CHECKING:
    from textual.app import App
    from textual.pilot import Pilot
    from textual.screen import Screen
    from textual_plotext import PlotextPlot
    from textual_plotext.plot import Plot  # a type only: plotext loads with the first plot, not at start

__all__ = ["FooterKey", "FooterLabel"]

Cell = TypeVar("Cell")
Lines = list[list[Segment]]  # a rendered cell: its lines of segments

# (owner, private name) -> what it buys and, for a performance device, the bench row that needs it (its figures are
# in docs/PERFORMANCE.md, "Textual's internals"); tests/unit/test_textual_internals.py checks each one is still there.
PRIVATE_NAMES: dict[tuple[str, str], str] = {
    # behaviour, not performance: no public export or hook does these
    ("textual.widgets._footer", "FooterKey"): "KeyFooter drops minor keys on narrow terminals (no public export)",
    ("textual.widgets._footer", "FooterLabel"): "KeyFooter drops a group's label with its keys (no public export)",
    ("App", "_check_bindings"): "OrderedInput runs a bound key before the keys typed after it (Textual #6605)",
    ("Input", "_on_key"): "OrderedInput: its key handler, where the bound key must act first (Textual #6605)",
    ("DataTable", "_get_row_style"): "RowTable: a flashing or marked row's colour fills the line past the last column",
    ("DataTable", "_render_cell"): "RowTable: every cell of a flashing or marked row takes the row's highlight",
    ("textual_plotext.plot", "Plot._set_size"): "plot_size: a plot built in a thread at the widget's size",
    ("textual_plotext.plotext_plot", "PlotextPlot._get_plotext_theme_name"): (
        "plot_theme_name: a plot built in a thread in the app's theme, as PlotextPlot.render picks it"
    ),
    ("textual_plotext.plotext_plot", "PlotextPlot._register_theme"): (
        "register_plot_theme: plotext knows the app's theme by name before a thread builds with it"
    ),
    # the bench harness (bench/), not the dashboard: a measurement ends on a drawn frame and a settled table
    (
        "textual.pilot",
        "Pilot._wait_for_screen",
    ): "screen_drawn: until the screen drew what is pending (stall-*, table-*)",
    ("DataTable", "_updated_cells"): "still_measuring: cells DataTable has yet to measure (stall-*, table-*)",
    # performance devices, each with the bench row it keeps within budget
    ("Screen", "_css_update_count"): "styled_with_current_css: no second parse of every stylesheet (first-row)",
    ("App", "_css_update_count"): "styled_with_current_css: the app's stylesheet counter (first-row)",
    ("DataTable", "_labelled_row_exists"): "FixedLayoutTable.has_row_labels (stall-first-page, -page-turn, -filter)",
    ("DataTable", "_update_column_widths"): "FixedLayoutTable: updated fixed-width cells unmeasured (stall-* rows)",
    ("DataTable", "_update_dimensions"): "FixedLayoutTable: new rows of fixed-width columns unmeasured (stall-* rows)",
    ("DataTable", "_row_label_column_width"): "FixedLayoutTable._update_dimensions: the virtual width (stall-* rows)",
    ("DataTable", "_total_row_height"): "FixedLayoutTable._update_dimensions: the virtual height (stall-* rows)",
    ("DataTable", "_require_update_dimensions"): (
        "append_rows, _update_column_widths, columns_resized: the virtual size recomputed (stall-* rows)"
    ),
    ("DataTable", "_row_locations"): "append_rows: each new row's index (stall-page-turn, stall-filter)",
    ("DataTable", "_new_rows"): "append_rows: the rows DataTable measures next (stall-page-turn, stall-filter)",
    ("DataTable", "_highlight_cursor"): "append_rows: the cursor on the first rows, as add_row (stall-page-turn)",
    ("DataTable", "_data"): "row_cells, append_rows: cells read and written in place (stall-page-turn, clients-fill)",
    ("DataTable", "_update_count"): (
        "styled_cell's cache key; rendered_rows_stale on a width change; append_rows; columns_resized (stall-* rows)"
    ),
    ("DataTable", "_cell_render_cache"): "styled_cell, forget_rendered_rows: the rendered cells (stall-first-page)",
    ("DataTable", "_show_hover_cursor"): "styled_cell: the cache key and styles DataTable uses (stall-first-page)",
    ("DataTable", "_pseudo_class_state"): "styled_cell: the cache key DataTable uses (stall-first-page)",
    ("DataTable", "_get_styles_to_render_cell"): "styled_cell: a cell's cursor and hover styles (stall-first-page)",
    ("DataTable", "_row_render_cache"): "forget_rendered_rows: a changed row repaints alone (fleet-1000-fill)",
    ("DataTable", "_row_renderable_cache"): "forget_rendered_rows: cleared with the rows (fleet-1000-fill)",
    ("DataTable", "_line_cache"): "forget_rendered_rows: cleared with the rows (fleet-1000-fill)",
    ("textual.cache", "LRUCache._cache"): "FixedLayoutTable.clear: old pages freed with no full collection (rss-100k)",
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

    def fixed_layout(self) -> bool:
        """True when no column sizes to its content and no row has a label (here: never)."""
        return False

    def clear(self, columns: bool = False) -> Self:
        """Clear the table as DataTable does, its LRU caches unlinked first: emptied alone, each cache's ring of
        [prev, next, key, value] links is a reference cycle holding the old rows and lines until a full collection."""
        for cache in vars(self).values():
            if isinstance(cache, LRUCache):
                for link in cache._cache.values():
                    link.clear()
                cache.clear()  # now: a cleared link must never be read
        return super().clear(columns)

    def has_row_labels(self) -> bool:
        """True when a row has a label (which takes a column of its own)."""
        return bool(self._labelled_row_exists)

    def append_rows(self, rows: Sequence[tuple[str, list[Any]]]) -> None:
        """Add one-line rows at the bottom, as `add_row` each would, with the per-table work done once (add_row
        re-validates the cursor per row)."""
        if not rows:
            return
        was_empty = self.row_count == 0
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
        if was_empty and self.columns and self.show_cursor and self.cursor_type != "none":
            self._highlight_cursor()
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
        width = sum(column.get_render_width(self) for column in self.columns.values()) + self._row_label_column_width
        header_height = self.header_height if self.show_header else 0
        self.virtual_size = Size(width, self._total_row_height + header_height)


# ----- the bench harness's waits (bench/) ---------------------------------------------------------------------------
async def screen_drawn(pilot: Pilot[Any]) -> None:
    """Until the screen has processed and drawn what is pending (`pilot.pause()` also waits for an idle CPU, which
    swamps a cheap measurement)."""
    await pilot._wait_for_screen()


def still_measuring(table: DataTable[Any]) -> bool:
    """True while DataTable has dimensions or updated cells left to measure (its idle work)."""
    return bool(table._require_update_dimensions or table._updated_cells)
