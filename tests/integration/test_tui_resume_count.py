"""The resume dialog asks for the count it will send: selectors its GET check found settled (gone already) are left
out of "Resume N" and of the count to type, as the deletion review leaves settled ids out.

A newcomer read `2 gone already: settled without a DELETE`, `155 still there: will be deleted`, then `Type 157 to
enable Resume 157`."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input, Static

from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.run import RunScreen
from tests.support.selectors_run import big_tag_server, delete_now, interrupted_log, remaining_ids, tag_selectors
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


async def test_the_count_to_type_and_the_button_leave_the_settled_selectors_out(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:26]
        interrupted_log(demo, selectors)  # 1 deleted; 25 unsettled, the first of them deleted by the killed run
        for gone in selectors[2:4]:
            delete_now(demo, gone.id)  # someone else deleted two more: 3 of the 25 are gone already
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert "25 selectors are unsettled" in dialog.body
            listing = "\n".join(dialog.listing)
            assert "3 gone already: settled without a DELETE" in listing, listing
            assert "22 still there: will be deleted" in listing, listing
            button = dialog.query_one("#confirm", Button)
            assert str(button.label) == "Resume 22"
            assert "Type 22 to enable Resume 22" in str(dialog.query_one("#confirm-typed-label", Static).render())
            box = dialog.query_one("#confirm-typed", Input)
            assert box.placeholder == "type 22"
            await pilot.press("2", "5")
            await settle(pilot)
            assert button.disabled, "the unsettled count (25) is not the count sent"
            await pilot.press("backspace", "backspace", "2", "2")
            await settle(pilot)
            assert not button.disabled
            await pilot.press("enter")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RunScreen) and screen.report is not None
            outcomes = [str(cell) for cell in screen.query_one("#run-table", DataTable).get_column("outcome")]
            assert outcomes.count("deleted") == 22 and outcomes.count("already gone") == 3
        assert remaining_ids(demo).isdisjoint(selector.id for selector in selectors)
