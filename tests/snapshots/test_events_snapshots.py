"""SVG snapshots of the Events screen in every state, in a dark and a light theme (120x36, frozen clock).

Review changed SVGs before accepting them with `--snapshot-update` (convert with rsvg-convert and look).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from svctui.api.filters import Filter
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from tests.support.tui import (
    SIZE,
    events_screen,
    make_app,
    settle,
    unreachable_profile,
    wrong_key_profile,
)

THEMES = ["textual-dark", "svctui-paper"]
SnapCompare = Callable[..., bool]


def themed(server: DemoServer | None, theme: str, **kwargs: Any) -> SvcTuiApp:
    return make_app(server, settings=Settings(theme=theme), **kwargs)


def settled(*keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return run_before


@pytest.mark.parametrize("theme", THEMES)
def test_data(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=settled())


@pytest.mark.parametrize("theme", [*THEMES, "svctui-contrast", "svctui-cvd"])
def test_detail_pane(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    """Table, missing refs (✗) and the detail pane; also in the high-contrast and the colour-blind-safe theme."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        table = events_screen(pilot.app).table  # type: ignore[arg-type]
        with_missing = next(e for e in table.items if any(not ref.exists for ref in e.ous))
        table.move_cursor(row=table.get_row_index(str(with_missing.id)), animate=False)
        await pilot.press("p")
        await settle(pilot)

    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_sorted_with_marks_and_filters(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        screen = events_screen(pilot.app)  # type: ignore[arg-type]
        screen.set_filters([Filter("id", "lte", "150"), Filter("session_collection", "eq", "true")])
        await settle(pilot)
        for key in ("s", "s", "right", "right", "right", "s"):
            await pilot.press(key)
            await settle(pilot)
        await pilot.press("j", "space", "j", "j", "v")
        await settle(pilot)

    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_loading(snap_compare: SnapCompare, fresh_demo_server: DemoServer, theme: str) -> None:
    fresh_demo_server.faults = Faults(latency_ms=5000)

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()

    assert snap_compare(themed(fresh_demo_server, theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_empty(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        events_screen(pilot.app).set_filters([Filter("id", "gt", "100000")])  # type: ignore[arg-type]
        await settle(pilot)

    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_server_error(
    snap_compare: SnapCompare, fresh_demo_server: DemoServer, fixed_request_ids: None, theme: str
) -> None:
    fresh_demo_server.faults = Faults(error_rate=1.0)
    assert snap_compare(themed(fresh_demo_server, theme), terminal_size=SIZE, run_before=settled())


@pytest.mark.parametrize("theme", THEMES)
def test_network_down(snap_compare: SnapCompare, theme: str) -> None:
    app = themed(None, theme, profile=unreachable_profile())
    assert snap_compare(app, terminal_size=SIZE, run_before=settled())


@pytest.mark.parametrize("theme", THEMES)
def test_enterprise_only(snap_compare: SnapCompare, demo_server_community: DemoServer, theme: str) -> None:
    assert snap_compare(themed(demo_server_community, theme), terminal_size=SIZE, run_before=settled())


@pytest.mark.parametrize("theme", THEMES)
def test_auth_failure(snap_compare: SnapCompare, demo_server: DemoServer, fixed_request_ids: None, theme: str) -> None:
    app = themed(None, theme, profile=wrong_key_profile(demo_server))
    assert snap_compare(app, terminal_size=SIZE, run_before=settled())


@pytest.mark.parametrize("theme", THEMES)
def test_filter_editor_inline_error(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"id=gt:abc")
        pilot.app.screen.query_one("#row-client_id").query_one(Input).value = "not-a-uuid"
        await pilot.press("enter")
        await settle(pilot)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor makes the picture depend on timing
        await pilot.pause()

    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("theme", THEMES)
def test_help(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    assert snap_compare(themed(demo_server, theme), terminal_size=SIZE, run_before=settled("question_mark"))
