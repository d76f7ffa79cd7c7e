"""Resuming an interrupted deletion run from the dashboard: the offer at start, the confirm dialog, the run.

`offer_resume(app)` reads the audit log in a worker thread; when the last deletion run is interrupted it asks
("Resume interrupted run", naming the run, its counts and server, and listing every unsettled selector by name with
what happens to it; above 20 the count is typed, as in a fresh deletion's review) and, if confirmed, runs the
engine's `resume_run` in the RunScreen: every unsettled selector is re-checked with GET and deleted only if it
still exists.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from svctui.api.client import ApiClient
from svctui.api.models import AssetGroupTag
from svctui.ops.resume import check_same_server, recorded_selectors
from svctui.ops.selector_delete import (
    AuditContext,
    DeleteReport,
    NothingToResume,
    ResultCallback,
    resume_run,
)
from svctui.ops.selector_ids import TYPED_COUNT_ABOVE
from svctui.store.audit_read import AuditRun, SelectorEntry, read_audit
from svctui.text import id_ranges, when_text
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.plan import CleanupPlan
from svctui.tui.screens.selectors.run import RunJob, RunScreen
from svctui.tui.screens.selectors.session import DEFAULT_CONCURRENCY, read_only_why

if TYPE_CHECKING:
    from svctui.tui.app import SvcTuiApp


def ignore_gone(tag_id: int, selector_id: int) -> None:
    """The default `on_gone` of a resume started without a browse screen to tell."""


def resume_plan(run: AuditRun) -> CleanupPlan:
    """A plan naming what the resume will re-check: the run's tag, its recorded selectors, the rest as bare ids."""
    ids = run.unsettled_ids()
    records = recorded_selectors(run)
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


def run_summary(run: AuditRun) -> str:
    """The dialog's question, one paragraph wrapped to the dialog's width: when, who, server, tag, counts so far,
    what a resume does."""
    plan = run.plan
    who = f"profile {plan.get('profile') or '?'}" + (f", user {plan['user']}" if plan.get("user") else "")
    tag = f"tag {run.tag_id}" + (f" {plan['tag_name']!r}" if plan.get("tag_name") else "")
    left = len(run.unsettled_ids())
    return (
        f"Run {run.run_id} started {when_text(run.started)} by {who} on {plan.get('server') or '?'}, {tag}. "
        f"So far: {run.counts_text}. "
        f"{left:,} selector(s) are unsettled: each is re-checked with GET and deleted only if it still exists."
    )


def last_state(entry: SelectorEntry | None) -> str:
    """What the run last knew of one unsettled selector: `no answer (sent: may be gone)`, `failed`, `not attempted`."""
    if entry is not None and entry.in_doubt:
        return "no answer (sent: may be gone already)"
    return entry.outcome if entry is not None and entry.outcome else "not attempted"


def resume_listing(run: AuditRun) -> list[str]:
    """Every unsettled selector by name (the intent line's record) or id, grouped by its last state in the run, each
    group saying what the resume does to it: the resume deletes selectors nobody reviewed, so each is named."""
    records = recorded_selectors(run)
    groups: dict[str, list[int]] = {}
    for selector_id in run.unsettled_ids():
        groups.setdefault(last_state(run.entries.get(selector_id)), []).append(selector_id)
    width = max((len(str(selector_id)) for ids in groups.values() for selector_id in ids), default=1)
    lines: list[str] = []
    for state, ids in groups.items():
        lines.append(f"{len(ids):,} {state}: GET first; DELETE only if it still exists ({id_ranges(ids)})")
        for selector_id in ids:
            record = records.get(selector_id)
            name = repr(record.name) if record is not None else "(no record in the log: name unknown)"
            lines.append(f"  {selector_id:>{width}}  {name}")
    return lines


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
        check_same_server(run, app.profile.base_url if app.profile is not None else "")
    except NothingToResume as exc:
        app.notify(str(exc), severity="warning", markup=False)
        return

    def answered(confirmed: bool | None) -> None:
        if confirmed:
            title = f"Resuming run {run.run_id} ({len(run.unsettled_ids()):,} selector(s))"
            screen = RunScreen(resume_plan(run), on_gone, job=resume_job(run), title=title)
            app.push_screen(screen, lambda _: on_closed() if on_closed is not None else None)

    question = "Resume interrupted run?" if run.interrupted else f"Resume run ({run.state})?"
    count = len(run.unsettled_ids())
    typed = count if count > TYPED_COUNT_ABOVE else None  # as a fresh deletion's review: above 20, type the count
    dialog = ConfirmScreen(question, run_summary(run), f"Resume {count:,}", typed, resume_listing(run))
    app.push_screen(dialog, answered)


def offer_resume(app: SvcTuiApp, on_gone: Callable[[int, int], None] = ignore_gone) -> None:
    """Once at the screen's first mount: if the last deletion run is interrupted, offer to resume it."""

    def look() -> None:
        try:
            run = read_audit().last_interrupted()
        except Exception as exc:  # an unreadable log: say so, never a traceback
            app.call_from_thread(app.notify, f"Audit log: {exc}", severity="error", markup=False)
            return
        if run is not None and run.tag_id is not None and run.unsettled_ids():
            app.call_from_thread(start_resume, app, run, on_gone)

    app.run_worker(look, thread=True, name="resume-offer", group="resume-offer", exit_on_error=False)
