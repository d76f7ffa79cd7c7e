"""Pilot tests of live refresh (issue 14): what a refresh keeps, what a failed one shows, new failures, the guards.

Time is a hand-moved clock (tests/support/live.py): a refresh happens when a test lets the interval pass and
ticks, never because the wall clock moved.
"""

from __future__ import annotations

import itertools
import sqlite3

import pytest
from textual.widgets import Static

from svctui.api.errors import ServerError
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.triage.health import Verdict
from svctui.tui.live import Tick
from svctui.tui.palette import dashboard_commands
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.tasks.loaders import HISTORY_PAGE
from svctui.tui.widgets.state_panel import StateKind
from tests.support.live import (
    SECONDS,
    a_502_leaves_the_rows_stale_until_the_next_answer,
    insert_failed_run,
    live_app,
    refresh_now,
)
from tests.support.tasks import NO_DEPRECATION_WARNING, client_ids, open_tasks, tasks_screen
from tests.support.tui import events_screen, make_app, press_for, running, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def status_line(app: object) -> str:
    """The status line of the screen on show."""
    from svctui.tui.app import SvcTuiApp

    assert isinstance(app, SvcTuiApp)
    return str(app.screen_stack[0].query_one("#status-line", Static).render())


async def test_a_refresh_keeps_cursor_marks_scroll_and_detail_and_flashes_the_changed_rows(
    fresh_demo_server: DemoServer,
) -> None:
    app, clock = live_app(fresh_demo_server)
    async with running(app) as pilot:
        screen = events_screen(app)
        await pilot.press("G", "k", "k", "space", "k", "k", "space", "p")
        await settle(pilot)
        key, column, marked = screen.table.current_key, screen.table.cursor_column, screen.table.marked
        assert key is not None and len(marked) == 2 and screen.detail.is_open
        scroll = screen.table.scroll_y
        assert scroll > 0, "scrolled down to the last rows"
        ids = [str(event.id) for event in screen.table.items]
        changed = ids[1]
        with sqlite3.connect(str(fresh_demo_server.db_path)) as conn:
            conn.execute(
                "UPDATE events SET rrule = (SELECT rrule FROM events WHERE rrule <> "
                "(SELECT rrule FROM events WHERE id = ?) LIMIT 1) WHERE id = ?",
                (int(changed), int(changed)),
            )
        before = fresh_demo_server.request_count
        assert "updated 0 s ago" in status_line(app) and "live every 1 min" in status_line(app)
        clock.advance(12)
        assert app.live.tick() is Tick.NOT_DUE and "updated 12 s ago" in status_line(app), "the age ticks"
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert fresh_demo_server.request_count > before
        table = screen.table
        assert [str(event.id) for event in table.items] == ids
        assert (table.current_key, table.cursor_column, table.marked) == (key, column, marked)
        assert table.scroll_y == scroll and screen.detail.is_open
        assert table.flashing == {changed}, "only the row that changed is highlighted"
        assert "updated 0 s ago" in status_line(app)


async def test_a_failed_refresh_keeps_the_rows_marks_them_stale_and_r_retries(fresh_demo_server: DemoServer) -> None:
    app, clock = live_app(fresh_demo_server)
    async with running(app) as pilot:
        screen = events_screen(app)
        ids = [event.id for event in screen.table.items]
        fresh_demo_server.faults = Faults(kinds={"html": 1.0})
        clock.advance(5)
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert screen.state_panel.kind is StateKind.HIDDEN and [event.id for event in screen.table.items] == ids
        line = status_line(app)
        assert line.startswith("stale: The server answered 502  ·  r to retry"), line
        assert "updated 1 min ago" in line, "the age of the rows on screen (65 s)"
        assert screen.table.has_class("-stale") and app.header_info.problem == "HTTP 502"
        await pilot.press("r")  # still failing: still stale, rows still there
        await settle(pilot)
        assert screen.freshness.stale and [event.id for event in screen.table.items] == ids
        fresh_demo_server.faults = Faults()
        await pilot.press("r")
        await settle(pilot)
        assert not screen.freshness.stale and not screen.table.has_class("-stale")
        assert "stale" not in status_line(app) and "updated 0 s ago" in status_line(app)


