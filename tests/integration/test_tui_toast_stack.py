"""Issue 28: on a small terminal a burst of toasts stacked over the data. On Selectors at 80x24, `i`, `q` (with
marks) and `ctrl+u` left three toasts covering 12 of the table's 18 rows and the status line. Below 30 rows at most
two toasts show at once (a newer one takes the oldest's place), and none covers the status line."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from tests.support.screen_text import screen_text
from tests.support.selectors import open_cleanup
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio

BURST = [f"Notice number {n}: something happened" for n in range(1, 6)]


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
        toasts = list(screen.query("Toast"))
        assert len(toasts) == most, [str(toast.render()) for toast in toasts]
        text = screen_text(app)
        shown = [message for message in BURST if message in text]
        assert shown == BURST[-most:], "the newest stay, the oldest give way"
        status = screen.query_one("#status-line")
        for toast in toasts:
            assert not toast.region.intersection(status.region), f"a toast covers the status line: {toast.region}"
