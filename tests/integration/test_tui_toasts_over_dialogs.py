"""Toasts and dialogs at 80x24 against the demo server: a toast never covers a dialog's content (issue 28)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.screen import Screen
from textual.widget import Widget

from svctui.demo.server import DemoServer
from svctui.tui.widgets.client_picker import ClientPicker
from tests.support.tui import events_screen, make_app, settle

pytestmark = pytest.mark.anyio


def toasts_shown(screen: Screen[Any]) -> list[Widget]:
    """The toasts a screen draws (its rack shown)."""
    rack = screen.query_one("#textual-toastrack")
    return list(rack.query("Toast")) if rack.display else []  # by name: Textual exports no Toast


async def test_a_toast_never_covers_the_client_picker(demo_server: DemoServer) -> None:
    """The client picker at 80x24 had a `Copied` toast over its list (and the events screen's toast showed through
    its backdrop). Opening a dialog clears the toasts raised before it; one raised over it keeps to the last row."""
    app = make_app(demo_server)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:  # run_test hides toasts unless asked
        await settle(pilot)
        screen = events_screen(app)
        await pilot.press("c")  # copies the id: a toast with a title
        await settle(pilot)
        assert toasts_shown(screen)
        await pilot.press("C")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ClientPicker)
        assert not toasts_shown(screen), "the screen below shows no toast through the dialog's backdrop"
        assert not toasts_shown(picker), "the copy toast from before the dialog is done with"
        app.notify("A long message raised while the dialog is open", title="Clipboard (OSC 52)")
        await settle(pilot)
        [toast] = toasts_shown(picker)
        dialog = picker.query_one(".dialog").region
        assert toast.region.height == 1 and toast.region.y == 23, toast.region
        assert not toast.region.overlaps(dialog)
        assert "Clipboard (OSC 52): A long message raised while the dialog is open" in str(toast.render())
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and toasts_shown(screen), "back on the screen, its toasts show again"