async def test_no_refresh_under_a_modal_during_a_deletion_or_while_a_load_is_in_flight(
    demo_server: DemoServer,
) -> None:
    app, clock = live_app(demo_server)
    async with running(app) as pilot:
        screen = events_screen(app)
        clock.advance(SECONDS)
        before = demo_server.request_count
        await pilot.press("question_mark")
        await settle(pilot)
        assert app.live.tick() is Tick.MODAL
        await pilot.press("escape")
        await settle(pilot)
        app.refuse_quit_while(screen, "a deletion runs")
        assert app.live.tick() is Tick.DELETION
        app.refuse_quit_while(screen, None)
        assert demo_server.request_count == before, "nothing was sent"
        screen.load()  # a load in flight: the tick waits for it
        assert app.live.tick() is Tick.BUSY
        await settle(pilot)
        toggle = next(command for command in dashboard_commands(app, screen) if command.title == "Toggle live refresh")
        assert toggle.help == "Stop refreshing this list every 1 min (now on)"
        toggle.callback()
        assert app.live.tick() is Tick.OFF and "live every" not in status_line(app)
        assert app.notes[-1].message == "Live refresh off."
        toggle.callback()
        assert app.live.seconds == SECONDS and "live every 1 min" in status_line(app)


async def test_a_new_failure_on_completed_tasks_is_notified_once_with_the_bell(fresh_demo_server: DemoServer) -> None:
    client = client_ids(fresh_demo_server)[0]
    app, clock = live_app(fresh_demo_server, recent_clients=[client], bell_on_failure=True)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_tasks(pilot)
        await pilot.press("j", "j", "space")
        key, marked = screen.table.current_key, screen.table.marked
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert not [note for note in app.notes if note.title == "Live refresh"], "nothing new yet"
        new_id = insert_failed_run(fresh_demo_server, client, "LDAP bind failed")
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        screen = tasks_screen(app)
        assert screen.table.items[0].id == new_id and str(new_id) in screen.table.flashing
        assert (screen.table.current_key, screen.table.marked) == (key, marked)
        notes = [note for note in app.notes if note.title == "Live refresh"]
        assert len(notes) == 1 and f"task {new_id} Failed — LDAP bind failed" in notes[0].message
        assert notes[0].severity == "error" and app.bells == 1
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert len([note for note in app.notes if note.title == "Live refresh"]) == 1, "once"


async def test_clients_refresh_notifies_a_new_failure_once_and_a_failed_refresh_keeps_stale_rows(
    fresh_demo_server: DemoServer,
) -> None:
    app, clock = live_app(fresh_demo_server)
    async with running(app, (160, 40)) as pilot:
        screen = await press_for(pilot, "4", ClientsScreen)
        chosen = screen.ordered_members()[-1].client_id
        before = screen.results[chosen].health
        assert before is not None
        screen.table.move_cursor(row=screen.table.get_row_index(chosen), animate=False)
        new_id = insert_failed_run(fresh_demo_server, chosen, "the collector crashed")
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        health = screen.results[chosen].health
        assert health is not None and health.verdict == "failing"
        assert health.not_ok_in_window == before.not_ok_in_window + 1 and health.last_failures[0].id == new_id
        assert screen.current_key() == chosen and screen.table.flashing == {chosen}, "the cursor follows its client"
        notes = [note for note in app.notes if note.title == "Live refresh"]
        assert len(notes) == 1 and f"task {new_id} Failed — the collector crashed" in notes[0].message
        assert app.bells == 0, "no bell unless the settings ask"
        await a_502_leaves_the_rows_stale_until_the_next_answer(
            pilot, clock, fresh_demo_server, screen.table, lambda: status_line(app)
        )
        assert len([note for note in app.notes if note.title == "Live refresh"]) == 1, "once"


