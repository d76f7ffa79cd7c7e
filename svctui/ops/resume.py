"""Resuming a deletion run from the audit log: a new run over the ids the old one left unsettled.

Each id is re-checked with GET first: gone (404 `resource not found`) is settled as "already gone" without a
DELETE; only a selector that still exists is deleted — so nothing is ever deleted twice.
"""

from __future__ import annotations

import asyncio
import ipaddress
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import ValidationError

from svctui.api.models import Selector
from svctui.ops.audit_lines import DELETE_ACTION, AuditContext
from svctui.ops.delete_run import AuditSink, ResultCallback, SelectorClient, delete_selectors
from svctui.ops.identity import another_selector, renamed
from svctui.ops.outcomes import DeleteReport
from svctui.ops.preview import Preview, PreviewResult
from svctui.store.audit_read import LEGACY_RUN_ID, AuditLog, AuditRun
from svctui.store.model import DEMO_PROFILE
from svctui.text import plural


class NothingToResume(Exception):
    """There is no run to resume, or the chosen one needn't be resumed; the message says which."""


class ResumeRefused(NothingToResume):
    """The chosen run can't be resumed here (another server, a legacy or restore run, no plan); the message says why."""


def choose_run(log: AuditLog, run_id: str | None) -> AuditRun:
    """The run `run_id` names (a unique prefix is enough), else the last interrupted deletion run.

    StoreError when `run_id` matches no run or several; NothingToResume when there is nothing to do.
    """
    if run_id is None:
        run = log.last_interrupted(DELETE_ACTION)
        if run is None:
            raise NothingToResume("nothing to resume: no interrupted deletion run in the audit log" + _retry_hint(log))
    else:
        run = log.get(run_id)
    why_not = resume_refusal(run)
    if why_not is not None:
        raise why_not
    return run


def resume_refusal(run: AuditRun) -> NothingToResume | None:
    """Why `run` can't be resumed (ResumeRefused, or NothingToResume when nothing is left), None when it can.

    The one rule of `svctui selectors resume RUN_ID` and the dashboard's `s`: a deletion run with a plan, not
    resumed already by a run that finished, with selectors left unsettled (no answer, failed, skipped or never
    tried) — whether it was interrupted, cancelled or stopped. Another server is checked apart (`check_same_server`).
    """
    if run.run_id == LEGACY_RUN_ID:
        return ResumeRefused("the 'legacy' lines were written before runs had ids; they can't be resumed")
    if run.action != DELETE_ACTION:
        action = run.action.removeprefix("selectors.")
        return ResumeRefused(f"run {run.run_id} is a {action} run; only deletion runs can be resumed")
    if run.tag_id is None:
        return ResumeRefused(f"run {run.run_id} has no plan line (its tag is unknown); it can't be resumed")
    if run.resolved_by is not None:
        return NothingToResume(
            f"nothing to resume: run {run.run_id} was resumed by run {run.resolved_by}; "
            f"resume that one if it left selectors unsettled"
        )
    if not run.unsettled_ids():
        return NothingToResume(f"nothing to resume: every selector of run {run.run_id} is settled")
    return None


def _retry_hint(log: AuditLog) -> str:
    """`; run X finished with N selectors unsettled …` for the newest finished run nobody resumed yet, else ''."""
    resumed = {run.resumes for run in log.runs}
    for run in reversed(log.runs):
        if run.action != DELETE_ACTION or run.run_id in resumed or run.run_id == LEGACY_RUN_ID:
            continue
        left = run.unsettled_ids()
        if left:
            return (
                f"; run {run.run_id} finished with {plural(len(left), 'selector')} not deleted (failed, no answer or "
                f"skipped): `svctui selectors resume {run.run_id}` re-checks and retries them"
            )
        return ""
    return ""


