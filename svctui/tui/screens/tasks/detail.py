"""How a CompletedTask reads: the tasks table columns, and the detail pane with its four tabs.

Tabs: domain results (R), plot of the selected domain's counts over the client's history (P), compare with the
previous comparable run (W), every field of the task (T), and the run's log (L, log_tab.py). Above them, once known,
one line of what the log says (the headline): read when L opens the log, or ahead, for any run with a log path, once
the cursor has rested on it for PREFETCH_SECONDS (one read at a time, the newest rest winning: never a request per
row scrolled past; each run's summary, or why there is none, kept). The screen feeds the client's history (all
tasks loaded for the plot) with `set_history`; everything else is computed here from the task and that history.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from operator import attrgetter
from typing import Any

from rich.text import Text
from textual import events, getters, on
from textual.app import App, ComposeResult
from textual.content import Content
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane
from textual.widgets.data_table import ColumnKey

from svctui.api.models import CompletedTask, flag_marks
from svctui.table_fit import Column
from svctui.triage import (
    DEFAULT_DROP_THRESHOLD,
    DomainPoint,
    Drop,
    compare_with_previous,
    domain_series,
    format_duration,
    result_summary,
    task_duration,
)
from svctui.tui.screens.tasks.log_tab import ClientOf, LogPane, SummaryKnown
from svctui.tui.widgets.count_plot import CountPlot
from svctui.tui.widgets.deltas import DeltasPane
from svctui.tui.widgets.detail_pane import DetailPane, Line, Section, muted, render_sections
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.paged_table import ColumnDef, PagedTable, RowAdapter, by_id
from svctui.tui.widgets.row_table import cell_text
from svctui.tui.widgets.status_colors import drop_style, semantic_style, status_style
from svctui.tui.widgets.task_times import format_local_utc
from svctui.visible import visible

TABS: Mapping[str, str] = {
    "results": "tab-results",
    "plot": "tab-plot",
    "compare": "tab-compare",
    "fields": "tab-fields",
    "log": "tab-log",
}
PREFETCH_SECONDS = 0.4  # how long the cursor rests on a run before its log is read for the headline
DropsOf = Callable[[int], Sequence[Drop]]
# The tasks table's columns fitted to its width, the one that matters most first: at 160 columns the first ten show
# and the message takes the spare room (whole up to MESSAGE_MOST before a column ranked after it shows: the cells
# a short column leaves go to it, not to one more column); event, doms, title, log path and the times after are in
# the detail pane (T) and sort from the palette (ctrl+p, 'Sort by'). Under 100 columns the minor ones drop first.
FIT_ORDER = (
    "id",
    "executed",
    "status",
    "results",
    "message",
    "took",
    "dc",
    "kinds",
    "started",
    "ended",
    "event",
    "domains",
)
MESSAGE_MOST = 60
MESSAGE_WIDTH = 44  # its width before the columns ranked after it show: the reason a run failed reads whole
# The message takes the free room first (a name column), up to MESSAGE_MOST; cut to 12 rather than left out.
MESSAGE_COLUMN = Column("message", "message", least=MESSAGE_WIDTH, cut_to=12, most=MESSAGE_MOST, names=True)
STATUS_COLUMN = Column("status", "status", least=18)  # 11 under NARROW_TERMINAL


NO_NAME_NAMES_OFF = "(no name: H fetches names)"
NO_NAME_FROM_SERVER = "(no name from the server)"
NO_NAME_DROPS_VIEW = "(no name in the drops view: d for the list with names)"


def utc_minutes(moment: datetime | None) -> str:
    """`2026-03-01 02:00Z`, empty when unset."""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}Z" if moment is not None else ""


def clock_column(key: str, label: str, field: str) -> ColumnDef[CompletedTask]:
    """A minor column of the run's time `field` as `02:12:05` (`+1d` past the day it was due), sorted by that field."""
    moment = attrgetter(field)

    def clock(task: CompletedTask) -> str:
        return utc_clock(moment(task), task.execution_time)

    return ColumnDef(Column(key, label, least=8), clock, field, narrow=None)