async def test_a_quiet_live_round_of_the_clients_costs_two_requests(fresh_demo_server: DemoServer) -> None:
    """Issue 29: with nothing new, a live round asks the client list and the runs updated since the last round (two
    requests, whatever the fleet's size), judges every client again from what it kept and changes no row; a new
    run costs no more and changes its client's row alone."""
    app, clock = live_app(fresh_demo_server)
    async with running(app, (160, 40)) as pilot:
        screen = await press_for(pilot, "4", ClientsScreen)
        assert len(screen.results) == len(screen.fleet.members) if screen.fleet else False
        before = fresh_demo_server.request_count
        shown = dict(screen.results)
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert fresh_demo_server.request_count - before == 2, "the client list and the runs updated since"
        assert screen.results == shown and all(screen.results[key] is shown[key] for key in shown), "rows kept"
        assert not screen.table.flashing and not screen.awaiting and "updated 0 s ago" in status_line(app)
        chosen = screen.ordered_members()[-1].client_id
        insert_failed_run(fresh_demo_server, chosen)
        before = fresh_demo_server.request_count
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert fresh_demo_server.request_count - before == 2
        assert screen.table.flashing == {chosen} and [
            key for key in shown if screen.results[key] is not shown[key]
        ] == [chosen]


async def test_a_client_whose_refresh_fails_keeps_its_verdict_marked_stale_until_an_answer_comes(
    fresh_older_demo_server: DemoServer,
) -> None:
    """Issue 14 (on a server without jobs/finished, where each client is read on its own): a refresh that fails
    keeps the rows and marks them stale. One client's runs answering 500 turned its
    `✗ failing` row into `! error`, sorted it to the top and took it out of "need a look"; it keeps its verdict and
    place, dimmed, its last-run cell says `stale: HTTP 500`, the detail pane the whole error and its request id, and
    the status line the count; the next good answer clears the mark."""
    app, clock = live_app(fresh_older_demo_server)
    async with running(app, (160, 40)) as pilot:
        screen = await press_for(pilot, "4", ClientsScreen)
        order = [member.client_id for member in screen.ordered_members()]
        key = order[0]  # worst first: the failing client, under the cursor
        before = screen.results[key].health
        assert before is not None and before.verdict is Verdict.FAILING and screen.current_key() == key
        assert "4 need a look" in status_line(app)

        def last_cell() -> str:
            return str(screen.table.get_cell(key, "last"))

        kept_last = last_cell()
        fresh_older_demo_server.faults = Faults(error_rate=1.0, only_path=f"/api/v2/clients/{key}/")
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        result = screen.results[key]
        error = result.error
        assert result.health == before and isinstance(error, ServerError) and error.request_id
        assert str(screen.table.get_cell(key, "health")) == "✗ failing" and last_cell() == "stale: HTTP 500"
        assert [member.client_id for member in screen.ordered_members()] == order, "it keeps its place"
        line = status_line(app)
        assert line.startswith("stale: 1 client (HTTP 500)  ·  r to retry") and "4 need a look" in line, line
        assert "could not be checked" not in line and not screen.table.has_class("-stale"), "the other rows are fresh"
        detail = str(screen.query_one("#clients-detail-text", Static).content)
        assert f"stale: HTTP 500 Internal Server Error — {error.messages[0]}" in detail
        assert f"(request id {error.request_id}) — r to retry" in detail and "Not-OK runs" in detail
        text = screen.query_one("#clients-detail-text", Static)
        rows = [text.render_line(y).text.rstrip() for y in range(text.size.height)]
        stale = next(index for index, row in enumerate(rows) if row.startswith("stale: "))
        rest = list(itertools.takewhile(lambda row: row.startswith(" "), rows[stale + 1 :]))
        assert rest and all(row.startswith(" " * 7) and row[7] != " " for row in rest), rows  # under the message
        assert rest[-1].endswith("to retry") and rows[stale + 1 + len(rest)] == "The last answer, kept:"
        fresh_older_demo_server.faults = Faults()
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert screen.results[key].error is None and last_cell() == kept_last
        assert "stale" not in status_line(app) and "stale:" not in str(
            screen.query_one("#clients-detail-text", Static).content
        )


