"""Resuming an interrupted deletion run from the dashboard: the offer at start, the confirm dialog, the run.

The Selectors screen reads the audit log at its first mount (`resumable_run`, through its Loads, in a thread); when
the last deletion run is interrupted, `start_resume` asks ("Resume interrupted run", naming the run, its counts and
server, and listing every unsettled selector by name with what happens to it; above 20 the count is typed, as in a
fresh deletion's review) and, if confirmed, runs the engine's `resume_run` in the RunScreen: every unsettled
selector is re-checked with GET and deleted only if it still exists.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping

from textual import getters

from svctui.api.client import ApiClient
from svctui.api.models import AssetGroupTag, Selector
from svctui.ops.resume import changed_since_planned, check_same_server, recorded_selectors, sends_delete
from svctui.ops.selector_delete import (
    AuditContext,
    DeleteReport,
    NothingToResume,
    Preview,
    PreviewResult,
    ResultCallback,
    preview_selectors,
    resume_run,
)
from svctui.ops.selector_ids import TYPED_COUNT_ABOVE
from svctui.store.audit_read import AuditRun, SelectorEntry, read_audit
from svctui.text import plural, when_text
from svctui.tui.app import SvcTuiApp
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.plan import CleanupPlan
from svctui.tui.screens.selectors.run import RunJob, RunScreen
from svctui.tui.screens.selectors.session import DEFAULT_CONCURRENCY, read_only_why, server_words


def ignore_gone(tag_id: int, selector_id: int) -> None:
    """The default `on_gone` of a resume started without a browse screen to tell."""


def resume_plan(run: AuditRun, checked: Mapping[int, Selector] | None = None) -> CleanupPlan:
    """A plan naming what the resume will re-check: the run's tag, its selectors as the confirm's GET check found
    them (`checked`), else as the run's intent lines recorded them, the rest as bare ids (the run sheet names each
    row from it: a selector the killed run never reached has no intent line, but the check fetched it)."""
    ids = run.unsettled_ids()
    records = {**recorded_selectors(run), **(checked or {})}
    tag_name = run.plan.get("tag_name")
    tag = AssetGroupTag(id=run.tag_id or 0, name=tag_name if isinstance(tag_name, str) else "")
    known = tuple(records[selector_id] for selector_id in ids if selector_id in records)
    unknown = tuple(selector_id for selector_id in ids if selector_id not in records)
    return CleanupPlan(tag, known, unknown, f"resuming run {run.run_id}")


def resume_job(run: AuditRun, concurrency: int = DEFAULT_CONCURRENCY) -> RunJob:
    """The engine's resume of `run` as a RunScreen job."""

    async def job(
        client: ApiClient, context: AuditContext, cancel: asyncio.Event, on_result: ResultCallback
    ) -> DeleteReport:
        return await resume_run(
            client, run, context=context, concurrency=concurrency, on_result=on_result, cancel=cancel
        )

    return job


def run_summary(run: AuditRun, server: str | None = None) -> str:
    """The dialog's question, one paragraph wrapped to the dialog's width: when, who, server (`server`: as the
    header names the one in use, which the resume checked is the run's; else the run's URL), tag, counts so far,
    what a resume does."""
    plan = run.plan
    who = f"profile {plan.get('profile') or '?'}" + (f", user {plan['user']}" if plan.get("user") else "")
    tag = f"tag {run.tag_id}" + (f" {plan['tag_name']!r}" if plan.get("tag_name") else "")
    left = len(run.unsettled_ids())
    return (
        f"Run {run.run_id} started {when_text(run.started)} by {who} on {server or plan.get('server') or '?'}, {tag}. "
        f"So far: {run.counts_text}. "
        f"{plural(left, 'selector')} {'is' if left == 1 else 'are'} unsettled: each is re-checked with GET and "
        "deleted only if it still exists."
    )


def last_state(entry: SelectorEntry | None) -> str:
    """What the run last knew of one unsettled selector: `no answer (sent: may be gone)`, `failed`, `not attempted`."""
    if entry is not None and entry.in_doubt:
        return "no answer (sent: may be gone already)"
    return entry.outcome if entry is not None and entry.outcome else "not attempted"


def grouped_lines(groups: dict[str, list[int]], names: Callable[[int], str]) -> list[str]:
    """`3 failed:` then one `  12  'Old DCs'` line per selector, for each group. The heading lists no ids: the lines
    under it do, each with its name (at 80x24 a heading's id ranges wrapped over the few lines the listing has, and
    the names were out of view)."""
    width = max((len(str(selector_id)) for ids in groups.values() for selector_id in ids), default=1)
    lines: list[str] = []
    for heading, ids in groups.items():
        lines.append(f"{len(ids):,} {heading}:")
        lines.extend(f"  {selector_id:>{width}}  {names(selector_id)}" for selector_id in ids)
    return lines


def recorded_name(run: AuditRun) -> Callable[[int], str]:
    """A selector's name as the run's intent line recorded it, else `name unknown`."""
    records = recorded_selectors(run)
    return lambda selector_id: repr(records[selector_id].name) if selector_id in records else "(name unknown yet)"


def resume_listing(run: AuditRun) -> list[str]:
    """Before the check: every unsettled selector by its recorded name (or id) under its last state in the run."""
    groups: dict[str, list[int]] = {}
    for selector_id in run.unsettled_ids():
        groups.setdefault(last_state(run.entries.get(selector_id)), []).append(selector_id)
    head = f"Checking each with GET… (the resume GETs each again before any DELETE). Last state in run {run.run_id}:"
    return [head, *grouped_lines(groups, recorded_name(run))]


