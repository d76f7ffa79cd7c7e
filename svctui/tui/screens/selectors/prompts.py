"""Small modals of the cleanup screen: confirm marking every match, and type or paste selector ids."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from svctui.api.ascii import split_ascii
from svctui.ops.selector_ids import IdError, collect_ids
from svctui.tui.widgets.dialog import ConfirmDialog, show_line
from svctui.tui.widgets.ordered_input import OrderedInput
from svctui.visible import visible

MAX_QUOTED = 100  # characters of typed input quoted back in a message


def parse_typed_ids(text: str) -> list[int]:
    """`12 15-20, 31` -> [12, 15, ..., 20, 31] (spaces, commas or newlines between; repeats dropped); IdError."""
    tokens = split_ascii(text.replace(",", " "))  # ASCII spaces only: `12\u300013` is one (refused) token
    if not tokens:
        raise IdError("no ids typed; write ids and ranges like 12 15-20 31")
    return collect_ids((token[:MAX_QUOTED], "typed") for token in tokens)


class ConfirmMarks(ConfirmDialog):
    """Ask before marking many selectors at once (marking sends nothing; the review comes before any delete). The
    dialogs' convention (`ConfirmDialog`): Cancel left and focused, Mark right, escape cancels."""

    ACTION_ID: ClassVar[str] = "mark"
    DESTRUCTIVE: ClassVar[bool] = False  # marking deletes nothing: Mark in the default look, not $error
    DEFAULT_CSS = """
    ConfirmMarks { align: center middle; }
    ConfirmMarks #confirm-marks { width: 72; padding: 0 1; }
    """

    def __init__(self, title: str, lines: tuple[str, ...]) -> None:
        super().__init__()
        self.title_text = visible(title)
        self.lines = lines

    def compose(self) -> ComposeResult:
        """Title, what would be marked, Cancel and Mark."""
        with Vertical(id="confirm-marks", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static("\n".join(self.lines), id="confirm-lines", markup=False)
            yield self.dialog_buttons("Mark")


class TypeIds(ModalScreen["list[int] | None"]):
    """Type or paste selector ids and ranges (`12 15-20 31`); every bad token is said in the dialog as you type (as
    the filter editor does), and again on enter, which marks nothing while one is left."""

    DEFAULT_CSS = """
    TypeIds { align: center middle; }
    TypeIds #type-ids { width: 72; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="selectors.ids.cancel", tooltip="Mark nothing"),
    ]

    def compose(self) -> ComposeResult:
        """Title, hint, the input, and a line for errors."""
        with Vertical(id="type-ids", classes="dialog"):
            yield Static("Mark selectors by id", classes="dialog-title")
            yield Static(
                "Ids and ranges, e.g. 12 15-20 31 (paste works; enter marks, esc cancels)", classes="dialog-hint"
            )
            yield OrderedInput(placeholder="12 15-20 31", id="ids")  # a fix typed after enter stays in order
            yield Static("", id="ids-error", classes="dialog-error")

    def __init__(self) -> None:
        super().__init__()
        self.check_due = False  # one check queued for a burst of keys (a paste), not one per key

    def on_mount(self) -> None:
        """Focus the input."""
        self.query_one("#ids", Input).focus()

    @on(Input.Changed, "#ids")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if not self.check_due:
            self.check_due = True
            self.call_later(self._check_typed)

    def _check_typed(self) -> None:
        """Name the bad ids of what the input holds now (nothing while it is empty: enter says what to type)."""
        self.check_due = False
        if not self.is_mounted:
            return
        text = self.query_one("#ids", Input).value
        problem = ""
        if split_ascii(text.replace(",", " ")):
            try:
                parse_typed_ids(text)
            except IdError as exc:
                problem = str(exc)
        show_line(self.query_one("#ids-error", Static), problem)

    @on(Input.Submitted, "#ids")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            ids = parse_typed_ids(event.value)
        except IdError as exc:
            show_line(self.query_one("#ids-error", Static), str(exc))
            return
        self.dismiss(ids)

    def action_cancel(self) -> None:
        """Mark nothing."""
        self.dismiss(None)
