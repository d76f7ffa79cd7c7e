"""Pilot tests of filtering on the Events screen: editor rows, quick filter, chips, invalid input, stale responses."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from textual.app import App
from textual.screen import Screen
from textual.widgets import Input, Select, Static

from svctui.api.filters import ALLOWED_TEXT, Filter, Kind
from svctui.api.models import Event, Page
from svctui.api.query import ListQuery
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.loading import Loaded
from svctui.tui.widgets.filter_chips import FilterChip, FilterChips
from svctui.tui.widgets.filter_editor import FilterEditor, FilterRow, QuickMessages
from svctui.tui.widgets.state_panel import StateKind
from tests.support.tui import NOW, burst, ids, on_events, settle, state_of

pytestmark = pytest.mark.anyio


async def test_quick_filter_sends_one_request_and_shows_a_chip(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("slash")
        assert isinstance(app.screen, FilterEditor)
        before = demo_server.request_count
        await pilot.press(*"id=gt:150", "enter")
        await settle(pilot)
        assert demo_server.request_count == before + 1
        assert screen.filters == (Filter("id", "gt", "150"),)
        assert ids(screen) == list(range(151, 201))
        chips = screen.query_one(FilterChips)
        assert [chip.active_filter for chip in chips.query(FilterChip)] == [Filter("id", "gt", "150")]
        await pilot.press("x")
        await settle(pilot)
        assert list(screen.filters) == [] and len(ids(screen)) == 100
        assert not chips.query(FilterChip)


async def test_invalid_quick_filter_shows_inline_error_and_sends_nothing(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        before = demo_server.request_count
        await pilot.press(*"id=gt:abc", "enter")
        await settle(pilot)
        assert app.screen is editor, "an invalid filter keeps the editor open"
        error = str(editor.query_one("#quick-error", Static).render())
        assert "id gt" in error and "is not an integer" in error and "allowed" in error
        assert "nothing was sent" in str(editor.query_one("#summary", Static).render())
        for bad in ("client_id=eq:nope", "rrule=gt:x", "colour=eq:red", "created_at=gte:yesterday"):
            editor.query_one("#quick", Input).value = bad
            await pilot.press("enter")
            await settle(pilot)
            assert app.screen is editor
        assert demo_server.request_count == before
        assert screen.filters == ()
        await pilot.press("escape")
        assert app.screen is screen


def on_top(app: App[Any]) -> Screen[Any]:
    """The screen on show (a function: type checkers do not narrow it across awaits)."""
    return app.screen


def editor_on_top(app: App[Any]) -> FilterEditor:
    """The filter editor, checked to be on show."""
    editor = app.screen
    assert isinstance(editor, FilterEditor)
    return editor


async def test_a_burst_of_keys_after_an_error_keeps_every_key_and_enter_applies_the_line(
    demo_server: DemoServer,
) -> None:
    """Keys that arrive together (tmux send-keys, a fast typist): every one acts, in order, on the quick line and a
    row's field; enter applies what the line held when it was pressed. Before, a bound key (ctrl+u, backspace,
    ctrl+l, enter) acted after the printable keys typed behind it: ctrl+u erased the new filter and enter then
    applied nothing; three backspaces ate `t:5` instead of `abc`; two enters dismissed twice (a ScreenStackError)."""
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("slash", *"id=gt:abc", "enter")
        await settle(pilot)
        editor = editor_on_top(app)
        quick = editor.query_one("#quick", Input)
        assert "is not an integer" in str(editor.query_one("#quick-error", Static).render())
        burst(pilot, "ctrl+u", *"rrule=~eq:WEEKLY", "ctrl+l", *"abc", "backspace", "backspace", "backspace", *"id=gt:5")
        await pilot.pause()
        assert quick.value == "id=gt:5" and on_top(app) is editor
        row = editor.query_one("#row-id", FilterRow).query_one(Input)
        row.focus()
        burst(pilot, *"12", "backspace", "left", "1", "end", "6", "enter", *"99")  # enter applies "116", not "11699"
        await settle(pilot)
        assert on_top(app) is screen
        assert set(screen.filters) == {Filter("id", "gt", "5"), Filter("id", "eq", "116")}
        assert ids(screen) == [116]
        await pilot.press("slash")
        editor_on_top(app)
        burst(pilot, "ctrl+l", *"rrule=~eq:WEEKLY", "enter", "enter")  # a second enter: the editor closes once
        await settle(pilot)
        assert on_top(app) is screen and list(screen.filters) == [Filter("rrule", "~eq", "WEEKLY")]
        assert screen.table.items and all("WEEKLY" in event.rrule for event in screen.table.items)


async def test_enter_with_nothing_to_apply_says_so(demo_server: DemoServer) -> None:
    """Enter on an empty editor (or Apply with the filters as they were) closes it and says nothing was applied,
    with no request; before, it closed without a word."""
    async with on_events(demo_server) as (app, pilot, screen):
        before = demo_server.request_count
        await pilot.press("slash", "enter")
        await settle(pilot)
        assert on_top(app) is screen and screen.filters == ()
        assert app.notes[-1].message == "No filter entered: nothing to apply."
        assert demo_server.request_count == before
        screen.set_filters([Filter("id", "gt", "190")])
        await settle(pilot)
        before = demo_server.request_count
        await pilot.press("slash", "enter")
        await settle(pilot)
        assert on_top(app) is screen and list(screen.filters) == [Filter("id", "gt", "190")]
        assert app.notes[-1].message == "The filters are unchanged: nothing was sent."
        assert demo_server.request_count == before


async def test_every_bad_quick_filter_is_shown_at_once_and_the_buttons_stay_in_view(demo_server: DemoServer) -> None:
    """Several bad values on the quick line: every one's message (column, predicate, what is allowed) under it at
    once, each on its own line, with a bad row's too; on a small terminal the messages scroll (and take focus to
    do it) while the buttons stay on screen. Nothing is sent."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, screen):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        before = demo_server.request_count
        editor.query_one("#row-id", FilterRow).query_one(Input).value = "ten"
        editor.query_one("#quick", Input).value = "client_id=eq:nope rrule=gt:x next_scheduled_at=lt:soon"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is editor
        lines = str(editor.query_one("#quick-error", Static).render()).splitlines()
        assert lines == [
            "✗ client_id eq: 'nope' is no client's name or uuid; clients include: AZUREHOUND-NEW-01, SHARPHOUND-DC01, "
            "SHARPHOUND-FRA-03, SHARPHOUND-LAB, SHARPHOUND-LON-01 and 2 more; allowed: a client's uuid, or the name "
            "of one known client (eq or neq)",
            "✗ rrule: predicate 'gt' is not allowed for a string column; allowed: eq, ~eq, neq",
            "✗ next_scheduled_at lt: 'soon' is not a valid time; allowed: " + ALLOWED_TEXT[Kind.TIMESTAMP],
        ]
        assert "of 4 problems in view" in str(editor.query_one("#summary", Static).render()), "they scroll"
        messages = editor.query_one(QuickMessages)
        assert messages.max_scroll_y > 0 and messages.allow_focus(), "more than fits: the messages scroll"
        apply = editor.query_one("#apply")
        assert apply.region.bottom <= app.size.height and apply.region.height == 1, "Apply stays in view"
        assert editor.query_one("#rows").region.height >= 3
        editor.query_one("#quick", Input).value = "rrule=gt:x"
        await pilot.pause()
        assert len(str(editor.query_one("#quick-error", Static).render()).splitlines()) == 1
        assert not messages.allow_focus()
        assert demo_server.request_count == before and screen.filters == ()


