"""Pilot tests of the Events screen against the demo server over loopback: load, navigate, page, sort, detail."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.schedule import next_run_words, parse_schedule
from svctui.tui.screens.help import HelpScreen
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.raw_json import RawJson
from tests.support.tui import burst, events_screen, ids, on_events, settle

pytestmark = pytest.mark.anyio


def status_text(app: object) -> str:
    screen = events_screen(app)  # type: ignore[arg-type]
    return str(screen.query_one("#status-line", Static).render())


async def test_first_page_loads_with_header_and_status(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, _pilot, screen):
        assert ids(screen) == list(range(1, 101))
        assert "rows 1\u2013100 of 200" in status_text(app)
        assert app.header_info.edition == "enterprise"
        assert app.header_info.profile == "demo"
        assert screen.table.has_focus


async def test_navigation_keys_move_the_cursor(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        table = screen.table
        await pilot.press("j", "j", "j")
        assert table.current_key == "4"
        await pilot.press("k")
        assert table.current_key == "3"
        await pilot.press("G")
        assert table.current_key == "100"
        await pilot.press("g")
        assert table.current_key == "1"
        await pilot.press("1")  # the Events screen key keeps us here
        assert app.current_mode == "events"


async def test_paging_forward_and_back(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert ids(screen) == list(range(101, 201))
        assert "rows 101\u2013200 of 200" in status_text(app)
        before = demo_server.request_count
        await pilot.press("right_square_bracket")  # last page: nothing is sent
        await settle(pilot)
        assert demo_server.request_count == before
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert ids(screen)[0] == 1


async def test_sort_keys_cycle_and_show_priority(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("s")  # cursor starts on the id column
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["id"]
        await pilot.press("s")
        await settle(pilot)
        assert ids(screen)[:3] == [200, 199, 198]
        assert str(table.columns[table.ordered_columns[1].key].label) == "id ▼"
        await pilot.press("right", "right", "right", "s")  # next run -> next_scheduled_at, second priority
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["-id", "next_scheduled_at"]
        labels = [str(column.label) for column in table.ordered_columns]
        assert "id ▼1" in labels and "next run ▲2" in labels
        await pilot.press("S")
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["-id", "-next_scheduled_at"]
        # The ids are unique, so the rows did not move: the header must still be drawn anew.
        header = table.render_line(0).text
        assert "id ▼1" in header and "next run ▼2" in header
        before = screen.loads.seq(screen.page)
        await pilot.press("left", "s")  # schedule is not sortable: a message, no request
        await settle(pilot)
        assert screen.loads.seq(screen.page) == before


async def test_header_click_sorts(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        await pilot.click("#table", offset=(5, 0))  # the id header
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["id"]


async def test_server_order_is_kept_after_a_sort(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        await pilot.press("j", "j")  # cursor on event 3
        screen.set_sort([])
        await settle(pilot)
        await pilot.press("right", "right", "right", "S")  # next run descending
        await settle(pilot)
        order = ids(screen)
        assert order != list(range(1, 101))
        assert [row.key.value for row in screen.table.ordered_rows] == [str(event_id) for event_id in order]


async def test_marks_survive_a_refresh(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        table = screen.table
        await pilot.press("space", "j", "j", "v")
        assert table.marked == frozenset({"1", "2", "3"})
        await pilot.press("r")
        await settle(pilot)
        assert table.marked == frozenset({"1", "2", "3"})
        assert table.current_key == "3"
        assert "3 marked" in status_text(app)


async def test_at_80x24_the_detail_below_the_table_shows_the_schedule_and_next_runs_first(
    demo_server: DemoServer,
) -> None:
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        await pilot.press("p", *["j"] * 9)  # the cursor to the 10th row: further than the table's height
        await settle(pilot)
        detail = screen.query_one("#detail", DetailPane)
        body = detail.query_one("#detail-body", Static)
        shown = "\n".join(body.render_line(y).text for y in range(detail.scrollable_content_region.height))
        event = screen.table.current_item
        assert event is not None and event.id == 10
        words = parse_schedule(event.rrule).words
        wanted = ("client", words, "next run", next_run_words(event.rrule, screen.app.clock()), "raw rule")
        assert all(fragment in shown for fragment in wanted), shown
        table = screen.table
        assert detail.size.height > table.size.height, "the detail takes 3/5 of the height, as on Completed tasks"
        top = table.scroll_offset.y
        assert top <= table.cursor_row < top + table.scrollable_content_region.height - 1, "the cursor row shows"


async def test_at_80x24_opening_the_detail_under_the_last_row_keeps_the_cursor_row_in_view(
    demo_server: DemoServer,
) -> None:
    """Newcomer walk: `G` then `enter` at 80x24 opened the pane under a table scrolled to rows 81-87 while the
    cursor was on row 100 (the table shrank and its scroll stayed). The table's resize brings the cursor back."""
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("G")
        await settle(pilot)
        assert table.cursor_row == table.row_count - 1
        await pilot.press("enter")
        await settle(pilot)
        assert screen.detail.is_open and table.size.height < 12
        top = table.scroll_offset.y
        assert top <= table.cursor_row < top + table.scrollable_content_region.height - 1, "the cursor row shows"


