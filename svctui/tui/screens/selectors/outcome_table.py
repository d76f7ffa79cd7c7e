"""The outcome table of the run and restore dialogs: columns fitted to the sheet, cut values, the whole row below.

Each column (svctui.table_fit.Column) has a natural width (its widest value or label, up to a most) and a least
width; whenever the width or a natural width changes the columns are fitted (`fit_columns`: the widest are cut
first), so at 80 columns every column is on the sheet; room left over then goes to the values wider than their most
(names, at 160 columns). A cut
request id keeps its end (`cut_start`, the part that tells requests apart), any other cut cell ends with `…`: a
message keeps its start, which says what happened (`re-created enabled…`), at least MESSAGE_LEAST cells of it (at
80 columns the request id gives way, named under the table). Under the table one line gives the highlighted row's
cut values whole (as the domain-results pane gives a failed domain's message); it is hidden when nothing of that row
is cut.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from rich.cells import cell_len
from textual import events, getters, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from svctui.table_fit import Column, fit_columns, left_out_hint
from svctui.tui.widgets.row_table import RowTable
from svctui.visible import visible

WHOLE_LINES = 3  # the most lines the highlighted row's whole values take under the table (at 80 columns)
Cut = Callable[[str, int], str]  # svctui.text: cut_start
MESSAGE_LEAST = len("re-created enabled…")  # a message column's least width: the words that say what happened, whole


class OutcomeTable(Vertical):
    """A RowTable (`table_id`) of outcomes whose columns fit its width, and the highlighted row's cut values below."""

    DEFAULT_CSS = """
    OutcomeTable { height: 1fr; }
    OutcomeTable > RowTable { height: 1fr; }
    OutcomeTable > .outcome-whole { height: auto; color: $text-muted; }
    """
    SEPARATOR: ClassVar[str] = " · "
    table = getters.query_one(RowTable)  # the outcomes table (its id is `table_id`)

    def __init__(
        self, columns: Sequence[Column], cuts: Mapping[str, Cut], *, table_id: str, hide_empty: bool = False
    ) -> None:
        super().__init__()
        self.hide_empty = hide_empty  # a column with no value in any row takes no room (shown once one has a value)
        self.filled: set[str] = set()  # the columns with a value in some row
        self.outcome_columns = tuple(columns)  # ranked (svctui.table_fit.ranked)
        self.cuts = dict(cuts)  # how a value too wide for its column is cut (else it ends with `…`)
        self.table_id = table_id
        self.values: dict[str, dict[str, str]] = {}  # row key -> column key -> the whole value
        self.widths: dict[str, int] = {}  # the shown columns' widths
        self.widest = {column.key: cell_len(column.title) for column in columns}  # the widest value or label
        self.fitted_width = -1  # the width the columns were fitted to

    def compose(self) -> ComposeResult:
        """The table and the line with the highlighted row's whole values."""
        yield RowTable(id=self.table_id)
        yield Static("", classes="outcome-whole", markup=False)

    def add_rows(self, rows: Mapping[str, Mapping[str, str]]) -> None:
        """Add rows (row key -> column key -> value; a column not given is empty)."""
        for key, values in rows.items():
            self.values[key] = {column.key: values.get(column.key, "") for column in self.outcome_columns}
            self.measure(self.values[key])
        self.fit(force=True)

    def measure(self, values: Mapping[str, str]) -> bool:
        """Widen the columns' widest values for these values; True when one changed."""
        changed = False
        for column in self.outcome_columns:
            value = values.get(column.key)
            if value and column.key not in self.filled:
                self.filled.add(column.key)
                changed = True
            if value and cell_len(value) > self.widest[column.key]:
                self.widest[column.key] = cell_len(value)
                changed = True
        return changed

    def set_values(self, changes: Mapping[str, Mapping[str, str]]) -> None:
        """Change values of rows (row key -> column key -> value) and repaint those rows alone."""
        keys = [key for key in changes if key in self.values]
        wider = False
        for key in keys:
            self.values[key].update(changes[key])
            wider = self.measure(changes[key]) or wider
        # A value wider than its column's widest so far: the columns fit again (rebuilt when their widths change).
        rebuilt = wider and self.fit(force=True)
        if keys and not rebuilt and self.table.columns:
            self.table.update_rows({key: self.cells(key) for key in keys})
        self.show_whole()

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the columns to the new width."""
        self.fit()

    def room(self) -> int:
        """The cells the columns may take: the width, less the table's vertical scrollbar when the rows may not all
        fit (the line under the table, up to WHOLE_LINES when shown, takes rows from it)."""
        scrolls = len(self.values) + 1 > self.size.height - WHOLE_LINES
        return self.size.width - (self.table.styles.scrollbar_size_vertical if scrolls else 0)

    def fit(self, *, force: bool = False) -> bool:
        """Fit the columns to the width (the rows and the cursor kept) when it changed (or `force`); True when the
        table was rebuilt for new widths."""
        table = self.table
        room = self.room()
        if room <= 0 or (room == self.fitted_width and not force):
            return False
        fitted = fit_columns(self.fitted_columns(), self.widest, room, 2 * table.cell_padding).widths
        self.fitted_width = room
        if fitted == self.widths and table.row_count == len(self.values):
            return False
        self.widths = fitted
        row = table.cursor_row
        table.clear(columns=True)
        for column in self.outcome_columns:
            if column.key in fitted:
                table.add_column(column.title, key=column.key, width=fitted[column.key])
        for key in self.values:
            table.add_row(*self.cells(key), key=key)
        if table.row_count:
            table.move_cursor(row=min(max(row, 0), table.row_count - 1), animate=False)
        self.show_whole()
        return True

    def fitted_columns(self) -> list[Column]:
        """The columns the fit places: all of them, or (`hide_empty`) those with a value in some row and the first."""
        first = self.outcome_columns[0].key
        return [
            column
            for column in self.outcome_columns
            if not self.hide_empty or column.key in self.filled or column.key == first
        ]

    def cells(self, key: str) -> list[str]:
        """The row's shown cells, each cut to its column by its column's rule."""
        values = self.values[key]
        shown = [column for column in self.outcome_columns if column.key in self.widths]
        cuts = self.cuts
        return [
            cuts[column.key](values[column.key], self.widths[column.key]) if column.key in cuts else values[column.key]
            for column in shown
        ]

    def cut_values(self, key: str) -> list[tuple[str, str]]:
        """(label, whole value) of the row's values that are cut or left out, in column order."""
        values = self.values.get(key, {})
        return [
            (column.title, values[column.key])
            for column in self.outcome_columns
            if values.get(column.key)
            and (column.key not in self.widths or cell_len(values[column.key]) > self.widths[column.key])
        ]

    def highlighted_key(self) -> str | None:
        """The key of the row under the cursor (None when there are no rows)."""
        table = self.table
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def show_whole(self) -> None:
        """The highlighted row's cut values whole under the table (`id 35 · message: …`), after the columns the
        table leaves out (`+1 column: request id · …`); hidden when nothing is cut or left out."""
        line = self.query_one(".outcome-whole", Static)
        key = self.highlighted_key()
        cut = self.cut_values(key) if key is not None else []
        left_out = [column.title for column in self.fitted_columns() if column.key not in self.widths]
        hint = left_out_hint(left_out) if self.widths else ""  # (not fitted yet: nothing is left out)
        if not hint and (key is None or not cut):
            line.update("")
            line.display = False
            return
        parts = [hint] if hint else []
        if key is not None and cut:
            first = self.outcome_columns[0]
            parts += [f"{first.title} {self.values[key][first.key]}", *(f"{label}: {value}" for label, value in cut)]
        line.update(visible(self.SEPARATOR.join(parts)))
        line.display = True

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.show_whole()
