"""The Audit tab of the cleanup screen shows only what is its own: its status line (runs, the chosen one), no filter
chips; the selector list's keys are out of the footer and say where they work when pressed; help lists them apart."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from textual.widgets import Static

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, end_line, intent_line, outcome_line, plan_line
from svctui.ops.outcomes import DeleteResult, Outcome
from svctui.store.audit import append_audit
from svctui.store.paths import data_dir
from svctui.tui.screens.help import collect_keys
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.widgets.filter_chips import FilterChips
from tests.support.selectors import on_cleanup
from tests.support.tui import settle

pytestmark = pytest.mark.anyio
RUN_ID = "20261124T101500Z-0abc"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def finished_run_logged(demo: DemoServer) -> None:
    """A finished run in the audit log, in the engine's own lines (nothing is sent to the shared server)."""
    context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
    result = DeleteResult(999_001, Outcome.ALREADY_GONE, status=404)
    append_audit(plan_line(RUN_ID, context, 1, "Tier Zero", [999_001], 1, resumes=None))
    append_audit(intent_line(RUN_ID, 1, 999_001, None))
    append_audit(outcome_line(RUN_ID, 1, result))
    append_audit(end_line(RUN_ID, [result], None))


async def test_the_audit_tab_has_its_own_status_and_says_where_the_list_keys_work(demo_server: DemoServer) -> None:
    finished_run_logged(demo_server)
    async with on_cleanup(demo_server) as (app, pilot, screen):
        screen.set_filters([Filter("name", "~eq", "s")])
        await settle(pilot)
        chips, line = screen.query_one(FilterChips), screen.query_one("#status-line", Static)
        assert chips.display and "tag Tier Zero" in str(line.render())
        await pilot.press("a")
        await settle(pilot)
        assert not chips.display, "the selector filters' chips are the Selectors tab's"
        left_out = "+3 columns: run, who, server"  # what the runs table leaves out at this width (issue 28 item 7)
        assert (
            str(line.render()) == f"1 run in the audit log  ·  {left_out}  ·  run {RUN_ID} selected (1 of 1): finished"
        )
        shown = {active.binding.key for active in screen.active_bindings.values() if active.binding.show}
        assert shown.isdisjoint({"slash", "left_square_bracket", "M", "ctrl+d", "x", "c"}), shown
        for key, said in (("c", "c: copy the cell under the cursor (OSC 52)"), ("ctrl+d", "^d: delete")):
            await pilot.press(key)
            assert app.notes[-1].message == f"{said} works on the Selectors tab (a goes back).", "never a silent key"
        rows = collect_keys(app, screen)
        assert {row.binding_id for row in rows if row.group == "elsewhere"} >= {"list.filter", "list.copy"}
        assert {row.description for row in rows if row.group == "audit"} == {"Reload log", "Resume run", "Restore run"}
        assert "Detail pane" not in {row.description for row in rows}, "enter opens no detail on the Audit tab"
        await pilot.press("a")
        await settle(pilot)
        assert chips.display and "tag Tier Zero" in str(line.render()) and "1 filter" in str(line.render())


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_audit_tab_at_80_columns_keeps_tag_action_and_counts(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """Issue 28: at 80 columns the Audit tab showed only time and state (choosing a run to restore meant visiting
    every row). The runs' table keeps tag, action and counts; the tags pane gives way while the tab shows."""
    from svctui.tui.screens.selectors.tags_pane import TagsPane
    from svctui.tui.widgets.row_table import RowTable

    finished_run_logged(demo_server)
    async with on_cleanup(demo_server, size=size) as (_app, pilot, screen):
        pane = screen.query_one(TagsPane)
        await pilot.press("a")
        await settle(pilot)
        runs = screen.query_one("#audit-runs", RowTable)
        labels = [str(column.label) for column in runs.columns.values()]
        assert {"when (UTC)", "state", "tag", "action", "counts"} <= set(labels), labels
        assert "Tier Zero" in " ".join(str(cell) for cell in runs.get_row_at(0))
        assert pane.display is (size[0] >= 100), "the tags pane gives way at 80 columns only"
        await pilot.press("a")
        await settle(pilot)
        assert pane.display, "the Selectors tab has its tags pane back"


async def test_the_tags_pane_gives_way_to_the_audit_tab_by_breakpoint_across_100_columns(
    demo_server: DemoServer,
) -> None:
    """Issue 27: the tags pane gives way by the screen's breakpoint and CSS (`-narrower` under NARROW_TERMINAL,
    `-audit` while the tab shows), not a width test in Python: it follows resizes across 100 columns with the Audit
    tab shown, both ways, and the tab switched at 80; the detail pane stays under the table under 110 columns, in
    both narrow tiers (`-narrow` from 100, `-narrower` under it)."""
    finished_run_logged(demo_server)
    async with on_cleanup(demo_server, size=(120, 40)) as (_app, pilot, screen):
        pane, body = screen.tags_pane, screen.query_one("#body")
        await pilot.press("a")
        await settle(pilot)
        assert screen.has_class("-audit", "-wide") and pane.display
        for size, tier in (
            ((80, 24), "-narrower"),
            ((105, 30), "-narrow"),
            ((99, 30), "-narrower"),
            ((120, 40), "-wide"),
        ):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            narrow = size[0] < 100
            assert screen.has_class(tier) and pane.display is not narrow, (size, screen.classes, pane.display)
            assert pane.has_class("-narrow") is narrow, "the pane's columns follow the same breakpoint"
            assert body.styles.layout is not None
            assert body.styles.layout.name == ("horizontal" if size[0] >= 110 else "vertical"), size
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert not pane.display
        await pilot.press("a")
        await settle(pilot)
        assert not screen.has_class("-audit") and pane.display, "the Selectors tab has its tags pane at 80 columns"
        await pilot.press("a")
        await settle(pilot)
        assert screen.has_class("-audit") and not pane.display, "and gives it way on the Audit tab again"
        assert screen.focused is screen.query_one("#audit-runs"), "the runs' table has the keys"


def read_text(path: Path) -> str:
    """An exported file's text (read outside the event loop's own calls: a plain helper)."""
    return path.read_text(encoding="utf-8")


async def test_the_palette_on_the_audit_tab_exports_its_runs_and_reloads_the_log(demo_server: DemoServer) -> None:
    """Newcomer walk: on the Audit tab the palette's "Export view as CSV" wrote the selectors page out of sight and
    "Refresh" said "Reload this page of selectors". There they are the tab's: the runs listed, the audit log."""
    finished_run_logged(demo_server)
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        commands = {command.title: command for command in app.get_system_commands(screen)}
        assert commands["Refresh"].help.startswith("Read the audit log again")
        assert not [title for title in commands if title.startswith("Sort by")], "the selectors' sort is out of sight"
        commands["Export view as CSV"].callback()
        message = app.notes[-1].message
        assert message.startswith("Exported 1 audit run: "), message
        path = Path(message.removeprefix("Exported 1 audit run: "))
        assert path.parent == (data_dir() / "exports").resolve() and path.suffix == ".csv"
        rows = list(csv.reader(read_text(path).splitlines()))
        assert rows[0] == ["run", "when (UTC)", "action", "state", "who", "server", "tag", "counts"]
        assert len(rows) == 2 and rows[1][0] == RUN_ID and rows[1][2:4] == ["delete", "finished"]
        assert rows[1][6] == "1 Tier Zero" and "tester" in rows[1][4]
        commands["Export view as JSON"].callback()
        path = Path(app.notes[-1].message.removeprefix("Exported 1 audit run: "))
        records = json.loads(read_text(path))
        assert [(record["run_id"], record["plan"]["tag_name"]) for record in records] == [(RUN_ID, "Tier Zero")]
        tab = screen.query_one(AuditTab)
        context = AuditContext("demo", demo_server.token_id, demo_server.base_url.rstrip("/"), "tester")
        append_audit(plan_line("20261125T101500Z-1def", context, 1, "Tier Zero", [999_002], 1, resumes=None))
        commands["Refresh"].callback()
        await settle(pilot)
        assert [run.run_id for run in tab.log_runs] == ["20261125T101500Z-1def", RUN_ID], "Refresh read the log"
        await pilot.press("a")  # back on the Selectors tab: the list's commands again
        await settle(pilot)
        commands = {command.title: command for command in app.get_system_commands(screen)}
        assert commands["Refresh"].help == "Reload this page of selectors"
        commands["Export view as CSV"].callback()
        assert "rows (this page; none marked)" in app.notes[-1].message


async def test_the_audit_tabs_keys_act_with_the_focus_in_the_tags_pane(demo_server: DemoServer) -> None:
    """Newcomer walk: on the Audit tab with the focus in the tags pane, `u` did nothing. The tab's keys act on its
    chosen run there too, or say why not."""
    finished_run_logged(demo_server)
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        screen.tags_pane.table.focus()
        await settle(pilot)
        app.notes.clear()
        await pilot.press("u")
        await settle(pilot)
        assert [note.message for note in app.notes] == [
            f"Run {RUN_ID} deleted no selectors: there is nothing to restore."
        ]
        await pilot.press("s")
        await settle(pilot)
        assert len(app.notes) == 2 and app.notes[-1].message.startswith("Nothing to resume"), app.notes
        tab = screen.query_one(AuditTab)
        context = AuditContext("demo", demo_server.token_id, demo_server.base_url.rstrip("/"), "tester")
        append_audit(plan_line("20261125T101500Z-1def", context, 1, "Tier Zero", [999_002], 1, resumes=None))
        await pilot.press("r")
        await settle(pilot)
        assert len(tab.log_runs) == 2, "r read the audit log again"
