"""`svctui selectors resume [RUN_ID]`: finish an interrupted deletion run from the audit log, never deleting twice."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import click

from svctui.commands.common import ExitCode, fail, note, profile_option, run_connected
from svctui.commands.delete_common import (
    REFUSE_NON_TTY,
    concurrency_option,
    declined,
    finish,
    past_run_here,
    printed_run,
    prompt_lines,
    refuse_off_terminal,
    refuse_read_only_first,
    yes_option,
)
from svctui.ops.selector_delete import NothingToResume, resume_run

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.store.audit_read import AuditRun
    from svctui.store.model import Profile


async def count_to_send(client: ApiClient, run: AuditRun, ids: list[int], concurrency: int) -> int:
    """How many of `ids` the resume will send a DELETE for, checked with GET now (what is settled is not counted)."""
    from svctui.ops.preview import preview_selectors
    from svctui.ops.resume import sends_delete

    results = await preview_selectors(client, run.tag_id or 0, ids, concurrency=concurrency, listed=ids)
    return sum(sends_delete(run, result) for result in results)


@click.command("resume", short_help="Resume an interrupted deletion run as a new run.")
@click.argument("run_id", metavar="[RUN_ID]", required=False)
@yes_option
@concurrency_option
@profile_option
@click.pass_context
def resume_command(
    ctx: click.Context, run_id: str | None, yes: bool, concurrency: int, profile_name: str | None
) -> None:
    """Resume deletion run RUN_ID (default: the last interrupted one) as a new run in the audit log.

    Every selector the run left unsettled (no answer, failed, never tried) is re-checked with GET: one that is
    gone is "already gone" and is not deleted again; only one that still exists is deleted. `svctui audit list`
    shows the runs. Exit codes as `selectors delete`; 0 with a message when there is nothing to resume, 2 when
    the run can't be resumed here (another server, not a deletion run).
    """
    refuse_read_only_first(ctx, profile_name, "resume a deletion run")
    if run_id is not None and not run_id.strip():
        fail("RUN_ID is empty; give a run id (svctui audit list shows them) or none for the last interrupted run")
    refuse_off_terminal(run_id.strip() if run_id else None, yes, REFUSE_NON_TTY)

    async def body(client: ApiClient, profile: Profile) -> ExitCode:
        from svctui.ops.resume import choose_run, recorded_selectors

        chosen = run_id.strip() if run_id else None
        try:
            run, audit_log = past_run_here(
                ctx,
                profile,
                client,
                "resume a deletion run",
                lambda log: choose_run(log, chosen),
                lambda run: run,
                verb="resume",
            )
        except NothingToResume as exc:
            note(str(exc))
            return ExitCode.OK
        ids = run.unsettled_ids()
        tag_name = run.plan.get("tag_name") or ""
        label = f"{run.tag_id} {tag_name!r}" if tag_name else str(run.tag_id)
        noun = "selector" if len(ids) == 1 else "selectors"
        started = run.started or "at an unknown time"
        note(f"Run {run.run_id} (started {started}) left {len(ids):,} {noun} of tag {label} unsettled:")
        note(prompt_lines(ids, recorded_selectors(run), run.tag_id or 0, listed=False)[0])
        where = f"{client.base_url} (profile {profile.name})"
        note(f"Each is re-checked with GET on {where}; only what is still there is deleted.")
        sending = len(ids) if yes else await count_to_send(client, run, ids, concurrency)
        doing = f"resume: delete what is left of {len(ids):,} {noun}"
        if sending != len(ids):  # the count to confirm is what will be sent: checked before the question, it stays
            note(f"Checked with GET just now: {len(ids) - sending:,} settled already (gone, or not the one planned).")
            doing = f"resume: delete the {sending:,} still there of {len(ids):,} {noun}"
        if declined(f"{doing[0].upper()}{doing[1:]}?", yes, sending, doing):
            return ExitCode.ABORTED
        report = await printed_run(client, profile, ids, partial(resume_run, client, run, concurrency=concurrency))
        note(f"resumed run {run.run_id}")
        return finish(report, audit_log)

    run_connected(ctx, profile_name, body)
