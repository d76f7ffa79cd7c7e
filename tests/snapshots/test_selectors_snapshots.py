"""SVG snapshots of the Selector cleanup screen (key 3) at 120x36: marks (single, range, all matching) and typed ids.
Its states and prompts at 80x24 and 160x45 are in test_matrix_selectors.py.

Review changed SVGs before accepting them with `--snapshot-update` (convert with rsvg-convert and look).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from tests.support.selectors import open_cleanup
from tests.support.tui import SIZE, make_app, settle

THEMES = ["textual-dark", "svctui-paper"]
SnapCompare = Callable[..., bool]
Steps = Callable[[Pilot[Any]], Awaitable[None]]


def themed(server: DemoServer, theme: str = THEMES[0]) -> SvcTuiApp:
    return make_app(server, settings=Settings(theme=theme, page_size=20))


def on_screen_3(then: Steps | None = None) -> Steps:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await open_cleanup(pilot)
        screen.selector_table.move_cursor(row=0, column=1, animate=False)
        if then is not None:
            await then(pilot)
        await settle(pilot)
        pilot.app.clear_notifications()
        await settle(pilot)

    return run_before


def test_marked_single_and_range(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def mark(pilot: Pilot[Any]) -> None:
        await pilot.press("space", "j", "j", "space", "j", "j", "j", "j", "v")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(mark))


def test_marked_all_matching(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def mark_all(pilot: Pilot[Any]) -> None:
        from tests.support.selectors import selectors_screen

        selectors_screen(pilot.app).set_filters([Filter("name", "~eq", "s")])  # type: ignore[arg-type]
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        await pilot.press("tab", "enter")  # from Cancel (focused on open) to Mark
        await settle(pilot)
        await pilot.press("right_square_bracket")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(mark_all))


def test_typed_ids_marked(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def typed(pilot: Pilot[Any]) -> None:
        await pilot.press("i")
        await settle(pilot)
        pilot.app.screen.query_one("#ids", Input).value = "1 4 7 16-18 999999"
        await pilot.press("enter")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(typed))
