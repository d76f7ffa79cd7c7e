"""The domain-results pane: one row per domain with success, message and the 12 counts, failures highlighted.

The columns are fitted to the pane's width (svctui.table_fit, as every table's; again on every width change): the domain
and OK first, then the counts in their order, the message last (a failed domain's message is whole on the line under
the table); what does not fit is left out (the header names it: `+3 columns: …`), so at 80 columns the table never
scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import tzinfo
from typing import Self

from rich.cells import cell_len
from rich.text import Text
from textual import events, getters
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from svctui.api.fields import SHORT_COUNT_LABELS
from svctui.api.models import NOT_OK_STATUSES, CompletedTask, DomainResult
from svctui.table_fit import Column, fit_columns, left_out_hint, ranked
from svctui.text import cut_end
from svctui.triage import COUNT_NAMES, Drop, count_totals, format_duration, result_summary, task_duration
from svctui.tui.widgets.row_table import RowTable
from svctui.tui.widgets.status_colors import drop_style, semantic_style, status_style
from svctui.tui.widgets.task_times import format_local_utc
from svctui.visible import visible

TOTAL_KEY = "__total__"
MESSAGE_WIDTH = 32
MESSAGE_LEAST = 10  # the message column is shown from this width, when the counts leave that much room
FIT_ORDER = ("domain", "ok", *COUNT_NAMES, "message")  # what matters most first
# The columns in the order shown: each as wide as its widest cell, the message cut to MESSAGE_LEAST before it goes.
COLUMNS = ranked(
    (
        Column("domain", "Domain"),
        Column("ok", "OK"),
        Column("message", "Message", least=MESSAGE_LEAST),
        *(Column(name, SHORT_COUNT_LABELS[name]) for name in COUNT_NAMES),
    ),
    FIT_ORDER,
)


def _cell_width(cell: str | Text) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


class DomainResultsPane(Vertical):
    """Header with the task's times (local and UTC), then a table of its domain results and a totals row."""

    class DomainHighlighted(Message):
        """The cursor is on another domain (None on the totals row or when the table is empty)."""

        def __init__(self, domain_name: str | None) -> None:
            super().__init__()
            self.domain_name = domain_name

    DEFAULT_CSS = """
    DomainResultsPane {
        height: auto;
        max-height: 100%;
    }
    DomainResultsPane > #domain-results-header {
        padding: 0 1;
        color: $foreground;
        background: $boost;
    }
    DomainResultsPane > #domain-results-message {
        padding: 0 1;
        color: $text-error;
        height: auto;
    }
    DomainResultsPane > DataTable {
        height: auto;
        max-height: 16;
    }
    """
    table = getters.query_one("#domain-results-table", RowTable)  # the results table

    def __init__(
        self, *, zone: tzinfo | None = None, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.zone = zone
        self.shown_task: CompletedTask | None = None
        self.shown_drops: tuple[Drop, ...] = ()
        self.fitted_width = 0  # the pane's width the columns were fitted to
        self.left_out: list[str] = []  # the titles of the columns the table leaves out at this width
        self.results_by_key: dict[str, DomainResult] = {}  # each row's result (a domain may come twice)

    def compose(self) -> ComposeResult:
        """Header, table, and the full message of a failed row under the cursor."""
        yield Static("no task selected", id="domain-results-header", markup=False)
        table: RowTable[str | Text] = RowTable(id="domain-results-table")
        yield table
        yield Static("", id="domain-results-message", markup=False)

    def focus(self, scroll_visible: bool = True) -> Self:
        """The pane takes the keys by its table (the pane itself is not focusable: focusing it did nothing)."""
        self.table.focus(scroll_visible)
        return self

    def on_mount(self) -> None:
        """Set up columns; repaint on theme change (colours come from the theme)."""
        self._add_columns()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.show_task(self.shown_task, self.shown_drops))

    def on_resize(self, event: events.Resize) -> None:
        """Fit the columns to the new width (the task shown again; the cursor stays on its domain)."""
        if event.size.width != self.fitted_width:
            self.show_task(self.shown_task, self.shown_drops)

    def _add_columns(self, rows: Sequence[Sequence[str | Text]] = ()) -> list[int]:
        """The columns, sized afresh for the rows about to be shown (a long message once seen must not widen them
        for good) and fitted to the pane's width; the indexes of the row cells they show. Their widths are measured
        here, not left to DataTable, which measures new rows when it is next idle: a picture or a theme change in
        between showed the columns at their labels' width."""
        table = self.table
        table.clear(columns=True)
        natural = {
            column.key: max([cell_len(column.title), *(_cell_width(row[index]) for row in rows)])
            for index, column in enumerate(COLUMNS)
        }
        room = self.size.width - table.styles.scrollbar_size_vertical
        fitted = fit_columns(COLUMNS, natural, room, 2 * table.cell_padding)  # not laid out: all (a resize fits it)
        # Not laid out (another tab shown): every column, and the next resize to a real width fits them (the width
        # fitted before must not pass for it: the whole table then scrolled sideways, its scrollbar a stray `▌`).
        self.fitted_width = self.size.width if room > 0 else 0
        self.left_out = fitted.left_out_titles()
        shown = [index for index, column in enumerate(COLUMNS) if column.key in fitted.widths]
        for index in shown:
            table.add_column(COLUMNS[index].title, key=COLUMNS[index].key, width=fitted.widths[COLUMNS[index].key])
        return shown

    def show_task(self, task: CompletedTask | None, drops: Sequence[Drop] = ()) -> None:
        """Show `task`'s domain results (None clears the pane); the cursor stays on the same domain if present.

        `drops` of this task mark their count cells (`▼`, error colour).
        """
        self.shown_task = task
        self.shown_drops = tuple(drops)
        header = self.query_one("#domain-results-header", Static)
        table = self.table
        previous_key = self._cursor_key()
        if task is None:
            self._add_columns()
            header.update("no task selected")
            self._show_message(None)
            return
        self.results_by_key = {}
        rows = []
        for result in sorted(task.domain_results, key=lambda item: (item.success, item.domain_name)):
            key, again = f"domain:{result.domain_name}", 1
            while key in self.results_by_key:  # a server listing one domain twice: a row each, not a crash
                again += 1
                key = f"domain:{result.domain_name}:{again}"
            self.results_by_key[key] = result
            rows.append((key, self._row(result)))
        if task.domain_results:
            rows.append((TOTAL_KEY, self._totals(task.domain_results)))
        shown = self._add_columns([cells for _key, cells in rows])
        header.update(self._header_text(task))  # after the columns: it names those left out
        for key, cells in rows:
            table.add_row(*(cells[index] for index in shown), key=key)
        if previous_key is not None and previous_key in table.rows:
            table.move_cursor(row=table.get_row_index(previous_key))
        self._show_message(self.selected_result())

    def select_domain(self, domain_name: str) -> bool:
        """Put the cursor on `domain_name`'s row; False when the task has no such domain."""
        key = f"domain:{domain_name}"
        if key not in self.table.rows:
            return False
        self.table.move_cursor(row=self.table.get_row_index(key))
        self._show_message(self.selected_result())
        return True

    def _cursor_key(self) -> str | None:
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return key

    def selected_result(self) -> DomainResult | None:
        """The domain result under the cursor (None on the totals row or when empty)."""
        key = self._cursor_key()
        if self.shown_task is None or key is None:
            return None
        return self.results_by_key.get(key)

    def _header_text(self, task: CompletedTask) -> Text:
        summary = result_summary(task)
        text = Text()
        text.append(f"Task {task.id}", style="bold")
        text.append("  ")
        text.append(task.status_label, style=status_style(self.app, task.status, bold=True))
        text.append(f"  domains: {summary.text()}")
        duration = format_duration(task_duration(task))
        text.append(f"  took {duration}" if duration else "")
        # `+3 columns: DCs, OUs, Message`: what the table leaves out at this width; on the next line where the first
        # has no room for it (at 60 columns `+10 columns` wrapped onto a line of its own, pushing the table down)
        hint = f"  {left_out_hint(self.left_out)}" if self.left_out else ""
        width = self.content_size.width - 2
        first = not hint or width <= 0 or text.cell_len + len(hint) <= width
        if first:
            text.append(hint, style="italic")
        text.append("\nexecuted ")
        text.append(format_local_utc(task.execution_time, self.zone))
        if not first:
            text.append(hint, style="italic")
        text.append("\nstarted  ")
        text.append(format_local_utc(task.start_time, self.zone))
        text.append("  ended ")
        text.append(format_local_utc(task.end_time, self.zone))
        not_ok = task.status in NOT_OK_STATUSES
        if task.status_message and (not_ok or not task.domain_results):  # why it failed, here, not only on T
            message = visible(cut_end(task.status_message, 300), lines=True)
            text.append("\n")
            text.append(message, style=semantic_style(self.app, "error") if not_ok else "")
        if not task.domain_results:
            text.append("\nthis task has no domain results", style="italic")
        return text

    def _row(self, result: DomainResult) -> list[str | Text]:
        failed = semantic_style(self.app, "error", bold=True)
        ok_style = semantic_style(self.app, "success")
        name = Text(visible(result.domain_name) or "(unnamed)", style=failed if not result.success else "")
        mark = Text("✓", style=ok_style) if result.success else Text("✗ failed", style=failed)
        message = Text(visible(cut_end(result.message, MESSAGE_WIDTH)), style=failed if not result.success else "dim")
        dropped = {drop.field: drop for drop in self.shown_drops if drop.domain_name == result.domain_name}
        counts: list[str | Text] = []
        for field in COUNT_NAMES:
            value = f"{int(getattr(result, field)):,}"
            if field in dropped:
                counts.append(Text(f"▼{value}", style=drop_style(self.app, bold=True), justify="right"))
            else:
                counts.append(Text(value, justify="right"))
        return [name, mark, message, *counts]

    def _totals(self, results: Sequence[DomainResult]) -> list[str | Text]:
        totals = count_totals(results)
        ok = sum(1 for result in results if result.success)
        return [
            Text("Total", style="bold"),
            Text(f"{ok}/{len(results)}", style="bold"),
            Text(""),
            *[Text(f"{totals[field]:,}", style="bold", justify="right") for field in COUNT_NAMES],
        ]

    def _show_message(self, result: DomainResult | None) -> None:
        message = self.query_one("#domain-results-message", Static)
        if result is not None and not result.success and result.message:
            message.update(visible(f"{result.domain_name}: {result.message}", lines=True))
            message.display = True
        else:
            message.update("")
            message.display = False

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the full message of the failed domain under the cursor."""
        event.stop()
        selected = self.selected_result()
        self._show_message(selected)
        self.post_message(self.DomainHighlighted(selected.domain_name if selected is not None else None))
