"""Undo from the Audit tab: re-create the selectors a past deletion run deleted (`svctui selectors restore`).

`start_restore(app, log, run)` plans with the engine (svctui.ops.selector_restore: never twice, in-doubt lookups),
asks in words (Cancel focused; above 20 the count is typed), then RestoreScreen runs `restore_run` in a worker:
one row per old id, its outcome and new id as each POST lands. `esc` cancels (the POST in flight finishes).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from svctui.ops.resume import ResumeRefused, check_same_server
from svctui.ops.selector_ids import TYPED_COUNT_ABOVE
from svctui.ops.selector_restore import (
    NothingToRestore,
    RestorePlan,
    RestoreResult,
    describe_plan,
    plan_restore,
    restore_run,
    restore_runs_of,
)
from svctui.store import audit
from svctui.store.audit_read import AuditLog, AuditRun
from svctui.table_fit import Column, ranked
from svctui.text import cut_start, plural, shown_and_more
from svctui.tui.app import SvcTuiApp
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.outcome_table import MESSAGE_LEAST, OutcomeTable
from svctui.tui.screens.selectors.session import (
    audit_context,
    guard_quit,
    profile_name,
    read_only_why,
    server_words,
)

IDS_SHOWN = 3
WAITING = "waiting"
RESTORE: Channel[list[RestoreResult]] = Channel("restore")  # the restore run, each result also a message
# The table's columns (most and least widths; OutcomeTable fits them to the sheet: the free room goes to the names
# first, a column with no value in any row (the message, for most runs) takes none) and the order they matter in.
RESTORE_FIT = ("old", "outcome", "new", "status", "name", "message", "request")
RESTORE_COLUMNS = ranked(
    (
        Column("old", "old id"),
        Column("name", "name", least=9, names=True),
        Column("outcome", "outcome", most=10, least=8),
        Column("new", "new id"),
        Column("status", "status"),
        Column("message", "message", least=MESSAGE_LEAST),
        Column("request", "request id", most=36, least=11),
    ),
    RESTORE_FIT,
)
RESTORE_CUTS = {"request": cut_start}  # a message ends with `…`: its start says what happened


class RestoreLanded(Message):
    """One old selector's restore outcome."""

    def __init__(self, result: RestoreResult) -> None:
        super().__init__()
        self.result = result


class RestoreWaiting(Message):
    """Another restore (this or another svctui) holds the restore lock: this one waits for it."""


WAITING_FOR_LOCK = "Waiting for another restore (another svctui) to finish: nothing is sent until then · esc cancels"


def restorable(run: AuditRun | None) -> bool:
    """True for a deletion run that deleted something (the plan says what is left to re-create)."""
    return run is not None and run.action == "selectors.delete" and run.counts.get("deleted", 0) > 0


def restore_question(plan: RestorePlan, app: SvcTuiApp) -> str:
    """The confirm dialog's question, one paragraph wrapped to the dialog's width: which run, where to, how."""
    run = plan.run
    tag = f"{run.tag_id} {run.plan.get('tag_name') or ''}".strip()
    return (
        f"Run {run.run_id}{and_its_resumes(plan)} deleted these selectors of tag {tag}. "
        f"Each is created again on {server_words(app)} (profile {profile_name(app)}) under a new id, "
        "with name, description, auto-certify and seeds; the audit log maps old → new ids."
    )


def and_its_resumes(plan: RestorePlan) -> str:
    """` and its resumes` after `run R` when its resumes deleted some of what the plan re-creates (the listing's first
    line splits it: `51 deleted by this run, 9 by its resumes R2`; the Audit tab counts run R's own outcomes)."""
    return " and its resumes" if plan.by_resume else ""


def restore_runs_text(runs: Sequence[str]) -> str:
    """`restore run R` or `restore runs R1, R2` (the restore runs that re-created the selectors)."""
    return f"restore run{'s' if len(runs) > 1 else ''} {', '.join(runs)}" if runs else "an earlier restore"


