"""Pilot tests of the triage widgets, each standalone in a tiny App: status bar, domain results, deltas, plot."""

from __future__ import annotations

from datetime import UTC

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from svctui.triage import (
    COUNT_NAMES,
    DomainPoint,
    StatusCount,
    compare_with_previous,
    detect_drops,
    domain_series,
    format_delta,
    status_breakdown,
)
from svctui.tui.screens.tasks.bars import client_bar, history_text
from svctui.tui.widgets.count_plot import CountPlot, Figure, _nice_top, build_text, fitted
from svctui.tui.widgets.deltas import DeltasPane
from svctui.tui.widgets.domain_results import TOTAL_KEY, DomainResultsPane
from svctui.tui.widgets.status_bar import StatusBar, bar_widths
from svctui.tui.widgets.task_times import format_local_utc
from tests.triage_samples import T0, sample_tasks

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class OneWidget(App[None]):
    """Hosts a single widget."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


def cell_text(table: DataTable[str | Text], row: str, column: str) -> str:
    value = table.get_cell(row, column)
    return value.plain if isinstance(value, Text) else str(value)


def static_text(widget: Static) -> str:
    return str(widget.render())


def test_bar_widths_proportional_and_exact() -> None:
    assert bar_widths([7, 1, 1, 1], 20) == [14, 2, 2, 2]
    assert sum(bar_widths([1000, 1], 10)) == 10
    assert bar_widths([1000, 1], 10)[1] == 1  # a tiny share still shows
    assert bar_widths([0, 0], 10) == [0, 0]
    assert bar_widths([3, 0, 2], 0) == [0, 0, 0]


def test_nice_top() -> None:
    assert [_nice_top(value) for value in (0, 35, 1212)] == [4, 40, 1600]


def test_format_local_utc() -> None:
    assert format_local_utc(T0, UTC) == "2026-03-01 02:00:00Z"
    assert format_local_utc(None) == "—"


async def test_status_bar_shows_labels_counts_and_scope() -> None:
    bar = StatusBar()
    async with OneWidget(bar).run_test(size=(120, 3)) as pilot:
        assert "no tasks" in str(bar.render())
        bar.set_breakdown(status_breakdown(sample_tasks()), "on this page")
        await pilot.pause()
        line = str(bar.render())
        for part in ("Complete 7", "Timed out 1", "Failed 1", "Partially complete 1", "(10 on this page)"):
            assert part in line
        assert line.index("Complete 7") < line.index("Failed 1") < line.index("Partially complete 1")


async def test_status_bar_short_labels_that_are_cut_end_with_an_ellipsis() -> None:
    bar = StatusBar()
    async with OneWidget(bar).run_test(size=(70, 3)) as pilot:
        bar.set_breakdown(status_breakdown(sample_tasks()), "on this page")
        await pilot.pause()
        line = str(bar.render())
        assert "Partial… 1" in line and "Timed out 1" in line  # too narrow for the full labels: the short ones
        assert "Partially complete" not in line
        for width in range(40, 70):  # wherever the legend is cut, it ends with one `…`, never two
            await pilot.resize_terminal(width, 3)
            await pilot.pause()
            line = str(bar.render())
            assert "……" not in line and len(line) <= width - 2


async def test_status_bar_drops_the_scope_words_before_it_cuts_a_label() -> None:
    """Newcomer walk (issue 28 item 7): with the `o` quick filter at 80 columns the legend read `▓Partial… 39
    (238)` beside a 30-cell bar; the scope's words (`matching the filters`) give way before a label is cut."""
    labels = ["Timed out", "Failed", "Partially complete"]
    bar = StatusBar()
    async with OneWidget(bar).run_test(size=(80, 3)) as pilot:
        bar.set_breakdown([StatusCount(*row) for row in zip([4, 5, 8], labels, [18, 181, 39], strict=True)], "matching")
        bar.scope = "matching the filters"
        await pilot.pause()
        line = str(bar.render())
        assert "▓ Partially complete 39  (238)" in line and "…" not in line, line
        assert len(line) <= 78


