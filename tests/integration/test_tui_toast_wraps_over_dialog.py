"""Issue 28 (newcomer's walk) at 80x24: a toast over a dialog was cut to one line mid-sentence (`…would leave it`)
and a column of the screen below showed beside it (a stray `e` of the footer). Over a dialog a toast spans the
screen's width and wraps its text, never cut; a copy's preview is one line."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.screen import Screen
from textual.widget import Widget

from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.session import guard_quit
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio
SIZE = (80, 24)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def toasts_of(screen: Screen[Any]) -> list[Widget]:
    """The toasts a screen draws."""
    return list(screen.query("Toast"))  # by name: Textual exports no Toast


def screen_rows(app: Any) -> list[str]:
    """The screen's rows as drawn (the screenshot's text by row, trailing blanks taken off)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for found in re.finditer(r'<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', app.export_screenshot()):
        text = html.unescape(re.sub(r"<[^>]+>", "", found.group(3))).replace("\xa0", " ")
        rows.setdefault(float(found.group(2)), []).append((float(found.group(1)), text))
    drawn = ["".join(text for _, text in sorted(row)).rstrip() for _, row in sorted(rows.items())]
    return drawn[-SIZE[1] :]  # the screen's rows (the export adds a title row above them)


def words(text: str) -> str:
    """The text's words on one line (a wrapped toast's lines joined)."""
    return " ".join(text.replace("▌", " ").split())


async def test_a_long_toast_over_a_dialog_wraps_whole_across_the_screen(demo_server: DemoServer) -> None:
    """`q` during a deletion run: `▌ A deletion run is going: esc cancels it first (quitting now would leave it  e`."""
    app = make_app(demo_server)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        dialog = ConfirmScreen("Delete 3 selectors?", "Each is deleted.", "Delete 3", 3, [])
        app.push_screen(dialog)
        await settle(pilot)
        guard_quit(dialog, app, "A deletion run")
        await app.action_quit()
        await settle(pilot)
        [toast] = toasts_of(dialog)
        reason = "A deletion run is going: esc cancels it first (quitting now would leave it unfinished)."
        assert toast.region.width == SIZE[0], f"the toast spans the screen (no column of the one below): {toast.region}"
        assert toast.region.height > 1 and toast.region.bottom == SIZE[1], toast.region
        shown = screen_rows(app)[-toast.region.height :]  # the screen's last rows
        assert words("\n".join(shown)) == reason, shown


async def test_a_copy_over_the_json_dialog_says_a_one_line_preview(demo_server: DemoServer) -> None:
    """`y` then `c`: `▌ Clipboard (OSC 52): Copied JSON: {       e`: the JSON's first line, then the footer's `e`."""
    app = make_app(demo_server)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        [toast] = toasts_of(app.screen)
        assert toast.region.width == SIZE[0] and toast.region.height == 1, toast.region
        line = screen_rows(app)[-1]
        assert words(line).startswith('Clipboard (OSC 52): Copied JSON: { "id": ') and line.endswith("…"), line
