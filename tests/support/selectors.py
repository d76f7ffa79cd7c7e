"""Helpers for the cleanup screen's Pilot and snapshot tests: open screen 3 on a demo server and settle."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen

from svctui.demo.server import DemoServer
from svctui.tui.app import SvcTuiApp
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.screen import SelectorsScreen
from tests.support.tui import SIZE, RecordingApp, make_app, running, settle


class AuditHost(Screen[None]):
    """A screen holding only the cleanup screen's Audit tab (the tab reads the real audit log)."""

    def compose(self) -> ComposeResult:
        """The tab."""
        yield AuditTab()


def selectors_screen(app: SvcTuiApp) -> SelectorsScreen:
    """The cleanup screen (the mode's base screen, even when a modal is on top)."""
    screen = app.get_screen_stack("selectors")[0]
    assert isinstance(screen, SelectorsScreen)
    return screen


async def open_cleanup(pilot: Pilot[Any]) -> SelectorsScreen:
    """Press 3 and wait until the tags, counts and the first tag's first page settled."""
    await settle(pilot)
    await pilot.press("3")
    await settle(pilot)
    await settle(pilot)
    return selectors_screen(pilot.app)  # type: ignore[arg-type]


@asynccontextmanager
async def on_cleanup(
    server: DemoServer | None = None, *, size: tuple[int, int] = SIZE, **kwargs: Any
) -> AsyncIterator[tuple[RecordingApp, Pilot[Any], SelectorsScreen]]:
    """Run a dashboard on `server` with screen 3 open and settled: (app, pilot, cleanup screen)."""
    app = make_app(server, **kwargs)
    async with running(app, size) as pilot:
        yield app, pilot, await open_cleanup(pilot)


def shown_ids(screen: SelectorsScreen) -> list[int]:
    """Selector ids in table order."""
    return [selector.id for selector in screen.selector_table.items]


async def gone_shown(pilot: Pilot[Any], screen: SelectorsScreen) -> None:
    """Wait (in Textual's time, at most ~10 s) until the deletions reported so far have left the table."""
    for _ in range(100):
        if screen.gone_timer is None:
            return
        await pilot.pause(0.1)
    raise AssertionError("the deleted rows never left the table")
