"""Tables fit the terminal: at 80 columns the cleanup run's and restore's outcome columns fit the sheet (a cut
message keeps its start, a cut request id its end, the highlighted row's whole values under the table); the
tasks table and the selector table fit their width and give the spare room to the message and the name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from svctui.api.client import ApiClient
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from svctui.ops.selector_delete import AuditContext, delete_selectors
from svctui.ops.selector_restore import plan_restore
from svctui.store.audit_read import read_audit
from svctui.triage import COUNT_NAMES, count_totals
from svctui.tui.screens.events.detail import PANE_MOST
from svctui.tui.screens.selectors.outcome_table import OutcomeTable
from svctui.tui.screens.selectors.restore import RestoreScreen
from svctui.tui.screens.selectors.run import RunScreen
from svctui.tui.widgets.domain_results import TOTAL_KEY, DomainResultsPane
from tests.support.screen_text import screen_text
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import BIG_TAG_ID, big_tag_server, plan_of, tag_selectors
from tests.support.tasks import client_ids, open_tasks, tasks_app
from tests.support.tui import on_events, settle, with_screen

pytestmark = pytest.mark.anyio

SMALL = (80, 24)


def plain(cell: object) -> str:
    """A cell's text."""
    return cell.plain if isinstance(cell, Text) else str(cell)


def assert_fits(table: DataTable[Any]) -> None:
    """No column runs off the table's right edge (where the viewport would crop it without a sign)."""
    widths = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
    assert widths <= table.scrollable_content_region.width, (widths, table.scrollable_content_region.width)


def cells(table: DataTable[Any], key: str) -> dict[str, str]:
    """The row's shown cells by column key."""
    return {
        str(column.key.value): plain(table.get_cell(key, column.key))
        for column in table.ordered_columns
        if column.key.value is not None
    }


def whole_line(screen: Any) -> str:
    """The line under the outcomes table (the highlighted row's cut values, whole); '' when hidden."""
    lines = list(screen.query(".outcome-whole").results(Static))
    return str(lines[0].render()).replace("\n", " ") if lines and lines[0].display else ""


