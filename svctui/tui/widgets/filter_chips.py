"""Active filters as removable chips above a table; clicking (or enter on) a chip posts `FilterRemoved`.

chips = FilterChips(spec, id="chips")
chips.show_filters(filters)          # hidden when there are none
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.containers import HorizontalScroll
from textual.content import Content
from textual.widgets import Button, Static

from svctui.api.filters import EndpointSpec, Filter, display_value
from svctui.tui.messages import FilterRemoved
from svctui.visible import visible

PREDICATE_SYMBOLS = {"eq": "=", "neq": "≠", "gt": ">", "gte": "≥", "lt": "<", "lte": "≤", "~eq": "∋"}


def chip_text(active: Filter, spec: EndpointSpec | None = None) -> str:
    """How a filter reads on a chip: `client_id = 0b1c…  ✕`; coded values by label (`status = failed`)."""
    symbol = PREDICATE_SYMBOLS.get(active.op, active.op)
    value = display_value(spec, active.column, active.value) if spec is not None else active.value
    value = value if len(value) <= 28 else f"{value[:27]}…"
    return visible(f"{active.column} {symbol} {value} ✕")  # a pasted value's control characters shown


class FilterChip(Button):
    """One removable filter."""

    def __init__(self, active: Filter, spec: EndpointSpec | None = None) -> None:
        tooltip = visible(str(active))
        super().__init__(Content(chip_text(active, spec)), compact=True, classes="filter-chip", tooltip=tooltip)
        self.active_filter = active


class FilterChips(HorizontalScroll):
    """A one-line strip of removable filter chips; hidden when no filter is active."""

    DEFAULT_CSS = """
    FilterChips { height: 1; display: none; scrollbar-size: 0 0; }
    FilterChips.-active { display: block; }
    FilterChips .filter-chip { margin: 0 1 0 0; background: $primary-muted; color: $text; min-width: 0; }
    FilterChips .filter-chip:hover, FilterChips .filter-chip:focus { background: $primary; text-style: bold; }
    FilterChips .chips-hint { width: auto; color: $text-muted; }
    """

    def __init__(self, spec: EndpointSpec | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.spec = spec
        self.filters: tuple[Filter, ...] = ()

    def show_filters(self, filters: Sequence[Filter]) -> None:
        """Replace the chips with one per filter."""
        self.filters = tuple(filters)
        self.remove_children()
        if self.filters:
            chips: list[Static | Button] = [FilterChip(active, self.spec) for active in self.filters]
            chips.append(Static("x clears all", classes="chips-hint"))
            self.mount_all(chips)
        self.set_class(bool(self.filters), "-active")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Remove the pressed chip's filter."""
        if isinstance(event.button, FilterChip):
            event.stop()
            self.post_message(FilterRemoved(event.button.active_filter))