CHECKED = {
    Preview.WOULD_DELETE: "still there: will be deleted",
    Preview.GONE: "gone already: settled without a DELETE",
    Preview.NOT_FOUND: "gone already: settled without a DELETE",
    Preview.NOT_IN_TAG: "not part of the tag: settled without a DELETE",
    Preview.WOULD_REFUSE: "default selector: the server will refuse it",
    Preview.UNKNOWN: "no lookup on this server: DELETE decides",
    Preview.UNCHECKED: "could not be checked: the resume GETs it again first",
}


# what the resume does to a selector that changed since the run planned it (`changed_since_planned`), whatever its GET
CHANGED = {
    "another": "another selector under its id now: the one planned is gone, this one is not deleted",
    "renamed": "renamed since the run planned it: not deleted",
}


def checked_heading(run: AuditRun, result: PreviewResult) -> str:
    """What the resume will do to one checked selector, as the listing's heading says it."""
    changed = changed_since_planned(run, result)
    return CHECKED[result.preview] if changed is None else CHANGED[changed]


def checked_listing(run: AuditRun, results: list[PreviewResult]) -> list[str]:
    """After the check: what the resume will do to each selector, by name (the GET's record, else the log's)."""
    logged = recorded_name(run)
    found = {result.selector_id: result.selector for result in results if result.selector is not None}
    groups: dict[str, list[int]] = {}
    for result in results:
        groups.setdefault(checked_heading(run, result), []).append(result.selector_id)

    def name(selector_id: int) -> str:
        selector = found.get(selector_id)
        return repr(selector.name) if selector is not None else logged(selector_id).replace(" yet", "")

    return ["Checked with GET just now (each is checked again before its DELETE):", *grouped_lines(groups, name)]


CHECK: Channel[list[PreviewResult]] = Channel("check")  # the unsettled selectors checked with GET


class ResumeConfirm(ConfirmScreen):
    """The resume's question: every unsettled selector listed, checked with GET (a dry run, as the review's) before
    Resume can be pressed; above 20 the count is typed."""

    app = getters.app(SvcTuiApp)

    def __init__(self, run: AuditRun, question: str, server: str | None = None) -> None:
        count = len(run.unsettled_ids())
        typed = count if count > TYPED_COUNT_ABOVE else None  # as a fresh deletion's review: above 20, type the count
        super().__init__(question, run_summary(run, server), f"Resume {count:,}", typed, resume_listing(run))
        self.audit_run = run
        self.ready = False
        self.loads = Loads(self)
        self.checked: dict[int, Selector] = {}  # what the GET check found, by id: the run sheet names its rows so

    def on_mount(self) -> None:
        """Check each unsettled selector with GET in a worker (never in a handler)."""
        app = self.app
        tag_id, ids = self.audit_run.tag_id or 0, self.audit_run.unsettled_ids()

        async def check() -> list[PreviewResult]:
            client = await app.api_client()
            return await preview_selectors(client, tag_id, ids, concurrency=DEFAULT_CONCURRENCY, listed=ids)

        self.loads.start(CHECK, check)

    def on_loaded(self, message: Loaded[object]) -> None:
        """What the resume will do to each; Resume may be pressed now (the typed count permitting)."""
        if CHECK.answers(message) and self.loads.is_current(message):
            results = message.value
            self.checked = {result.selector_id: result.selector for result in results if result.selector is not None}
            self.show_listing(checked_listing(self.audit_run, results))
            sending = sum(sends_delete(self.audit_run, result) for result in results)  # settled: not counted
            self.set_count(f"Resume {sending:,}", sending)
            self.set_ready(True)

    def on_load_failed(self, message: LoadFailed) -> None:
        """The check failed: say so; the resume itself GETs each selector first, so it may still go ahead."""
        if self.loads.is_current(message):
            error = message.error
            text = error.user_message() if hasattr(error, "user_message") else str(error) or type(error).__name__
            lines = [f"The check failed ({text}); the resume GETs each again before any DELETE.", *self.listing[1:]]
            self.show_listing(lines)
            self.set_ready(True)


def start_resume(
    app: SvcTuiApp,
    run: AuditRun,
    on_gone: Callable[[int, int], None] = ignore_gone,
    on_closed: Callable[[], None] | None = None,
) -> None:
    """Ask (naming the run, its counts and server); on yes, run the resume in the RunScreen (`on_closed` after)."""
    why_not = read_only_why(app)
    if why_not is not None:
        what = "is interrupted" if run.interrupted else f"({run.state}) left selectors unsettled"
        app.notify(f"Run {run.run_id} {what}; resuming is off: {why_not}.", severity="warning", markup=False)
        return
    try:
        profile = app.profile
        check_same_server(
            run,
            profile.base_url if profile is not None else "",
            verb="resume",
            token_id=profile.token_id if profile is not None else None,
        )
    except NothingToResume as exc:
        app.notify(str(exc), severity="warning", markup=False)
        return

    question = "Resume interrupted run?" if run.interrupted else f"Resume run ({run.state})?"
    confirm = ResumeConfirm(run, question, server_words(app))

    def answered(confirmed: bool | None) -> None:
        if confirmed:
            title = f"Resuming run {run.run_id} ({plural(len(run.unsettled_ids()), 'selector')})"
            screen = RunScreen(resume_plan(run, confirm.checked), on_gone, job=resume_job(run), title=title)
            app.push_screen(screen, lambda _: on_closed() if on_closed is not None else None)

    app.clear_notifications()  # the start-up notice naming this run would sit over the dialog's buttons
    app.push_screen(confirm, answered)


def resumable_run() -> AuditRun | None:
    """The last deletion run when it is interrupted with selectors left to settle, else None (reads the audit log:
    blocking file work, run it in a thread)."""
    run = read_audit().last_interrupted()
    return run if run is not None and run.tag_id is not None and run.unsettled_ids() else None
