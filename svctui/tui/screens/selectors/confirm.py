"""A yes/no dialog for destructive actions (restore, resume): it names what will happen and follows the dialogs'
convention (`ConfirmDialog`: Cancel left and focused, the action right in $error, escape cancels). With
`typed_count`, the action's button stays disabled until that number is typed: the count box has the focus on open,
and enter there confirms only once the count is right (else it says what to type). A long `listing` (one line per
selector or reason) scrolls in the middle: the dialog never outgrows the screen, and its title, question, count box
and buttons stay in view."""

from __future__ import annotations

from collections.abc import Sequence

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from svctui.tui.widgets.dialog import ConfirmDialog
from svctui.tui.widgets.hanging import Hanging
from svctui.visible import visible

TOAST_ROW = 1  # the screen's last row, kept free for the toasts


def listing_text(lines: Sequence[str]) -> Hanging:
    """The listing's lines, each wrapping under its own indent (a long Cypher seed under its seed, not column 0)."""
    return Hanging((line, len(line) - len(line.lstrip(" "))) for line in lines)


class ConfirmScreen(ConfirmDialog):
    """Ask before something destructive: `title`, `body` lines, and a button named for the action."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    /* the last row is the toasts' (app.tcss): kept by a docked row, not the screen's padding, inside which the
       toast rack docks too - on the dialog's last row (it hid the Restore button at 80x24) */
    ConfirmScreen > #toast-row { dock: bottom; height: 1; background: transparent; }
    ConfirmScreen > Vertical {
        width: 90; max-width: 100%; height: auto; max-height: 100%;
        border: thick $error; background: $surface; padding: 1 2;
    }
    ConfirmScreen .confirm-title { text-style: bold; }
    ConfirmScreen #confirm-listing { height: auto; margin-top: 1; }
    ConfirmScreen #confirm-more { display: none; height: 1; color: $text-muted; text-wrap: nowrap; }
    ConfirmScreen #confirm-more.-shown { display: block; }
    """

    def __init__(
        self,
        title: str,
        body: str,
        action_label: str,
        typed_count: int | None = None,
        listing: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.title_text = visible(title)  # names from the server or the audit log: shown, never obeyed
        self.body = visible(body, lines=True)
        self.action_label = action_label
        self.typed_count = typed_count
        self.listing = tuple(visible(line) for line in listing)
        self.ready = True  # a subclass that checks something first holds the action's button off until it is done

    def expected_text(self) -> str | None:
        """The count to type, if any."""
        return None if self.typed_count is None else str(self.typed_count)

    def action_ready(self) -> bool:
        """False while a subclass's check has not answered."""
        return self.ready

    def not_ready_text(self) -> str:
        """The count is right, the check has not answered."""
        return f"{self.action_label} is enabled once the check has answered."

    def wrong_text(self) -> str:
        """What to type."""
        return f"Type {self.typed_count} exactly to enable {self.action_label}."

    def typed_label(self) -> str:
        """The line above the typed-count box."""
        return f"Type {self.typed_count} to enable {self.action_label} (digits go to the box)"

    def set_count(self, action_label: str, typed_count: int | None) -> None:
        """Name the action and the count to type anew (a check found fewer to send than first counted); a box that
        was shown stays, asking for the new count."""
        self.action_label = action_label
        if self.typed_count is not None and typed_count is not None:
            self.typed_count = typed_count
            for label in self.query("#confirm-typed-label").results(Static):
                label.update(self.typed_label())
            box = self.box()
            if box is not None:
                box.placeholder = f"type {typed_count}"
        button = self.action_button()
        if button is not None:
            button.label = action_label
        self.update_action()

    def compose(self) -> ComposeResult:
        """Title, body (wrapped to the dialog's width), the listing (scrolls when long), Cancel and the action."""
        with Vertical():
            yield Static(self.title_text, classes="confirm-title", markup=False)
            yield Static(self.body, markup=False)
            if self.listing:
                with VerticalScroll(id="confirm-listing"):  # focusable: the keys scroll it
                    yield Static(listing_text(self.listing), markup=False)
                yield Static("", id="confirm-more", markup=False)  # `↓ 3 more lines…` when the listing is cut
            if self.typed_count is not None:
                yield Static(self.typed_label(), id="confirm-typed-label", markup=False)
                yield self.typed_box(f"type {self.typed_count}")
            yield self.dialog_buttons(self.action_label)
        yield Static("", id="toast-row")

    def on_mount(self) -> None:
        """The listing is fitted once the rest is laid out (the focus is the convention's: ConfirmDialog); its
        scrolling tells the line under it how many lines are out of view."""
        self.call_after_refresh(self.fit_listing)
        for found in self.query("#confirm-listing").results(VerticalScroll):
            self.watch(found, "scroll_y", lambda _y: self.show_more(), init=False)
            self.watch(found, "virtual_size", self._listing_resized, init=False)

    def _listing_resized(self) -> None:
        """The listing's lines changed in number (new lines, wrapped anew): fit it again."""
        self.call_after_refresh(self.fit_listing)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the listing to the new screen."""
        self.call_after_refresh(self.fit_listing)

    def fit_listing(self) -> None:
        """Cap the listing at what the screen leaves once the title, question, count box and buttons have their
        rows (the dialog's border, padding and the row kept for the footer included): it scrolls, they stay."""
        dialog = self.query_one(Vertical)
        dialog.styles.max_height = max(3, self.size.height - TOAST_ROW)  # 100% would be the screen's, toast row too
        found = next(iter(self.query("#confirm-listing").results(VerticalScroll)), None)
        if found is None:
            return
        more = self.query_one("#confirm-more", Static)
        others = sum(
            child.outer_size.height + child.styles.margin.height
            for child in dialog.children
            if child is not found and child is not more
        )
        frame = dialog.styles.gutter.height + self.styles.gutter.height + TOAST_ROW
        room = self.size.height - frame - others - found.styles.margin.height
        cut = found.virtual_size.height > max(3, room)  # a line under it says so: a scrollbar is easy to miss
        more.set_class(cut, "-shown")
        found.styles.max_height = max(3, room - 1 if cut else room)
        self.call_after_refresh(self.show_more)

    def show_more(self) -> None:
        """The line under a cut listing: how many of its lines are below (or above) the view, and how to scroll."""
        found = next(iter(self.query("#confirm-listing").results(VerticalScroll)), None)
        if found is None:
            return
        more = self.query_one("#confirm-more", Static)
        shown = found.scrollable_content_region.height
        cap = found.styles.max_height
        if cap is not None and cap.is_cells:  # a cut listing is as tall as fit_listing's cap, laid out or not yet
            shown = int(cap.value)
        below = max(found.virtual_size.height - int(found.scroll_y) - shown, 0)
        if below:
            more.update(f"↓ {below:,} more line{'s' if below > 1 else ''} (shift+tab reaches the list, ↓ scrolls it)")
        else:
            more.update(f"↑ the list's first {int(found.scroll_y):,} lines are above (↑ scrolls back)")

    def show_listing(self, lines: Sequence[str]) -> None:
        """Replace the listing's lines (e.g. once a check has answered) and fit it again."""
        self.listing = tuple(visible(line) for line in lines)
        for found in self.query("#confirm-listing Static").results(Static):
            found.update(listing_text(self.listing))
        self.call_after_refresh(self.fit_listing)

    def set_ready(self, ready: bool) -> None:
        """Hold the action's button off (False) or let the typed count decide (True)."""
        self.ready = ready
        self.update_action()
