"""A yes/no dialog for destructive actions: it names what will happen; focus starts on Cancel."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something destructive: `title`, `body` lines, and a button named for the action."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 90; height: auto; border: thick $error; background: $surface; padding: 1 2; }
    ConfirmScreen .confirm-title { text-style: bold; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, body: str, action_label: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.action_label = action_label

    def compose(self) -> ComposeResult:
        """Title, body, Cancel and the action."""
        with Vertical():
            yield Static(self.title_text, classes="confirm-title", markup=False)
            yield Static(self.body, markup=False)
            with Horizontal():
                yield Button("Cancel", id="cancel", variant="primary")
                yield Button(self.action_label, id="confirm", variant="error")

    def on_mount(self) -> None:
        """Focus starts on Cancel."""
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Confirm or cancel."""
        self.dismiss(event.button.id == "confirm")

    def action_cancel(self) -> None:
        """Nothing happens."""
        self.dismiss(False)
