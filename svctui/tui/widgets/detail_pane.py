"""The detail pane base: a scrollable panel of titled sections of `label  value` lines for one record.

Subclass and implement `sections(item)`:

    class EventDetail(DetailPane[Event]):
        def sections(self, item: Event) -> list[Section]:
            return [Section("Event", [("id", str(item.id)), ("client", item.client_id)])]

`pane.show_item(record)` renders it (None shows a hint). Values may be `str` (taken literally, never markup) or
`Content` (already styled, e.g. `missing(...)`). A value too long for the pane wraps under the value, not under the
label (`Hanging`); a free line may say where its own continuations start: `(line, hang)`. The screen places the pane
right of the table, or below it when the terminal is narrow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Generic, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from svctui.tui.widgets.hanging import Hanging
from svctui.visible import visible

T = TypeVar("T")
Value = str | Content
Line = Value | tuple[Value, int]  # a free line, or one with the column its wrapped continuations start at
LABEL_WIDTH = 14


@dataclass(frozen=True)
class Section:
    """A titled block of `label  value` lines; `lines` are free text lines shown after them."""

    title: str
    fields: Sequence[tuple[str, Value]] = field(default_factory=tuple)
    lines: Sequence[Line] = field(default_factory=tuple)


def missing(text: str) -> Content:
    """A value shown as missing / warning (error colour, bold)."""
    return Content.from_markup("[b $error]$text[/]", text=visible(text))


def muted(text: str) -> Content:
    """A value shown dimmed (e.g. "not hydrated", "—")."""
    return Content.from_markup("[$text-muted]$text[/]", text=visible(text))


def _as_content(value: Value) -> Content:
    """A value as Content: a str (the server's text) taken literally, its control characters shown (`␇` too, which
    Content would drop); a Content's are shown where the lines are drawn (`Hanging`)."""
    return value if isinstance(value, Content) else Content(visible(value, lines=True))


def render_sections(sections: Sequence[Section], label_width: int = LABEL_WIDTH) -> Hanging:
    """All sections as one block; a long value wraps under the value column (a label longer than `label_width`
    pushes its own value one cell past it)."""
    lines: list[tuple[Content | str, int]] = []
    for index, section in enumerate(sections):
        if index:
            lines.append(("", 0))
        lines.append((Content.from_markup("[b $primary]$title[/]", title=section.title), 0))
        for label, value in section.fields:
            padded = label.ljust(label_width) if len(label) < label_width else f"{label} "
            lines.append(
                (Content.from_markup("[$text-muted]$label[/]", label=padded) + _as_content(value), len(padded))
            )
        for line in section.lines:
            text, hang = line if isinstance(line, tuple) else (line, 0)
            lines.append((_as_content(text), hang))
    return Hanging(lines)


# The keys every table answers to (j/k/g/G), here scrolling a pane; up/down, home/end and pgup/pgdn are Textual's own
SCROLL_BINDINGS: list[BindingType] = [
    Binding("j", "scroll_down", "Down", show=False, id="detail.down", tooltip="Scroll down a line"),
    Binding("k", "scroll_up", "Up", show=False, id="detail.up", tooltip="Scroll up a line"),
    Binding("g", "scroll_home", "Top", show=False, id="detail.top", tooltip="Scroll to the top"),
    Binding("G", "scroll_end", "Bottom", show=False, id="detail.bottom", tooltip="Scroll to the end"),
]


class DetailPane(VerticalScroll, Generic[T]):
    """A scrollable detail view of one record; subclasses say what sections a record has."""

    DEFAULT_CSS = """
    DetailPane { border-left: outer $panel-lighten-2; padding: 0 1; display: none; }
    DetailPane.-open { display: block; }
    DetailPane > #detail-body { width: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = SCROLL_BINDINGS  # with the focus (tab, or zoomed: `z`)
    EMPTY_HINT = "No row selected."
    ALLOW_MAXIMIZE = True  # `z` gives the pane the whole screen (a scroll container is not maximizable by default)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, can_focus=True)
        self.item: T | None = None

    def compose(self) -> ComposeResult:
        """One Static holds the rendered sections."""
        yield Static(self.EMPTY_HINT, id="detail-body")

    def sections(self, item: T) -> list[Section]:
        """The sections describing `item` (override)."""
        return [Section("Record", [("value", str(item))])]

    def show_item(self, item: T | None) -> None:
        """Render `item` (or the empty hint) and scroll back to the top when the record changed."""
        changed = item is not self.item
        self.item = item
        body = self.query_one("#detail-body", Static)
        body.update(render_sections(self.sections(item)) if item is not None else Content(self.EMPTY_HINT))
        if changed:
            self.scroll_home(animate=False)

    @property
    def is_open(self) -> bool:
        """Whether the pane is shown."""
        return self.has_class("-open")

    def set_open(self, open_: bool) -> None:
        """Show or hide the pane."""
        self.set_class(open_, "-open")
