"""Helpers for the dashboard's Pilot and snapshot tests: an app bound to a demo server, a frozen clock, settling."""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from rich.text import Text
from textual import events
from textual.app import App
from textual.coordinate import Coordinate
from textual.keys import KEY_NAME_REPLACEMENTS, key_to_character
from textual.notifications import Notify, SeverityLevel
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import WorkerCancelled, WorkerState

from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.store.model import Profile, build_profile
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from svctui.tui.launch import demo_profile
from svctui.tui.screens.events import EventsScreen
from svctui.tui.textual_internals import HighlightedRows
from svctui.tui.widgets.state_panel import StateKind, StatePanel

NOW = FIXED_ANCHOR
SIZE = (120, 36)


def frozen_clock() -> datetime:
    """The demo data's anchor: tests and snapshots see the same "now"."""
    return NOW


@dataclass(frozen=True)
class Note:
    """One notification as the user saw it."""

    message: str
    title: str
    severity: str
    timeout: float | None = None  # seconds on screen (None: Textual's default)


class RecordingApp(SvcTuiApp):
    """The dashboard, keeping every notification it showed in `notes` and counting its `bells` (tests read these,
    not Textual's privates)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notes: list[Note] = []
        self.toasts = 0  # notifications that reached Textual (notes holds every one asked for)
        self.bells = 0

    def bell(self) -> None:
        """Ring (a headless app makes no sound), and count it."""
        self.bells += 1
        super().bell()

    def on_notify(self, _message: Notify) -> None:
        """A toast reached Textual (run_test draws none): count it."""
        self.toasts += 1

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show it, and remember it."""
        self.notes.append(Note(message, title, severity, timeout))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)


def make_app(
    server: DemoServer | None = None, *, profile: Profile | None = None, settings: Settings | None = None, **kwargs: Any
) -> RecordingApp:
    """A dashboard on `server` (or `profile`) with the frozen clock and a stable server label."""
    chosen = profile if profile is not None else (demo_profile(server) if server is not None else None)
    return RecordingApp(chosen, settings=settings, clock=frozen_clock, server_label="demo server", **kwargs)


def wrong_key_profile(server: DemoServer) -> Profile:
    """The demo's token id with a wrong key: every request is a 401 digest mismatch."""
    return build_profile(
        name="wrongkey", base_url=server.base_url, token_id=server.token_id, token_key="not-the-key", storage="env"
    )


def unreachable_profile() -> Profile:
    """A profile pointing at a closed loopback port."""
    return build_profile(
        name="offline",
        base_url="http://127.0.0.1:9",
        token_id="3f2504e0-4f89-41d3-9a0c-0305e82c3301",
        token_key="k",
        storage="env",
    )


async def settle(pilot: Pilot[Any], rounds: int = 8) -> None:
    """Let messages run, wait for every worker, let their messages run; again while those started more workers
    (a page starts the history, the history its series and drops in a thread: a chain, on a busy machine a long
    one), at most `rounds` times."""
    await pilot.pause()
    for round_ in range(rounds):
        with contextlib.suppress(WorkerCancelled):  # a newer load replaced one: done; the next round waits for the rest
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        busy = any(worker.state in (WorkerState.PENDING, WorkerState.RUNNING) for worker in pilot.app.workers)
        if round_ >= 1 and not busy:  # two rounds at least, as before
            return


def burst(pilot: Pilot[Any], *keys: str) -> None:
    """Queue every key for the app at once, as a terminal's one read of several keys does (tmux send-keys, a paste
    of keys, fast typing on a busy machine): the app handles none before all are queued. `pilot.press` waits for
    the app to idle after each key, so it never shows what happens to keys that arrive together. A key is a
    character (`"="`) or a key name (`"ctrl+u"`, `"enter"`); await `pilot.pause()` or `settle` after."""
    for key in keys:
        if len(key) == 1:
            name = key if key.isalnum() else unicodedata.name(key).lower().replace("-", "_").replace(" ", "_")
            event = events.Key(KEY_NAME_REPLACEMENTS.get(name, name), key)
        else:
            event = events.Key(key, key_to_character(key))
        pilot.app.post_message(event)


ScreenT = TypeVar("ScreenT", bound=Screen[Any])


async def press_for(pilot: Pilot[Any], key: str, kind: type[ScreenT]) -> ScreenT:
    """Press `key`, settle, and return the screen on show, checked to be a `kind` (e.g. `4`: the Clients screen)."""
    await pilot.press(key)
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, kind), f"{key} showed {type(screen).__name__}, not {kind.__name__}"
    return screen


