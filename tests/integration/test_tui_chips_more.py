"""The quick-filter chips line at 80x24: the chips out of view are counted (`+2 more`) and `x clears all` is always
in view (a newcomer saw the line end `status ≠ complete`, the rest and the hint off screen; issue 28 item 7)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_chips import FilterChip, FilterChips
from tests.support.tasks import drop_case, open_tasks, tasks_app
from tests.support.tui import running, settle

pytestmark = pytest.mark.anyio


def chips_line(app: App[Any], chips: FilterChips) -> str:
    """The chips line as on screen."""
    strips = app.screen._compositor.render_update(full=True).strips  # type: ignore[attr-defined]
    return "".join(segment.text for segment in strips[chips.region.y])


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_chips_out_of_view_are_counted_and_the_hint_stays(demo_server: DemoServer, size: tuple[int, int]) -> None:
    app = tasks_app(demo_server, drop_case(demo_server).client_id)
    async with running(app, size) as pilot:
        screen = await open_tasks(pilot)
        await pilot.press("o")
        await settle(pilot)
        chips = screen.query_one(FilterChips)
        line = " ".join(chips_line(app, chips).split())
        assert "x clears all" in line, line
        whole = [chip for chip in chips.query(FilterChip) if str(chip.label) in line]
        hidden = len(chips.query(FilterChip)) - len(whole)
        assert (f"+{hidden} more" in line) is (hidden > 0), line
        if size == (80, 24):
            assert hidden > 0, "at 80 columns the o chips do not all fit"
