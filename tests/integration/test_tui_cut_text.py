"""Text the dashboard cuts to fit shows it: table cells and tag names end with `…`, the review's and the Audit
tab's columns fit, the tasks client bar keeps the client's name at 80 columns (the uuid shortens)."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import pytest
from rich.text import Text
from textual.widgets import DataTable, Static

from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, end_line, intent_line, outcome_line, plan_line, selector_record
from svctui.ops.outcomes import DeleteResult, Outcome
from svctui.store.audit import append_audit
from svctui.tui.screens.events.detail import CUT_NEXT
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.screens.selectors.tags_pane import TagsPane
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import BIG_TAG_ID, plan_of, tag_selectors
from tests.support.tasks import client_ids, open_tasks, tasks_app, text_of
from tests.support.tui import on_events, settle, with_screen

pytestmark = pytest.mark.anyio

SMALL = (80, 24)


def line(table: DataTable[Any], y: int) -> str:
    """Line `y` of the table as drawn (0 is the header)."""
    return table.render_line(y).text


def plain(cell: object) -> str:
    """A cell's text."""
    return cell.plain if isinstance(cell, Text) else str(cell)


async def test_a_cell_cut_by_its_column_ends_with_an_ellipsis(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=SMALL) as (_app, _pilot, screen):
        table = screen.table
        column = table.adapter.column("next")
        assert column is not None
        width = table.shown_widths["next"]
        cut = [
            (row, plain(column.render(event)))
            for row, event in enumerate(table.items[: table.size.height - 2])
            if len(plain(column.render(event))) > width
        ]
        assert cut, "at 80 columns the next runs are cut to their moment"
        for row, words in cut:
            assert words[: width - 1] + "…" in line(table, row + 1)


