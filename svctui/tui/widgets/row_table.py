"""RowTable: a row-cursor DataTable that moves with j/k/g/G like the paged tables (tags, audit, run, review)."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable

Cell = TypeVar("Cell")


class RowTable(DataTable[Cell], Generic[Cell]):
    """A zebra-striped DataTable with a row cursor and the vi keys every table of the dashboard answers to."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="table.down", tooltip="Move the cursor down"),
        Binding("k", "cursor_up", "Up", show=False, id="table.up", tooltip="Move the cursor up"),
        Binding("g", "first_row", "Top", show=False, id="table.top", tooltip="Go to the first row"),
        Binding("G", "last_row", "Bottom", show=False, id="table.bottom", tooltip="Go to the last row"),
    ]

    def __init__(self, **options: Any) -> None:
        options.setdefault("cursor_type", "row")
        options.setdefault("zebra_stripes", True)
        super().__init__(**options)

    def action_first_row(self) -> None:
        """The cursor to the first row."""
        self.move_cursor(row=0)

    def action_last_row(self) -> None:
        """The cursor to the last row."""
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)
