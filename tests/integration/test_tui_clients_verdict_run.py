"""`enter` on a Clients row opens the client's runs with the cursor on the run behind its verdict: the newest failed
run of a failing client, the run that dropped of a client with drops (its detail pane shows that run); a run past the
first page is paged to, and said.

Newcomer walk: enter on SHARPHOUND-FRA-03 (drops) left the cursor on the newest run, an ingesting one; the drop was
three rows down with nothing pointing at it."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.triage.health import ClientHealth, Verdict
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.tasks.screen import TasksScreen
from tests.support.tasks import NO_DEPRECATION_WARNING
from tests.support.tui import on_events, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def _enter_on(
    verdict: Verdict, demo_server: DemoServer, size: tuple[int, int]
) -> tuple[ClientHealth, list[int], int]:
    """(the client's health, the ids listed, the id under the cursor) after `enter` on the first client of `verdict`."""
    async with on_events(demo_server, size=size) as (app, pilot, _events):
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen)
        health = next(r.health for r in screen.results.values() if r.health and r.health.verdict is verdict)
        members = [member.client_id for member in screen.ordered_members()]
        screen.table.move_cursor(row=members.index(health.client_id))
        await pilot.press("enter")
        await settle(pilot)
        tasks = app.screen
        assert isinstance(tasks, TasksScreen) and tasks.client_id == health.client_id
        current = tasks.table.current_item
        assert current is not None
        return health, [task.id for task in tasks.table.items], current.id


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=["80x24", "160x45"])
async def test_enter_on_a_client_with_drops_puts_the_cursor_on_the_drop(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    health, listed, current = await _enter_on(Verdict.DROPS, demo_server, size)
    dropped = health.window_drops[0].task_id
    assert listed[0] != dropped, "the newest run is another: the cursor had to move"
    assert current == dropped


async def test_enter_on_a_failing_client_puts_the_cursor_on_its_newest_failure(demo_server: DemoServer) -> None:
    health, _, current = await _enter_on(Verdict.FAILING, demo_server, (80, 24))
    assert health.verdict_run_id == health.last_failures[0].id == current


async def test_a_run_past_the_first_page_is_paged_to_and_said(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _events):
        await pilot.press("4")
        await settle(pilot)
        clients_screen = app.screen
        assert isinstance(clients_screen, ClientsScreen)
        health = next(r.health for r in clients_screen.results.values() if r.health and r.health.last_run)
        await app.switch_mode("tasks")
        tasks = app.screen
        assert isinstance(tasks, TasksScreen)
        tasks.window.limit = 5  # a small page: the run looked for is on page 3
        await app.open_client_runs(health.client_id, back="clients")
        await settle(pilot)
        await pilot.press("right_square_bracket", "right_square_bracket")
        await settle(pilot)
        assert tasks.window.skip == 10
        target = tasks.table.items[2].id
        await app.open_client_runs(health.client_id, back="clients", run_id=target)
        await settle(pilot)
        assert tasks.window.skip == 10, "paged on from the first page to the third"
        assert tasks.table.current_item is not None and tasks.table.current_item.id == target
        assert any(f"Run {target}, behind the client's verdict, is on page 3" in note.message for note in app.notes)
