"""The selector table: a PagedTable whose marks go to the screen's Marks model and refuse default selectors."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from svctui.api.models import Selector
from svctui.tui.messages import MarksChanged
from svctui.tui.widgets.paged_table import MARK_COLUMN, PagedTable, RowAdapter

MarksCallback = Callable[[Sequence[Selector], Sequence[str], bool], None]
DEFAULT_REFUSED = "the server refuses to delete default selectors (403), so they can't be marked"


class SelectorTable(PagedTable[Selector]):
    """Rows of selectors; `space` / `v` marks go through `on_marks(records, keys, marked)`."""

    def __init__(self, adapter: RowAdapter[Selector], on_marks: MarksCallback, *, id: str | None = None) -> None:
        super().__init__(adapter, id=id)
        self.on_marks = on_marks

    def _set_marked(self, keys: Sequence[str], marked: bool) -> None:
        """Mark or unmark `keys`; default selectors are left out of a marking, with a notification saying why."""
        if marked:
            defaults = [key for key in keys if (item := self.item(key)) is not None and item.is_default]
            if defaults:
                item = self.item(defaults[0])
                named = f"Selector {defaults[0]} “{item.name[:60]}”" if item is not None and len(defaults) == 1 else ""
                head = named or f"{len(defaults)} default selectors"
                self.notify(f"{head} not marked: {DEFAULT_REFUSED}.", severity="warning", markup=False)
            keys = [key for key in keys if key not in defaults]
        if not keys:
            return
        records = [item for key in keys if (item := self.item(key)) is not None]
        super()._set_marked(keys, marked)
        self.on_marks(records, keys, marked)

    def clear_marks(self) -> None:
        """Unmark every row (the screen clears the model itself)."""
        self._anchor = None
        self.show_marks(())

    def show_marks(self, keys: Iterable[str]) -> None:
        """Make exactly `keys` marked (the model changed: a tag switch, mark all, typed ids, a deletion)."""
        wanted = set(keys)
        changed = (self._marked ^ wanted) & set(self._items)
        self._marked = wanted
        for key in changed:
            self.update_cell(key, MARK_COLUMN, self.mark_cell(key, key in wanted))
        self.post_message(MarksChanged(self.marked))
