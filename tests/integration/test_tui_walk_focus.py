"""Newcomer walk (issue 27): after zoom and esc the keys go to the table, never to a filter chip by accident."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_chips import FilterChip
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks
from tests.support.tui import on_events, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_zoom_twice_then_esc_gives_the_table_the_keys(demo_server: DemoServer) -> None:
    """`/ id=gt:10 enter`, enter (detail), `z z esc`, enter: the detail opens again and the `id > 10` chip stays
    (focus was left on the chip, and enter removed its filter silently)."""
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        await pilot.press("slash", *"id=gt:10", "enter")
        await settle(pilot)
        assert len(screen.filters) == 1
        await pilot.press("enter")
        await settle(pilot)
        assert screen.detail.is_open
        await pilot.press("z", "z", "escape")
        await settle(pilot)
        assert not isinstance(screen.focused, FilterChip)
        assert screen.table.has_focus
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.filters) == 1, "enter reopened the detail, it did not remove a filter"
        assert screen.detail.is_open
        line = str(screen.query_one("#status-line", Static).render())
        assert "1 filter" in line


async def test_removing_a_chip_by_key_says_so_and_gives_the_table_the_keys(demo_server: DemoServer) -> None:
    """A chip reached by tab goes with enter or delete, and the screen says which filter went."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, screen):
        await pilot.press("slash", *"id=gt:10", "enter")
        await settle(pilot)
        await pilot.press("slash", *"id=lt:150", "enter")
        await settle(pilot)
        assert len(screen.filters) == 2
        chips = list(screen.query(FilterChip))
        chips[0].focus()
        await pilot.press("delete")
        await settle(pilot)
        assert [str(f) for f in screen.filters] == ["id=lt:150"]
        assert any("Filter id > 10 removed" in note.message for note in app.notes)
        assert screen.table.has_focus


async def test_z_with_no_rows_says_there_is_nothing_to_zoom(demo_server: DemoServer) -> None:
    """Newcomer walk: with no rows `z` filled the screen with hatching (the zoomed pane hidden with the table)."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, screen):
        await pilot.press("slash", *"id=gt:99999", "enter")
        await settle(pilot)
        assert screen.table.row_count == 0
        await pilot.press("z")
        await settle(pilot)
        assert screen.maximized is None
        assert any(note.message == "Nothing to zoom: no event on screen." for note in app.notes)


async def test_z_on_a_client_with_no_runs_says_there_is_nothing_to_zoom(demo_server: DemoServer) -> None:
    """The same on Completed tasks, for a client the server answers 404 for."""
    async with on_tasks(demo_server, "00000000-0000-0000-0000-000000000000") as (app, pilot, screen):
        await pilot.press("z")
        await settle(pilot)
        assert screen.maximized is None
        assert any(note.message.startswith("Nothing to zoom") for note in app.notes)


async def test_a_filter_matching_nothing_leaves_no_chip_focused(demo_server: DemoServer) -> None:
    """The table hidden by the state panel (no rows) gave Textual's focus to the chip before it: enter then removed
    the filter. The screen keeps the keys, and the table has them again once rows are back."""
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        await pilot.press("slash", *"id=gt:99999", "enter")
        await settle(pilot)
        assert screen.table.row_count == 0
        assert not isinstance(screen.focused, FilterChip), screen.focused
        await pilot.press("x")
        await settle(pilot)
        assert screen.table.has_focus


async def test_the_zoomed_event_detail_scrolls_with_the_tables_keys(demo_server: DemoServer) -> None:
    """Walk 3, item 14: zoomed (`p z`), the event detail scrolled with home/end and pgup/pgdn only: `G`, `g`, `j`
    and `k` did nothing. They scroll it as they move a table's cursor."""
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        await pilot.press("p", "z")
        await settle(pilot)
        detail = screen.detail
        assert screen.maximized is detail and detail.has_focus and detail.max_scroll_y > 2
        await pilot.press("G")
        await settle(pilot)
        assert detail.scroll_y == detail.max_scroll_y
        await pilot.press("k")
        await settle(pilot)
        assert detail.scroll_y == detail.max_scroll_y - 1
        await pilot.press("g")
        await settle(pilot)
        assert detail.scroll_y == 0
        await pilot.press("j")
        await settle(pilot)
        assert detail.scroll_y == 1
        await pilot.press("end", "home", "pagedown")
        await settle(pilot)
        assert detail.scroll_y > 1