async def test_the_run_at_80_columns_shows_every_column_cut_to_fit_and_the_whole_row_below(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        defaults = [selector for selector in tag_selectors(demo) if selector.is_default][:2]  # refused: nothing goes
        screen = RunScreen(plan_of(demo, defaults), lambda tag_id, selector_id: None)
        async with with_screen(demo, screen, size=SMALL) as (_app, pilot):
            assert screen.finished
            table = screen.query_one("#run-table", DataTable)
            assert [column.key.value for column in table.ordered_columns] == [
                "id",
                "name",
                "outcome",
                "status",
                "message",
                "request",
            ]
            assert_fits(table)
            for selector in defaults:
                result = screen.results[selector.id]
                request = result.request_id or ""
                assert len(request) > table.columns["request"].width  # type: ignore[index]
                shown = cells(table, str(selector.id))
                assert shown["request"].startswith("…") and request.endswith(shown["request"][1:]), shown
                assert result.message.startswith(shown["message"].removesuffix("…")), "a message keeps its start"
                assert len(shown["message"]) >= len("re-created enabled"), shown
            table.move_cursor(row=1)
            await pilot.pause()
            second = screen.results[defaults[1].id]
            line = whole_line(screen)
            said = cells(table, str(defaults[1].id))["message"] == second.message
            assert line.startswith(f"id {defaults[1].id} · ") and (said or second.message in line)
            assert f"request id: {second.request_id}" in line
            await pilot.resize_terminal(160, 45)
            await settle(pilot)
            assert_fits(table)
            assert cells(table, str(defaults[1].id))["request"] == second.request_id  # whole with room
            assert cells(table, str(defaults[1].id))["message"] == second.message
            assert second.message not in whole_line(screen)


async def test_the_run_sheet_leaves_out_a_column_empty_in_every_row(tmp_path: Path) -> None:
    """The run sheet kept an empty message column (every selector deleted: no message) where the restore sheet
    gives its room to the names: both hide a column with no value in any row, and show it once a row has one."""
    with big_tag_server(tmp_path) as demo:
        plain_ones = [selector for selector in tag_selectors(demo) if not selector.is_default][:3]
        screen = RunScreen(plan_of(demo, plain_ones), lambda tag_id, selector_id: None)
        async with with_screen(demo, screen, size=SMALL) as (_app, pilot):
            assert screen.finished and {str(result.outcome) for result in screen.results.values()} == {"deleted"}
            table = screen.query_one("#run-table", DataTable)
            assert [column.key.value for column in table.ordered_columns] == [
                "id",
                "name",
                "outcome",
                "status",
                "request",
            ]
            assert_fits(table)
            assert all(cells(table, str(selector.id))["name"] == selector.name for selector in plain_ones)
            outcomes = screen.query_one(OutcomeTable)
            outcomes.set_values({str(plain_ones[0].id): {"message": "a message after all"}})
            await pilot.pause()
            assert "message" in [column.key.value for column in table.ordered_columns]


async def test_the_restore_at_80_columns_keeps_the_message_readable_and_the_whole_row_below(tmp_path: Path) -> None:
    # Newcomer walk: `re-cr….com` at 80 columns, the one message that matters after a restore (a selector that was
    # disabled tags objects again) cut in its middle. It keeps its start now, `re-created enabled` whole at least;
    # the request id gives way (named under the table, whole there for the highlighted row).
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
            report = await delete_selectors(
                client, BIG_TAG_ID, [selector.id for selector in selectors], context=context, tag_name="Tier Zero"
            )
        screen = RestoreScreen(plan_restore(read_audit(), report.run_id))
        async with with_screen(demo, screen, size=SMALL) as (app, pilot):
            assert screen.finished
            table = screen.query_one("#restore-table", DataTable)
            keys = [column.key.value for column in table.ordered_columns]
            assert keys == ["old", "name", "outcome", "new", "status", "message"]
            assert_fits(table)
            long = [result for result in screen.results.values() if len(result.message) > 20]
            assert long, "a disabled selector is re-created enabled, which its message says at length"
            row = table.get_row_index(str(long[0].old_id))
            table.move_cursor(row=row)
            await pilot.pause()
            drawn = next(line for line in screen_text(app).splitlines() if f" {long[0].new_id} " in line)
            assert "re-created enabled…" in drawn, drawn  # its start, cut at its end (was `re-cr….com`)
            whole = whole_line(screen)
            assert whole.startswith(f"+1 column: request id · old id {long[0].old_id} · "), whole
            assert long[0].message in whole and f"request id: {long[0].request_id}" in whole, whole


async def test_the_domain_results_at_80_columns_show_the_counts_first_and_never_scroll_sideways(
    demo_server: DemoServer,
) -> None:
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_tasks(pilot)
        with_results = next(task for task in screen.table.items if task.domain_results)
        screen.table.move_cursor(row=screen.table.get_row_index(str(with_results.id)))
        await settle(pilot)
        pane = screen.query_one(DomainResultsPane)
        task = pane.shown_task
        assert task is not None and task.id == with_results.id
        table = pane.table
        assert_fits(table)
        keys = [str(column.key.value) for column in table.ordered_columns]
        assert keys[:4] == ["domain", "ok", *COUNT_NAMES[:2]] and "message" not in keys  # counts before the message
        assert len(keys) >= 8, keys
        totals = count_totals(task.domain_results)
        total_row = cells(table, TOTAL_KEY)
        assert table.get_row_index(TOTAL_KEY) == table.row_count - 1
        assert all(total_row[name] == f"{totals[name]:,}" for name in keys[2:]), total_row  # under its own column
        await pilot.resize_terminal(160, 45)
        await settle(pilot)
        assert_fits(table)
        assert [str(column.key.value) for column in table.ordered_columns] == ["domain", "ok", "message", *COUNT_NAMES]


async def test_the_tasks_table_fits_160_columns_and_gives_the_room_to_the_message(demo_server: DemoServer) -> None:
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await open_tasks(pilot)
        table = screen.table
        assert_fits(table)
        keys = {str(column.key.value) for column in table.ordered_columns}
        assert {"id", "executed", "took", "status", "results", "message", "dc", "kinds"} <= keys
        message = table.columns[ColumnKey("message")].width
        assert message > 22, message  # was 22 with columns past the right edge
        await pilot.resize_terminal(*SMALL)
        await settle(pilot)
        assert_fits(table)
        keys = {str(column.key.value) for column in table.ordered_columns}
        # newcomer audit: at 80 columns a failure's reason was nowhere in the table while triaging; the message now
        # outranks the run's duration, and the status column is narrower there
        assert {"id", "executed", "status", "results", "message"} <= keys and "took" not in keys, keys
        assert table.columns[ColumnKey("message")].width >= 12


async def test_the_selector_name_takes_the_room_of_the_row_at_80_columns(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server, size=SMALL) as (_app, _pilot, screen):
        table = screen.table
        assert_fits(table)
        keys = [str(column.key.value) for column in table.ordered_columns]
        assert keys[1:4] == ["id", "name", "flags"], keys
        name = table.columns[ColumnKey("name")].width
        assert name > 20, name  # was 20, with created past the pane's edge
        used = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
        left = table.scrollable_content_region.width - used
        assert left < 2 * table.cell_padding + 1, left  # no room left that the name could have had
        long = next(selector for selector in table.items if len(selector.name) > name)
        assert plain(table.get_cell(str(long.id), "name")) == long.name  # cut on screen only, with `…`
        drawn = table.render_line(table.get_row_index(str(long.id)) + 1).text
        assert long.name[: name - 1] + "…" in drawn


async def test_with_the_detail_pane_open_the_selector_name_is_cut_not_left_out(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server, size=(120, 30)) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("p")
        await settle(pilot)
        assert screen.detail.is_open
        assert_fits(table)
        keys = [str(column.key.value) for column in table.ordered_columns]
        assert keys[1:3] == ["id", "name"], keys
        assert table.columns[ColumnKey("name")].width >= 16
        await pilot.press("p")
        await settle(pilot)
        assert table.columns[ColumnKey("name")].width >= 32  # the room back: the name as wide as before


@pytest.mark.parametrize("size", [SMALL, (160, 45)])
async def test_the_restore_gives_an_empty_message_column_no_room_and_the_names_the_free_room(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A restore whose rows have no message (the usual case): no message column, the names take the room (a newcomer
    saw names cut to 9 cells at 80 columns and 28 at 160 beside an empty message column; issue 28 item 7)."""
    with big_tag_server(tmp_path) as demo:
        selectors = [s for s in tag_selectors(demo) if not s.is_default and s.disabled_at is None]
        selectors = sorted(selectors, key=lambda selector: -len(selector.name))[:4]  # the longest names
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
            report = await delete_selectors(
                client, BIG_TAG_ID, [selector.id for selector in selectors], context=context, tag_name="Tier Zero"
            )
        screen = RestoreScreen(plan_restore(read_audit(), report.run_id))
        async with with_screen(demo, screen, size=size) as (_app, pilot):
            await pilot.pause()
            assert screen.finished and not any(result.message for result in screen.results.values())
            table = screen.query_one("#restore-table", DataTable)
            assert "message" not in [column.key.value for column in table.ordered_columns]
            assert_fits(table)
            longest = max(len(selector.name) for selector in selectors)
            name_width = table.columns[ColumnKey("name")].width
            if size == SMALL:
                assert name_width > 9 + 10, "the message's room went to the names"
            else:
                assert name_width >= longest > 28, "at 160 columns every name whole"


async def test_at_160_columns_with_the_detail_pane_open_the_events_show_their_kinds(demo_server: DemoServer) -> None:
    """The pane beside the table held blank room (64 cells for lines of at most 60) while the table left kinds out
    one cell short: the pane is as wide as its widest line, and the table fits kinds in the rest."""
    async with on_events(demo_server, size=(160, 45)) as (_app, pilot, screen):
        table = screen.table
        await pilot.press("p")
        await settle(pilot)
        assert screen.detail.is_open
        assert_fits(table)
        keys = [str(column.key.value) for column in table.ordered_columns]
        assert keys[1:] == ["id", "client", "schedule", "next", "kinds"], keys
        assert screen.detail.outer_size.width <= PANE_MOST, screen.detail.outer_size


async def test_at_80_columns_the_next_run_shows_its_countdown_only_with_room_for_all_of_it(
    demo_server: DemoServer,
) -> None:
    """A newcomer's walk: at 80 columns no countdown. Measured: beside id, the client's and the schedule's whole
    names the room left is 3 cells, and a countdown (` in 3d 12h`) is shown whole or not at all; so the next run is
    its moment, cut to 18 (`2026-11-27 08:48Z…`), and no cell of room is left that a column could use."""
    async with on_events(demo_server, size=SMALL) as (_app, _pilot, screen):
        table = screen.table
        assert_fits(table)
        keys = [str(column.key.value) for column in table.ordered_columns]
        assert keys[1:] == ["id", "client", "schedule", "next"], keys
        assert table.columns[ColumnKey("next")].width == 18
        used = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
        left = table.scrollable_content_region.width - used
        widest_next = max(len(plain(table.get_cell(str(event.id), "next"))) for event in table.items)
        assert left < widest_next - 18, (left, widest_next)  # the countdown whole would not fit
        assert left < 7 + 2 * table.cell_padding, left  # nor kinds (7 cells)
