"""Active filters as removable chips above a table; clicking a chip (or enter, delete or backspace on it, after tab)
posts `FilterRemoved`, and the screen says which filter went.

chips = FilterChips(spec, id="chips")
chips.show_filters(filters, names)   # hidden when there are none; names (id -> name) show a client by name
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.await_remove import AwaitRemove
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, HorizontalScroll
from textual.content import Content
from textual.widget import AwaitMount
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
    """One removable filter (click, or enter / delete / backspace once tab has reached it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("delete,backspace", "press", "Remove filter", show=False, tooltip="Remove this filter"),
    ]

    def __init__(
        self, active: Filter, spec: EndpointSpec | None = None, names: Mapping[str, str] | None = None
    ) -> None:
        tooltip = visible(str(active))
        text = chip_text(active, spec, names)
        super().__init__(Content(text), compact=True, classes="filter-chip", tooltip=tooltip)
        self.active_filter = active


class FilterChips(Horizontal):
    """A one-line strip of removable filter chips, then `+2 more` (the chips out of view) and `x clears all`, both
    always in view; hidden when no filter is active."""

    DEFAULT_CSS = """
    FilterChips { height: 1; display: none; }
    FilterChips.-active { display: block; }
    FilterChips #chips-scroll { width: auto; height: 1; scrollbar-size: 0 0; }  /* the hint right after the chips */
    FilterChips .filter-chip { margin: 0 1 0 0; background: $primary-muted; color: $text; min-width: 0; }
    FilterChips .filter-chip:hover, FilterChips .filter-chip:focus { background: $primary; text-style: bold; }
    FilterChips .chips-more { width: auto; color: $text-muted; margin-right: 1; display: none; }
    FilterChips .chips-more.-shown { display: block; }
    FilterChips .chips-hint { width: auto; color: $text-muted; }
    """

    def __init__(self, spec: EndpointSpec | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.spec = spec
        self.filters: tuple[Filter, ...] = ()
        self.hidden_chips = 0  # chips not wholly in view (`+2 more`)

    def compose(self) -> ComposeResult:
        """The chips' scroller, the count of those out of view and the hint."""
        yield HorizontalScroll(id="chips-scroll")
        yield Static("", classes="chips-more", markup=False)
        yield Static("x clears all", classes="chips-hint")

    def show_filters(self, filters: Sequence[Filter], names: Mapping[str, str] | None = None) -> None:
        """Replace the chips with one per filter (a client by its name where `names`, id -> name, has it)."""
        self.filters = tuple(filters)
        scroll = self.query_one("#chips-scroll", HorizontalScroll)
        removing = scroll.remove_children()
        mounting = scroll.mount_all([FilterChip(active, self.spec, names) for active in self.filters])
        self.set_class(bool(self.filters), "-active")
        self.call_after_refresh(self.count_hidden)
        self.call_later(self.count_when_mounted, removing, mounting)

    async def count_when_mounted(self, removing: AwaitRemove, mounting: AwaitMount) -> None:
        """Count again once the new chips are in and laid out: a strip already shown (`f`, then `o`) gets no resize,
        and the first count saw chips of no size yet."""
        await removing
        await mounting
        self.call_after_refresh(self.count_hidden)

    def on_resize(self) -> None:
        """Other widths, other chips in view."""
        self.call_after_refresh(self.count_hidden)

    def count_hidden(self) -> None:
        """Show the chips that fit whole before `+2 more` and `x clears all` (no half chip), and count the others
        (tab still reaches them: the strip scrolls)."""
        if not self.is_mounted:
            return
        scroll = self.query_one("#chips-scroll", HorizontalScroll)
        widths = [chip.outer_size.width + chip.styles.margin.width for chip in scroll.query(FilterChip)]
        room = self.content_size.width - self.query_one(".chips-hint", Static).outer_size.width
        if sum(widths) > room:
            room -= len(f"+{len(widths)} more") + 1
        shown, used = 0, 0
        while shown < len(widths) and used + widths[shown] <= room:
            used += widths[shown]
            shown += 1
        hidden = len(widths) - shown
        more = self.query_one(".chips-more", Static)
        more.update(f"+{hidden} more" if hidden else "")
        more.set_class(bool(hidden), "-shown")
        if hidden:
            scroll.styles.width = max(1, used)
        else:
            scroll.styles.width = "auto"
        self.hidden_chips = hidden

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Remove the pressed chip's filter."""
        if isinstance(event.button, FilterChip):
            event.stop()
            self.post_message(FilterRemoved(event.button.active_filter))