async def test_status_bar_tightens_its_spacing_before_it_cuts_a_label() -> None:
    """The tasks screenshot at 120 columns read `▄Analyz… 2 ▓Partial… 30` beside a 28-cell bar: the full labels fit
    with one space between entries; only then are labels cut."""
    labels = ["Invalid", "Complete", "Canceled", "Timed out", "Failed", "Analyzing", "Partially complete"]
    counts = [2, 577, 19, 19, 35, 2, 30]
    bar = StatusBar()
    async with OneWidget(bar).run_test(size=(120, 3)) as pilot:
        bar.set_breakdown([StatusCount(*row) for row in zip([-1, 2, 3, 4, 5, 7, 8], labels, counts, strict=True)], "")
        await pilot.pause()
        line = str(bar.render())
        assert "▓Partially complete 30" in line and "Analyzing 2" in line and "…" not in line, line
        assert len(line) <= 118


async def test_status_bar_at_80_columns_keeps_the_total_and_the_not_ok_counts() -> None:
    """Newcomer audit: at 80 columns the legend ended `▚Failed 181 ▄Ing…`: Partially complete and the total were
    cut off. Where the short legend does not fit, the total and the not-OK statuses come first, whole entries only,
    and `+3 more` says how many were left out (issue 28) (a count is never cut)."""
    labels = ["Invalid", "Complete", "Canceled", "Timed out", "Failed", "Ingesting", "Partially complete"]
    counts = [4, 501, 18, 18, 181, 2, 39]
    codes = [-1, 2, 3, 4, 5, 6, 8]
    bar = StatusBar()
    async with OneWidget(bar).run_test(size=(80, 3)) as pilot:
        bar.set_breakdown([StatusCount(*row) for row in zip(codes, labels, counts, strict=True)], "matching")
        await pilot.pause()
        line = str(bar.render())
        legend = line[line.index("(") :]
        assert legend == "(763) ▚Failed 181 ▓Partial… 39 ▒Timed out 18 █Complete 501 +3 more", line
        assert len(line) <= 78
        await pilot.resize_terminal(160, 3)  # room for every full label: unchanged, in the bar's order
        await pilot.pause()
        assert str(bar.render()).endswith("▓ Partially complete 39  (763 matching)")


def test_client_bar_at_80_columns_keeps_the_run_and_drop_counts() -> None:
    """Newcomer audit: `history 763 tasks, 2 d…` at 80 columns lost the drop count. Narrow, the history says only
    its numbers (`763 runs · 2 drops`); wide, it is whole."""
    client = "cd613e30-d8f1-4adf-91b7-584a2265b1f5"
    facts = (True, 763, 763, 2, 0.2)
    history, short = history_text(*facts), history_text(*facts, short=True)
    assert (history, short) == ("history 763 tasks, 2 drops > 20 %", "763 runs · 2 drops")
    assert history_text(True, 5000, 12345, 1, 0.2, short=True) == "5,000 of 12,345 runs · 1 drop"
    narrow = client_bar(client, "SHARPHOUND-DC01", "completed-tasks", history, 78, short)
    assert narrow.plain == "Client SHARPHOUND-DC01 (cd613e30…) · completed-tasks · 763 runs · 2 drops"
    wide = client_bar(client, "SHARPHOUND-DC01", "completed-tasks", history, 118, short)
    assert wide.plain == f"Client SHARPHOUND-DC01 ({client}) · completed-tasks · {history}"
    unnamed = client_bar(client, "", "completed-jobs", history, 78, short)  # the uuid is all there is: kept whole
    assert unnamed.plain == f"Client {client} · completed-jobs · 763 runs · 2 drops"


