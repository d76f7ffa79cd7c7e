"""SVG snapshots of the Events screen at 120x36 (frozen clock): the detail pane in all four shipped themes, and a
sorted, filtered table with marks. Its states at 80x24 and 160x45 are in test_matrix_events.py.

Review changed SVGs before accepting them with `--snapshot-update` (convert with rsvg-convert and look).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from tests.support.tui import (
    SIZE,
    detail_of_an_event_with_missing_ous,
    events_screen,
    make_app,
    settle,
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


@pytest.mark.parametrize("theme", [*THEMES, "svctui-contrast", "svctui-cvd"])
def test_detail_pane(snap_compare: SnapCompare, demo_server: DemoServer, theme: str) -> None:
    """Table, missing refs (✗) and the detail pane; also in the high-contrast and the colour-blind-safe theme."""

    run_before = detail_of_an_event_with_missing_ous
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