async def test_when_the_fleets_runs_cannot_be_read_every_row_keeps_its_verdict_marked_stale(
    fresh_demo_server: DemoServer,
) -> None:
    """Issue 29: the fleet's runs come from one query; when it fails (a 500) every row keeps its last verdict, marked
    stale with why, and the next good answer clears the marks."""
    app, clock = live_app(fresh_demo_server)
    async with running(app, (160, 40)) as pilot:
        screen = await press_for(pilot, "4", ClientsScreen)
        healths = {key: result.health for key, result in screen.results.items()}
        fresh_demo_server.faults = Faults(error_rate=1.0, only_path="/api/v2/jobs/finished")
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert {key: result.health for key, result in screen.results.items()} == healths
        assert all(isinstance(result.error, ServerError) for result in screen.results.values())
        assert status_line(app).startswith(f"stale: {len(healths)} clients (HTTP 500)  ·  r to retry")
        fresh_demo_server.faults = Faults()
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert all(result.error is None for result in screen.results.values()) and "stale" not in status_line(app)


async def test_refresh_is_off_by_default_and_the_settings_or_the_command_line_turn_it_on(
    demo_server: DemoServer,
) -> None:
    from svctui.store.settings import Settings

    assert make_app(demo_server).live.seconds == 0
    assert make_app(demo_server, settings=Settings(refresh_seconds=15)).live.seconds == 15
    assert make_app(demo_server, settings=Settings(refresh_seconds=15), refresh_seconds=0).live.seconds == 0
    app = make_app(demo_server)
    async with running(app):
        assert "updated" not in status_line(app) and app.live.tick() is Tick.OFF


async def test_the_drops_view_refreshes_from_the_clients_history(fresh_demo_server: DemoServer) -> None:
    """The drops view is computed from the client's history: a tick asks whether it changed (one `limit=1`
    request) and fetches it again only then; a failed check keeps the rows, marked stale."""
    server = fresh_demo_server
    client = client_ids(server)[0]
    app, clock = live_app(server, recent_clients=[client])
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await open_tasks(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert screen.quick == "drops" and screen.runs.tasks is not None
        history, before = screen.runs.tasks, server.request_count
        clock.advance(7)
        assert app.live.tick() is Tick.NOT_DUE and "updated 7 s ago" in status_line(app)
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert server.request_count == before + 1, "one small request, not the client's thousands of runs again"
        assert screen.runs.tasks is history, "nothing changed: the history on screen is kept"
        assert "updated 0 s ago" in status_line(app) and "with drops (client-side)" in status_line(app)
        new_id = insert_failed_run(server, client, "LDAP bind failed")
        before = server.request_count
        assert await refresh_now(pilot, clock) is Tick.REFRESHED
        assert screen.runs.tasks[0].id == new_id, "a new run: fetched again"
        assert len(screen.runs.tasks) <= HISTORY_PAGE and server.request_count == before + 2, "the check, one page"
        await a_502_leaves_the_rows_stale_until_the_next_answer(
            pilot, clock, server, screen.table, lambda: status_line(app)
        )
        assert "updated 0 s ago" in status_line(app)


@pytest.mark.parametrize("mode", ["tasks", "selectors", "clients"])
async def test_a_tick_while_a_screen_is_still_being_built_waits_for_it(demo_server: DemoServer, mode: str) -> None:
    """A screen opened for the first time is on the stack before its widgets are: a tick then leaves it alone
    (it read the status line and the table of a screen not yet composed: NoMatches, a traceback, the app gone;
    newcomer audit with --refresh 5 and keys 2, 3, 4)."""
    app, clock = live_app(demo_server)
    async with running(app) as pilot:
        app.switch_mode(mode)  # the key's action, without waiting for the new screen's mount
        clock.advance(SECONDS)
        assert app.live.tick() is Tick.NOT_A_LIST
        await settle(pilot)
        assert app.is_running and app.screen_stack[0].is_mounted
        assert app.live.tick() in (Tick.REFRESHED, Tick.BUSY, Tick.NOT_DUE, Tick.NOT_A_LIST)