async def test_domain_results_rows_totals_and_failed_message() -> None:
    pane = DomainResultsPane(zone=UTC)
    tasks = sample_tasks()
    async with OneWidget(pane).run_test(size=(120, 30)) as pilot:
        pane.show_task(tasks[6])
        await pilot.pause()
        table = pane.table
        keys = [row.key.value for row in table.ordered_rows]
        assert keys == [
            "domain:EU.CORP.EXAMPLE.COM",
            "domain:CORP.EXAMPLE.COM",
            "domain:LAB.EXAMPLE.NET",
            TOTAL_KEY,
        ]  # failures first
        assert cell_text(table, "domain:EU.CORP.EXAMPLE.COM", "ok") == "✗ failed"
        assert cell_text(table, "domain:CORP.EXAMPLE.COM", "ok") == "✓"
        assert cell_text(table, TOTAL_KEY, "ok") == "2/3"
        assert cell_text(table, TOTAL_KEY, "user_count") == f"{0 + 1218 + 53:,}"
        message = pane.query_one("#domain-results-message", Static)
        assert message.display and "LDAP bind failed: 49 invalid credentials" in static_text(message)
        header = static_text(pane.query_one("#domain-results-header", Static))
        assert "Task 206" in header and "Partially complete" in header and "2 ok / 1 failed" in header
        assert "2026-03-07 02:00:05Z" in header and "took 12m 00s" in header
        await pilot.press("down")
        selected = pane.selected_result()
        assert selected is not None and selected.domain_name == "CORP.EXAMPLE.COM"
        assert not message.display
        assert table.columns[ColumnKey("ok")].content_width == len("✗ failed")
        pane.show_task(tasks[7])  # same domain keeps the cursor
        await pilot.pause()
        selected = pane.selected_result()
        assert selected is not None and selected.domain_name == "CORP.EXAMPLE.COM"
        # Columns are sized for the task shown: a failure seen before does not keep them wide.
        assert table.columns[ColumnKey("ok")].content_width == len("3/3")  # the totals row: 3 of 3 ok
        assert table.columns[ColumnKey("message")].content_width == len("Message")
        pane.show_task(None)
        await pilot.pause()
        assert table.row_count == 0 and "no task selected" in static_text(
            pane.query_one("#domain-results-header", Static)
        )


async def test_domain_results_of_task_without_results() -> None:
    pane = DomainResultsPane(zone=UTC)
    async with OneWidget(pane).run_test(size=(120, 20)) as pilot:
        pane.show_task(sample_tasks()[8])
        await pilot.pause()
        assert pane.table.row_count == 0
        header = static_text(pane.query_one("#domain-results-header", Static))
        assert "no domain results" in header
        assert "agent offline" in header, "a failed task says why where its results would be (newcomer audit)"


async def test_deltas_of_a_failed_domain_are_no_drop_and_stay_out_of_the_total() -> None:
    # Run 206's EU domain failed (user_count 0): the drops' rule judges no failed result, so W must not call it a
    # -100 % "Drop" nor add its zeros into Total (newcomer walk, finding 1).
    pane = DeltasPane(zone=UTC)
    tasks = sample_tasks()
    async with OneWidget(pane).run_test(size=(160, 30)) as pilot:
        comparison = compare_with_previous(tasks[6], tasks)
        pane.show_comparison(comparison)
        await pilot.pause()
        table = pane.table
        header = static_text(pane.query_one("#deltas-header", Static))
        assert "Drop:" not in header, header
        assert "Failed: EU.CORP.EXAMPLE.COM (no counts: not compared, not in Total)" in header, header
        assert cell_text(table, "__result__", "domain:EU.CORP.EXAMPLE.COM") == "ok → failed"
        assert cell_text(table, "user_count", "domain:EU.CORP.EXAMPLE.COM") == "—"
        judged = [domain for domain in comparison.domains if domain.current_success]
        users = {delta.field: delta for delta in comparison.totals}["user_count"]
        assert users.previous == sum(domain.deltas[COUNT_NAMES.index("user_count")].previous or 0 for domain in judged)
        assert cell_text(table, "user_count", "total") == format_delta(users)
        assert "-100.0 %" not in cell_text(table, "user_count", "total")

        pane.show_comparison(compare_with_previous(tasks[5], tasks))  # a real drop: named without nested brackets
        await pilot.pause()
        header = static_text(pane.query_one("#deltas-header", Static))
        assert "Drop: CORP.EXAMPLE.COM Users 1,212 → 640 (-572, -47.2 %)" in header, header


