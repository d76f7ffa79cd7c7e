"""Keys typed in the same burst as a key that opens a box go into that box, in the order typed (newcomer walk,
2026-12-05: `send-keys '/' 'id=gt:190' Enter` said `No filter entered`, `C N Y C Enter` re-chose the client shown,
`i 4 8` left the Ids box empty, the log's `/ Status Enter` searched nothing: that one in test_tui_log_search.py)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.tui.key_hold import KeyHold
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.selectors.prompts import TypeIds
from svctui.tui.widgets.filter_editor import FilterEditor
from tests.support.selectors import on_cleanup
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, query
from tests.support.tui import burst, ids, on_events, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_the_filter_line_typed_with_its_slash_is_applied(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        burst(pilot, "/", *"id=gt:190", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, FilterEditor)
        assert screen.filters == (Filter("id", "gt", "190"),)
        assert ids(screen) == list(range(191, 201))


async def test_the_client_typed_with_its_c_is_chosen(demo_server: DemoServer) -> None:
    wanted = str(query(demo_server, "SELECT id FROM clients WHERE name = ?", "SHARPHOUND-NYC-02")[0][0])
    async with on_tasks(demo_server) as (app, pilot, screen):
        assert screen.client_id != wanted
        burst(pilot, "C", *"NYC", "enter", "4")
        await settle(pilot)
        assert screen.client_id == wanted
        assert isinstance(app.screen, ClientsScreen), "`4` after enter, in the same burst, reached the dashboard"


async def test_ids_typed_with_their_i_are_in_the_box(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server) as (app, pilot, _screen):
        burst(pilot, "i", "4", "8")
        await settle(pilot)
        assert isinstance(app.screen, TypeIds)
        assert app.screen.query_one("#ids", Input).value == "48"


async def test_a_slash_typed_in_a_box_is_a_character_not_an_opener(demo_server: DemoServer) -> None:
    """Inside a text field an opener's key is text: nothing is held (a hold there would wait HOLD_LIMIT)."""
    async with on_events(demo_server) as (app, pilot, _screen):
        await pilot.press("/")
        await settle(pilot)
        assert isinstance(app.screen, FilterEditor)
        hold = app.key_hold
        assert isinstance(hold, KeyHold) and not hold.opens_a_box("slash")
        burst(pilot, *"name=~eq:a/b")
        await settle(pilot)
        assert hold.held is None
        assert app.screen.query_one("#quick", Input).value == "name=~eq:a/b"
