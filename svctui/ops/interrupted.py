"""The notice at start when the last deletion run against this server was interrupted (no Textual)."""

from __future__ import annotations

from svctui.store.audit_read import AuditRun, read_audit
from svctui.text import plural, when_text


def interrupted_run(server: str) -> AuditRun | None:
    """The last deletion run if it is interrupted, left selectors to settle and ran against `server`; else None
    (reads the audit log: blocking file work, run it in a thread)."""
    run = read_audit().last_interrupted()
    if run is None or run.tag_id is None or not run.unsettled_ids():
        return None
    planned = run.plan.get("server")
    if isinstance(planned, str) and planned.rstrip("/") != server.rstrip("/"):
        return None  # another server's run: its ids mean other selectors here, and the resume would refuse it
    return run


def recorded_tag(run: AuditRun) -> str:
    """`tag Owned`: the tag by the name the run's plan line recorded (as the dashboard names tags); `tag 3` only
    when the plan has no name."""
    name = run.plan.get("tag_name")
    return f"tag {name}" if isinstance(name, str) and name.strip() else f"tag {run.tag_id}"


def interrupted_notice(run: AuditRun, key: str) -> str:
    """`Deletion run 20261204T… (tag Owned, 2026-12-04 14:00:01Z) was interrupted with 5 selectors unsettled: press
    3 (Selector cleanup) to resume it.`"""
    when = when_text(run.started)
    return (
        f"Deletion run {run.run_id} ({recorded_tag(run)}, {when}) was interrupted with "
        f"{plural(len(run.unsettled_ids()), 'selector')} unsettled: press {key} (Selector cleanup) to resume it."
    )
