"""The resume dialog asks for the count it will send: selectors its GET check found settled (gone already) are left
out of "Resume N" and of the count to type, as the deletion review leaves settled ids out.

A newcomer read `2 gone already: settled without a DELETE`, `155 still there: will be deleted`, then `Type 157 to
enable Resume 157`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Static

from svctui.api.models import Selector
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.run import RunScreen
from tests.support.selectors_run import big_tag_server, delete_now, interrupted_log, remaining_ids, tag_selectors
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def resume_dialog(
    tmp_path: Path, gone: slice, size: tuple[int, int]
) -> AsyncIterator[tuple[Pilot[int], ConfirmScreen, list[Selector], set[int]]]:
    """The resume dialog of a run killed while deleting 26 selectors (1 deleted, 25 unsettled), after someone else
    deleted the `gone` ones of them: (pilot, the dialog, the selectors, the ids left on the server once it closed)."""
    left: set[int] = set()
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:26]
        interrupted_log(demo, selectors)
        for selector in selectors[gone]:
            delete_now(demo, selector.id)
        app = make_app(demo)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            yield pilot, dialog, selectors, left
        left.update(remaining_ids(demo))


async def test_the_count_to_type_and_the_button_leave_the_settled_selectors_out(tmp_path: Path) -> None:
    # the first of the 25 unsettled deleted by the killed run; someone else deleted two more: 3 of the 25 are gone
    async with resume_dialog(tmp_path, slice(2, 4), (140, 40)) as (pilot, dialog, selectors, left):
        app = pilot.app
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
    assert left.isdisjoint(selector.id for selector in selectors)


async def test_at_80x24_a_cut_listing_says_how_many_lines_are_below(tmp_path: Path) -> None:
    # Newcomer walk: `4 gone already` over 3 names, the 4th out of view with nothing to say so (a scrollbar is easy to
    # miss, and a terminal's text shows none). A line under the listing counts the lines below, and follows the scroll.
    from textual.containers import VerticalScroll

    async with resume_dialog(tmp_path, slice(2, 6), (80, 24)) as (pilot, dialog, _selectors, _left):
        listing = dialog.query_one("#confirm-listing", VerticalScroll)
        more = dialog.query_one("#confirm-more", Static)
        total = listing.virtual_size.height
        shown = listing.scrollable_content_region.height
        assert total > shown, "at 80x24 the listing is cut"
        assert more.display and more.region.height == 1, "the line under the listing shows"
        below = total - shown
        said = str(more.render())
        assert said.startswith(f"↓ {below} more lines"), said
        box = dialog.query_one("ConfirmScreen > Vertical")
        assert box.region.contains_region(more.region) and box.region.contains_region(
            dialog.query_one("#confirm", Button).region
        ), "the line takes a row of the listing, not the buttons'"
        listing.scroll_end(animate=False, immediate=True)
        await settle(pilot)
        assert str(more.render()).startswith(f"↑ the list's first {below} lines are above"), str(more.render())
