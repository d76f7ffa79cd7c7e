"""Active filters as removable chips above a table; clicking (or enter on) a chip posts `FilterRemoved`.

chips = FilterChips(spec, id="chips")
chips.show_filters(filters, names)   # hidden when there are none; names (id -> name) show a client by name
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from textual.containers import HorizontalScroll
from textual.content import Content
from textual.widgets import Button, Static

from svctui.api.filters import EndpointSpec, Filter, display_value
from svctui.tui.messages import FilterRemoved
from svctui.visible import visible

PREDICATE_SYMBOLS = {"eq": "=", "neq": "≠", "gt": ">", "gte": "≥", "lt": "<", "lte": "≤", "~eq": "∋"}


def chip_text(active: Filter, spec: EndpointSpec | None = None, names: Mapping[str, str] | None = None) -> str:
    """How a filter reads on a chip: `client_id = 0b1c…  ✕`, or `client = SHARPHOUND-DC01 ✕` when `names` (id ->
    name) knows the client (the uuid is still what is sent); coded values by label (`status = failed`)."""
    symbol = PREDICATE_SYMBOLS.get(active.op, active.op)
    column = active.column
    value = display_value(spec, active.column, active.value) if spec is not None else active.value
    name = (names or {}).get(active.value.lower(), "") if column == "client_id" else ""
    if name:
        column, value = "client", name
    value = value if len(value) <= 28 else f"{value[:27]}…"
    return visible(f"{column} {symbol} {value} ✕")  # a pasted value's (or a server name's) control characters shown


class FilterChip(Button):
    """One removable filter."""

    def __init__(
        self, active: Filter, spec: EndpointSpec | None = None, names: Mapping[str, str] | None = None
    ) -> None:
        tooltip = visible(str(active))
        text = chip_text(active, spec, names)
        super().__init__(Content(text), compact=True, classes="filter-chip", tooltip=tooltip)
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

    def show_filters(self, filters: Sequence[Filter], names: Mapping[str, str] | None = None) -> None:
        """Replace the chips with one per filter (a client by its name where `names`, id -> name, has it)."""
        self.filters = tuple(filters)
        self.remove_children()
        if self.filters:
            chips: list[Static | Button] = [FilterChip(active, self.spec, names) for active in self.filters]
            chips.append(Static("x clears all", classes="chips-hint"))
            self.mount_all(chips)
        self.set_class(bool(self.filters), "-active")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Remove the pressed chip's filter."""
        if isinstance(event.button, FilterChip):
            event.stop()
            self.post_message(FilterRemoved(event.button.active_filter))
