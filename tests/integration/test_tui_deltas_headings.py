"""A walker at 80 columns: `W` (the comparison with earlier runs) cut a domain's heading mid-word
(`ADVENTUREWORKS.ORG v…`, `OT.ADVENTUREWORKS.ORG…`: which run it is compared with, lost). Where a heading does not
fit its column, the domain goes on one line and its baseline (`vs 1958`) on the next, each whole; where it fits (160
columns), one line as before."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from svctui.demo.server import DemoServer
from svctui.triage import COUNT_LABELS, format_delta
from svctui.tui.widgets.deltas import DeltasPane
from tests.support.tasks import NO_DEPRECATION_WARNING, drop_case, only_task, open_tasks, tasks_app
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def headings(deltas: DeltasPane) -> dict[str, list[str]]:
    """Each domain column's heading as drawn: its lines."""
    return {
        str(key.value): column.label.plain.split("\n")
        for key, column in deltas.table.columns.items()
        if str(key.value).startswith("domain:")
    }


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=["80x24", "160x45"])
async def test_the_comparisons_domain_headings_are_never_cut_mid_word(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    case = drop_case(demo_server, 1)  # three domains: OT.ADVENTUREWORKS.ORG, ADVENTUREWORKS.ORG, ...
    app = tasks_app(demo_server, case.client_id)
    async with app.run_test(size=size) as pilot:
        screen: Any = await open_tasks(pilot)
        await only_task(pilot, screen, case.task_id)
        await pilot.press("W", "z")
        await settle(pilot)
        deltas = screen.query_one(DeltasPane)
        comparison = deltas.comparison
        assert comparison is not None
        shown = headings(deltas)
        assert shown, "at least the dropped domain's column"
        for domain in comparison.domains:
            lines = shown.get(f"domain:{domain.domain_name}")
            if lines is None:
                assert domain.domain_name in deltas.left_out, "a domain not shown is named in the header"
                continue
            assert not any(line.endswith("…") for line in lines), lines
            if domain.previous_task is not None:
                words = [domain.domain_name, f"vs {domain.previous_task.id}"]
                assert lines in ([" ".join(words)], words), lines
        one_line = all(len(lines) == 1 for lines in shown.values())
        assert one_line == (size == (160, 45)), "two lines only where one does not fit"
        for key, lines in shown.items():
            width = deltas.table.columns[key].width
            assert all(len(line) <= width for line in lines), (key, lines, width)


def screen_lines(app: Any) -> list[str]:
    """The screen's lines as drawn (read from the screenshot: what the pane clips is not there)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for found in re.finditer(r'<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', app.export_screenshot()):
        text = html.unescape(re.sub(r"<[^>]+>", "", found.group(3))).replace("\xa0", " ")
        rows.setdefault(float(found.group(2)), []).append((float(found.group(1)), text))
    return [" ".join("".join(text for _, text in sorted(row)).split()) for _, row in sorted(rows.items())]


# 80x23: the walk's 80x24 less the line of the log's headline, which a headless app does not read ahead
@pytest.mark.parametrize("size", [(80, 23), (160, 45)], ids=["80x23", "160x45"])
async def test_w_in_the_drops_view_shows_the_dropped_counts_row(demo_server: DemoServer, size: tuple[int, int]) -> None:
    """Walk 3, item 11: in the runs with drops (`d`), `W` at 80x24 showed the header and the `Result` row, the
    dropped count's row clipped by the pane (the table was as tall as its rows, below the fold). The table has the
    pane's room left, and its cursor is on the worst drop's row, in view."""
    case = drop_case(demo_server)
    app = tasks_app(demo_server, case.client_id)
    async with app.run_test(size=size) as pilot:
        screen: Any = await open_tasks(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("W")
        await settle(pilot)
        deltas = screen.query_one(DeltasPane)
        comparison = deltas.comparison
        assert comparison is not None and deltas.table.row_count > 1
        worst = deltas.worst_field(comparison)
        assert worst is not None
        drop = next(delta for delta in comparison.totals if delta.field == worst)
        row = f"{COUNT_LABELS[worst]} {format_delta(drop)}"
        assert any(line.startswith(row) for line in screen_lines(app)), (row, screen_lines(app)[-12:])
        assert deltas.table.cursor_row == deltas.table.get_row_index(worst)
