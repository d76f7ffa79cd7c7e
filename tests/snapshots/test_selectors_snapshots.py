"""SVG snapshots of the Selector cleanup screen (key 3): browse, filter editor, marks, typed ids (120x36, frozen clock).

Review changed SVGs before accepting them with `--snapshot-update` (convert with rsvg-convert and look).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
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


@pytest.mark.parametrize("theme", THEMES)
def test_browse(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=on_screen_3())


def test_browse_detail(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def detail(pilot: Pilot[Any]) -> None:
        await pilot.press("p")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(detail))


def test_filter_editor(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def editor(pilot: Pilot[Any]) -> None:
        await pilot.press("slash")
        await settle(pilot)
        for field in pilot.app.screen.query(Input):  # a blinking cursor would make the picture depend on timing
            field.cursor_blink = False

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(editor))


def test_marked_single_and_range(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def mark(pilot: Pilot[Any]) -> None:
        await pilot.press("space", "j", "j", "space", "j", "j", "j", "j", "v")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(mark))


def test_marked_all_matching_confirm(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def ask(pilot: Pilot[Any]) -> None:
        from tests.support.selectors import selectors_screen

        selectors_screen(pilot.app).set_filters([Filter("name", "~eq", "s")])  # type: ignore[arg-type]
        await settle(pilot)
        await pilot.press("M")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(ask))


def test_marked_all_matching(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def mark_all(pilot: Pilot[Any]) -> None:
        from tests.support.selectors import selectors_screen

        selectors_screen(pilot.app).set_filters([Filter("name", "~eq", "s")])  # type: ignore[arg-type]
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("right_square_bracket")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(mark_all))


def test_typed_ids_prompt(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def typed(pilot: Pilot[Any]) -> None:
        await pilot.press("i")
        await settle(pilot)
        pilot.app.screen.query_one("#ids", Input).cursor_blink = False
        pilot.app.screen.query_one("#ids", Input).value = "1 6-7 12x"
        await pilot.press("enter")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(typed))


def test_typed_ids_marked(snap_compare: SnapCompare, demo_server: DemoServer) -> None:
    async def typed(pilot: Pilot[Any]) -> None:
        await pilot.press("i")
        await settle(pilot)
        pilot.app.screen.query_one("#ids", Input).value = "1 4 7 16-18 999999"
        await pilot.press("enter")

    assert snap_compare(themed(demo_server), terminal_size=SIZE, run_before=on_screen_3(typed))
