"""A modal that shows one record as pretty JSON (`y`); `c` copies it, escape or q closes."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.json import JSON
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from svctui.tui.clipboard import copy_text
from svctui.tui.shown import shown_text
from svctui.visible import json_safe, visible

FIRST_KEYS = ("id", "client_id", "client_name", "name")


def to_json_text(record: Any) -> str:
    """A record as indented JSON: the fields the server sent (unknown ones included), identifying keys first."""
    dump = getattr(record, "model_dump", None)
    data = dump(mode="json", exclude_unset=True) if callable(dump) else record
    if isinstance(data, dict):
        first = [key for key in FIRST_KEYS if key in data]
        data = {key: data[key] for key in [*first, *(key for key in data if key not in first)]}
    return json_safe(json.dumps(data, indent=2, ensure_ascii=False, default=str))  # C1 and bidi as \u escapes


class RawJson(ModalScreen[None]):
    """The raw JSON of a record."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,y", "close", "Close", id="json.close", tooltip="Close the JSON view"),
        Binding("c", "copy", "Copy", id="json.copy", tooltip="Copy the JSON to the clipboard (OSC 52)"),
    ]
    DEFAULT_CSS = """
    RawJson #json-dialog { width: 100; }
    RawJson #json-title { padding: 0 1; }
    RawJson #json-scroll { height: auto; max-height: 100%; padding: 0 1; }
    """

    def __init__(self, title: str, record: Any) -> None:
        super().__init__()
        self.title_text = title
        self.text = to_json_text(record)

    def compose(self) -> ComposeResult:
        """Title and the highlighted JSON."""
        with Vertical(id="json-dialog", classes="dialog"):
            yield Static(
                Content(f"{visible(self.title_text)}  (c copy · esc close)"), id="json-title", classes="dialog-title"
            )
            with VerticalScroll(id="json-scroll"):
                highlighted = JSON(self.text)  # rich parses and dumps the text again, C1 controls raw: shown here
                highlighted.text = shown_text(highlighted.text, lines=True)
                # rich crops a long line (`"rrule": "DTSTART:…;BYD`, the rest unseen): wrap it, as the other views
                # do, a word longer than the view folded
                highlighted.text.no_wrap, highlighted.text.overflow = False, "fold"
                yield Static(highlighted, id="json-body")

    def on_mount(self) -> None:
        """Focus the scroller so arrows scroll."""
        self.query_one("#json-scroll").focus()

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)

    def action_copy(self) -> None:
        """Copy the whole JSON."""
        copy_text(self.app, self.text, "JSON")
