"""`svctui health`: the morning check for scripts and cron.

`health` prints one line per client with its verdict — failing, stale, drops, never ran, ok (rules in
`svctui.triage.health`) — and exits 0 when every client is well, 6 when one has a problem named by `--fail-on`,
5 when a client could not be checked (its line says why), and the usual 2-4 for bad input, authentication and
a missing client.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import click

from svctui.api.filters import parse_timestamp
from svctui.api.limits import REPLACEMENT_TASK_ENDPOINT, TASK_ENDPOINTS
from svctui.api.models import status_label
from svctui.api.quoting import quote_input
from svctui.commands.client_ref import check_client, resolve_clients
from svctui.commands.common import (
    CommandFailure,
    ExitCode,
    FiniteFloat,
    exit_code_for,
    fail,
    note,
    profile_option,
    run_connected,
)
from svctui.commands.table import Role, TableColumn, TableWriter, terminal_width
from svctui.fleet import HealthOptions, MemberHealth, find_fleet, fleet_health
from svctui.triage.health import ClientHealth, Problem, Verdict, age_text, strip_text, unhealthy, worst_first
from svctui.visible import json_safe

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.store.model import Profile

PROBLEMS = [problem.value for problem in Problem]
DEFAULT_FAIL_ON = "not-ok,drops,stale"


# ---------------------------------------------------------------- health


_BARE_SPAN = re.compile(r"\s*(\d+\s*[smhdw])\s*", re.ASCII)  # `24h`: --since reads it as `-24h`
_SPAN = re.compile(r"\s*[+-]?\s*(\d+\s*[smhdw])\s*", re.ASCII)  # `24h`, `-24h`: --stale-after reads both


def _window(since: str, now: datetime) -> timedelta:
    """`--since -24h` or `24h` (a span back from now; both forms, as --stale-after takes) or an RFC 3339 time, as
    the window ending now."""
    span = _BARE_SPAN.fullmatch(since)
    try:
        start = datetime.fromisoformat(parse_timestamp(f"-{span[1]}" if span else since, now).replace("Z", "+00:00"))
    except ValueError:
        fail(f"--since {quote_input(since)} is not a time; allowed: -24h, -7d, -30m or an RFC 3339 time")
    if start >= now:
        fail(f"--since {quote_input(since)} is not in the past")
    return now - start


def _duration(text: str, option: str) -> timedelta:
    """`24h`, `90m`, `2d` (or `-24h`, as --since takes) as a duration (read by the filters' relative-time rule, as
    `+24h` from a fixed moment)."""
    span = _SPAN.fullmatch(text)
    try:
        return (
            datetime.fromisoformat(parse_timestamp(f"+{span[1] if span else text}", EPOCH).replace("Z", "+00:00"))
            - EPOCH
        )
    except ValueError:
        fail(f"{option} {quote_input(text)} is not a duration; allowed: 24h, 90m, 2d, 1w")


EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def _problems(text: str) -> frozenset[Problem]:
    """`--fail-on not-ok,drops` as problems; `none` for none."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if names == ["none"]:
        return frozenset()
    unknown = [name for name in names if name not in PROBLEMS]
    if unknown or not names:
        fail(f"--fail-on {quote_input(text)}: allowed: a comma-separated list of {', '.join(PROBLEMS)}, or none")
    return frozenset(Problem(name) for name in names)


def _row_json(result: MemberHealth, now: datetime) -> dict[str, Any]:
    member, health = result.member, result.health
    row: dict[str, Any] = {"client_id": member.client_id, "name": member.name}
    if health is None:
        error = result.error
        return {**row, "verdict": "error", "error": error.user_message() if error is not None else "unknown"}
    last = health.last_run
    return {
        **row,
        "name": health.name,
        "verdict": str(health.verdict),
        "problems": sorted(str(problem) for problem in health.problems),
        "runs_in_window": health.runs_in_window,
        "not_ok_in_window": health.not_ok_in_window,
        "runs_with_drops_in_window": health.drops_in_window,
        "last_run": None if last is None else {"id": last.id, "status": status_label(last.status),
                                               "time": None if last.execution_time is None
                                               else last.execution_time.isoformat()},
        "last_checkin": None if health.last_checkin is None else health.last_checkin.isoformat(),
        "stale": health.stale,
        "strip": strip_text(health.strip),
        "failures": [{"id": task.id, "status": status_label(task.status), "message": task.status_message}
                     for task in health.last_failures[:5]],
    }  # fmt: skip