# The record's own times, minor columns (the detail pane has them): key, label, and the field the server sorts by.
RECORD_TIMES = (
    ("ingest", "last ingest", "last_ingest"),
    ("created", "created", "created_at"),
    ("updated", "updated", "updated_at"),
    ("deleted", "deleted", "deleted_at"),
)


def minutes_column(key: str, label: str, field: str) -> ColumnDef[CompletedTask]:
    """A minor column of the task's time `field` as `2026-03-01 02:00Z`, sorted by that field."""
    moment = attrgetter(field)
    return ColumnDef(Column(key, label, least=17), lambda task: utc_minutes(moment(task)), field, narrow=None)


def utc_clock(moment: datetime | None, day: datetime | None) -> str:
    """`02:12:05`, with `+1d` when it falls on a later UTC day than `day`; empty when unset."""
    if moment is None:
        return ""
    utc = moment.astimezone(UTC)
    text = f"{utc:%H:%M:%S}"
    if day is not None and (utc.date() - day.astimezone(UTC).date()).days:
        text += f" {(utc.date() - day.astimezone(UTC).date()).days:+d}d"
    return text


def task_adapter(app: App[Any], drops_of: DropsOf) -> RowAdapter[CompletedTask]:
    """Tasks table columns (every sortable column is a column): times in UTC, status coloured, results summary."""

    def status(task: CompletedTask) -> Text:
        return Text(task.status_label, style=status_style(app, task.status, bold=True), end="")

    def results(task: CompletedTask) -> Text:
        summary = result_summary(task)
        text = Text(end="")
        if not summary.total:
            text.append("—", style="dim")
        else:
            if summary.ok:
                text.append(f"{summary.ok} ok", style=semantic_style(app, "success"))
            if summary.ok and summary.failed:
                text.append(" / ")
            if summary.failed:
                text.append(f"{summary.failed} failed", style=semantic_style(app, "error", bold=True))
        found = len(drops_of(task.id))
        if found:
            text.append(f"  ▼{found}", style=drop_style(app, bold=True))
        return text

    return by_id(
        ColumnDef(
            Column("event", "event", least=5),
            lambda task: "" if task.event_id is None else str(task.event_id),
            "event_id",
            narrow=None,
        ),
        ColumnDef(
            Column("executed", "executed (UTC)", least=17),
            lambda task: utc_minutes(task.execution_time),
            "execution_time",
        ),
        clock_column("started", "start", "start_time"),
        clock_column("ended", "end", "end_time"),
        ColumnDef(Column("took", "took", least=7), lambda task: format_duration(task_duration(task)), narrow=None),
        ColumnDef(
            STATUS_COLUMN,
            status,
            "status",
            copy_text=lambda task: str(task.status),
            narrow=replace(STATUS_COLUMN, least=11),
        ),
        ColumnDef(Column("results", "results", least=16), results),
        ColumnDef(MESSAGE_COLUMN, lambda task: task.status_message),
        ColumnDef(
            Column("dc", "domain controller", least=18),
            lambda task: task.domain_controller,
            "domain_controller",
            narrow=None,
        ),
        ColumnDef(Column("kinds", "kinds", least=7), flag_marks, narrow=None),
        ColumnDef(Column("domains", "doms", least=4), lambda task: str(len(task.domains)), narrow=None),
        ColumnDef(
            Column("title", "event title", least=16), lambda task: task.event_title or "", "event_title", narrow=None
        ),
        ColumnDef(Column("log", "log path", least=16), lambda task: task.log_path or "", "log_path", narrow=None),
        *(minutes_column(key, label, field) for key, label, field in RECORD_TIMES),
        fit_order=FIT_ORDER,
    )


# Each tab's title, and a shorter one for a pane narrower than the five full ones (Textual scrolls a strip wider
# than its pane to the active tab, so at 60 columns it began `sults [R]`).
TAB_TITLES = {
    "results": ("Domain results [R]", "Results [R]"),
    "plot": ("Plot [P]", "Plot [P]"),
    "compare": ("vs previous run [W]", "vs prev [W]"),
    "fields": ("Task [T]", "Task [T]"),
    "log": ("Log [L]", "Log [L]"),
}
FULL_TITLES_WIDTH = sum(len(full) + 2 for full, _ in TAB_TITLES.values())  # each tab pads a cell either side