async def test_at_80_columns_the_schedule_is_whole_and_a_countdown_never_half_shown(demo_server: DemoServer) -> None:
    """Issue 28: at 80 columns the schedule was cut (`Weekly on Tue at …`). It takes the room after the client's
    name; the next run keeps its moment, its countdown whole or not at all (`in 1…` is not a countdown)."""
    async with on_events(demo_server, size=SMALL) as (_app, pilot, screen):
        table = screen.table
        schedule, upcoming = table.adapter.column("schedule"), table.adapter.column("next")
        assert schedule is not None and upcoming is not None
        widths = table.shown_widths
        rows = table.items[: table.size.height - 2]
        assert any(plain(schedule.render(event)).startswith("Weekly on") for event in rows)
        for row, event in enumerate(rows):
            drawn = line(table, row + 1)
            assert plain(schedule.render(event)) in drawn, drawn
            words = plain(upcoming.render(event))
            assert widths["next"] >= len(words) or widths["next"] == CUT_NEXT, widths
        for size in ((90, 24), (160, 45)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            for row, event in enumerate(table.items[: table.size.height - 2]):
                drawn = line(table, row + 1)
                assert plain(schedule.render(event)) in drawn and plain(upcoming.render(event)) in drawn, drawn


async def test_a_tag_name_cut_in_the_tag_list_ends_with_an_ellipsis(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server, size=(60, 20)) as (_app, _pilot, screen):  # at 80 the names are whole
        pane = screen.query_one(TagsPane)
        width = dict((key, width) for _, key, width in pane.tag_columns)["name"]
        long = [(row, tag.name) for row, tag in enumerate(pane.tags) if len(tag.name) > width]
        assert long, "the demo has tag names longer than the narrow name column"
        for row, name in long:
            assert name[: width - 1] + "…" in line(pane.table, row + 1)


@pytest.mark.parametrize("size", [SMALL, (120, 36)])
async def test_the_review_shows_every_column_and_cuts_by_kind_with_an_ellipsis(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    enabled = [s for s in tag_selectors(demo_server) if not s.is_default and s.disabled_at is None]
    selectors = enabled[:8]  # a disabled one's counts are a 409: its kinds cell says `tags nothing`
    async with with_screen(demo_server, ReviewScreen(plan_of(demo_server, selectors)), size=size) as (app, _pilot):
        table = app.screen.query_one("#review-table", DataTable)
        header = line(table, 0)
        assert "members" in header and "by kind" in header  # nothing is left off the sheet's right edge
        kinds_width = table.columns["kinds"].width  # type: ignore[index]
        drawn = [line(table, row + 1) for row in range(len(selectors))]
        texts = [plain(cell) for cell in table.get_column("kinds")]
        assert any(len(text) > kinds_width for text in texts), "a by-kind text wider than the column"
        for text, row in zip(texts, drawn, strict=True):
            shown = text if len(text) <= kinds_width else text[: kinds_width - 1] + "…"
            assert row.rstrip().endswith(shown)


async def test_the_client_bar_at_80_columns_keeps_the_name_and_shortens_the_uuid(demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server)[0]
    app = tasks_app(demo_server, client_id)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_tasks(pilot)
        await settle(pilot)
        name = screen.client_name()
        bar = screen.query_one("#client-bar", Static)
        runs = f"{len(screen.runs.tasks or []):,} runs · {len(screen.runs.drops)} drop"  # the numbers only, whole
        assert name and text_of(bar).startswith(f"Client {name} ({client_id[:8]}…) · completed-jobs · {runs}")
        drawn = bar.render_line(0).text.rstrip()
        assert drawn.startswith(f"Client {name} ({client_id[:8]}…)")
        assert drawn.endswith("…") if len(text_of(bar)) > SMALL[0] - 2 else drawn.endswith(text_of(bar))
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        wide = text_of(screen.query_one("#client-bar", Static))
        assert f"Client {name} ({client_id}) · completed-jobs · history " in wide


def failed_run(demo: DemoServer) -> None:
    """A finished run in the real audit log whose two selectors the server refused with a long message (the log
    only: nothing is deleted)."""
    selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:2]
    context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
    run_id = "20261124T101500Z-0fit"
    append_audit(plan_line(run_id, context, BIG_TAG_ID, "Tier Zero", [selector.id for selector in selectors], 4))
    results = []
    for selector in selectors:
        append_audit(intent_line(run_id, BIG_TAG_ID, selector.id, selector_record(selector)))
        message = "the server could not delete the selector: it is still referenced by a saved query"
        result = DeleteResult(selector.id, Outcome.FAILED, status=409, request_id=str(uuid4()), message=message)
        results.append(result)
        append_audit(outcome_line(run_id, BIG_TAG_ID, result))
    append_audit(end_line(run_id, results, None))


def assert_fitted_and_cut_with_an_ellipsis(table: DataTable[Any]) -> int:
    """No column runs off the table's right edge, and each cell wider than its column is drawn cut with `…`; how
    many were cut."""
    columns = list(table.columns.values())
    assert sum(column.width + 2 * table.cell_padding for column in columns) <= table.scrollable_content_region.width
    header = line(table, 0)
    assert all(str(column.label) in header for column in columns), header
    cut = 0
    for row in range(table.row_count):
        drawn = line(table, row + 1)
        for column, cell in zip(columns, table.get_row_at(row), strict=True):
            text = plain(cell)
            if len(text) > column.width:
                cut += 1
                assert text[: column.width - 1] + "…" in drawn, drawn
            else:
                assert text in drawn, drawn
    return cut


@pytest.mark.parametrize("size", [SMALL, (160, 45)])
async def test_the_audit_tab_fits_its_columns_and_cut_text_ends_with_an_ellipsis(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    failed_run(demo_server)
    async with on_cleanup(demo_server, size=size) as (_app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        tab = screen.query_one(AuditTab)
        runs, chosen = tab.query_one("#audit-runs", DataTable), tab.query_one("#audit-selectors", DataTable)
        cut = assert_fitted_and_cut_with_an_ellipsis(runs) + assert_fitted_and_cut_with_an_ellipsis(chosen)
        assert cut, "the failure messages and request ids are wider than their columns"
        if size == SMALL:
            assert {"when", "state", "counts"} <= {str(key.value) for key in runs.columns}
            assert {"id", "name", "outcome", "message"} <= {str(key.value) for key in chosen.columns}
        else:
            assert len(runs.columns) == 8 and len(chosen.columns) == 6, "every column fits at 160 columns"
        if "run" in {str(key.value) for key in runs.columns}:  # a run id cut keeps its end: what tells runs apart
            for row in runs.ordered_rows:
                shown = plain(runs.get_cell(row.key, "run"))
                assert str(row.key.value).endswith(shown.removeprefix("…")) and shown[-5:] == str(row.key.value)[-5:]


@pytest.mark.parametrize("size", [SMALL, (160, 45)])
async def test_a_request_id_cut_on_the_audit_tab_keeps_its_end(demo_server: DemoServer, size: tuple[int, int]) -> None:
    """Issue 28: the Audit tab's request ids kept their start (`3f2a9c…`) where the run sheet keeps their end
    (`…7a2f`): one rule, the end (the part that differs)."""
    failed_run(demo_server)
    async with on_cleanup(demo_server, size=size) as (_app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        tab = screen.query_one(AuditTab)
        chosen = tab.query_one("#audit-selectors", DataTable)
        assert tab.chosen is not None
        wanted = {str(entry.selector_id): entry.request_id or "" for entry in tab.chosen.entries.values()}
        if "request" not in {str(key.value) for key in chosen.columns}:
            pytest.skip("the request id column is left out at this width")
        width = chosen.columns["request"].width  # type: ignore[index]
        for row in range(chosen.row_count):
            cells = [plain(cell) for cell in chosen.get_row_at(row)]
            whole, shown = wanted[cells[0]], plain(chosen.get_row_at(row)[-1])
            assert len(whole) > width and shown == "…" + whole[-(width - 1) :], (shown, whole)


async def test_the_runs_tag_and_counts_are_whole_before_who_and_server_show(demo_server: DemoServer) -> None:
    """Issue 28 walk at 160 columns: the runs' tag (`3 Crown Jew…`) and counts (`2 deleted, …`) were cut while the
    who and server columns, ranked after them, showed. Those give way first: a run is chosen by its tag and counts."""
    selectors = [selector for selector in tag_selectors(demo_server) if not selector.is_default][:1]
    context = AuditContext("demo", demo_server.token_id, demo_server.base_url.rstrip("/"), "tester")
    run_id = "20261124T101500Z-0tag"
    tag_name = "Tier Zero: domain controllers, PKI and their backups"
    append_audit(plan_line(run_id, context, BIG_TAG_ID, tag_name, [selector.id for selector in selectors], 4))
    results = [DeleteResult(selectors[0].id, Outcome.FAILED, status=409, request_id=str(uuid4()), message="in use")]
    append_audit(intent_line(run_id, BIG_TAG_ID, selectors[0].id, selector_record(selectors[0])))
    append_audit(outcome_line(run_id, BIG_TAG_ID, results[0]))
    append_audit(end_line(run_id, results, None))
    async with on_cleanup(demo_server, size=(160, 45)) as (_app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        runs = screen.query_one(AuditTab).query_one("#audit-runs", DataTable)
        shown = [str(key.value) for key in runs.columns]
        assert {"when", "state", "action", "tag", "counts"} <= set(shown), shown
        for column in ("tag", "counts"):
            cell = plain(runs.get_cell(run_id, column))
            assert len(cell) <= runs.columns[column].width, (column, cell)  # type: ignore[index]
        assert "server" not in shown, "the server (ranked last) gives way to the whole tag"
