"""Pilot tests of arriving on Completed tasks while its drops view (`d`) is on, and of `E` with no run to jump from."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.events import EventsScreen
from svctui.tui.widgets.filter_chips import FilterChips
from tests.support.tasks import NO_DEPRECATION_WARNING, drop_case, on_tasks, only_task, query
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def client_named(server: DemoServer, name: str) -> str:
    """The id of the demo client called `name`."""
    return str(query(server, "SELECT id FROM clients WHERE name = ?", name)[0][0])


async def test_clients_enter_leaves_the_drops_view_for_the_chosen_clients_runs(demo_server: DemoServer) -> None:
    """Newcomer audit, repro A: `d` on FRA-03, then Clients → enter on the failing DC01 landed in "Runs with drops"
    (FRA-03's old runs) instead of DC01's list with its failures."""
    fra, dc01 = client_named(demo_server, "SHARPHOUND-FRA-03"), client_named(demo_server, "SHARPHOUND-DC01")
    async with on_tasks(demo_server, fra) as (app, pilot, screen):
        await pilot.press("d")
        await settle(pilot)
        assert screen.quick == "drops" and screen.table.items
        await pilot.press("4")
        await settle(pilot)
        clients = app.screen
        assert isinstance(clients, ClientsScreen) and clients.current_key() == dc01, "worst first: DC01 on top"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen and screen.client_id == dc01
        assert screen.quick is None and screen.quick_under_drops is None, "the server list, not the drops view"
        assert not screen.query_one(FilterChips).has_class("-inactive")
        total = query(demo_server, "SELECT count(*) FROM tasks WHERE client_id = ? AND deleted_at IS NULL", dc01)
        assert screen.window.count == total[0][0]
        assert screen.table.items and {task.client_id for task in screen.table.items} == {dc01}
        assert "with drops" not in str(screen.query_one("#status-line").render())


async def test_events_t_leaves_the_drops_view_and_shows_the_events_runs(demo_server: DemoServer) -> None:
    """Newcomer audit, repro B: with `d` on, Events → `t` showed the chip `event_id = N` over the drops view's rows
    (runs of another event). It opens the server list filtered to the event."""
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        await pilot.press("i", "d")  # a quick filter under the drops view: the event's filter replaces both
        await settle(pilot)
        assert screen.quick == "drops" and screen.quick_under_drops == "partial"
        await pilot.press("1")
        await settle(pilot)
        events = app.screen
        assert isinstance(events, EventsScreen)
        await pilot.press("j", "j")
        event = events.table.current_item
        assert event is not None
        await pilot.press("t")
        await settle(pilot)
        assert app.screen is screen and screen.client_id == event.client_id
        assert screen.quick is None and screen.quick_under_drops is None
        assert [(f.column, f.op, f.value) for f in screen.filters] == [("event_id", "eq", str(event.id))]
        expected = query(demo_server, "SELECT count(*) FROM tasks WHERE event_id = ? AND deleted_at IS NULL", event.id)
        assert screen.window.count == expected[0][0] > 0
        assert {task.event_id for task in screen.table.items} == {event.id}


async def test_e_with_no_run_under_the_cursor_says_so(demo_server: DemoServer) -> None:
    """Newcomer audit: `E` with no client chosen said "This run has no event (it was started by hand)" — there was
    no run. No client: choose one first; an empty list (here an empty drops view): no run under the cursor."""
    async with on_tasks(demo_server) as (app, pilot, screen):
        assert screen.client_id is None
        await pilot.press("E")
        await pilot.pause()
        assert app.notes[-1].message == "No run under the cursor: choose a client first (C)."
        assert app.screen is screen, "no jump"
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        await only_task(pilot, screen, 0)  # no such task: an empty list
        assert not screen.table.items
        await pilot.press("E")
        await pilot.pause()
        assert app.notes[-1].message == "No run under the cursor (the list is empty)."
        assert app.screen is screen
        await pilot.press("x", "d")  # the drops view: `E` jumps from the run with the drop to its event
        await settle(pilot)
        assert screen.quick == "drops" and screen.table.current_item is not None
        run = screen.table.current_item
        assert run.id in screen.runs.drops_by_task and run.event_id is not None
        await pilot.press("E")
        await settle(pilot)
        events = app.screen
        assert isinstance(events, EventsScreen) and [event.id for event in events.table.items] == [run.event_id]


async def test_x_in_the_drops_view_goes_back_like_d(demo_server: DemoServer) -> None:
    """Newcomer audit: the drops view's hint says `d or x: back`, but `x` cleared every filter, the `o` quick
    filter the view was entered from too (the user landed on all runs). `x` is `d` there: back to the list with
    the quick filter (or the filters) it was entered from; `x` on the list then clears them."""
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
        await pilot.press("o")
        await settle(pilot)
        not_ok = screen.filters
        assert screen.quick == "not-ok" and not_ok
        await pilot.press("d")
        await settle(pilot)
        assert screen.quick == "drops" and screen.quick_under_drops == "not-ok"
        await pilot.press("x")
        await settle(pilot)
        assert screen.quick == "not-ok" and screen.filters == not_ok, "back to the list it was entered from"
        assert not screen.query_one(FilterChips).has_class("-inactive")
        assert screen.table.items and {task.status for task in screen.table.items} <= {4, 5, 8}
        await pilot.press("x")
        await settle(pilot)
        assert screen.quick is None and not screen.filters