HEALTH_COLUMNS = (  # roles and `drop` (the order columns are left out in on a narrow terminal): see TableColumn
    TableColumn("VERDICT", lambda row: row["verdict"].upper() if row["verdict"] != "ok" else "ok", min_width=9),
    TableColumn("CLIENT", lambda row: row["name"] or row["client_id"], Role.NAME),
    TableColumn("LAST RUN", lambda row: row["last_run_text"], min_width=12),
    TableColumn("NOT OK", lambda row: row.get("not_ok_in_window", ""), right=True, drop=3),
    TableColumn("DROPS", lambda row: row.get("runs_with_drops_in_window", ""), right=True, drop=2),
    TableColumn("CHECK-IN", lambda row: row["checkin_text"], min_width=9, drop=4),
    TableColumn("LAST 20 RUNS", lambda row: row.get("strip", ""), min_width=12, drop=1),
    TableColumn("NOTE", lambda row: row["note"], Role.TEXT, min_width=24),  # why: the failure
)


def _table_row(result: MemberHealth, now: datetime) -> dict[str, Any]:
    row = _row_json(result, now)
    health = result.health
    last = None if health is None else health.last_run
    row["last_run_text"] = "-" if last is None else f"{status_label(last.status)}, {age_text(last.execution_time, now)}"
    row["checkin_text"] = age_text(None if health is None else health.last_checkin, now)
    if health is None:
        row["note"] = row["error"]
    elif health.last_failures:
        failure = health.last_failures[0]
        row["note"] = f"task {failure.id}: {failure.status_message or status_label(failure.status)}"
    elif health.verdict is Verdict.STALE:
        row["note"] = "no check-in since " + age_text(health.last_checkin, now)
    elif health.window_drops:
        drop, more = health.window_drops[0], len(health.window_drops) - 1
        row["note"] = f"task {drop.task_id}: {drop.text()} vs task {drop.previous_task_id}" + (
            f" (+{more} more)" if more else ""
        )
    elif health.verdict is Verdict.NEVER_RAN:
        row["note"] = "no completed run"
    else:
        row["note"] = ""
    return row


