"""`svctui audit list` and `svctui audit show RUN_ID`: the runs in the audit log, and one run selector by selector."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import datetime

import click
from pydantic import BaseModel

from svctui.commands.common import ExitCode, error, format_option, note
from svctui.commands.output import Format, make_writer
from svctui.commands.table import Role, TableColumn, TableWriter
from svctui.store.audit_read import AuditLog, AuditRun, read_audit
from svctui.store.errors import StoreError
from svctui.text import cut_start


class RunRow(BaseModel):
    """One run as `audit list` shows it."""

    run: str
    started: str  # ISO-8601 UTC as the log recorded it (data for json and csv); the table shows it in local time
    action: str
    profile: str
    token_id: str
    user: str
    server: str
    tag: str
    outcomes: str
    state: str


class SelectorRow(BaseModel):
    """One selector of a run as `audit show` shows it."""

    selector_id: int
    name: str
    outcome: str
    status: int | None
    request_id: str
    new_id: int | None
    message: str


def local_time(stamp: str) -> str:
    """An ISO UTC stamp in the local time zone (`2026-11-24 19:02:11`), or the stamp itself when it doesn't parse."""
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp


def run_row(run: AuditRun) -> RunRow:
    """The row of one run."""
    plan = run.plan
    tag_name = str(plan.get("tag_name") or "")
    tag = f"{run.tag_id} {tag_name}".strip() if run.tag_id is not None else ""
    return RunRow(
        run=run.run_id,
        started=run.started,
        action=run.action.removeprefix("selectors."),
        profile=str(plan.get("profile") or ""),
        token_id=str(plan.get("token_id") or ""),
        user=str(plan.get("user") or ""),
        server=str(plan.get("server") or ""),
        tag=tag,
        outcomes=run.counts_text,
        state=run.state,
    )


def _load() -> AuditLog:
    """The audit log, saying on stderr how many lines could not be read."""
    try:
        log = read_audit()
    except StoreError as exc:
        error(str(exc))
        raise click.exceptions.Exit(int(ExitCode.USAGE)) from None
    if log.unreadable_lines:
        note(f"{log.unreadable_lines:,} line(s) of the audit log could not be read and were skipped")
    return log


# A state is a few words (`finished`, `stopped: audit log not writable`) or `resumed by RUN`, whose run id is what
# the user types next: like the outcomes (`3 in doubt` is the answer), it is never cut; when even these do not fit,
# they continue on the next line (wrapped after a comma or between words).
STATE_WIDTH = len("resumed by 20261124T185501Z-3f9a")  # run ids are `new_run_id`'s, all as long as this one
OUTCOMES_WIDTH = len("45 in doubt,")  # wrapped to one count a line at the narrowest
RUN_COLUMNS = (  # roles and `drop` (the order optional columns are left out in on a narrow terminal): see TableColumn
    TableColumn("RUN", lambda r: r.run, Role.ESSENTIAL),  # what `audit show` and `selectors restore` take
    TableColumn("STARTED", lambda r: local_time(r.started), min_width=19, drop=3),  # the run id holds it too (UTC)
    TableColumn("ACTION", lambda r: r.action),
    TableColumn("PROFILE", lambda r: r.profile, Role.NAME, drop=2),
    TableColumn("SERVER", lambda r: r.server, Role.TEXT, drop=1),
    TableColumn("TAG", lambda r: r.tag, Role.NAME, drop=4),
    TableColumn("OUTCOMES", lambda r: r.outcomes, Role.ESSENTIAL, min_width=OUTCOMES_WIDTH, wrap=True),
    TableColumn("STATE", lambda r: r.state, Role.ESSENTIAL, min_width=STATE_WIDTH, wrap=True),
)
# A request id is what the server's logs are searched by: whole while anything else can give way, else its end (the
# part that differs, as the dashboard's run sheet shows it); an outcome is the answer, wrapped rather than cut.
REQUEST_ID_WIDTH = 13  # `…` and a uuid's last group
SELECTOR_COLUMNS = (
    TableColumn("ID", lambda s: s.selector_id, Role.ESSENTIAL, right=True),
    TableColumn("NAME", lambda s: s.name, Role.NAME),
    TableColumn("OUTCOME", lambda s: s.outcome, Role.ESSENTIAL, min_width=len("not found"), wrap=True),
    TableColumn("STATUS", lambda s: "" if s.status is None else s.status, right=True, drop=2),
    TableColumn("NEW ID", lambda s: "" if s.new_id is None else s.new_id, Role.ESSENTIAL, right=True),
    TableColumn("REQUEST ID", lambda s: s.request_id, Role.ESSENTIAL, min_width=REQUEST_ID_WIDTH, cut=cut_start),
    TableColumn("MESSAGE", lambda s: s.message, Role.TEXT, drop=1),
)


def _write(fmt: str, model: type[BaseModel], rows: Sequence[BaseModel], noun: str) -> None:
    columns = RUN_COLUMNS if model is RunRow else SELECTOR_COLUMNS
    writer = make_writer(Format(fmt), model, sys.stdout, noun=noun, err=sys.stderr, columns=columns)
    if isinstance(writer, TableWriter):  # one page: a column empty in every row (NEW ID of a deletion) is left out
        writer.drop_empty = True
    writer.write_page(rows)
    writer.close(complete=True)


@click.group()
def audit() -> None:
    """The audit log of destructive actions: every deletion and restore run (docs/AUDIT.md)."""


@audit.command("list", short_help="The runs, newest first: when, who, server, tag, outcome.")
@format_option
def audit_list(fmt: str) -> None:
    """The runs, newest first: when, who, which server and tag, outcomes, and whether a run was interrupted."""
    log = _load()
    if not log.runs:
        note("the audit log has no runs yet (nothing has been deleted with svctui here)")
    _write(fmt, RunRow, [run_row(run) for run in reversed(log.runs)], "runs")


@audit.command("show", short_help="Each selector of run RUN_ID and its outcome.")
@click.argument("run_id", metavar="RUN_ID")
@format_option
def audit_show(run_id: str, fmt: str) -> None:
    """Each selector of run RUN_ID (a unique prefix is enough): id, name, outcome, status, request id, new id."""
    log = _load()
    try:
        run = log.get(run_id.strip())
    except StoreError as exc:
        error(str(exc))
        raise click.exceptions.Exit(int(ExitCode.USAGE)) from None
    row = run_row(run)
    if fmt == Format.TABLE:
        note(
            f"run {row.run} ({row.action}) started {local_time(row.started)} by {row.profile or '?'} "
            f"(token {row.token_id or 'none'}, user {row.user or '?'}) on {row.server or '?'}, tag {row.tag or '?'}"
        )
        note(f"{row.state}; {row.outcomes or 'no outcomes'}")
    names = log.names(run.run_id)
    rows = [
        SelectorRow(
            selector_id=entry.selector_id,
            name=entry.name or names.get(entry.selector_id, ""),
            outcome="in doubt (sent, no answer recorded)" if entry.in_doubt else (entry.outcome or "not attempted"),
            status=entry.status,
            request_id=entry.request_id or "",
            new_id=entry.new_id,
            message=entry.message,
        )
        for entry in run.entries.values()
    ]
    _write(fmt, SelectorRow, rows, "selectors")