async def test_deltas_against_previous_run() -> None:
    pane = DeltasPane(zone=UTC)
    tasks = sample_tasks()
    async with OneWidget(pane).run_test(size=(120, 30)) as pilot:
        pane.show_comparison(compare_with_previous(tasks[5], tasks))
        await pilot.pause()
        table = pane.table
        header = static_text(pane.query_one("#deltas-header", Static))
        assert "Task 205 vs previous comparable run: task 204" in header and "event 4" in header
        assert "same client, same collection kinds" in header, "the rule is said"
        assert cell_text(table, "user_count", "domain:CORP.EXAMPLE.COM") == "-572 (-47.2 %)"
        assert cell_text(table, "group_count", "domain:CORP.EXAMPLE.COM") == "+3 (+0.9 %)"
        assert cell_text(table, "ou_count", "total") == "0"
        assert cell_text(table, "__result__", "domain:CORP.EXAMPLE.COM") == "ok → ok"
        assert table.row_count == 13
        headings = [column.label.plain for column in table.columns.values()]
        assert "CORP.EXAMPLE.COM vs 204" in headings

        pane.show_comparison(compare_with_previous(tasks[3], tasks))  # LAB.EXAMPLE.NET first appears
        await pilot.pause()
        headings = [column.label.plain for column in table.columns.values()]
        assert "LAB.EXAMPLE.NET (no baseline)" in headings
        assert cell_text(table, "user_count", "domain:LAB.EXAMPLE.NET") == f"+{35 + 9} (new)"

        pane.show_comparison(compare_with_previous(tasks[7], tasks))  # run 206 had a failed EU domain
        await pilot.pause()
        assert cell_text(table, "__result__", "domain:EU.CORP.EXAMPLE.COM") == "ok → ok"
        headings = [column.label.plain for column in table.columns.values()]
        assert "EU.CORP.EXAMPLE.COM vs 205" in headings and "CORP.EXAMPLE.COM vs 206" in headings
        header = static_text(pane.query_one("#deltas-header", Static))
        assert "previous comparable runs, per domain: task 206, task 205" in header

        pane.show_comparison(compare_with_previous(tasks[9], tasks))  # event 9's run has no results
        await pilot.pause()
        assert "Task 301 has no domain results" in static_text(pane.query_one("#deltas-header", Static))

        pane.show_comparison(compare_with_previous(tasks[0], tasks))
        await pilot.pause()
        assert "no earlier comparable run" in static_text(pane.query_one("#deltas-header", Static))
        assert table.row_count == 0


async def test_count_plot_marks_drops_and_cycles_fields() -> None:
    plot = CountPlot(zone=UTC)
    tasks = sample_tasks()
    drops = detect_drops(tasks)
    series = domain_series(tasks)
    async with OneWidget(plot).run_test(size=(120, 30)) as pilot:
        assert "select a task" in static_text(plot.query_one("#count-plot-title", Static))
        plot.show_series("CORP.EXAMPLE.COM", series["CORP.EXAMPLE.COM"], drops)
        await pilot.pause()
        assert plot.field == "user_count"
        title = static_text(plot.query_one("#count-plot-title", Static))
        assert "CORP.EXAMPLE.COM" in title and "Users over 8 successful runs" in title and "drops > 20 %: 1" in title
        listing = static_text(plot.query_one("#count-plot-drops", Static))
        assert "task 205" in listing and "1,212 → 640 (-47.2 %)" in listing and "vs task 204" in listing
        assert plot.cycle_field() == "group_count"
        await pilot.pause()
        assert "no Groups drop beyond 20 %" in static_text(plot.query_one("#count-plot-drops", Static))
        assert plot.cycle_field(-2) == "deleted_count"

        eu = series["EU.CORP.EXAMPLE.COM"]
        plot.show_series("EU.CORP.EXAMPLE.COM", eu, drops)
        await pilot.pause()
        title = static_text(plot.query_one("#count-plot-title", Static))
        assert "over 7 successful runs" in title and "drops > 20 %: 0" in title  # the failed run is left out

        plot.show_series("EU.CORP.EXAMPLE.COM", [point for point in eu if not point.success], drops)
        await pilot.pause()
        assert "no successful runs" in static_text(plot.query_one("#count-plot-title", Static))


async def test_count_plot_starts_on_a_count_the_runs_collect() -> None:
    def point(task_id: int, users: int, groups: int) -> DomainPoint:
        counts = dict.fromkeys(COUNT_NAMES, 0) | {"user_count": users, "group_count": groups}
        return DomainPoint(task_id, 1, T0, True, "S······", counts)

    plot = CountPlot(zone=UTC)
    async with OneWidget(plot).run_test(size=(120, 30)) as pilot:
        plot.show_series("LAB", [point(1, 0, 5), point(2, 0, 6)], [])
        await pilot.pause()
        assert plot.field == "group_count", "Users is 0 in every run: the first count with data is shown"
        plot.show_series("NONE", [point(1, 0, 0), point(2, 0, 0)], [])
        await pilot.pause()
        assert plot.field == "user_count"
        assert "every count is 0" in static_text(plot.query_one("#count-plot-drops", Static))


