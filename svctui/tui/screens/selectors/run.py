"""The deletion run: the engine in a worker, a progress bar (done/total, rate, ETA) and a live table of outcomes.

`esc` cancels: requests in flight finish, nothing more is sent, the rest is `skipped`. The screen can't be closed
while the run is going (closing would cancel the worker before the end line is written). Results arrive as
ResultsLanded messages, batched, so the interface never freezes.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static

from svctui.api.client import ApiClient
from svctui.ops.selector_delete import (
    AuditContext,
    DeleteReport,
    DeleteResult,
    Outcome,
    ResultCallback,
    delete_selectors,
)
from svctui.table_fit import Column, ranked
from svctui.text import cut_start, plural
from svctui.tui.app import SvcTuiApp
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.screens.selectors.messages import ResultBatcher, ResultsLanded, ShowAuditTab
from svctui.tui.screens.selectors.outcome_table import MESSAGE_LEAST, OutcomeTable
from svctui.tui.screens.selectors.plan import CleanupPlan
from svctui.tui.screens.selectors.session import (
    DEFAULT_CONCURRENCY,
    audit_context,
    guard_quit,
    plan_ids,
    profile_name,
    server_words,
    tag_words,
)
from svctui.visible import visible

GONE = (Outcome.DELETED, Outcome.ALREADY_GONE)
WAITING = "waiting"
RUN: Channel[DeleteReport] = Channel("run")  # the deletion run's report (each result also a message)
RunJob = Callable[[ApiClient, AuditContext, asyncio.Event, ResultCallback], Awaitable[DeleteReport]]
# The outcomes table's columns (most and least widths; OutcomeTable fits them to the sheet: at 160 columns the message
# takes what the others leave, at 80 every column is cut to fit; a column with no value in any row (the message, when
# every selector is deleted) takes no room, as on the restore sheet) and the order they matter in.
RUN_FIT = ("id", "outcome", "status", "name", "message", "request")
RUN_COLUMNS = ranked(
    (
        Column("id", "id"),
        Column("name", "name", most=28, least=9),
        Column("outcome", "outcome", most=26, least=12),
        Column("status", "status"),
        Column("message", "message", least=MESSAGE_LEAST),
        Column("request", "request id", most=36, least=11),
    ),
    RUN_FIT,
)
RUN_CUTS = {"request": cut_start}  # a message ends with `…`: its start says what happened


def delete_job(plan: CleanupPlan, concurrency: int = DEFAULT_CONCURRENCY) -> RunJob:
    """The engine's deletion of the plan's selectors (records from the plan: the tag's list, fetched once)."""
    records = {selector.id: selector for selector in plan.selectors}

    async def job(
        client: ApiClient, context: AuditContext, cancel: asyncio.Event, on_result: ResultCallback
    ) -> DeleteReport:
        return await delete_selectors(
            client,
            plan.tag.id,
            plan_ids(plan),
            context=context,
            concurrency=concurrency,
            on_result=on_result,
            cancel=cancel,
            records=records,
            tag_name=plan.tag.name,
        )

    return job


def progress_text(done: int, total: int, elapsed: float, *, ended: bool = False) -> str:
    """`120/300 · 54.8/s · ETA 3 s` (no rate before a second has passed; no ETA once the run `ended`: finished,
    stopped or cancelled — a cancelled run leaves the rest skipped, nothing more is coming)."""
    if done == 0 or elapsed < 1.0:
        return f"{done:,}/{total:,}"
    rate = done / elapsed
    if ended:
        return f"{done:,}/{total:,} · {rate:.1f}/s"
    left = (total - done) / rate
    return f"{done:,}/{total:,} · {rate:.1f}/s · ETA {left:.0f} s"


def counts_text(counts: Counter[str]) -> str:
    """`3 deleted, 1 already gone` in the order of Outcome."""
    return ", ".join(f"{counts[outcome]:,} {outcome}" for outcome in Outcome if counts[outcome]) or "nothing yet"


class RunScreen(ModalScreen[DeleteReport | None]):
    """Delete a CleanupPlan; `on_gone(tag_id, selector_id)` runs on the UI thread for each deleted/gone selector."""

    app = getters.app(SvcTuiApp)

    DEFAULT_CSS = """
    RunScreen ProgressBar { margin: 1 0 0 0; }
    RunScreen #run-status { color: $text-muted; }
    RunScreen.-finished #run-status { color: $text; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel_or_close", "Cancel run"),
        Binding("a", "open_audit", "Audit tab", show=False),
        Binding("q,ctrl+c", "app.quit", "Quit", show=False),  # a modal screen hides the app's q: the guard is there
    ]

    def __init__(
        self,
        plan: CleanupPlan,
        on_gone: Callable[[int, int], None],
        *,
        job: RunJob | None = None,
        title: str | None = None,
        ticker: Callable[[], float] | None = None,
    ) -> None:
        super().__init__()
        self.plan = plan
        self.on_gone = on_gone
        self.ids = plan_ids(plan)
        self.job = job or delete_job(plan)
        self.title_text = (
            visible(title) if title else f"Deleting {plural(len(self.ids), 'selector')} from {tag_words(plan)}"
        )
        self._ticker = ticker  # None: the app's monotonic clock (live refresh's; tests and screenshots fix it)
        self.cancel_event = asyncio.Event()
        self.batcher: ResultBatcher[DeleteResult] = ResultBatcher(self)
        self.loads = Loads(self)
        self.results: dict[int, DeleteResult] = {}
        self.report: DeleteReport | None = None
        self.failure = ""
        self.started = 0.0

    def ticker(self) -> float:
        """Seconds on a monotonic clock, for the run's rate and ETA."""
        if self._ticker is not None:
            return self._ticker()
        return self.app.live.now()

    @property
    def finished(self) -> bool:
        """True once the engine returned (or could not start)."""
        return self.report is not None or bool(self.failure)

    def compose(self) -> ComposeResult:
        """Title, where, progress, the outcomes table, the status line."""
        app = self.app
        with Vertical(classes="sheet"):
            yield Static(self.title_text, classes="sheet-title", markup=False)
            yield Static(f"Profile {profile_name(app)} on {server_words(app)}", markup=False)
            yield ProgressBar(total=len(self.ids), show_eta=False, id="run-progress")
            yield Static(progress_text(0, len(self.ids), 0.0), id="run-rate")
            yield OutcomeTable(RUN_COLUMNS, RUN_CUTS, table_id="run-table", hide_empty=True)
            yield Static("esc cancels: requests in flight finish, nothing more is sent", id="run-status")

    def on_mount(self) -> None:
        """Fill the table (every id waiting) and start the run in a worker."""
        names = {selector.id: selector.name for selector in self.plan.selectors}
        self.query_one(OutcomeTable).add_rows(
            {
                str(selector_id): {"id": str(selector_id), "name": names.get(selector_id, ""), "outcome": WAITING}
                for selector_id in self.ids
            }
        )
        self.started = self.ticker()
        guard_quit(self, self.app, "A deletion run")
        self.start_run()

    def on_unmount(self) -> None:
        """Never leave a quit refusal behind."""
        guard_quit(self, self.app, None)

    def start_run(self) -> None:
        """Run the job in a worker; results come back as ResultsLanded, the report as Loaded."""
        app = self.app
        job, cancel, feed = self.job, self.cancel_event, self.batcher.add

        async def run() -> DeleteReport:
            client = await app.api_client()
            return await job(client, audit_context(app, client), cancel, feed)

        self.loads.start(RUN, run)

    def on_results_landed(self, message: ResultsLanded) -> None:
        """Show every result waiting; tell the browse screen about selectors that are gone."""
        changes: dict[str, dict[str, str]] = {}
        for result in message.batcher.take():
            self.results[result.selector_id] = result
            changes[str(result.selector_id)] = {
                **({"name": result.name} if result.name else {}),
                "outcome": str(result.outcome),
                "status": str(result.status) if result.status is not None else "",
                "message": result.message,
                "request": result.request_id or "",
            }
            if result.outcome in GONE:
                self.on_gone(self.plan.tag.id, result.selector_id)
        self.query_one(OutcomeTable).set_values(changes)
        self.show_progress()

    def show_progress(self) -> None:
        """The bar and the rate line: both count the selectors attempted, never the skipped ones (after a cancel
        the bar stays at the done fraction, not 100%), and no ETA once the run is cancelled or over."""
        done = sum(1 for result in self.results.values() if result.outcome is not Outcome.SKIPPED)
        self.query_one("#run-progress", ProgressBar).update(progress=done)
        elapsed = self.ticker() - self.started
        ended = self.finished or self.cancel_event.is_set()
        text = progress_text(done, len(self.ids), elapsed, ended=ended)
        self.query_one("#run-rate", Static).update(f"{text} — {counts_text(Counter(map(str, self.outcomes())))}")

    def outcomes(self) -> list[Outcome]:
        """The outcome of every result so far."""
        return [result.outcome for result in self.results.values()]

    def on_loaded(self, message: Loaded[object]) -> None:
        """The run ended: its summary, run id, and where to read it."""
        if not RUN.answers(message) or not self.loads.is_current(message):
            return
        report = message.value
        self.report = report
        self.on_results_landed(ResultsLanded(self.batcher))  # the last results, the progress as over: no ETA
        guard_quit(self, self.app, None)
        self.add_class("-finished")
        stopped = f" (stopped: {report.stopped})" if report.stopped else ""
        problem = f"\n{report.audit_error}; nothing more was sent" if report.audit_error else ""
        self.query_one("#run-status", Static).update(
            f"Run {report.run_id}: {report.summary()}{stopped}{problem}\na to open the Audit tab · esc to close"
        )

    def on_load_failed(self, message: LoadFailed) -> None:
        """The run could not start (or the engine raised): say why."""
        if not self.loads.is_current(message):
            return
        error = message.error
        self.failure = error.user_message() if hasattr(error, "user_message") else str(error) or type(error).__name__
        self.on_results_landed(ResultsLanded(self.batcher))
        guard_quit(self, self.app, None)
        self.add_class("-finished")
        self.query_one("#run-status", Static).update(f"The run failed: {self.failure}\nesc to close")

    def action_cancel_or_close(self) -> None:
        """While running: cancel (in-flight requests finish, the rest is skipped). After: close."""
        if self.finished:
            self.dismiss(self.report)
            return
        if not self.cancel_event.is_set():
            self.cancel_event.set()
            self.show_progress()  # no ETA from now on
            self.query_one("#run-status", Static).update("Cancelling: waiting for the requests in flight…")

    def action_open_audit(self) -> None:
        """After the run: close and open the Audit tab of the cleanup screen."""
        if not self.finished:
            return
        self.dismiss(self.report)
        self.app.screen.post_message(ShowAuditTab())