def nothing_to_restore(plan: RestorePlan, restored_by: Sequence[str]) -> str:
    """One short line when `u` finds nothing to re-create: restored already (by which run), and the few ids the
    run can't give back (the Audit tab lists each one's outcome)."""
    run_id = plan.run.run_id
    already, cannot = list(plan.already), list(plan.not_restorable)
    one = len(already) == 1
    if already and not cannot:
        return (
            f"Nothing to restore: {'the' if one else 'all'} {plural(len(already), 'selector')} of run {run_id} "
            f"{'was' if one else 'were'} restored already "
            f"({restore_runs_text(restored_by)})."
        )
    said = [f"Nothing to restore in run {run_id}:"]
    if already:
        said.append(f"{len(already):,} restored already ({restore_runs_text(restored_by)});")
    if cannot:
        reasons = set(plan.not_restorable.values())  # one reason for all (an extension's selector): say it here
        why = next(iter(reasons)) if len(reasons) == 1 else "the run's list says why"
        said.append(f"{len(cannot):,} can't be re-created ({shown_and_more(cannot, IDS_SHOWN)}): {why}.")
    return " ".join(said).removesuffix(";") + ("" if cannot else ".")


def start_restore(app: SvcTuiApp, log: AuditLog, run: AuditRun, on_closed: Callable[[], None]) -> None:
    """Plan the restore of `run`, say what it will do, and on yes run it in RestoreScreen (`on_closed` after)."""
    why_not = read_only_why(app)
    if why_not is not None:
        app.notify(f"Restoring is off: {why_not}.", severity="warning", markup=False)
        return
    try:
        plan = plan_restore(log, run.run_id)
        profile = app.profile
        check_same_server(
            plan.run,
            profile.base_url if profile is not None else "",
            verb="restore",
            token_id=profile.token_id if profile is not None else None,
        )
    except (NothingToRestore, ResumeRefused) as exc:
        app.notify(str(exc), severity="warning", markup=False)
        return
    count = len(plan.to_restore)
    if not count:
        app.notify(nothing_to_restore(plan, restore_runs_of(log, run.run_id)), markup=False)
        return

    def answered(confirmed: bool | None) -> None:
        if confirmed:
            app.push_screen(RestoreScreen(plan), lambda _: on_closed())

    typed = count if count > TYPED_COUNT_ABOVE else None
    title = f"Re-create {plural(count, 'selector')} deleted by run {run.run_id}{and_its_resumes(plan)}?"
    listing = describe_plan(plan)
    app.push_screen(ConfirmScreen(title, restore_question(plan, app), f"Restore {count:,}", typed, listing), answered)