def test_a_plot_of_another_size_is_fitted_unwrapped_while_its_own_is_built() -> None:
    """ThreadedPlot shows the previous text for a frame or two after a resize: cropped or padded, never wrapped."""
    text = Text("abcdef\nghijkl\nmnopqr", style="bold")
    smaller = fitted(text, 4, 2)
    assert smaller.plain == "abcd\nghij"
    larger = fitted(text, 8, 3)
    assert larger.plain.split("\n") == ["abcdef  ", "ghijkl  ", "mnopqr  "]
    assert text.plain == "abcdef\nghijkl\nmnopqr", "the text built stays as it was"


@pytest.mark.parametrize("runs", [10, 23, 40, 100])
@pytest.mark.parametrize("width", [60, 80, 120, 156])
def test_no_stray_braille_dot_right_of_a_last_run_drop(runs: int, width: int) -> None:
    """Issue 28: at 160x45 a braille dot stood after the last drop marker (plotext rounds the line's end at twice the
    marker's resolution, into the next cell). Nothing is plotted right of the last run."""
    ys = [1000 + (index % 3) * 10 for index in range(runs - 1)] + [500]
    figure = Figure(
        xs=list(range(1, runs + 1)),
        ys=ys,
        line_color=(0, 0, 255),
        dropped=[(runs, 500)],
        drop_color=(255, 0, 0),
        x_ticks=[1.0, float(runs)],
        x_labels=["first", "last"],
        top=1200,
    )
    lines = build_text(figure, width, 20, "dark").plain.split("\n")
    column = max(line.rfind("✗") for line in lines)
    assert column > 0
    right = "".join(line[column + 1 :] for line in lines)
    assert not [char for char in right if "\u2800" <= char <= "\u28ff"], "\n".join(lines)
    assert any("\u2800" < char <= "\u28ff" for line in lines for char in line[:column]), "the line is still drawn"


@pytest.mark.parametrize("width", [80, 60])
async def test_deltas_at_80_columns_cut_headings_with_an_ellipsis_and_name_the_domains_left_out(width: int) -> None:
    """A narrow comparison never scrolls sideways: a cut heading ends with `…`, a domain left out is named in the
    header (`+1 column: …`), a value is never cut (newcomer audit, issue 28 item 7)."""
    pane = DeltasPane(zone=UTC)
    tasks = sample_tasks()
    async with OneWidget(pane).run_test(size=(width, 30)) as pilot:
        pane.show_comparison(compare_with_previous(tasks[7], tasks))
        await pilot.pause()
        table = pane.table
        assert table.virtual_size.width <= table.size.width, "no column off screen"
        full = {"EU.CORP.EXAMPLE.COM vs 205", "CORP.EXAMPLE.COM vs 206", "LAB.EXAMPLE.NET vs 206"}
        shown = {str(key.value).removeprefix("domain:") for key in table.columns if str(key.value) != "count"}
        for column in table.columns.values():
            # a heading too wide goes on two lines (`DOMAIN` / `vs N`); a domain still too wide ends with `…`
            label = column.label.plain
            domain, _, versus = label.partition("\n")
            whole = f"{domain} {versus}" if versus else domain
            assert whole in full or label in {"Count", "Total"} or domain.endswith("…"), label
            assert max(map(cell_len, label.split("\n"))) <= column.width
        for row in table.ordered_rows:  # every value shown whole
            for key, column in table.columns.items():
                assert cell_text(table, row.key.value or "", key.value or "").__len__() <= column.width
        assert any(column.label.plain.split("\n")[0].endswith("…") for column in table.columns.values()) or width < 80
        missing = {"EU.CORP.EXAMPLE.COM", "CORP.EXAMPLE.COM", "LAB.EXAMPLE.NET"} - shown
        assert bool(missing) is (width < 80), "at 60 columns a domain is left out"
        header = static_text(pane.query_one("#deltas-header", Static))
        count = len(missing)
        assert (f"+{count} column{'s' if count > 1 else ''}: " in header) is bool(missing)
        assert all(name in header for name in missing), header
        await pilot.resize_terminal(200, 30)
        await pilot.pause()
        assert {column.label.plain for column in table.columns.values()} >= full, "room again: every domain whole"
        assert "column" not in static_text(pane.query_one("#deltas-header", Static)).split("\n")[-2]
