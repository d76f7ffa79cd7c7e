"""DashboardScreen: what every tab of the dashboard (the list screens, Clients) has once — the typed app, the
header of tabs, the status line, the state panel, and live refresh's stale rows and restart."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from textual import events, getters
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from svctui.store.read_only import read_only_reason
from svctui.tui.app import SvcTuiApp
from svctui.tui.breakpoints import DETAIL_BELOW, narrow_below, set_breakpoint_class
from svctui.tui.live import Freshness
from svctui.tui.loading import Loads
from svctui.tui.status_line import fit_status
from svctui.tui.widgets.app_header import AppHeader
from svctui.tui.widgets.key_footer import SteadyFooter
from svctui.tui.widgets.state_panel import StatePanel


class DashboardScreen(Screen[None]):
    """A dashboard tab: header (`#app-header`), state panel (`#state`), status line (`#status-line`), the rows'
    freshness for live refresh, and a restart on first show and after a profile switch. `-narrow` under its
    breakpoint (HORIZONTAL_BREAKPOINTS), `-wide` from it."""

    app = getters.app(SvcTuiApp)
    MODE: ClassVar[str] = ""
    RENAMED_ACTIONS: ClassVar[dict[str, tuple[str, str]]] = {}  # what help says a key does on this screen
    HORIZONTAL_BREAKPOINTS = narrow_below(DETAIL_BELOW)  # the detail pane under the table
    header = getters.query_one("#app-header", AppHeader)
    state_panel = getters.query_one("#state", StatePanel)
    status_line = getters.query_one("#status-line", Static)
    freshness: Freshness
    loads: Loads
    _generation = -1  # the app's profile generation the rows are for
    _status_text: object = None  # what the status line shows

    def __init__(self) -> None:
        super().__init__()
        set_breakpoint_class(self)

    def compose(self) -> ComposeResult:
        """The header, the screen's own part, the status line, the footer."""
        yield AppHeader(id="app-header")
        yield from self.compose_main()
        yield Static("", id="status-line", markup=False)
        yield self.make_footer()

    def compose_main(self) -> ComposeResult:
        """What the screen shows between the header and the status line (each screen says what)."""
        raise NotImplementedError

    def make_footer(self) -> Widget:
        """The footer: Textual's keys, mounted again only when they change, unless the screen has its own."""
        return SteadyFooter()

    def on_mount(self) -> None:
        """The header follows what the app knows of the server (after the screen's own on_mount)."""
        self.watch(self.app, "header_info", self.refresh_header)

    def on_resize(self, event: events.Resize) -> None:
        """The breakpoint class for the new width, before Textual lays the screen out at it (tui/breakpoints.py)."""
        set_breakpoint_class(self, event.size.width)
        self.follow_breakpoint()

    def follow_breakpoint(self) -> None:
        """What follows the screen's breakpoint class beyond its CSS (each screen says; nothing by default)."""

    @property
    def table(self) -> Widget:
        """The screen's table (each screen says which)."""
        raise NotImplementedError

    def restart(self) -> None:
        """Start over on the current profile (each screen says how)."""
        raise NotImplementedError

    def help_noun(self) -> str:
        """What help (`?`) calls the screen's records ("" when it lists none)."""
        return ""

    def help_legend(self) -> list[str]:
        """Lines help (`?`) adds under the keys (none unless the screen says)."""
        return []

    def help_renames(self) -> dict[str, tuple[str, str] | None]:
        """What help (`?`) says a key does here, by action (the screen's RENAMED_ACTIONS unless it says more)."""
        return dict(self.RENAMED_ACTIONS)

    def refresh_header(self, *_: object) -> None:
        """Redraw the header: the tabs, this one current, and what the app knows of the server."""
        app = self.app
        read_only = read_only_reason(app.profile, app.read_only_flag) is not None
        self.header.show(replace(app.header_info, read_only=read_only), app.tabs, self.MODE)

    def show_status(self, parts: Sequence[str]) -> None:
        """Fit `parts` (StatusParts, most important kept) to the status line and show them."""
        line = self.status_line
        text = fit_status(parts, line.content_size.width or self.app.size.width - 2)
        if text != self._status_text:
            self._status_text = text
            line.update(text, layout=False)  # one row high, fitted to its width: its size never follows the text

    def _set_stale(self, reason: str) -> None:
        """Mark the rows on screen stale (dimmed, the reason in the status line) or fresh again ("")."""
        self.freshness.mark(reason, self.table, self.status_line)

    def refresh_busy(self) -> bool:
        """True while one of this screen's loads is in flight (a refresh then waits for the next tick)."""
        return self.loads.busy()

    def on_screen_resume(self) -> None:
        """Back on this screen: the header, and a restart when the profile changed meanwhile."""
        self.refresh_header()
        self.reload_if_stale()

    def reload_if_stale(self) -> None:
        """Restart on first show and after a profile switch."""
        generation = self.app.generation
        if self._generation != generation:
            self._generation = generation
            self.restart()
