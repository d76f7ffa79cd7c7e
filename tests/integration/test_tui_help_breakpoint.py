"""Help (`?`) lays itself out by a breakpoint class and CSS (issue 27, item 4): from 116 columns (the dialog then gives
the key table 104 cells) the binding ids and the title that says to remap by them; under it neither, and the title
says where they are. Its tooltips wrap to the width the dialog has; no handler reads the terminal's width."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.help import HELP_WIDTH, IDS_FROM_COLUMNS, TITLE_WITH_IDS, TITLE_WITHOUT_IDS, HelpScreen, KeyList
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def shown(screen: HelpScreen) -> tuple[str, str]:
    """The title and the key table in view (the other pair is hidden by the screen's class)."""
    title = next(static for static in screen.query(".dialog-title").results(Static) if static.display)
    body = next(static for static in screen.query("#help-scroll > Static").results(Static) if static.display)
    keys = body.content
    assert isinstance(keys, KeyList)
    return str(title.render()), keys.content(body.size.width).plain  # the text at the width the dialog gives it


async def test_help_shows_the_binding_ids_from_its_breakpoint_and_follows_a_resize(demo_server: DemoServer) -> None:
    app = make_app(demo_server)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HelpScreen) and "on_resize" not in vars(HelpScreen)
        assert screen.has_class("-narrow") and not screen.has_class("-wide")
        title, body = shown(screen)
        assert title == TITLE_WITHOUT_IDS and "binding id" not in body and "events.filter" not in body
        body_static = next(s for s in screen.query("#help-scroll > Static").results(Static) if s.display)
        assert body_static.size.width == 80 * 95 // 100 - 6 and max(map(len, body.splitlines())) <= 70
        for width, wide in ((IDS_FROM_COLUMNS - 1, False), (IDS_FROM_COLUMNS, True), (160, True), (80, False)):
            await pilot.resize_terminal(width, 45)
            await settle(pilot)
            title, body = shown(screen)
            assert screen.has_class("-wide") is wide, width
            assert (title == TITLE_WITH_IDS) is wide and ("binding id" in body) is wide, (width, title)
            if wide:
                assert max(map(len, body.splitlines())) <= HELP_WIDTH
