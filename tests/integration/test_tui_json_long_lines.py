"""The JSON view (`y`) at 80x24: a line longer than the view wraps, so nothing of the record is cut off unseen (a
newcomer read `"rrule": "DTSTART:…;BYD` and took it for the whole rule; issue 28 item 7)."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.widgets.raw_json import RawJson
from tests.support.tui import on_events, settle

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_every_character_of_a_long_line_is_shown(demo_server: DemoServer, size: tuple[int, int]) -> None:
    async with on_events(demo_server, size=size) as (app, pilot, _):
        for _row in range(40):  # the first event whose JSON has a line wider than the view at 80 columns
            await pilot.press("y")
            await settle(pilot)
            view = app.screen
            assert isinstance(view, RawJson)
            if max(len(line) for line in view.text.splitlines()) > 72:
                break
            await pilot.press("escape", "down")
        else:
            pytest.fail("no event with a long line in its JSON")
        body = view.query_one("#json-body", Static)
        lines = [body.render_line(y).text for y in range(body.size.height)]
        shown = "".join("".join(lines).split())
        assert shown == "".join(view.text.split()), "every character of the JSON is on a line of the view"
