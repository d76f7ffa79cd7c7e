"""Issue 28: on a small terminal a burst of toasts stacked over the data. On Selectors at 80x24, `i`, `q` (with
marks) and `ctrl+u` left three toasts covering 12 of the table's 18 rows and the status line. Below 30 rows at most
two toasts show at once (a newer one takes the oldest's place), and none covers the status line."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen
from textual.widget import Widget

from svctui.demo.server import DemoServer
from tests.support.screen_text import screen_text
from tests.support.selectors import open_cleanup
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio

BURST = [f"Notice number {n}: something happened" for n in range(1, 6)]


def shown_toasts(screen: Screen[Any]) -> list[Widget]:
    """The toasts drawn on the screen (a toast held back takes no room): by name, Textual exports no Toast."""
    return [toast for toast in screen.query("Toast") if toast.region]


@pytest.mark.parametrize(("size", "most"), [((80, 24), 2), ((160, 45), len(BURST))])
async def test_a_burst_of_toasts_leaves_the_table_and_status_line_in_view(
    demo_server: DemoServer, size: tuple[int, int], most: int
) -> None:
    app = make_app(demo_server)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        screen = await open_cleanup(pilot)
        for message in BURST:
            app.notify(message)
        await settle(pilot)
        toasts = shown_toasts(screen)
        assert len(toasts) == most, [str(toast.render()) for toast in toasts]
        text = screen_text(app)
        shown = [message for message in BURST if message in text]
        assert shown == BURST[-most:], "the newest stay, the oldest give way"
        status = screen.query_one("#status-line")
        for toast in toasts:
            assert not toast.region.intersection(status.region), f"a toast covers the status line: {toast.region}"


async def test_the_next_screen_shows_no_more_toasts_than_the_last(demo_server: DemoServer) -> None:
    """Each screen has its own toast rack, filled with every toast still due when it is shown: the ones held back
    on the last screen stay held back on the next."""
    app = make_app(demo_server)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        for message in BURST:
            app.notify(message)
        await settle(pilot)
        assert len(shown_toasts(app.screen)) == 2
        await pilot.press("2")
        await settle(pilot)
        text = screen_text(app)
        assert [message for message in BURST if message in text] == BURST[-2:]
        assert len(shown_toasts(app.screen)) == 2
