"""A yes/no dialog for destructive actions: it names what will happen; focus starts on Cancel; with `typed_count`,
the action's button stays disabled until that number is typed. Like the deletion review (review.py): digits typed
while the focus is elsewhere go to the count box, and enter there moves to the action's button once the count is
right (a second enter presses it; enter never confirms by itself), or says the count is wrong. A long `listing`
(one line per selector or reason) scrolls in the middle: the dialog never outgrows the screen, and its title,
question, count box and buttons stay in view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static


def digit_to_box(screen: Screen[Any], event: events.Key, box: str) -> None:
    """A digit typed while the focus is elsewhere (it starts on Cancel) goes to the typed-count box `box` (a
    selector), not nowhere; other keys, and digits typed in the box, go their usual way."""
    found = next(iter(screen.query(box).results(Input)), None)
    if found is None or screen.focused is found or event.character is None or event.character not in "0123456789":
        return
    event.stop()
    event.prevent_default()
    found.focus()
    found.insert_text_at_cursor(event.character)


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something destructive: `title`, `body` lines, and a button named for the action."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; padding: 0 0 1 0; }
    ConfirmScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: thick $error; background: $surface; padding: 1 2;
    }
    ConfirmScreen .confirm-title { text-style: bold; }
    ConfirmScreen #confirm-listing { height: auto; margin-top: 1; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        body: str,
        action_label: str,
        typed_count: int | None = None,
        listing: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.action_label = action_label
        self.typed_count = typed_count
        self.listing = tuple(listing)
        self.ready = True  # a subclass that checks something first holds the action's button off until it is done

    def compose(self) -> ComposeResult:
        """Title, body (wrapped to the dialog's width), the listing (scrolls when long), Cancel and the action."""
        with Vertical():
            yield Static(self.title_text, classes="confirm-title", markup=False)
            yield Static(self.body, markup=False)
            if self.listing:
                with VerticalScroll(id="confirm-listing"):  # focusable: the keys scroll it
                    yield Static("\n".join(self.listing), markup=False)
            if self.typed_count is not None:
                count = self.typed_count
                yield Static(f"Type {count} to enable {self.action_label} (digits go to the box)", markup=False)
                yield Input(placeholder=f"type {count}", id="confirm-typed", restrict=r"[0-9]*", select_on_focus=False)
            with Horizontal():
                yield Button("Cancel", id="cancel", variant="primary")
                yield Button(self.action_label, id="confirm", variant="error", disabled=not self.action_ok())

    def on_mount(self) -> None:
        """Focus starts on Cancel; the listing is fitted once the rest is laid out."""
        self.query_one("#cancel", Button).focus()
        self.call_after_refresh(self.fit_listing)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the listing to the new screen."""
        self.call_after_refresh(self.fit_listing)

    def fit_listing(self) -> None:
        """Cap the listing at what the screen leaves once the title, question, count box and buttons have their
        rows (the dialog's border, padding and the row kept for the footer included): it scrolls, they stay."""
        found = next(iter(self.query("#confirm-listing").results(VerticalScroll)), None)
        if found is None:
            return
        dialog = self.query_one(Vertical)
        others = sum(child.outer_size.height for child in dialog.children if child is not found)
        frame = dialog.styles.gutter.height + self.styles.gutter.height
        room = self.size.height - frame - others - found.styles.margin.height
        found.styles.max_height = max(3, room)

    def show_listing(self, lines: Sequence[str]) -> None:
        """Replace the listing's lines (e.g. once a check has answered) and fit it again."""
        self.listing = tuple(lines)
        for found in self.query("#confirm-listing Static").results(Static):
            found.update("\n".join(self.listing))
        self.call_after_refresh(self.fit_listing)

    def set_ready(self, ready: bool) -> None:
        """Hold the action's button off (False) or let the typed count decide (True)."""
        self.ready = ready
        self.query_one("#confirm", Button).disabled = not self.action_ok()

    def action_ok(self) -> bool:
        """True when the action may be pressed: ready, and the typed count (if any) is right."""
        return self.ready and (self.typed_count is None or (self.is_mounted and self.typed_ok()))

    def typed_ok(self) -> bool:
        """True without a typed count, or when the typed number is the count."""
        if self.typed_count is None:
            return True
        return self.query_one("#confirm-typed", Input).value.strip() == str(self.typed_count)

    def on_input_changed(self, event: Input.Changed) -> None:
        """The action's button is enabled once the count is typed."""
        event.stop()
        self.query_one("#confirm", Button).disabled = not self.action_ok()

    def on_key(self, event: events.Key) -> None:
        """A digit typed while the focus is elsewhere goes to the count box."""
        digit_to_box(self, event, "#confirm-typed")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the count field moves to the action's button when the count is right; else says what to type."""
        event.stop()
        if self.action_ok():
            self.query_one("#confirm", Button).focus()
        elif not self.typed_ok():
            self.notify(f"Type {self.typed_count} exactly to enable {self.action_label}.", severity="warning")
        else:
            self.notify(f"{self.action_label} is enabled once the check has answered.", severity="warning")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Confirm or cancel."""
        self.dismiss(event.button.id == "confirm" and not event.button.disabled and self.action_ok())

    def action_cancel(self) -> None:
        """Nothing happens."""
        self.dismiss(False)