class RestoreScreen(ModalScreen[None]):
    """Re-create the plan's selectors one at a time; each row shows old id → new id or why not."""

    app = getters.app(SvcTuiApp)

    DEFAULT_CSS = """
    RestoreScreen #restore-status { color: $text-muted; }
    RestoreScreen.-finished #restore-status { color: $text; text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel_or_close", "Cancel / close"),
        Binding("q,ctrl+c", "app.quit", "Quit", show=False),  # a modal screen hides the app's q: the guard is there
    ]

    def __init__(self, plan: RestorePlan) -> None:
        super().__init__()
        self.plan = plan
        self.run_id = audit.new_run_id()
        self.cancel_event = asyncio.Event()
        self.loads = Loads(self)
        self.results: dict[int, RestoreResult] = {}
        self.finished = False

    def compose(self) -> ComposeResult:
        """Title, where, the table of old ids, the status line."""
        app = self.app
        count = len(self.plan.to_restore)
        with Vertical(classes="sheet -undo"):
            what = plural(count, "selector")
            run_id, resumes = self.plan.run.run_id, and_its_resumes(self.plan)
            title = f"Restoring {what} deleted by run {run_id}{resumes} (restore run {self.run_id})"
            yield Static(title, classes="sheet-title", markup=False)
            yield Static(f"Profile {profile_name(app)} on {server_words(app)}", markup=False)
            yield OutcomeTable(RESTORE_COLUMNS, RESTORE_CUTS, table_id="restore-table", hide_empty=True)
            yield Static("esc cancels: the request in flight finishes, nothing more is sent", id="restore-status")

    def on_mount(self) -> None:
        """Every old id waiting; the run starts in a worker."""
        self.query_one(OutcomeTable).add_rows(
            {
                str(entry.selector_id): {"old": str(entry.selector_id), "name": entry.name, "outcome": WAITING}
                for entry in self.plan.to_restore
            }
        )
        app = self.app
        guard_quit(self, app, "A restore")
        plan, cancel, run_id = self.plan, self.cancel_event, self.run_id

        async def run() -> list[RestoreResult]:
            client = await app.api_client()
            context = audit_context(app, client)
            landed = self.post_message
            return await restore_run(
                client,
                plan,
                context=context,
                run_id=run_id,
                audit=audit.append_audit,
                on_result=lambda result: landed(RestoreLanded(result)),
                cancel=cancel,
                on_wait=lambda: landed(RestoreWaiting()),
            )

        self.loads.start(RESTORE, run)

    def on_restore_waiting(self, _message: RestoreWaiting) -> None:
        """Another restore holds the lock: say so while the rows wait (it said nothing)."""
        if not self.finished and not self.cancel_event.is_set():
            self.query_one("#restore-status", Static).update(WAITING_FOR_LOCK)

    def on_restore_landed(self, message: RestoreLanded) -> None:
        """One row: outcome, new id, status, message, request id."""
        self.show_result(message.result)

    def show_result(self, result: RestoreResult) -> None:
        """Put one result in its row."""
        self.results[result.old_id] = result
        values = {
            "outcome": result.outcome,
            "new": str(result.new_id) if result.new_id is not None else "",
            "status": str(result.status) if result.status is not None else "",
            "message": result.message,
            "request": result.request_id or "",
        }
        self.query_one(OutcomeTable).set_values({str(result.old_id): values})  # a row not in the table is skipped

    def on_loaded(self, message: Loaded[object]) -> None:
        """The restore ended: its counts, its run id, where the mapping is kept."""
        if not RESTORE.answers(message) or not self.loads.is_current(message):
            return
        results = message.value
        for result in results:  # the skipped ones were never reported one by one
            self.show_result(result)
        counts = Counter(result.outcome for result in results)
        summary = ", ".join(f"{number:,} {outcome}" for outcome, number in counts.items()) or "nothing"
        self.finish(f"Restore run {self.run_id}: {summary}. The Audit tab lists it · esc to close")

    def on_load_failed(self, message: LoadFailed) -> None:
        """The run could not start or stopped (e.g. the audit log can't be written): say why."""
        if not self.loads.is_current(message):
            return
        error = message.error
        text = error.user_message() if hasattr(error, "user_message") else str(error) or type(error).__name__
        self.finish(f"The restore stopped: {text}; nothing more was sent · esc to close")

    def finish(self, text: str) -> None:
        """The status line says how it ended; esc closes now."""
        self.finished = True
        self.add_class("-finished")
        self.query_one("#restore-status", Static).update(text)
        guard_quit(self, self.app, None)

    def on_unmount(self) -> None:
        """Never leave a quit refusal behind."""
        guard_quit(self, self.app, None)

    def action_cancel_or_close(self) -> None:
        """While running: cancel (the POST in flight finishes, the rest is skipped). After: close."""
        if self.finished:
            self.dismiss(None)
        elif not self.cancel_event.is_set():
            self.cancel_event.set()
            self.query_one("#restore-status", Static).update("Cancelling: waiting for the request in flight…")