@asynccontextmanager
async def running(app: SvcTuiApp, size: tuple[int, int] = SIZE) -> AsyncIterator[Pilot[Any]]:
    """Run `app` headless until its start-up settled; the pilot."""
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        yield pilot


@asynccontextmanager
async def on_events(
    server: DemoServer | None = None, *, size: tuple[int, int] = SIZE, **kwargs: Any
) -> AsyncIterator[tuple[RecordingApp, Pilot[Any], EventsScreen]]:
    """Run a dashboard (`make_app(server, **kwargs)`) until its first page settled: (app, pilot, events screen)."""
    app = make_app(server, **kwargs)
    async with running(app, size) as pilot:
        yield app, pilot, events_screen(app)


def events_screen(app: SvcTuiApp) -> EventsScreen:
    """The events screen (the mode's base screen, even when a modal is on top)."""
    screen = app.get_screen_stack("events")[0]
    assert isinstance(screen, EventsScreen)
    return screen


def shown_state(panel: StatePanel) -> str:
    """The text a state panel shows (title, HTTP status, lines, request id, hints)."""
    return str(panel.query_one("#state-body", Static).render())


def state_of(app: SvcTuiApp) -> StateKind:
    """What the events screen's state panel shows (a function, so type checkers do not narrow across awaits)."""
    return events_screen(app).state_panel.kind


def ids(screen: EventsScreen) -> list[int]:
    """Event ids in table order."""
    return [event.id for event in screen.table.items]


@asynccontextmanager
async def with_screen(
    server: DemoServer,
    screen: Screen[Any],
    size: tuple[int, int] = (140, 40),
    answered: Callable[[Any], None] | None = None,
) -> AsyncIterator[tuple[RecordingApp, Pilot[Any]]]:
    """A dashboard on `server`, settled, with `screen` pushed on top (its answer to `answered`) and settled."""
    app = make_app(server)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.push_screen(screen, answered)
        await settle(pilot)
        yield app, pilot


async def detail_of_an_event_with_missing_ous(pilot: Pilot[Any]) -> None:
    """Settle, put the cursor on the first event with a missing OU reference (shown `✗`), open its detail pane."""
    await settle(pilot)
    table = events_screen(pilot.app).table  # type: ignore[arg-type]
    with_missing = next(event for event in table.items if any(not ref.exists for ref in event.ous))
    table.move_cursor(row=table.get_row_index(str(with_missing.id)), animate=False)
    await pilot.press("p")
    await settle(pilot)


def laid_out_texts(app: App[Any]) -> list[str]:
    """From now on, the plain text of every Text the app's console lays out: a table cell drawn afresh (not from
    DataTable's caches) is laid out through `console.render`, so these are the cells drawn again."""
    texts: list[str] = []
    render = app.console.render

    def noting(renderable: object, options: object = None) -> object:
        if isinstance(renderable, Text):
            texts.append(renderable.plain)
        return render(renderable, options)  # type: ignore[arg-type]

    app.console.render = noting  # type: ignore[method-assign,assignment]
    return texts


def drawn_cells(table: HighlightedRows[Any]) -> list[str]:
    """From now on, the plain text of every body cell the table draws afresh (not from DataTable's row and cell
    caches): `cell_lines` is asked for a cell only when its row's rendered line is not cached."""
    texts: list[str] = []
    cell_lines = table.cell_lines

    def noting(row: int, column: int, *rest: Any) -> Any:
        if row >= 0 and column >= 0:
            cell = table.get_cell_at(Coordinate(row, column))
            texts.append(cell.plain if isinstance(cell, Text) else str(cell))
        return cell_lines(row, column, *rest)

    table.cell_lines = noting  # type: ignore[method-assign,assignment]
    return texts


_SVG_CELL = re.compile(r'<rect fill="(#[0-9a-fA-F]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"')
_CELL_WIDTH, _LINE_HEIGHT, _TOP = 12.2, 24.4, 1.5  # Rich's SVG export at its default font size


def painted_background(app: App[Any], x: int, y: int) -> str | None:
    """The background colour (`#rrggbb`) of the cell at (x, y) in a screenshot of what the app has painted, not in
    a fresh render of the widget there: a cell Textual never repainted still shows its old colour here."""
    for fill, left, top, width in _SVG_CELL.findall(app.export_screenshot()):
        row = abs(float(top) - (_TOP + _LINE_HEIGHT * y)) < 0.1
        if row and float(left) - 0.1 <= _CELL_WIDTH * x < float(left) + float(width) - 0.1:
            return str(fill).lower()
    return None
