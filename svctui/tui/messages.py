"""Messages that carry widget intents (a chip removed, the sort changed, marks, the cursor) to the screen.

What workers load arrives as svctui.tui.loading's `Loaded` / `LoadFailed`.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

from svctui.api.filters import Filter, SortKey


class FilterRemoved(Message):
    """The user removed one active filter (a chip)."""

    def __init__(self, removed: Filter) -> None:
        super().__init__()
        self.removed = removed


class SortChanged(Message):
    """The table's sort keys changed (priority order); the screen reloads from the server."""

    def __init__(self, sort: Sequence[SortKey]) -> None:
        super().__init__()
        self.sort = tuple(sort)


class MarksChanged(Message):
    """The set of marked row keys changed."""

    def __init__(self, marked: frozenset[str]) -> None:
        super().__init__()
        self.marked = marked


class ColumnsFitted(Message):
    """A table fitted its columns again and shows another set of them (the status line names those left out)."""


class RowFocused(Message):
    """The cursor moved to another row (key, or None when the table is empty)."""

    def __init__(self, row_key: str | None) -> None:
        super().__init__()
        self.row_key = row_key
