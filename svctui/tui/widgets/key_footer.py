"""The footer of the list screens: under NARROW columns it is compact and leaves out the keys `?` lists anyway
(sort, paging, refresh, unmark, endpoint), so the main ones (filter, detail, the screen's own, delete, help,
quit) fit in 80 columns."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

NARROW = 100
MINOR_ACTIONS = frozenset({"cycle_sort", "previous_page", "next_page", "refresh", "clear_marks", "switch_endpoint"})


class KeyFooter(Footer):
    """A Footer that drops its minor keys on narrow terminals (a group whose keys all went goes with its label)."""

    def __init__(self) -> None:
        super().__init__()
        self._narrow = False

    def compose(self) -> ComposeResult:
        """Footer's keys, without the minor ones while narrow."""
        self._narrow = self.app.size.width < NARROW
        self.compact = self._narrow
        dropped_in_group = kept_in_group = 0
        for widget in super().compose():
            if isinstance(widget, FooterLabel):  # a group's label follows its keys
                if not (dropped_in_group and not kept_in_group):
                    yield widget
                dropped_in_group = kept_in_group = 0
                continue
            grouped = isinstance(widget, FooterKey) and widget.has_class("-grouped")
            if self._narrow and isinstance(widget, FooterKey) and widget.action in MINOR_ACTIONS:
                dropped_in_group += grouped
                continue
            kept_in_group += grouped
            yield widget

    def on_resize(self, _event: events.Resize) -> None:
        """Recompose when the terminal crosses the narrow width."""
        if (self.app.size.width < NARROW) != self._narrow:
            self.call_after_refresh(self.recompose)
