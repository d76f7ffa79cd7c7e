"""`svctui selectors restore RUN_ID [IDS…]`: re-create what a deletion run deleted, from its audit records."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import click

from svctui.commands.common import CommandFailure, ExitCode, fail, note, profile_option, run_connected
from svctui.commands.delete_common import (
    agreed,
    ctrl_c_cancels,
    past_run_here,
    refuse_demo_among,
    refuse_off_terminal,
    refuse_read_only_first,
    yes_option,
)
from svctui.text import plural

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.ops.selector_restore import RestoreResult
    from svctui.store.model import Profile

REFUSE_NON_TTY = "refusing to restore without --yes when not on a terminal"


def result_line(result: RestoreResult) -> str:
    """`12 'Old DCs': restored as 913`, or the outcome with its status, message and request id."""
    name = f" {result.name!r}" if result.name else ""
    if result.new_id is not None:
        note = f" ({result.message})" if result.message else ""
        return f"{result.old_id}{name}: {result.outcome} as {result.new_id}{note}"
    status = f" (HTTP {result.status})" if result.status else ""
    request = f" [request {result.request_id}]" if result.request_id else ""
    message = f": {result.message}" if result.message else ""
    return f"{result.old_id}{name}: {result.outcome}{status}{message}{request}"


def confirmed(count: int, yes: bool) -> bool:
    """--yes, or the user's answer (above 20 selectors the count must be typed, as for `delete` and `resume`)."""
    return yes or agreed(f"Re-create {plural(count, 'selector')}?", count, f"re-create {count} selectors")


@click.command(
    "restore",
    short_help="Re-create the selectors a deletion run deleted.",
    context_settings={"ignore_unknown_options": True},
)  # `-5` is a refused id (after the read-only check), not an option
@click.argument("run_id", metavar="RUN_ID")
@click.argument("ids", nargs=-1, metavar="[ID|RANGE]...")
@click.option("--dry-run", is_flag=True, help="Show what would be re-created and what skipped; create nothing.")
@yes_option
@profile_option
@click.pass_context
def restore_command(
    ctx: click.Context, run_id: str, ids: tuple[str, ...], dry_run: bool, yes: bool, profile_name: str | None
) -> None:
    """Re-create the selectors deletion run RUN_ID deleted (or only IDS of them) from the audit log's records.

    Each is created again with POST (name, description, auto_certify, seeds) and gets a new id; the mapping old
    id -> new id is printed and logged. Nothing is re-created twice: ids an earlier restore of the run re-created
    are skipped. Exit 0 when every one was restored, 7 when some were skipped (already restored, not part of the run
    or not deleted by it, found still there, or restored meanwhile by another restore; also when that left nothing to
    re-create) and none failed, 5 when any failed or got no answer, 1 when cancelled or answered
    no, 2 for bad input or a read-only svctui. --dry-run prints the plan and sends nothing (exit 0; 2 for bad input).
    """
    from svctui.api.ascii import split_ascii
    from svctui.api.quoting import quote_input
    from svctui.ops.selector_ids import IdError, collect_ids

    if not dry_run:
        refuse_read_only_first(ctx, profile_name, "re-create selectors")
    refuse_demo_among((run_id, *ids))
    if not run_id.strip():
        fail("RUN_ID is empty; `svctui audit list` shows the runs")
    try:
        only = collect_ids((token, f"argument {quote_input(token)}") for text in ids for token in split_ascii(text))
    except IdError as exc:
        fail(str(exc))
    if not dry_run:
        refuse_off_terminal(run_id.strip(), yes, REFUSE_NON_TTY)

    async def body(client: ApiClient, profile: Profile) -> ExitCode:
        from svctui.ops.audit_lines import AuditContext
        from svctui.ops.selector_restore import NothingToRestore, describe_plan, plan_restore, restore_run
        from svctui.store.audit import append_audit, new_run_id
        from svctui.store.errors import StoreError

        try:
            plan, audit_log = past_run_here(
                ctx,
                profile,
                client,
                "re-create selectors",
                lambda log: plan_restore(log, run_id.strip(), only),
                lambda plan: plan.run,
                verb="restore",
                dry_run=dry_run,
            )
        except NothingToRestore as exc:
            raise CommandFailure(str(exc), ExitCode.USAGE) from None
        tag = f"{plan.run.tag_id} {plan.run.plan.get('tag_name') or ''}".strip()
        if dry_run:
            note(f"dry run: on {client.base_url} (profile {profile.name}); nothing will be created")
        note(
            f"Run {plan.run.run_id} deleted selectors of tag {tag}; to re-create on {client.base_url} "
            f"(profile {profile.name}):"
        )
        for line in describe_plan(plan):
            note(line)
        # an id the plan leaves alone (already restored, not part of the run, not deleted by it) was skipped as much
        # as one found still there: exit 7, also when that leaves nothing to re-create
        skipped = ExitCode.SKIPPED if plan.already or plan.not_restorable else ExitCode.OK
        if dry_run:
            count = plural(len(plan.to_restore), "selector")
            note(f"dry run: {count} would be re-created; nothing was created")
            return ExitCode.OK
        if not plan.to_restore:
            note("nothing to re-create")
            return skipped
        if not confirmed(len(plan.to_restore), yes):
            note("aborted: nothing was created")
            return ExitCode.ABORTED
        cancel = asyncio.Event()
        restore_id = new_run_id()
        try:
            with ctrl_c_cancels(cancel, client):
                results = await restore_run(
                    client,
                    plan,
                    context=AuditContext.of(profile.name, profile.token_id, client.base_url),
                    run_id=restore_id,
                    audit=append_audit,
                    on_result=lambda result: click.echo(result_line(result)),
                    cancel=cancel,
                    on_wait=lambda: note("waiting for another restore (another svctui) to finish; ctrl+c cancels"),
                )
        except StoreError as exc:
            raise CommandFailure(f"{exc}; stopped: nothing more was sent", ExitCode.SERVER) from None
        if not results and cancel.is_set():
            note("cancelled while waiting for another restore: nothing was created")
            return ExitCode.ABORTED
        outcomes = [result.outcome for result in results]
        summary = ", ".join(f"{outcomes.count(name)} {name}" for name in dict.fromkeys(outcomes))
        note(f"run {restore_id}: {summary} (audit log: {audit_log})")
        if any(outcome in ("failed", "no answer") for outcome in outcomes):
            return ExitCode.SERVER
        if cancel.is_set():
            return ExitCode.ABORTED
        return ExitCode.SKIPPED if "skipped" in outcomes else skipped

    run_connected(ctx, profile_name, body)
