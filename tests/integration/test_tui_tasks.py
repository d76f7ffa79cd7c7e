"""Pilot tests of the Completed tasks screen: client choice, the list, paging, sort, filters, endpoint, states."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, Select, Static

from svctui.api.compact import SharedFieldNames
from svctui.api.filters import Filter, SortKey
from svctui.demo.server import DemoServer
from svctui.store.settings import load_settings
from svctui.tui.screens.help import HelpScreen, collect_keys
from svctui.tui.screens.tasks.screen import DEFAULT_SORT
from svctui.tui.widgets.client_picker import ClientPicker
from svctui.tui.widgets.filter_editor import FilterEditor, FilterRow
from svctui.tui.widgets.state_panel import StateKind
from svctui.tui.widgets.status_bar import StatusBar
from tests.support.tasks import (
    NO_DEPRECATION_WARNING,
    client_ids,
    drop_case,
    on_tasks,
    open_picker,
    open_tasks,
    query,
    state_of,
    task_ids,
    tasks_app,
    text_of,
)
from tests.support.tui import SIZE, settle, unreachable_profile, wrong_key_profile

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


async def test_without_a_client_nothing_loads_and_the_screen_says_what_to_do(demo_server: DemoServer) -> None:
    async with on_tasks(demo_server) as (app, pilot, screen):
        assert state_of(app) is StateKind.IDLE, "no page request without a client (it would show loading)"
        requests = demo_server.request_count
        body = text_of(screen.state_panel.query_one("#state-body", Static))
        assert "Choose a client" in body and "Press C" in body
        assert "none chosen" in text_of(screen.query_one("#client-bar", Static))
        await pilot.press("f")
        await settle(pilot)
        assert screen.filters == () and demo_server.request_count == requests


async def test_picker_offers_the_events_clients_and_remembers_the_choice(demo_server: DemoServer) -> None:
    async with on_tasks(demo_server) as (app, pilot, screen):
        picker = await open_picker(pilot)
        known = client_ids(demo_server)
        never_ran = query(demo_server, "SELECT id FROM clients WHERE id NOT IN (SELECT client_id FROM tasks)")
        assert sorted(client.client_id for client in picker.shown) == sorted([*known, *(row[0] for row in never_ran)])
        assert all(client.events > 0 for client in picker.shown if client.client_id in known)
        chosen = known[2]
        await pilot.press(*chosen[:8])
        assert [client.client_id for client in picker.shown] == [chosen]
        await pilot.press("enter")
        await settle(pilot)
        assert screen.client_id == chosen
        total = query(demo_server, "SELECT count(*) FROM tasks WHERE client_id = ?", chosen)[0][0]
        assert screen.window.count == total and len(task_ids(screen)) == 100
        assert load_settings().recent_for("demo")[0] == chosen, "the choice is remembered for the profile"
        assert app.settings is not None and app.settings.recent_for("demo")[0] == chosen
        name = query(demo_server, "SELECT name FROM clients WHERE id = ?", chosen)[0][0]
        assert f"Client {name} ({chosen})" in text_of(screen.query_one("#client-bar", Static))
        again = await open_picker(pilot)
        assert again.shown[0].client_id == chosen and again.shown[0].recent
        assert again.shown[0].name == name, "a name seen in the tasks names the client in the picker"


async def test_picker_validates_a_typed_uuid_inline_and_sends_nothing(demo_server: DemoServer) -> None:
    async with on_tasks(demo_server) as (app, pilot, screen):
        picker = await open_picker(pilot)
        before = demo_server.request_count
        await pilot.press(*"not-a-client", "enter")
        await settle(pilot)
        assert app.screen is picker and screen.client_id is None
        error_line = picker.query_one("#client-error", Static)
        assert error_line.display, "the inline error is shown, not just set"
        error = text_of(error_line)
        assert "'not-a-client' is not a uuid" in error and "8-4-4-4-12" in error
        picker.query_one("#client-input", Input).value = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9fz"
        await settle(pilot)
        assert "is not a uuid" in text_of(picker.query_one("#client-error", Static))
        picker.query_one("#client-input", Input).value = "漢c%'}b;\"" * 60  # 500 characters of pasted junk
        await picker.query_one("#client-input", Input).action_submit()
        await settle(pilot)
        junk_error = text_of(picker.query_one("#client-error", Static))
        assert "is not a uuid" in junk_error and "characters)…" in junk_error and len(junk_error) < 250
        assert demo_server.request_count == before, "nothing was sent"
        unknown = "0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0"
        picker.query_one("#client-input", Input).value = unknown
        await settle(pilot)
        assert text_of(picker.query_one("#client-error", Static)) == ""
        assert not picker.query_one("#client-error", Static).display
        await pilot.press("enter")
        await settle(pilot)
        assert screen.client_id == unknown.lower()
        assert state_of(app) is StateKind.ERROR, "the server knows no such client: 404"
        assert "resource not found" in text_of(screen.state_panel.query_one("#state-body", Static))
        assert any("press C to choose another client" in note.message for note in app.notes)
        body = text_of(screen.state_panel.query_one("#state-body", Static))
        assert "press C to choose another" in body and "Press r to retry" not in body, "asking again won't help"
        sent, notes = demo_server.request_count, len(app.notes)
        screen.live_refresh()  # a live refresh leaves the 404 alone (it came back, with its notice, every tick)
        await settle(pilot)
        assert demo_server.request_count == sent and len(app.notes) == notes


async def test_picker_escape_keeps_the_client(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        picker = await open_picker(pilot)
        assert picker.query_one(OptionList).highlighted == 0
        await pilot.press("escape")
        await settle(pilot)
        assert screen.client_id == case.client_id and not isinstance(app.screen, ClientPicker)


async def test_list_is_newest_first_and_pages_through_the_server(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
        expected = [
            row[0]
            for row in query(
                demo_server,
                "SELECT id FROM tasks WHERE client_id = ? ORDER BY execution_time DESC, id",
                case.client_id,
            )
        ]
        assert screen.sort == DEFAULT_SORT
        assert task_ids(screen) == expected[:100]
        assert screen.window.label() == f"rows 1\N{EN DASH}100 of {len(expected)}"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert task_ids(screen) == expected[100:200]
        assert screen.window.label() == f"rows 101\N{EN DASH}200 of {len(expected)}"
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert task_ids(screen) == expected[:100]


async def test_the_kept_tasks_share_their_field_name_sets(demo_server: DemoServer) -> None:
    """The page and the history hold their tasks compactly (svctui.api.compact), read the same as validated ones."""
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.runs.tasks, "the history loaded"
        kept = [*screen.table.items, *screen.runs.tasks]
        models = [*kept, *(result for task in kept for result in task.domain_results)]
        sets = {id(model.__pydantic_fields_set__): model.__pydantic_fields_set__ for model in models}
        assert all(isinstance(names, SharedFieldNames) for names in sets.values())
        assert len(sets) <= 4, "one set per shape (task, domain result), not one per model"
        task = screen.table.items[0]
        sent = task.model_dump(exclude_unset=True)  # what the Fields tab shows (a frozenset here would fail)
        assert set(sent) == task.model_fields_set and "domain_results" in sent
        copy = task.model_copy(update={"status": 4})
        assert copy.status == 4 and "status" in copy.model_fields_set and type(copy.model_fields_set) is set


async def test_sort_by_every_sortable_column_reaches_the_server(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
        offered = {column.sort for column in screen.table.adapter.columns if column.sort}
        assert offered == set(screen.SPEC.sortable), "every sortable column is a column of the table"
        screen.table.move_cursor(column=1)  # the id column
        await pilot.press("s")  # id added ascending after execution_time
        await settle(pilot)
        assert screen.sort == (*DEFAULT_SORT, SortKey("id"))
        screen.set_sort([SortKey("id", descending=True)])
        await settle(pilot)
        ids = [
            row[0]
            for row in query(demo_server, "SELECT id FROM tasks WHERE client_id = ? ORDER BY id DESC", case.client_id)
        ]
        assert task_ids(screen) == ids[:100]
        screen.set_sort([SortKey("status"), SortKey("id")])
        await settle(pilot)
        statuses = [task.status for task in screen.table.items]
        assert statuses == sorted(statuses)


async def test_filter_editor_offers_status_by_label(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        await pilot.press("slash")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        rows = {row.column.name: row for row in editor.query(FilterRow)}
        assert len(rows) == len(screen.SPEC.columns) == 20
        status_value = rows["status"].query_one(".filter-value", Select)
        hint = text_of(rows["status"].query_one(".filter-hint", Static))
        assert "failed (5)" in hint and "partially complete (8)" in hint
        status_value.value = "timed out"  # fewer than a page: the page holds every match
        before = demo_server.request_count
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert screen.filters == (Filter("status", "eq", "4"),)
        timed_out = query(demo_server, "SELECT count(*) FROM tasks WHERE client_id = ? AND status = 4", case.client_id)
        assert 0 < timed_out[0][0] <= 100
        assert screen.window.count == timed_out[0][0] and {task.status for task in screen.table.items} == {4}
        assert demo_server.request_count == before + 1, "one page request (the page holds every match)"


async def test_invalid_filters_show_inline_errors_and_send_nothing(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        before_server, before_started = demo_server.request_count, screen.loads.seq(screen.page)
        for bad, words in (
            ("event_id=eq:abc", "is not an integer"),
            ("status=eq:exploded", "is not a known value"),
            ("end_time=gte:yesterday", "is not a valid time"),
            ("all_trusted_domains=eq:true", "is not a filter column"),
            ("domain_controller=gt:DC01", "not allowed"),
        ):
            editor.query_one("#quick", Input).value = bad
            await pilot.press("enter")
            await settle(pilot)
            assert app.screen is editor
            assert words in text_of(editor.query_one("#quick-error", Static)), bad
        assert demo_server.request_count == before_server and screen.loads.seq(screen.page) == before_started
        editor.query_one("#quick", Input).value = "status=eq:partially complete"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.filters == (Filter("status", "eq", "8"),)
        assert {task.status for task in screen.table.items} == {8}


async def test_status_breakdown_counts_the_whole_filter(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
        rows = query(
            demo_server, "SELECT status, count(*) FROM tasks WHERE client_id = ? GROUP BY status", case.client_id
        )
        expected = {status: count for status, count in rows}
        shown = {item.code: item.count for item in screen.query_one(StatusBar).breakdown if item.count}
        assert shown == expected, "counted over every matching task, not just this page"
        assert sum(shown.values()) == screen.window.count
        assert len(task_ids(screen)) < sum(shown.values())
        screen.set_filters([Filter("status", "neq", "2")])
        await settle(pilot)
        shown = {item.code: item.count for item in screen.query_one(StatusBar).breakdown if item.count}
        assert shown == {status: count for status, count in expected.items() if status != 2}


async def test_endpoint_switch_and_the_deprecation_notice(demo_server: DemoServer) -> None:
    """Issue 26: the screen lists completed-jobs unless `e` chooses the deprecated completed-tasks; the deprecation
    notice shows only while that one is in use."""
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
        notice = screen.query_one("#endpoint-notice", Static)
        assert screen.current_query().endpoint is None and screen.shown_endpoint() == "completed-jobs"
        assert notice.has_class("-hidden") and "completed-jobs" in text_of(screen.query_one("#client-bar", Static))
        first_page = task_ids(screen)
        await pilot.press("e")
        await settle(pilot)
        assert screen.current_query().endpoint == "completed-tasks" and not notice.has_class("-hidden")
        assert "deprecated" in text_of(notice) and "completed-jobs" in text_of(notice)
        assert task_ids(screen) == first_page, "same shape, same data"
        await pilot.press("e")
        await settle(pilot)
        assert screen.current_query().endpoint == "completed-jobs" and notice.has_class("-hidden")


async def test_auth_failure_and_network_errors_are_states(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    app = tasks_app(demo_server, case.client_id)
    app.profile = wrong_key_profile(demo_server)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_tasks(pilot)
        assert state_of(app) is StateKind.AUTH_FAILURE
        body = text_of(screen.state_panel.query_one("#state-body", Static))
        assert "Authentication failed" in body and "digest" in body
        assert "history failed to load" in text_of(screen.query_one("#client-bar", Static))
    offline = tasks_app(demo_server, case.client_id)
    offline.profile = unreachable_profile()
    async with offline.run_test(size=SIZE) as pilot:
        screen = await open_tasks(pilot)
        assert state_of(offline) is StateKind.ERROR
        assert "Cannot reach the server" in text_of(screen.state_panel.query_one("#state-body", Static))


async def test_community_edition_lists_tasks_and_types_clients(demo_server_community: DemoServer) -> None:
    case = drop_case(demo_server_community)
    async with on_tasks(demo_server_community, case.client_id) as (app, pilot, screen):
        assert state_of(app) is StateKind.HIDDEN and len(task_ids(screen)) == 100
        picker = await open_picker(pilot)
        assert [client.client_id for client in picker.shown] == [case.client_id], "only the recent choice"
        assert "enterprise feature" in text_of(picker.query_one("#client-status", Static))


async def test_help_and_footer_list_the_triage_keys(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        rows = {row.binding_id: row for row in collect_keys(app, screen)}
        for binding_id, key, words in (
            ("tasks.quick.failed-24h", "f", "Failed, last 24 h"),
            ("tasks.quick.partial", "i", "Partially complete"),
            ("tasks.quick.drops", "d", "Runs with drops"),
            ("tasks.client", "C", "Client"),
            ("tasks.endpoint", "e", "Endpoint"),
            ("tasks.tab.plot", "P", "Plot"),
            ("tasks.tab.compare", "W", "Compare"),
        ):
            assert rows[binding_id].keys == key and rows[binding_id].description == words
        assert "client-side" in rows["tasks.quick.drops"].tooltip
        footer_keys = {
            binding.key for binding in (active.binding for active in screen.active_bindings.values()) if binding.show
        }
        assert {"f", "i", "d", "C", "e"} <= footer_keys
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)


async def test_another_client_starts_from_a_clean_slate(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    async with on_tasks(demo_server, case.client_id) as (app, pilot, screen):
        assert any(item.count for item in screen.query_one(StatusBar).breakdown)
        screen.choose_client("0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0")  # unknown to the server: 404
        await settle(pilot)
        assert state_of(app) is StateKind.ERROR
        assert not screen.query_one(StatusBar).breakdown, "no counts of the previous client"
        assert screen.window.label() == "no rows"
        assert not screen.detail.display


async def test_a_long_status_message_wraps_under_its_value_in_the_task_tab(demo_server: DemoServer) -> None:
    """The Task tab's `message` field, longer than the pane (80 columns): its continuation lines start under the
    value (label column 14), not under the labels."""
    task_id, client_id, message = query(
        demo_server,
        "SELECT id, client_id, status_message FROM tasks ORDER BY length(status_message) DESC, id LIMIT 1",
    )[0]
    async with on_tasks(demo_server, client_id) as (_app, pilot, screen):
        await pilot.resize_terminal(80, 30)
        screen.set_filters([Filter("id", "eq", str(task_id))])
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        fields = screen.query_one("#task-fields", Static)
        assert 14 + len(message) > fields.content_region.width, "the message must not fit on one line"
        rows = [fields.render_line(y).text.rstrip() for y in range(fields.size.height)]  # inside the padding
        first = next(index for index, row in enumerate(rows) if row.startswith("message "))
        last = next(index for index, row in enumerate(rows) if row.startswith("executed "))
        continued = rows[first + 1 : last]
        assert continued, rows
        assert all(row.startswith(" " * 14) and row[14] != " " for row in continued), rows
        assert " ".join([rows[first][14:], *(row[14:] for row in continued)]) == message
