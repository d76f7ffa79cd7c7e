"""Pilot tests of the morning check in the dashboard: the Clients screen (key 4) and the event <-> runs jumps."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.clients import ClientsScreen, next_run
from svctui.tui.screens.events import EventsScreen
from svctui.tui.screens.tasks.screen import TasksScreen
from tests.support.tasks import NO_DEPRECATION_WARNING, query
from tests.support.tui import on_events, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_t_opens_the_events_runs_and_e_comes_back_to_the_event(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(140, 36)) as (app, pilot, events):
        await pilot.press("j", "j")
        event = events.table.current_item
        assert event is not None
        await pilot.press("t")
        await settle(pilot)
        tasks = app.screen
        assert isinstance(tasks, TasksScreen) and tasks.client_id == event.client_id
        assert [(f.column, f.op, f.value) for f in tasks.filters] == [("event_id", "eq", str(event.id))]
        expected = query(demo_server, "SELECT count(*) FROM tasks WHERE event_id = ?", event.id)[0][0]
        assert tasks.window.count == expected > 0
        assert {task.event_id for task in tasks.table.items} == {event.id}
        await pilot.press("E")
        await settle(pilot)
        back = app.screen
        assert isinstance(back, EventsScreen) and back is events
        assert [(f.column, f.op, f.value) for f in back.filters] == [("id", "eq", str(event.id))]
        assert [item.id for item in back.table.items] == [event.id] and back.detail.is_open


async def test_clients_screen_judges_every_client_worst_first_and_enter_opens_its_runs(
    demo_server: DemoServer,
) -> None:
    async with on_events(demo_server, size=(160, 45)) as (app, pilot, _events):
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen)
        known = {row[0] for row in query(demo_server, "SELECT id FROM clients")}
        assert {member.client_id for member in screen.ordered_members()} == known
        assert set(screen.results) == known and all(result.health for result in screen.results.values())
        ranks = [-screen.results[m.client_id].health.severity for m in screen.ordered_members()]  # type: ignore[union-attr]
        assert ranks == sorted(ranks)
        await pilot.press("j", "enter")
        await settle(pilot)
        assert isinstance(app.screen, TasksScreen) and app.screen.client_id == screen.ordered_members()[1].client_id


async def test_next_runs_come_from_the_rules(demo_server: DemoServer) -> None:
    """Newcomer audit (issue 16): the server's listings leave out next_scheduled_at, so the Clients screen computes
    each schedule's next run from its rule as the Events screen does (it showed `-` for every client)."""
    async with on_events(demo_server, size=(160, 45)) as (app, pilot, _events):
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen)
        now = app.clock()
        nexts = [next_run(member, now) for member in screen.ordered_members()]
        assert nexts and all(moment is not None and moment > now for moment in nexts)
        table = screen.query_one("#clients-table", DataTable)
        assert all(str(cell) != "-" for cell in table.get_column("next"))
        detail = str(screen.query_one("#clients-detail-text", Static).content)
        assert "— next 20" in detail
