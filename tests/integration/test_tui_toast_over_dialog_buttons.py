"""Toasts never sit over a dialog's buttons: over a modal screen the toast rack keeps to the screen's last row,
which every dialog leaves free, however tall the dialog grows (a restore's confirm with a long listing and a typed
count fills 80x24 to its last free row).

A newcomer's restore at 80x24: the `Type 25 exactly…` toast covered the Restore button for its 3 s."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Button

from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from tests.support.screen_text import screen_text
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


def _overlaps(a: Any, b: Any) -> bool:
    return bool(a.region.intersection(b.region))


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_a_toast_over_a_tall_confirm_leaves_its_buttons_in_view(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    listing = [f"  {n} 'Selector number {n}': 1 seed" for n in range(40)]
    app = make_app(demo_server)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        dialog = ConfirmScreen(
            "Re-create 40 selectors deleted by run R?", "Each is created again.", "Restore 40", 40, listing
        )
        app.push_screen(dialog)
        await settle(pilot)
        await pilot.press(*"39", "enter")  # the wrong count: a warning toast
        await settle(pilot)
        toasts = list(dialog.query("Toast"))
        assert toasts, "the warning is shown"
        box = dialog.query_one("ConfirmScreen > Vertical")
        buttons = list(dialog.query(Button))
        assert buttons and all(box.region.contains_region(button.region) for button in buttons), "the buttons show"
        for toast in toasts:
            assert toast.region.y == size[1] - 1, f"the toast keeps to the last row: {toast.region}"
            assert not _overlaps(toast, box), f"the toast covers the dialog: {toast.region} {box.region}"
        assert "Type 40 exactly to enable Restore 40." in screen_text(app), "the toast is drawn, whole"