class FocusedTab(TabPane):
    """A tab of the run's detail. A widget in a pane getting the focus makes it the tab shown (Textual's
    `TabPane.Focused`), a message that arrives after the keys read with the one that moved the focus: `R` then `P` in
    one read showed the plot, then the results again. The pane takes the tabs only if it still holds the focus."""

    @on(TabPane.Focused)
    def _still_focused(self, message: TabPane.Focused) -> None:
        focused = self.screen.focused
        if focused is None or self not in focused.ancestors:
            message.stop()


class TaskDetail(DetailPane[CompletedTask]):
    """Domain results, the count plot, compare with the previous run, and every field of one task."""

    EMPTY_HINT = "No task under the cursor."
    ALLOW_MAXIMIZE = True  # `z` gives the pane the whole screen (the plot needs rows a small terminal lacks)
    DEFAULT_CSS = """
    TaskDetail { padding: 0; }
    TaskDetail > TabbedContent { height: 1fr; }
    TaskDetail TabPane { padding: 0; height: 1fr; }
    TaskDetail #task-fields { padding: 0 1; }
    TaskDetail #log-headline { height: 1; padding: 0 1; display: none; text-wrap: nowrap; text-overflow: ellipsis; }
    TaskDetail #log-headline.-shown { display: block; }
    TaskDetail #log-headline.-error { color: $error; }
    TaskDetail.-maximized #log-headline { height: auto; max-height: 4; text-wrap: wrap; }
    TaskDetail.-maximized #log-head { height: auto; max-height: 4; text-wrap: wrap; }
    """
    prefetch_headless = False  # a headless app (tests, snapshots) reads no log ahead unless told: no timer in a picture
    prefetch_seconds = PREFETCH_SECONDS  # the rest before a read ahead (a test sets it beyond its own length)

    def __init__(self, *, threshold: float = DEFAULT_DROP_THRESHOLD, zone: tzinfo | None = None) -> None:
        super().__init__()
        self.can_focus = False  # its tabs' parts take the keys (a focused pane had no keys: ↑/↓ did nothing)
        self.threshold = threshold
        self.zone = zone
        self.history: list[CompletedTask] | None = None
        self.history_note = "loading the client's task history…"
        self.series: dict[str, list[DomainPoint]] = {}
        self.drops: list[Drop] = []
        self.domain_name: str | None = None
        self.client_of: ClientOf | None = None  # set by the screen: how the log tab gets the API client
        self.unnamed = (NO_NAME_NAMES_OFF, NO_NAME_NAMES_OFF)  # a domain's and an OU's hint: set by the screen
        self._prefetch_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        """The log's headline, and the five tabs (titles as Content: a plain `[R]` would be eaten as markup)."""
        yield Static("", id="log-headline")
        with TabbedContent(initial=TABS["results"]):
            with FocusedTab(Content(TAB_TITLES["results"][0]), id=TABS["results"]):
                yield DomainResultsPane(zone=self.zone, id="domain-results")
            with FocusedTab(Content(TAB_TITLES["plot"][0]), id=TABS["plot"]):
                yield CountPlot(threshold=self.threshold, zone=self.zone, id="count-plot")
            with FocusedTab(Content(TAB_TITLES["compare"][0]), id=TABS["compare"]):
                yield DeltasPane(threshold=self.threshold, zone=self.zone, id="deltas")
            with FocusedTab(Content(TAB_TITLES["fields"][0]), id=TABS["fields"]):
                yield Static(self.EMPTY_HINT, id="task-fields")
            with FocusedTab(Content(TAB_TITLES["log"][0]), id=TABS["log"]):
                yield LogPane(id="log-pane")

    def on_resize(self, event: events.Resize) -> None:
        """The tabs' shorter titles in a pane narrower than the full ones (the strip then starts at its first tab)."""
        short = event.size.width < FULL_TITLES_WIDTH
        tabs = self.query_one(TabbedContent)
        for name, titles in TAB_TITLES.items():
            tab = tabs.get_tab(TABS[name])
            title = titles[short]
            if str(tab.label) != title:
                tab.label = Content(title)

    def show_tab(self, name: str, focus: Widget | None = None) -> None:
        """Switch to a tab by name; `focus`, a widget of that tab, takes the keys now (`Widget.focus` would move it a
        turn later: after a tab key typed since, whose tab it would then take back, see FocusedTab)."""
        self.query_one(TabbedContent).active = TABS[name]
        if focus is not None:
            self.screen.set_focus(focus)

    def set_history(
        self,
        history: Sequence[CompletedTask] | None,
        drops: Sequence[Drop],
        note: str = "",
        series: dict[str, list[DomainPoint]] | None = None,
    ) -> None:
        """The client's tasks (None while loading or after a failure, with `note` saying which) and their drops;
        `series` is each domain's series when the caller computed it off the loop (else it is computed here)."""
        self.history = list(history) if history is not None else None
        self.history_note = note
        if self.history is None:
            self.series = {}
        else:
            self.series = series if series is not None else domain_series(self.history)
        self.drops = list(drops)
        if self.item is not None:
            own = [drop for drop in self.drops if drop.task_id == self.item.id]
            self.query_one(DomainResultsPane).show_task(self.item, own)
        self._show_plot()
        self._show_compare()

    def show_item(self, item: CompletedTask | None) -> None:
        """Show one task in every tab (None clears them)."""
        changed = item is not self.item
        self.item = item
        results = self.query_one(DomainResultsPane)
        results.show_task(item, [drop for drop in self.drops if item is not None and drop.task_id == item.id])
        if changed:
            self.domain_name = self._default_domain(item)
            if self.domain_name is not None:
                results.select_domain(self.domain_name)
        self.query_one("#task-fields", Static).update(
            render_sections(self.sections(item)) if item is not None else Content(self.EMPTY_HINT)
        )
        self._show_plot(keep_field=not changed)
        self._show_compare()
        if changed:
            self.log_pane.leave(item)
            self._show_headline()
            self._schedule_prefetch()

    # ----- the run's log: the tab, the headline, reading ahead ------------------------------------------------------
    log_pane = getters.query_one(LogPane)  # the Log tab's pane

    def open_log(self, domain: str | None = None) -> bool:
        """`L`: the Log tab on the task shown (at `domain`'s lines when given); False without a task."""
        if self.item is None or self.client_of is None:
            return False
        self.show_tab("log", focus=self.log_pane.view)
        self.log_pane.open(self.item, self.client_of, domain)
        return True

    def _show_headline(self) -> None:
        headline = self.query_one("#log-headline", Static)
        pane = self.log_pane
        task = self.item
        known = task is not None and task.id in pane.summaries
        headline.set_class(known, "-shown")
        if task is None or not known:
            return
        summary = pane.summaries[task.id]
        text = summary.headline() if summary is not None else pane.notes.get(task.id, "")
        headline.set_class(summary is None or summary.first_error is not None or summary.binary, "-error")
        headline.update(Content(f"log: {visible(text)}  (L)"))

    def _schedule_prefetch(self) -> None:
        if self._prefetch_timer is not None:
            self._prefetch_timer.stop()
            self._prefetch_timer = None
        task = self.item
        if task is None or self.client_of is None or not task.log_path:
            return
        if self.app.is_headless and not self.prefetch_headless:
            return
        if task.id not in self.log_pane.summaries:
            self._prefetch_timer = self.set_timer(self.prefetch_seconds, self._prefetch)

    def _prefetch(self) -> None:
        self._prefetch_timer = None
        if self.item is not None and self.client_of is not None:
            self.log_pane.prefetch(self.item, self.client_of)

    @on(SummaryKnown)
    def _summary_known(self, message: SummaryKnown) -> None:
        message.stop()
        if self.item is not None and message.task_id == self.item.id:
            self._show_headline()

    @on(LogPane.DomainWanted)
    def _domain_wanted(self, message: LogPane.DomainWanted) -> None:
        message.stop()
        results = self.query_one(DomainResultsPane)
        if results.select_domain(message.domain_name):
            self.show_tab("results", focus=results.table)
        else:
            self.notify(f"Run has no domain result for {visible(message.domain_name)}.", timeout=3)

    def _default_domain(self, task: CompletedTask | None) -> str | None:
        if task is None or not task.domain_results:
            return None
        dropped = [drop.domain_name for drop in self.drops if drop.task_id == task.id]
        if dropped:
            return dropped[0]
        ordered = sorted(task.domain_results, key=lambda result: (result.success, result.domain_name))
        return ordered[0].domain_name

    @on(DomainResultsPane.DomainHighlighted)
    def _domain_highlighted(self, message: DomainResultsPane.DomainHighlighted) -> None:
        message.stop()
        if message.domain_name is not None and message.domain_name != self.domain_name:
            self.domain_name = message.domain_name
            self._show_plot()

    def _show_plot(self, keep_field: bool = False) -> None:
        plot = self.query_one(CountPlot)
        if self.item is None:
            plot.show_note("select a task to plot its domains' counts over time")
        elif self.history is None:
            plot.show_note(self.history_note or "the client's task history is not loaded")
        elif self.domain_name is None:
            plot.show_note(f"task {self.item.id} has no domain results to plot")
        else:
            points = self.series.get(self.domain_name, [])
            kinds = flag_marks(self.item)
            plot.show_series(self.domain_name, points, self.drops, kinds=kinds, keep_field=keep_field)

    def _show_compare(self) -> None:
        deltas = self.query_one(DeltasPane)
        task = self.item
        if task is None:
            deltas.show_comparison(None)
        elif self.history is None:
            deltas.show_note(self.history_note or "the client's task history is not loaded")
        else:
            deltas.show_comparison(compare_with_previous(task, self.history))

    def sections(self, item: CompletedTask) -> list[Section]:
        """Every field of the task, its domains and OUs."""
        fields: list[tuple[str, str | Content]] = [
            ("id", str(item.id)),
            ("client", item.client_name or muted("(no name)")),
            ("client id", item.client_id),
            ("event", str(item.event_id) if item.event_id is not None else muted("none")),
            ("event title", item.event_title or muted("—")),
            ("status", f"{item.status_label} ({item.status})"),
            ("message", item.status_message or muted("—")),
            ("executed", format_local_utc(item.execution_time, self.zone)),
            ("started", format_local_utc(item.start_time, self.zone)),
            ("ended", format_local_utc(item.end_time, self.zone)),
            ("took", format_duration(task_duration(item)) or muted("—")),
            ("last ingest", format_local_utc(item.last_ingest, self.zone)),
            ("DC", item.domain_controller or muted("—")),
            ("log path", item.log_path or muted("—")),
            ("kinds", flag_marks(item)),
        ]
        domain_hint, ou_hint = self.unnamed
        domains: list[Line] = [(f"• {ref.name or domain_hint}  {ref.objectid}", 2) for ref in item.domains]
        ous: list[Line] = [(f"• {ref.name or ou_hint}  {ref.objectid}", 2) for ref in item.ous]
        return [
            Section("Task", fields),
            Section(f"Domains ({len(item.domains)})", (), domains or [muted("none")]),
            Section(f"OUs ({len(item.ous)})", (), ous or [muted("none")]),
        ]


def unnamed_hint(asked: bool, names_on: bool, drops_view: bool) -> str:
    """What a domain or OU without a name says, true to why: names off (`H` asked for them), a view whose runs are
    read without names (the runs with drops), or a server that sent none though asked."""
    if drops_view and names_on:
        return NO_NAME_DROPS_VIEW
    if not asked or not names_on:
        return NO_NAME_NAMES_OFF
    return NO_NAME_FROM_SERVER


def refresh_results_column(table: PagedTable[CompletedTask]) -> None:
    """Redraw only the results cells that changed (they gain drop marks) and only their rows; the cursor and the
    scroll stay where they are: the frame that draws the plot does not redraw every visible line of the table."""
    table.discard_prepared()  # a page rendered ahead in a thread has the marks of before
    column = table.adapter.column("results")
    if column is None or table.columns.get(ColumnKey("results")) is None:
        return
    cells: dict[str, Text] = {}
    for task in table.items:
        rendered = column.render(task)
        cells[str(task.id)] = cell_text(rendered)
    table.update_column("results", cells)
    table.refit()  # a drop mark (`  ▼1`) widens the column's widest cell: the column fits it again
