"""Choose a collection client: known clients (the events' client ids, named clients, recent choices) or a uuid.

    app.push_screen(ClientPicker(known, current=client_id), on_chosen)   # dismisses with a uuid or None

Typing filters the list by name or id; enter takes the highlighted client, or the typed text when it is a uuid.
Keys typed in one burst (a paste, tmux send-keys) act in the order typed: the line is an OrderedInput (a backspace
in a burst used to run after the keys behind it and eat them, Textual #6605), and enter filters for the text as it
is when enter is read.
Anything else shows an inline error naming the expected form, and nothing is chosen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from svctui.api.filters import VALUE_PATTERNS, Kind
from svctui.api.quoting import quote_input
from svctui.tui.widgets.dialog import show_line
from svctui.tui.widgets.ordered_input import OrderedInput
from svctui.visible import visible

UUID_FORM = "a client uuid like 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0 (8-4-4-4-12 hexadecimal digits)"


@dataclass(frozen=True)
class KnownClient:
    """A client the picker offers: id, name (may be empty), how many events use it, whether it was chosen before."""

    client_id: str
    name: str = ""
    events: int = 0
    recent: bool = False

    def label(self) -> Content:
        """`collector-01  7d3c1a2b-…  recent · 3 events` (one line: what does not fit is cut with `…`)."""
        name = visible(self.name) or "(unnamed client)"  # the server's: shown, never obeyed
        notes = ["recent"] if self.recent else []
        if self.events:
            notes.append(f"{self.events} event" + ("s" if self.events != 1 else ""))
        return Content.from_markup(
            "[b]$name[/b]  $client_id  [dim]$notes[/dim]",
            name=name,
            client_id=visible(self.client_id),
            notes=" · ".join(notes),
        )

    def matches(self, text: str) -> bool:
        """Whether `text` occurs in the name or the id (case-insensitive)."""
        needle = text.strip().lower()
        return not needle or needle in self.name.lower() or needle in self.client_id.lower()


def is_uuid(text: str) -> bool:
    """True for an 8-4-4-4-12 hexadecimal uuid."""
    return VALUE_PATTERNS[Kind.UUID].fullmatch(text.strip()) is not None


def merge_known(
    recent: Iterable[str], from_events: Iterable[tuple[str, str]], seen_names: Mapping[str, str] | None = None
) -> list[KnownClient]:
    """Recent clients first (most recent first), then the events' clients and the named ones, by name; ids compared
    case-insensitively.

    `seen_names` (client id -> name: from GET /api/v2/clients, the tasks already shown, the names cache) names
    clients the events leave unnamed, and lists the clients no event names.
    """
    counts: dict[str, int] = {}
    names: dict[str, str] = {key.lower(): name for key, name in (seen_names or {}).items() if name}
    for client_id, name in from_events:
        key = client_id.lower()
        counts[key] = counts.get(key, 0) + 1
        if name and not names.get(key):
            names[key] = name
    recent_ids = [client_id.lower() for client_id in recent if is_uuid(client_id)]
    ordered = list(dict.fromkeys(recent_ids))
    others = dict.fromkeys([*counts, *names])
    ordered += sorted((key for key in others if key not in ordered), key=lambda key: (names.get(key, "~"), key))
    return [KnownClient(key, names.get(key, ""), counts.get(key, 0), key in recent_ids) for key in ordered]


class ClientPicker(ModalScreen[str | None]):
    """A modal list of known clients with a type-to-filter / paste-a-uuid line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="client.cancel", tooltip="Close without changing the client"),
        Binding("down", "focus_list", "List", show=False, id="client.list", tooltip="Move into the list"),
    ]
    DEFAULT_CSS = """
    ClientPicker #client-dialog { width: 90; padding: 0 1; }
    ClientPicker OptionList {
        height: auto; max-height: 16; margin-top: 1; text-wrap: nowrap; text-overflow: ellipsis;  /* no ragged list */
    }
    ClientPicker #client-status { color: $text-muted; height: auto; }
    """

    def __init__(self, known: Sequence[KnownClient], *, current: str | None = None, status: str = "") -> None:
        super().__init__()
        self.known = list(known)
        self.current = current
        self.status = status
        self.shown: list[KnownClient] = []
        self.filled_for = ""  # the text `shown` was filtered for

    def compose(self) -> ComposeResult:
        """Title, input, inline error, the list, a status line."""
        with Vertical(id="client-dialog", classes="dialog"):
            yield Static("Choose a client", classes="dialog-title")
            yield Static("Type to filter by name or id, or paste a client uuid; enter chooses.", classes="dialog-hint")
            yield OrderedInput(placeholder="name, id, or a uuid", id="client-input")
            yield Static("", id="client-error", classes="dialog-error")
            yield OptionList(id="client-list")
            yield Static(self.status, id="client-status", markup=False)

    def on_mount(self) -> None:
        """Fill the list and focus the input."""
        self._fill("")
        self.query_one("#client-input", Input).focus()

    def set_known(self, known: Sequence[KnownClient], status: str = "") -> None:
        """Replace the known clients (e.g. when the events finished loading) keeping the typed filter."""
        self.known = list(known)
        self.status = status
        self.query_one("#client-status", Static).update(status)
        self._fill(self.query_one("#client-input", Input).value)

    def _fill(self, text: str) -> None:
        option_list = self.query_one("#client-list", OptionList)
        self.shown = [client for client in self.known if client.matches(text)]
        self.filled_for = text
        option_list.clear_options()
        option_list.add_options(Option(client.label(), id=client.client_id) for client in self.shown)
        if not self.known:
            option_list.add_option(Option("no known clients yet: paste a client uuid", disabled=True))
        elif not self.shown:
            option_list.add_option(Option("no known client matches: enter takes a full uuid", disabled=True))
        if self.shown:
            current = next((i for i, c in enumerate(self.shown) if c.client_id == self.current), 0)
            option_list.highlighted = current

    @on(Input.Changed, "#client-input")
    def _typed(self, event: Input.Changed) -> None:
        self._fill(event.value)
        self._check(event.value, final=False)

    def _error(self, message: str) -> None:
        show_line(self.query_one("#client-error", Static), message)

    def _check(self, text: str, *, final: bool) -> str | None:
        """The uuid typed, or None; shows an inline error for text that cannot be a client (on enter, or too long)."""
        value = text.strip()
        if is_uuid(value):
            self._error("")
            return value.lower()
        if value and not self.shown and (final or len(value) >= 36):
            self._error(f"✗ {quote_input(value, 60)} is not a uuid and matches no known client; expected {UUID_FORM}")
        else:
            self._error("")
        return None

    @on(Input.Submitted, "#client-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value != self.filled_for:  # enter acts on the text as it is now, never on a list left from before
            self._fill(event.value)
        typed = self._check(event.value, final=True)
        if typed is not None:
            self.dismiss(typed)
            return
        highlighted = self.query_one("#client-list", OptionList).highlighted
        if self.shown and highlighted is not None and highlighted < len(self.shown):
            self.dismiss(self.shown[highlighted].client_id)

    @on(OptionList.OptionSelected, "#client-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.dismiss(event.option.id)

    def action_focus_list(self) -> None:
        """Move from the input into the list."""
        self.query_one("#client-list", OptionList).focus()

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)