@click.command()
@click.option(
    "--since",
    default="-24h",
    show_default=True,
    help="Window of runs to judge: 24h (or -24h), 7d, or an RFC 3339 time.",
)
@click.option(
    "--stale-after",
    default="24h",
    show_default=True,
    help="A check-in older than this is stale: 24h (or -24h), 90m, 2d.",
)
@click.option(
    "--client",
    "client_ids",
    multiple=True,
    metavar="ID|NAME",
    help="Check only this client, by uuid or name (repeatable).",
)
@click.option(
    "--fail-on",
    default=DEFAULT_FAIL_ON,
    show_default=True,
    metavar="LIST",
    help=f"Problems that make the exit code 6: a comma-separated list of {', '.join(PROBLEMS)}, or none.",
)
@click.option(
    "--threshold",
    type=FiniteFloat(0, 1),
    default=0.2,
    show_default=True,
    help="A run's count of a kind this far below the previous like run is a drop (0.2: a fifth lower).",
)
@click.option(
    "--endpoint",
    type=click.Choice(TASK_ENDPOINTS),
    default=REPLACEMENT_TASK_ENDPOINT,
    show_default=True,
    help="Where each client's runs are read: completed-jobs, or the deprecated completed-tasks (a notice on stderr).",
)
@click.option(
    "--format",
    "-o",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@profile_option
@click.pass_context
def health(
    ctx: click.Context,
    since: str,
    stale_after: str,
    client_ids: tuple[str, ...],
    fail_on: str,
    threshold: float,
    endpoint: str,
    fmt: str,
    profile_name: str | None,
) -> None:
    """Did last night's collections work? One line per client, worst first.

    Verdicts: failing (a failed, timed-out or partially complete run in the window), stale (no check-in within
    --stale-after), drops (a run in the window whose counts dropped), never ran, ok. Exit 0 when all is well,
    6 when a client has a problem named by --fail-on, 4 when a --client uuid is unknown to the server (2 when a name
    matches no client, or several: nothing is checked), 5 when a client could not be checked.
    """
    from svctui.clock import make_clock

    now = make_clock()[0]().replace(microsecond=0)  # SVCTUI_FROZEN_NOW (tests, a demo's fixed anchor) or now
    window = _window(since, now)
    options = HealthOptions(window=window, stale_after=_duration(stale_after, "--stale-after"),
                            threshold=threshold, endpoint=endpoint)  # type: ignore[arg-type]  # fmt: skip
    wanted = _problems(fail_on)
    for client_id in client_ids:
        check_client(client_id, "--client")  # a uuid, or a client's name (looked up once connected)

    async def body(client: ApiClient, profile: Profile) -> ExitCode:
        fleet = await find_fleet(client, await resolve_clients(client, profile.name, client_ids, "--client"))
        if not fleet.members:
            raise CommandFailure(
                "this server lists no clients (community edition: no /clients, no events); name them with --client ID",
                ExitCode.USAGE,
            )
        results = await fleet_health(client, fleet.members, now, options)
        judged = [result.health for result in results if result.health is not None]
        order = {id(health): rank for rank, health in enumerate(worst_first(judged))}
        results.sort(key=lambda result: -1 if result.health is None else order[id(result.health)])
        _print(results, fmt, now)
        unchecked = [result for result in results if result.health is None]
        if unchecked:
            return _unchecked_code(unchecked)
        bad = unhealthy(judged, wanted)
        if bad:
            note(
                f"unhealthy: {len(bad)} of {len(judged)} clients ({', '.join(sorted(map(str, wanted)))})"
                + _others([health for health in judged if health not in bad], wanted)
            )
            return ExitCode.UNHEALTHY
        return ExitCode.OK

    run_connected(ctx, profile_name, body)


def _unchecked_code(unchecked: list[MemberHealth]) -> ExitCode:
    """The exit code when clients could not be checked: 4 when the server does not know any of them (a mistyped
    --client), 3 when it refused the credentials, 5 otherwise (or for a mix: some could not be checked at all)."""
    codes = {ExitCode.SERVER if result.error is None else exit_code_for(result.error) for result in unchecked}
    code = codes.pop() if len(codes) == 1 else ExitCode.SERVER
    if code == ExitCode.NOT_FOUND:
        note(f"{len(unchecked)} client(s) not found on this server; `svctui clients list` lists them")
    else:
        note(f"{len(unchecked)} client(s) could not be checked")
    return code


def _print(results: list[MemberHealth], fmt: str, now: datetime) -> None:
    if fmt == "json":
        click.echo(json_safe(json.dumps([_row_json(result, now) for result in results], indent=2, ensure_ascii=False)))
        return
    writer = TableWriter(HEALTH_COLUMNS, sys.stdout, terminal_width(), "clients", sys.stderr)
    rows: list[Any] = [_table_row(result, now) for result in results]  # dicts: the columns read them by key
    writer.write_page(rows)
    writer.close()


def _others(healthy: Sequence[ClientHealth], wanted: frozenset[Problem]) -> str:
    """`; not counted: 1 never-ran`: what the other clients show that --fail-on leaves out (the dashboard's Clients
    screen counts every one of them in "need a look")."""
    counts = Counter(problem for health in healthy for problem in health.problems if problem not in wanted)
    if not counts:
        return ""
    return "; not counted (not in --fail-on): " + ", ".join(f"{n} {problem}" for problem, n in sorted(counts.items()))