async def test_editor_rows_validate_per_kind(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        row = editor.query_one("#row-client_id", FilterRow)
        # newcomer walk: Events' client_id row said `uuid` though it takes a client's name (`-f client_id=NAME`)
        assert str(row.query_one(".filter-hint", Static).render()) == "name or uuid"
        row.query_one(Input).value = "not-a-uuid"
        await pilot.pause()
        assert row.has_class("-invalid")
        error = str(row.query_one(".filter-error", Static).render())
        assert "client_id eq: 'not-a-uuid' is no client's name or uuid" in error and "allowed: a client's uuid" in error
        before = demo_server.request_count
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is editor and demo_server.request_count == before
        row.query_one(Input).value = ""
        created = editor.query_one("#row-created_at", FilterRow)
        created.query_one(".filter-op", Select).value = "gte"
        created.query_one(Input).value = "-7d"
        await pilot.pause()
        sent = (NOW - timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%SZ")
        assert f"sent as {sent}" in str(created.query_one(".filter-error", Static).render())
        session = editor.query_one("#row-session_collection", FilterRow)
        session.query_one(".filter-value", Select).value = "true"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert set(screen.filters) == {Filter("created_at", "gte", sent), Filter("session_collection", "eq", "true")}
        assert all(event.session_collection for event in screen.table.items)


async def test_reopening_the_editor_shows_active_filters(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        screen.set_filters([Filter("id", "gt", "10"), Filter("id", "lt", "20")])
        await settle(pilot)
        assert ids(screen) == list(range(11, 20))
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        assert editor.query_one("#row-id", FilterRow).query_one(Input).value == "10"
        assert editor.query_one("#quick", Input).value == "id=lt:20"
        before = demo_server.request_count
        await pilot.press("ctrl+s")  # unchanged filters: no request
        await settle(pilot)
        assert demo_server.request_count == before


async def test_removing_a_chip_reloads(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        screen.set_filters([Filter("id", "gt", "190"), Filter("session_collection", "eq", "true")])
        await settle(pilot)
        chip = screen.query(FilterChip).first()
        await pilot.click(chip)
        await settle(pilot)
        assert screen.filters == (Filter("session_collection", "eq", "true"),)


async def test_empty_result_says_how_to_clear(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("p")
        screen.set_filters([Filter("id", "gt", "100000")])
        await settle(pilot)
        assert state_of(app) is StateKind.EMPTY
        assert not screen.detail.display, "no row, no detail pane"
        text = str(screen.state_panel.query_one("#state-body", Static).render())
        assert "No events match these filters" in text and "Press x" in text
        await pilot.press("x")
        await settle(pilot)
        assert state_of(app) is StateKind.HIDDEN and len(ids(screen)) == 100
        assert screen.detail.display
        assert app.focused is screen.table, "the keys work on the rows again"
        await pilot.press("j")
        assert screen.table.cursor_row == 1


async def test_stale_responses_never_overwrite_newer_ones(fresh_demo_server: DemoServer) -> None:
    fresh_demo_server.faults = Faults(latency_ms=150)
    async with on_events(fresh_demo_server) as (_app, pilot, screen):
        old_page = screen.table.items
        shown_for: list[ListQuery] = []
        arrived = screen.page_arrived  # the hook a page for the latest request passes through before it is shown

        def counted(page: Any, query: ListQuery) -> None:
            shown_for.append(query)
            arrived(page, query)

        screen.page_arrived = counted  # type: ignore[method-assign]
        for bound in ("10", "20", "30", "190"):  # typed quickly: each apply replaces the one in flight
            screen.set_filters([Filter("id", "gt", bound)])
        await settle(pilot)
        assert ids(screen) == list(range(191, 201))
        assert [query.filters for query in shown_for] == [(Filter("id", "gt", "190"),)], "the last filter's page only"
        screen.post_message(Loaded(screen.page, 1, Page[Event](count=200, data=old_page), 1.0))
        await settle(pilot)
        assert ids(screen) == list(range(191, 201)), "a response for an old request is dropped"


async def test_hydration_toggle_and_keymap_from_settings(demo_server: DemoServer) -> None:
    settings = Settings(keymap={"list.refresh": "f5", "list.hydrate": "ctrl+h"})
    async with on_events(demo_server, settings=settings) as (_app, pilot, screen):
        assert any(domain.name for event in screen.table.items for domain in event.domains)
        await pilot.press("ctrl+h")
        await settle(pilot)
        assert not screen.hydrate_domains and not screen.hydrate_ous
        assert all(not domain.name for event in screen.table.items for domain in event.domains)
        assert "no names (H): domains, OUs" in str(screen.query_one("#status-line", Static).render())
        started = screen.loads.seq(screen.page)
        await pilot.press("f5")
        await settle(pilot)
        assert screen.loads.seq(screen.page) == started + 1
        await pilot.press("r")  # r was remapped to f5
        await settle(pilot)
        assert screen.loads.seq(screen.page) == started + 1


async def test_the_editor_says_contains_is_case_sensitive(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, _screen):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        row = editor.query_one("#row-rrule", FilterRow)
        assert row.predicate == "~eq"
        assert str(row.query_one(".filter-hint", Static).render()) == "case-sensitive"
        row.query_one(Input).value = "Freq"
        await pilot.pause()
        note = str(row.query_one(".filter-error", Static).render())
        assert "~eq is case-sensitive on the server: 'Freq'" in note
        assert "not match 'fREQ', which differs only in case" in note
        row.query_one(".filter-op", Select).value = "eq"
        await pilot.pause()
        assert "case-sensitive" not in str(row.query_one(".filter-error", Static).render())
        assert "case-sensitive" not in str(row.query_one(".filter-hint", Static).render())
        row.query_one(Input).value = ""
        editor.query_one("#quick", Input).value = "rrule=~eq:daily"
        await pilot.pause()
        assert "~eq is case-sensitive on the server: 'daily'" in str(editor.query_one("#quick-error", Static).render())


async def test_every_column_name_keeps_a_space_before_its_predicate_at_80_columns(demo_server: DemoServer) -> None:
    """Newcomer audit (issue 16): at 80x24 `cert_services_collection` (24 cells) ran into its predicate."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _screen):
        await pilot.press("slash")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, FilterEditor) and editor.has_class("-narrow")
        for row in editor.query(FilterRow):
            name = row.query_one(".filter-name")
            op = row.query_one(".filter-op")
            assert op.region.x > name.region.x + len(row.column.name), row.column.name


async def test_reopened_with_filters_in_the_rows_the_quick_line_says_where_they_are(demo_server: DemoServer) -> None:
    """Issue 28: a quick filter typed, applied and `/` again showed an empty quick line (the filter had moved to its
    column's row, out of view at 80x24): the empty line names the filters and where they are."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _screen):
        await pilot.press("slash", *"id=gt:150", "enter")
        await settle(pilot)
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        quick = editor.query_one("#quick", Input)
        assert quick.value == "" and quick.placeholder == "1 filter in the rows below: id=gt:150"
        await pilot.press("escape", "x")
        await settle(pilot)
        await pilot.press("slash")
        assert app.screen.query_one("#quick", Input).placeholder == "column=op:value …"


async def test_the_quick_lines_words_count_a_filter_they_have_no_room_for(demo_server: DemoServer) -> None:
    """Newcomer walk: `2 filters in the rows below: id=gt:195` at 80x24, the client_id=<uuid> filter dropped whole
    with nothing to say so. The words fit the line: the filters that fit whole, then `+1 more`."""
    from tests.support.tasks import client_ids

    client = client_ids(demo_server)[0]
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _screen):
        await pilot.press("slash", *f"id=gt:195 client_id={client}", "enter")
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot)
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        quick = editor.query_one("#quick", Input)
        assert quick.placeholder == "2 filters in the rows below: id=gt:195 +1 more", quick.placeholder
        assert len(quick.placeholder) < quick.content_region.width
        await pilot.resize_terminal(160, 45)
        await settle(pilot)
        assert quick.placeholder == f"2 filters in the rows below: id=gt:195 client_id=eq:{client}"


async def test_a_filter_its_row_cannot_show_stays_on_the_quick_line(demo_server: DemoServer) -> None:
    """Issue 28: the form could read `eq any` for a column whose filter its row could not show (a value that is
    none of its choices, a predicate it does not offer): applied again, the filter was lost without a word. Such a
    filter stays on the quick line, as it is, and is checked there."""
    from svctui.api.filters import COMPLETED_TASKS, EVENTS

    async with on_events(demo_server) as (app, pilot, _screen):
        cases = (
            (COMPLETED_TASKS, Filter("status", "eq", "9"), "status=eq:9"),
            (EVENTS, Filter("session_collection", "eq", "maybe"), "session_collection=eq:maybe"),
            (EVENTS, Filter("client_id", "gt", "x"), "client_id=gt:x"),
        )
        for spec, active, said in cases:
            app.push_screen(FilterEditor(spec, [active], clock=lambda: NOW))
            await settle(pilot)
            editor = app.screen
            assert isinstance(editor, FilterEditor)
            assert editor.query_one("#quick", Input).value == said
            row = editor.query_one(f"#row-{active.column}", FilterRow)
            assert row.raw_value == "", "the row is empty, not a filter shown as `any`"
            _, problems = editor.collect()
            assert problems, "checked on the quick line: not applied as it is"
            await pilot.press("escape")
            await settle(pilot)


def chip_texts(screen: Screen[Any]) -> list[str]:
    """The filter chips' labels, as shown."""
    return [str(chip.label) for chip in screen.query_one(FilterChips).query(FilterChip)]


async def test_client_id_takes_a_clients_name_in_the_row_and_the_quick_line(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 28, item 8): `events list -f client_id=NAME` took a name while the editor said "is not a
    uuid". The row and the quick line take it as the CLI does (the same match), send the uuid, and the chip shows
    the name; a name no client has is an inline error naming column, predicate and what is allowed, sent nothing."""
    async with on_events(demo_server) as (app, pilot, screen):
        await settle(pilot)
        event = screen.table.current_item
        assert event is not None
        name = app.client_name(event.client_id)
        assert name, "the client names are loaded with the first page"
        await pilot.press("slash")
        editor = editor_on_top(app)
        row = editor.query_one("#row-client_id", FilterRow)
        row.query_one(Input).value = name.lower()
        await pilot.pause()
        assert not row.has_class("-invalid")
        assert f"sent as {event.client_id}" in str(row.query_one(".filter-error", Static).render())
        before = demo_server.request_count
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert demo_server.request_count == before + 1
        assert screen.filters == (Filter("client_id", "eq", event.client_id),)
        assert {item.client_id for item in screen.table.items} == {event.client_id}
        assert chip_texts(screen) == [f"client = {name} ✕"]

        await pilot.press("x")
        await settle(pilot)
        await pilot.press("slash")
        editor = editor_on_top(app)
        before = demo_server.request_count
        editor.query_one("#quick", Input).value = "client_id=eq:NO-SUCH-HOST id=gt:nine"
        await pilot.press("enter")
        await settle(pilot)
        assert on_top(app) is editor and demo_server.request_count == before
        error = str(editor.query_one("#quick-error", Static).render())
        assert "client_id eq: 'NO-SUCH-HOST' is no client's name or uuid" in error
        assert "allowed: a client's uuid, or the name of one known client" in error
        assert "id gt: 'nine' is not an integer" in error
        editor.query_one("#quick", Input).value = f"client_id=neq:{name}"
        await pilot.press("enter")
        await settle(pilot)
        assert on_top(app) is screen and demo_server.request_count == before + 1
        assert screen.filters == (Filter("client_id", "neq", event.client_id),)
        assert event.client_id not in {item.client_id for item in screen.table.items}
        assert chip_texts(screen) == [f"client ≠ {name} ✕"]


async def test_names_off_is_said_at_80_columns_before_the_columns_left_out(demo_server: DemoServer) -> None:
    """The newcomer's walk: at 80 columns `H` (names off) was not said: the line kept `+3 columns (p)` instead. What
    changes the rows on screen wins over the hint when room is short."""
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        await pilot.press("H")
        await settle(pilot)
        line = str(screen.query_one("#status-line", Static).render())
        assert "no names (H)" in line, line
