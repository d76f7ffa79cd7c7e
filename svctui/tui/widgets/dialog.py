"""What every dialog of the dashboard shares: the frame (classes styled in app.tcss) and one-line messages.

    with Vertical(id="client-dialog", classes="dialog"):       # border, background, max size
        yield Static("Choose a client", classes="dialog-title")
        yield Static("Type to filter …", classes="dialog-hint")
        yield Static("", id="client-error", classes="dialog-error")   # hidden until show_line gives it text
    show_line(self.query_one("#client-error", Static), "✗ not a uuid")

A dialog's own DEFAULT_CSS sets only what differs (its width, padding); the shared look is in app.tcss so the
first-run screen (a full screen, not a modal) looks the same as the modals.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


def show_line(widget: Static, text: str) -> None:
    """Set a message (taken literally, never markup) and hide the widget while it is empty."""
    widget.update(Content(text))
    widget.display = bool(text)