async def test_detail_pane_shows_every_part(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        await pilot.press("p")
        detail = screen.query_one("#detail", DetailPane)
        assert detail.is_open
        text = str(detail.query_one("#detail-body", Static).render())
        event = screen.table.current_item
        assert event is not None
        for fragment in ("Event", "client id", event.client_id, "Schedule", "schedule", "raw rule", "Domains", "OUs"):
            assert fragment in text
        assert "next 5 runs" in text or "no DTSTART" in text
        await pilot.press("j")
        assert detail.item is screen.table.current_item
        await pilot.press("enter")
        assert not detail.is_open
        await pilot.press("enter")
        assert detail.is_open


async def test_detail_pane_goes_below_on_narrow_terminals(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(100, 40)) as (_app, pilot, screen):
        await pilot.press("p")
        assert screen.has_class("-narrow")  # HORIZONTAL_BREAKPOINTS: under 110 columns
        detail = screen.query_one("#detail")
        assert detail.region.y > screen.table.region.y
    async with on_events(demo_server, size=(140, 40)) as (_app, pilot, screen):
        await pilot.press("p")
        assert screen.query_one("#detail").region.x > screen.table.region.x


async def test_missing_domains_are_marked(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        gone = next(
            (e for e in screen.table.items if any(not d.exists for d in e.domains) or any(not o.exists for o in e.ous)),
            None,
        )
        assert gone is not None, "the demo data has events with missing domains or OUs"
        screen.table.move_cursor(row=screen.table.get_row_index(str(gone.id)))
        await pilot.press("p")
        text = str(screen.query_one("#detail-body", Static).render())
        assert "MISSING" in text


async def test_raw_json_and_copy(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("y")
        assert isinstance(app.screen, RawJson)
        assert '"rrule"' in app.screen.text and '"id": 1' in app.screen.text
        assert "Event 1" in str(app.screen.query_one("#json-title", Static).render())
        assert app.screen.styles.background.a < 1, "a modal dims the screen below; it does not hide it"
        await pilot.press("escape")
        assert not isinstance(app.screen, RawJson)
        await pilot.press("right", "c")  # the client cell copies the full client id
        event = screen.table.current_item
        assert event is not None and app.clipboard == event.client_id


async def test_help_lists_the_screen_keys(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, _screen):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        descriptions = {row.description for row in app.screen.rows}
        for wanted in ("Filter", "Prev", "Next", "Refresh", "Detail", "JSON", "Copy", "Sort", "Mark", "Help", "Quit"):
            assert wanted in descriptions
        keys = {row.description: row.keys for row in app.screen.rows}
        assert keys["Filter"] == "/" and keys["Detail pane"] == "⏎"
        assert "^c" not in keys["Copy selected text"], "ctrl+c quits here (it copies only a mouse selection)"
        assert "^c" in keys["Quit"].split()
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_help_lists_the_tables_keys_while_the_detail_pane_has_the_focus(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 28, item 9): with the detail pane focused `?` left out `s`, `j/k`, `g/G`. The screen's
    keys show whatever has the focus: the focused part's first, the others under their own heading."""
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("p")
        await settle(pilot)
        screen.detail.focus()
        await pilot.pause()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        rows = app.screen.rows
        keys = {row.description: row.keys for row in rows}
        assert keys.get("Sort") == "s", keys
        parts = [row for row in rows if row.group == "parts"]
        assert {"Sort", "Mark"} <= {row.description for row in parts}, [row.description for row in parts]
        shown = " ".join(row.keys for row in parts)
        assert all(key in shown.split() for key in ("j", "k", "g", "G")), shown
        groups = [row.group for row in rows]
        assert groups.index("parts") > max(i for i, group in enumerate(groups) if group in ("screen", "table"))
        assert not any(row.description == "Sort" for row in rows if row.group != "parts"), "listed once"


async def test_z_gives_the_events_detail_pane_the_screen_and_back(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 28, item 10): `z` did nothing on Events (the next runs were reachable at 80x24 only by
    tab and end). `z` opens the pane if closed and gives it the screen; `z` again brings the table back."""
    async with on_events(demo_server, size=(80, 24)) as (_app, pilot, screen):
        assert not screen.detail.is_open
        await pilot.press("z")
        await settle(pilot)
        assert screen.maximized is screen.detail and screen.detail.is_open
        assert screen.detail.region.height >= 20 and screen.detail.region.width == 80
        await pilot.press("z")
        await settle(pilot)
        assert screen.maximized is None and screen.table.region.height > 0


async def test_c_chooses_a_client_by_name_and_lists_only_its_events(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 28, item 8): Events could be filtered by client only by uuid. `C` opens the client
    picker (names as on Completed tasks); a name typed and enter lists that client's events (`client_id=eq:`)."""
    from textual.widgets import Input

    from svctui.tui.widgets.client_picker import ClientPicker
    from svctui.tui.widgets.filter_chips import FilterChip, FilterChips

    async with on_events(demo_server) as (app, pilot, screen):
        await settle(pilot)
        event = screen.table.current_item
        assert event is not None
        name = app.client_name(event.client_id)
        assert name, "the client names are loaded with the first page"
        await pilot.press("C")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ClientPicker)
        picker.query_one("#client-input", Input).value = name
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert [(f.column, f.op, f.value) for f in screen.filters] == [("client_id", "eq", event.client_id)]
        assert screen.table.items and {item.client_id for item in screen.table.items} == {event.client_id}
        chips = [str(chip.label) for chip in screen.query_one(FilterChips).query(FilterChip)]
        assert chips == [f"client = {name} ✕"], "the chip names the client; the uuid is what is sent"


async def test_a_page_turn_rebuilds_the_table_and_keeps_marks(demo_server: DemoServer) -> None:
    """Page 2 shares no row with page 1, so the table is cleared and refilled (not 100 remove_row calls);
    marks, being keyed, come back with their rows, and the order is the server's."""
    async with on_events(demo_server) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("space", "j", "space")
        assert table.marked == frozenset({"1", "2"})
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert ids(screen) == list(range(101, 201))
        assert [row.key.value for row in table.ordered_rows] == [str(n) for n in range(101, 201)]
        assert table.current_key == "101"
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert ids(screen) == list(range(1, 101))
        assert table.marked == frozenset({"1", "2"})
        marked_cells = [str(table.get_cell(str(n), "_mark")).strip() for n in (1, 2, 3)]
        assert marked_cells[0] and marked_cells[1] and not marked_cells[2]


async def test_escape_closes_the_detail_pane_and_ctrl_c_quits(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("p")
        assert screen.detail.is_open
        screen.detail.focus()
        await pilot.press("escape")
        assert not screen.detail.is_open and screen.table.has_focus
        await pilot.press("escape")  # nothing to close: esc does what it did, the app stays
        assert app.is_running and not screen.detail.is_open
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running, "ctrl+c quits like q"


async def test_the_whole_cursor_row_is_highlighted_and_the_cell_stands_out(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("j", "right")
        row_bg = table.get_component_rich_style("pagedtable--cursor-row").bgcolor
        cell_bg = table.get_component_rich_style("datatable--cursor").bgcolor
        assert row_bg is not None and cell_bg is not None and row_bg != cell_bg

        def backgrounds(row: int) -> list[object]:
            strip = table.render_line(row + 1 - round(table.scroll_y))  # + the header line
            return [segment.style.bgcolor for segment in strip if segment.text.strip() and segment.style]

        cursor_row = backgrounds(table.cursor_row)
        assert cursor_row.count(cell_bg) == 1, "one cell (the one `c` copies) keeps the cursor style"
        assert all(bg in (row_bg, cell_bg) for bg in cursor_row), "every other cell of the row is highlighted"
        assert row_bg not in backgrounds(table.cursor_row + 1)
        assert table.current_cell_text() == table.current_item.client_id  # type: ignore[union-attr]


async def test_help_scrolls_with_j_k_g_and_shift_g(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(140, 20)) as (app, pilot, _screen):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen.query_one("#help-scroll")
        assert scroll.max_scroll_y > 2, "the key list is longer than the dialog"
        await pilot.press("G")
        assert scroll.scroll_y == scroll.max_scroll_y
        await pilot.press("k")
        assert scroll.scroll_y == scroll.max_scroll_y - 1
        await pilot.press("g")
        assert scroll.scroll_y == 0
        await pilot.press("j")
        assert scroll.scroll_y == 1
        burst(pilot, *"jjjjj")  # newcomer walk: ten `j` in one read moved the list a line or two
        await settle(pilot)
        assert scroll.scroll_y == 6


async def test_a_narrow_terminal_drops_the_minor_columns_and_keeps_the_row(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("j", "j", "space")
        keys = [column.key.value for column in table.ordered_columns]
        assert keys[-3:] == ["kinds", "domains", "ous"]
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert [column.key.value for column in table.ordered_columns] == ["_mark", "id", "client", "schedule", "next"]
        assert table.current_key == "3" and table.marked == {"3"} and len(table.items) == 100
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert [column.key.value for column in table.ordered_columns] == keys and table.current_key == "3"


async def test_the_next_runs_are_told_again_as_the_minutes_pass(demo_server: DemoServer) -> None:
    """Newcomer walk: a page shown at 17:39 still said `in <1m` at 17:42 for a run at 17:40, long past. Each minute
    the rows' next runs are told again for the clock's minute."""
    from datetime import timedelta

    from svctui.tui.launch import demo_profile
    from tests.support.tui import NOW, SIZE, RecordingApp, running

    now = [NOW]
    app = RecordingApp(demo_profile(demo_server), clock=lambda: now[0], server_label="demo server")
    async with running(app, SIZE) as pilot:
        screen = events_screen(app)
        before = {record.id: str(screen.table.get_cell(str(record.id), "next")) for record in screen.table.items}
        now[0] = NOW + timedelta(hours=3, minutes=7)
        screen.tell_times_again()
        await app.workers.wait_for_complete()
        await settle(pilot)
        after = {record.id: str(screen.table.get_cell(str(record.id), "next")) for record in screen.table.items}
        expected = {record.id: next_run_words(record.rrule, now[0]) for record in screen.table.items}
        assert after == expected and after != before


async def test_c_copies_the_values_the_records_hold_not_the_words_shown(demo_server: DemoServer) -> None:
    """Issue 28: `c` copied the shown text (`2026-03-03 11:18Z  in 23h 18m`, a time cut to the minute), not the
    value: an event's next run is copied in RFC 3339 (as `events list -o json` gives it), a task's time whole."""
    from svctui.schedule import next_run_at
    from tests.support.tasks import client_ids, open_tasks, tasks_screen
    from tests.support.tui import NOW

    async with on_events(demo_server) as (_app, _pilot, screen):
        table = screen.table
        event = next(item for item in table.items if next_run_at(item.rrule, NOW) is not None)
        table.move_cursor(row=table.get_row_index(str(event.id)), column=table.get_column_index("next"))
        at = next_run_at(event.rrule, NOW)
        assert at is not None and table.current_cell_text() == at.isoformat().replace("+00:00", "Z")
    from svctui.store.settings import Settings
    from tests.support.tui import make_app, running

    app = make_app(demo_server, settings=Settings(recent_clients=[client_ids(demo_server)[0]]))
    async with running(app) as pilot:
        await open_tasks(pilot)
        tasks = tasks_screen(app).table
        tasks.move_cursor(row=0, column=tasks.get_column_index("executed"))
        task = tasks.current_item
        assert task is not None and task.execution_time is not None
        assert tasks.current_cell_text() == task.execution_time.isoformat().replace("+00:00", "Z")
        assert ":" in tasks.current_cell_text().split("T")[1][5:], "to the second, not the minute shown"


async def test_sorted_by_next_run_the_rules_without_dtstart_are_said_to_be_the_servers_order(
    demo_server: DemoServer,
) -> None:
    """Issue 28: sorted by next run, rows whose rule has no DTSTART sat among dated ones as if placed by a time the
    screen showed as `-`. The server orders them by its own next_scheduled_at, which the items do not carry: the
    status line says how many there are and that their place is the server's."""
    async with on_events(demo_server) as (app, pilot, screen):
        assert "without DTSTART" not in status_text(app)  # sorted by id: nothing to explain
        await pilot.press("right", "right", "right", "s")
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["next_scheduled_at"]
        undated = [event.id for event in screen.table.items if not parse_schedule(event.rrule).has_start]
        assert undated, "the demo has legacy RRULE-only rules"
        assert f"{len(undated)} without DTSTART: placed by the server" in status_text(app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        count, limit = screen.window.count, screen.window.limit
        assert count is not None and count > limit, "more than one page"
        page = f"page 1/{(count + limit - 1) // limit}"
        assert status_text(app).split("  ·  ") == [
            screen.window.label(),
            page,
            "+3 columns (p)",
            f"{len(undated)} without DTSTART",
        ], "a walker at 80 columns: the page went and the note stayed whole; now the note and the names give way"


async def test_sorted_by_next_run_a_passed_run_time_reloads_and_marks_the_order(demo_server: DemoServer) -> None:
    """Newcomer walk: sorted by next run ▲, once the first rows' run time passed their cells said `in 58m` but they
    stayed on top, above a row `in 2m`, until `r`. The minute's turn reads the page again; while the rows shown are
    out of order (this demo server keeps its next runs at its fixed anchor) the status line says the order is
    stale."""
    from datetime import timedelta

    from svctui.schedule import next_run_at
    from svctui.tui.launch import demo_profile
    from tests.support.tui import NOW, SIZE, RecordingApp, running

    now = [NOW]
    app = RecordingApp(demo_profile(demo_server), clock=lambda: now[0], server_label="demo server")
    async with running(app, SIZE) as pilot:
        screen = events_screen(app)
        await pilot.press("right", "right", "right", "s")
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["next_scheduled_at"]
        assert "order stale" not in status_text(app)
        first = next(at for event in screen.table.items if (at := next_run_at(event.rrule, NOW)) is not None)
        loads = screen.loads.seq(screen.page)
        now[0] = first - timedelta(seconds=30)  # a minute turns, no run time passed: nothing to do
        screen.tell_times_again()
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert screen.loads.seq(screen.page) == loads and "order stale" not in status_text(app)
        now[0] = first + timedelta(seconds=30)  # the first row's run time passed: its next run is later now
        screen.tell_times_again()
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert screen.loads.seq(screen.page) == loads + 1, "the page is read again: the server orders it anew"
        assert "order stale: a run time passed since it was read (r)" in status_text(app)
