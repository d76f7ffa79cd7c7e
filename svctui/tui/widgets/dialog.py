"""What every dialog of the dashboard shares: the frame (classes styled in app.tcss), one-line messages, and the one
convention of every yes/no dialog (`ConfirmDialog`).

    with Vertical(id="client-dialog", classes="dialog"):       # border, background, max size
        yield Static("Choose a client", classes="dialog-title")
        yield Static("Type to filter …", classes="dialog-hint")
        yield Static("", id="client-error", classes="dialog-error")   # hidden until show_line gives it text
    show_line(self.query_one("#client-error", Static), "✗ not a uuid")

A dialog's own DEFAULT_CSS sets only what differs (its width, padding); the shared look is in app.tcss so the
first-run screen (a full screen, not a modal) looks the same as the modals.

Every yes/no dialog (the deletion review, the resume and restore confirms, marking every match) is a
`ConfirmDialog`: **Cancel on the left, the action on the right** (in `$error` when it destroys something); on open
the focus is on **Cancel**, or on the **typed-count box** when the dialog asks for one (big deletions: above 20),
so an enter typed by accident never confirms; `escape` always cancels; enter in the typed-count box confirms only
when the typed text is the count (and the dialog is ready: e.g. its dry run has answered), else it says what is
missing; digits typed while a button has the focus go to the box.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static
from textual.widgets.button import ButtonVariant

from svctui.tui.widgets.ordered_input import OrderedInput
from svctui.visible import visible

DIGITS = "0123456789"


def show_line(widget: Static, text: str) -> None:
    """Set a message (taken literally, never markup, its control characters shown) and hide the widget while it is
    empty."""
    widget.update(Content(visible(text, lines=True)))
    widget.display = bool(text)


class ConfirmDialog(ModalScreen[bool]):
    """The base of every yes/no dialog (see the module's docstring): dismisses True only through the action.

    A subclass composes its body with `typed_box()` (when a count is to be typed) and `dialog_buttons()`, and says
    what the typed text must be (`expected_text`), whether the action may go ahead otherwise (`action_ready`), and
    why not (`not_ready_text`, `wrong_text`).
    """

    CANCEL_ID: ClassVar[str] = "cancel"
    ACTION_ID: ClassVar[str] = "confirm"
    TYPED_ID: ClassVar[str] = "confirm-typed"
    DESTRUCTIVE: ClassVar[bool] = True  # the action's button in $error (else the default look)
    DEFAULT_CSS = """
    ConfirmDialog .dialog-buttons { height: auto; margin-top: 1; }
    ConfirmDialog .dialog-buttons Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", tooltip="Close the dialog: nothing is done"),
    ]

    # ----- what a dialog says ------------------------------------------------------------------------------
    def expected_text(self) -> str | None:
        """The text to type in the box before the action is enabled (a count), or None: no box."""
        return None

    def action_ready(self) -> bool:
        """False while something else holds the action off (a check that has not answered)."""
        return True

    def not_ready_text(self) -> str:
        """Why the action is off although the typed text is right."""
        return "Not yet: wait for the check to answer."

    def wrong_text(self) -> str:
        """What to type, when enter is pressed in the box with the wrong text."""
        return f"Type {self.expected_text()} exactly to enable it."

    # ----- the parts ---------------------------------------------------------------------------------------
    def typed_box(self, placeholder: str) -> Input:
        """The typed-count box (digits only); it has the focus on open. An OrderedInput: a wrong count, enter and two
        backspaces typed in one burst let the backspaces act after the digits typed behind them, which they ate
        (issue 28's W5: `73` enter, backspace twice, `27` left `73`)."""
        return OrderedInput(placeholder=placeholder, id=self.TYPED_ID, restrict=r"[0-9]*", select_on_focus=False)

    def dialog_buttons(self, label: str, *, offered: bool = True) -> Horizontal:
        """Cancel (left), then the action named `label` (right; left out when not `offered`, e.g. read-only)."""
        buttons = [Button("Cancel", id=self.CANCEL_ID, variant="primary")]
        if offered:
            variant: ButtonVariant = "error" if self.DESTRUCTIVE else "default"
            buttons.append(Button(label, id=self.ACTION_ID, variant=variant, disabled=not self.may_confirm()))
        return Horizontal(*buttons, classes="dialog-buttons")

    def box(self) -> Input | None:
        """The typed-count box, when the dialog has one (and is mounted)."""
        return next(iter(self.query(f"#{self.TYPED_ID}").results(Input)), None)

    def action_button(self) -> Button | None:
        """The action's button, when offered."""
        return next(iter(self.query(f"#{self.ACTION_ID}").results(Button)), None)

    def typed_ok(self, text: str | None = None) -> bool:
        """True without a typed count, or when the box holds it (or `text`, what it held when enter was pressed)."""
        expected = self.expected_text()
        if expected is None:
            return True
        if text is not None:
            return text.strip() == expected
        box = self.box()
        return box is not None and box.value.strip() == expected

    def may_confirm(self) -> bool:
        """True when the action may go ahead now: ready, and the typed text (if any) is right."""
        return self.action_ready() and (self.expected_text() is None or (self.is_mounted and self.typed_ok()))

    def update_action(self) -> None:
        """Enable or disable the action's button (after a typed key, a check's answer)."""
        button = self.action_button()
        if button is not None:
            button.disabled = not self.may_confirm()

    # ----- the convention ----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        """Focus on the typed-count box when there is one, else on Cancel (Textual runs a subclass's on_mount too,
        first)."""
        box = self.box()
        (box if box is not None else self.query_one(f"#{self.CANCEL_ID}", Button)).focus()

    def on_key(self, event: events.Key) -> None:
        """A digit typed while the focus is elsewhere (a button, a listing) goes to the typed-count box."""
        box = self.box()
        if box is None or self.focused is box or event.character is None or event.character not in DIGITS:
            return
        event.stop()
        event.prevent_default()
        box.focus()
        box.insert_text_at_cursor(event.character)

    def on_input_changed(self, event: Input.Changed) -> None:
        """The action's button follows the typed text."""
        if event.input.id == self.TYPED_ID:
            event.stop()
            self.update_action()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the typed-count box confirms only when the text is right and the dialog ready; else says why. The
        text judged is what the box held when enter was pressed (`event.value`): keys typed after it in one burst
        are in the box by the time this runs, and must not make a wrong count right."""
        if event.input.id != self.TYPED_ID:
            return
        event.stop()
        typed = self.typed_ok(event.value)
        if self.action_button() is not None and self.action_ready() and typed:
            self.dismiss(True)
        elif not typed:
            self.notify(self.wrong_text(), severity="warning", markup=False)
        else:
            self.notify(self.not_ready_text(), severity="warning", markup=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Cancel, or the action (only when it may go ahead)."""
        event.stop()
        self.dismiss(event.button.id == self.ACTION_ID and not event.button.disabled and self.may_confirm())

    def action_cancel(self) -> None:
        """Nothing is done."""
        self.dismiss(False)
