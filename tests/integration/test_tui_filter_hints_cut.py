"""The filter editor's kind hints at 80x24: a hint with no room for its whole text ends with `…` (a newcomer read
`time: RFC` and took it for all there was; issue 28 item 7), and the time hint is never cut inside (`time: RFC 333…`
read as another format: issue 27): at 80 columns it reads `RFC 3339, -7d`, its short form."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_editor import SHORT_HINTS, FilterEditor, KindHint
from tests.support.tui import on_events, settle

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_a_hint_cut_short_ends_with_an_ellipsis(demo_server: DemoServer, size: tuple[int, int]) -> None:
    async with on_events(demo_server, size=size) as (app, pilot, _):
        await pilot.press("slash")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        shown = []
        for hint in editor.query(KindHint):
            if not hint.region.width:
                continue
            full = hint.hint
            line = hint.render_line(0).text.strip()
            shown.append(line)
            if full in SHORT_HINTS:
                assert line in (full, SHORT_HINTS[full], ""), (line, full)
            else:
                assert line == full or (line.endswith("…") and full.startswith(line[:-1])), (line, full)
        expected = "RFC 3339, -7d" if size[0] == 80 else "time: RFC 3339, -7d"
        assert expected in shown, shown
