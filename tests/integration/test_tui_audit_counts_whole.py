"""Issue 28 (newcomer's walk): the Audit tab's counts are read whole at 80 columns (wrapped in the row, never cut,
the tag cut first), and at 60 columns the counts stay while every column left out is named in the status line."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, intent_line, outcome_line, plan_line
from svctui.ops.outcomes import DeleteResult, Outcome
from svctui.store.audit import append_audit
from svctui.tui.screens.selectors.audit_tab import TAG_LEAST, AuditTab
from svctui.tui.widgets.row_table import RowTable
from tests.support.selectors import on_cleanup
from tests.support.tui import settle

pytestmark = pytest.mark.anyio
RUN_ID = "20261124T101500Z-0abc"
COUNTS = "3 deleted, 2 in doubt, 5 not attempted"  # an interrupted run's counts: 38 cells


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def interrupted_run_logged(demo: DemoServer) -> None:
    """An interrupted run of 10 selectors (none of them on the shared server): 3 deleted, 2 in doubt, 5 left."""
    context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
    ids = list(range(999_001, 999_011))
    append_audit(plan_line(RUN_ID, context, 1, "Tier Zero", ids, 10, resumes=None))
    for selector_id in ids[:5]:
        append_audit(intent_line(RUN_ID, 1, selector_id, None))
    for selector_id in ids[:3]:
        append_audit(outcome_line(RUN_ID, 1, DeleteResult(selector_id, Outcome.DELETED, status=204)))


def cell_lines(cell: object) -> list[str]:
    """A cell's lines (a wrapped cell's several)."""
    if isinstance(cell, Group):
        return [line.plain for line in cell.renderables if isinstance(line, Text)]
    return [cell.plain if isinstance(cell, Text) else str(cell)]


async def test_at_80_columns_the_counts_are_whole_and_the_tag_gives_way(demo_server: DemoServer) -> None:
    """The counts read `3 deleted, 2 in …` beside a tag column padded wider than its cells: they wrap, whole."""
    interrupted_run_logged(demo_server)
    async with on_cleanup(demo_server, size=(80, 24)) as (_app, pilot, screen):
        await pilot.press("escape", "a")  # the interrupted run's resume is offered first: not now
        await settle(pilot)
        runs = screen.query_one("#audit-runs", RowTable)
        cells = dict(zip([str(column.key.value) for column in runs.columns.values()], runs.get_row_at(0), strict=True))
        assert {"when", "action", "state", "tag", "counts"} <= set(cells), cells
        widths = {str(column.key.value): column.width for column in runs.columns.values()}
        lines = cell_lines(cells["counts"])
        assert " ".join(lines) == COUNTS, "the counts whole (wrapped in the row), never cut"
        assert max(map(cell_len, lines)) <= widths["counts"], (lines, widths)
        tags = [cell_lines(runs.get_row_at(row)[list(cells).index("tag")])[0] for row in range(runs.row_count)]
        assert TAG_LEAST <= widths["tag"] <= max(map(cell_len, tags)), f"no padding beside the counts: {widths}"
        assert runs.ordered_rows[0].height > 1, "the row is as high as its counts' lines"


async def test_at_60_columns_the_counts_stay_and_every_left_out_column_is_named(demo_server: DemoServer) -> None:
    """At 60x20 the counts were left out and the status line said `+4 columns` without naming them."""
    interrupted_run_logged(demo_server)
    async with on_cleanup(demo_server, size=(60, 20)) as (_app, pilot, screen):
        await pilot.press("escape", "a")  # the interrupted run's resume is offered first: not now
        await settle(pilot)
        tab = screen.query_one(AuditTab)
        runs = screen.query_one("#audit-runs", RowTable)
        assert "counts" in [str(column.key.value) for column in runs.columns.values()]
        assert " ".join(cell_lines(runs.get_row_at(0)[-1])) == COUNTS
        left_out = tab.left_out["audit-runs"]
        assert len(left_out) > 3, left_out
        status = str(screen.query_one("#status-line", Static).render())
        assert f"+{len(left_out)} columns: {', '.join(left_out)}" in status, status
