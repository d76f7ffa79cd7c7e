"""The quick-filter chips line at 80x24: the chips out of view are counted (`+2 more`) and `x clears all` is always
in view (a newcomer saw the line end `status ≠ complete`, the rest and the hint off screen; issue 28 item 7)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.app import App

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_chips import FilterChip, FilterChips
from tests.support.tasks import drop_case, open_tasks, tasks_app
from tests.support.tui import running, settle

pytestmark = pytest.mark.anyio


def chips_line(app: App[Any]) -> str:
    """The chips line as on screen (the screenshot's text row with the first chip)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for found in re.finditer(r'<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', app.export_screenshot()):
        text = html.unescape(re.sub(r"<[^>]+>", "", found.group(3))).replace("\xa0", " ")
        rows.setdefault(float(found.group(2)), []).append((float(found.group(1)), text))
    lines = ["".join(text for _, text in sorted(row)) for _, row in sorted(rows.items())]
    return next(line for line in lines if "status ≠ invalid ✕" in line)


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_chips_out_of_view_are_counted_and_the_hint_stays(demo_server: DemoServer, size: tuple[int, int]) -> None:
    app = tasks_app(demo_server, drop_case(demo_server).client_id)
    async with running(app, size) as pilot:
        screen = await open_tasks(pilot)
        await pilot.press("o")
        await settle(pilot)
        chips = screen.query_one(FilterChips)
        line = " ".join(chips_line(app).split())
        assert "x clears all" in line, line
        whole = [chip for chip in chips.query(FilterChip) if str(chip.label) in line]
        hidden = len(chips.query(FilterChip)) - len(whole)
        assert (f"+{hidden} more" in line) is (hidden > 0), line
        if size == (80, 24):
            assert hidden > 0, "at 80 columns the o chips do not all fit"


async def test_chips_counted_again_when_f_gives_way_to_o(demo_server: DemoServer) -> None:
    """`f` then `o` at 80x24: the line ran past the edge (`… status ≠ complete`, no `+N more`, no hint): the chips
    were counted before `o`'s replaced `f`'s (walk 3, item 8)."""
    app = tasks_app(demo_server, drop_case(demo_server).client_id)
    async with running(app, (80, 24)) as pilot:
        screen = await open_tasks(pilot)
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        chips = screen.query_one(FilterChips)
        line = " ".join(chips_line(app).split())
        assert "x clears all" in line and chips.hidden_chips > 0, line
        assert f"+{chips.hidden_chips} more" in line, line