def check_same_server(
    run: AuditRun, server: str, *, verb: Literal["resume", "restore"], token_id: str | None = None
) -> None:
    """ResumeRefused when the run was against another server than the profile's (the ids would mean others); the
    message says to `verb` (resume or restore: what was asked) it with the profile for that server. A loopback server
    on another port with the run's token id (`token_id`: the profile's) is the same: the embedded demo keeps its
    token in its database, so a restarted `make demo` on a new port is the one the run deleted on (issue 28)."""
    planned = run.plan.get("server")
    if not isinstance(planned, str) or not planned or planned.rstrip("/") == server.rstrip("/"):
        return
    if token_id and run.plan.get("token_id") == token_id and _loopback(planned) and _loopback(server):
        return
    hint = ""
    if run.plan.get("profile") == DEMO_PROFILE and _loopback(planned):
        port = urlsplit(planned).port
        hint = f" (the embedded demo: start it on that port with `svctui demo-server --port {port}`)"
    raise ResumeRefused(
        f"run {run.run_id} deleted on {planned}, not on {server}; {verb} it with the profile for that server{hint}"
    )


def _loopback(url: str) -> bool:
    """Whether `url` names this machine by a loopback address."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# What a GET check leaves to a DELETE in a resume (a default selector's is sent, and refused by the server); the rest
# (gone, not in the tag) is settled without one, and so is another selector under the id, or the one planned renamed
SENT_AFTER_CHECK = (Preview.WOULD_DELETE, Preview.WOULD_REFUSE, Preview.UNKNOWN, Preview.UNCHECKED)


def changed_since_planned(run: AuditRun, result: PreviewResult) -> Literal["another", "renamed"] | None:
    """Whether the checked selector is another one under the planned id, or the planned one renamed (not deleted)."""
    entry = run.entries.get(result.selector_id)
    kept = (entry.planned or entry.record) if entry is not None else None
    if result.selector is not None and another_selector(result.selector, kept) is not None:
        return "another"
    if result.selector is not None and renamed(result.selector, kept) is not None:
        return "renamed"
    return None


def sends_delete(run: AuditRun, result: PreviewResult) -> bool:
    """Whether resuming `run` will send a DELETE for a selector its GET check found so: the count to confirm (the
    deletion review's rule: what is settled already is not counted)."""
    return result.preview in SENT_AFTER_CHECK and changed_since_planned(run, result) is None


def recorded_selectors(run: AuditRun) -> dict[int, Selector]:
    """The selector records the deletion kept (the first of its runs' intent lines: what it planned to delete), for
    names and for the GET re-check, which deletes nothing but that selector."""
    found: dict[int, Selector] = {}
    for selector_id, entry in run.entries.items():
        record: dict[str, Any] | None = entry.planned or entry.record
        if record is None:
            continue
        try:
            found[selector_id] = Selector.model_validate(record)
        except ValidationError:
            continue
    return found


async def resume_run(
    client: SelectorClient,
    run: AuditRun,
    *,
    context: AuditContext,
    concurrency: int = 4,
    on_result: ResultCallback | None = None,
    cancel: asyncio.Event | None = None,
    audit: AuditSink | None = None,
) -> DeleteReport:
    """Resume `run` (see `choose_run`) as a new run with `resumes: <run id>` over its unsettled ids.

    NothingToResume when it was against another server or has nothing left; otherwise as `delete_selectors`.
    """
    check_same_server(run, context.server, verb="resume", token_id=context.token_id)
    ids = run.unsettled_ids()
    if run.tag_id is None or not ids:
        raise NothingToResume(f"nothing to resume in run {run.run_id}")
    tag_name = run.plan.get("tag_name")
    return await delete_selectors(
        client,
        run.tag_id,
        ids,
        context=context,
        concurrency=concurrency,
        on_result=on_result,
        cancel=cancel,
        records=recorded_selectors(run),
        tag_name=tag_name if isinstance(tag_name, str) else "",
        resumes=run.run_id,
        audit=audit,
    )
