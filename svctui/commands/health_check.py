"""The morning check of one server, for `svctui health` and `svctui health --all-profiles`: judge its clients,
the exit code of what was found, and the table or JSON rows that say it."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

from svctui.api.models import status_label
from svctui.commands.client_ref import resolve_clients
from svctui.commands.common import CommandFailure, ExitCode, exit_code_for
from svctui.commands.table import Role, TableColumn, TableWriter, terminal_width
from svctui.fleet import HealthOptions, MemberHealth, find_fleet
from svctui.fleet_runs import fleet_round
from svctui.triage.health import ClientHealth, Problem, Verdict, age_text, strip_text, unhealthy, worst_first
from svctui.visible import json_safe

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.store.model import Profile


def row_json(result: MemberHealth, now: datetime) -> dict[str, Any]:
    """One client's line of `-o json`: its verdict and the numbers behind it, or its error."""
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
    TableColumn("VERDICT", lambda row: row["verdict"].upper() if row["verdict"] != "ok" else "ok", Role.ESSENTIAL),
    TableColumn("CLIENT", lambda row: row["name"] or row["client_id"], Role.NAME),
    TableColumn("LAST RUN", lambda row: row["last_run_text"], Role.ESSENTIAL, min_width=12),  # `Ingesting, 1h ago`
    TableColumn("NOT OK", lambda row: row.get("not_ok_in_window", ""), right=True, drop=3),
    TableColumn("DROPS", lambda row: row.get("runs_with_drops_in_window", ""), right=True, drop=2),
    TableColumn("CHECK-IN", lambda row: row["checkin_text"], min_width=9, drop=4),
    TableColumn("LAST 20 RUNS", lambda row: row.get("strip", ""), min_width=12, drop=1),
    TableColumn("NOTE", lambda row: row["note"], Role.TEXT, min_width=24, wrap=True),  # why: whole, on more lines
)


def table_row(result: MemberHealth, now: datetime) -> dict[str, Any]:
    """One client's table line: the JSON line with the texts of the last run, the check-in and the note."""
    row = row_json(result, now)
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
        row["note"] = drop.run_text() + (f" (+{more} more)" if more else "")
    elif health.verdict is Verdict.NEVER_RAN:
        row["note"] = "no completed run"
    else:
        row["note"] = ""
    return row


async def check_server(
    client: ApiClient,
    profile: Profile,
    client_ids: Sequence[str],
    now: datetime,
    options: HealthOptions,
    say: Callable[[str], object],
) -> list[MemberHealth]:
    """Every client of the profile's server judged (the ones named, else the server's own), worst first; those that
    could not be checked first of all. CommandFailure (exit 2) when the server lists no clients."""
    fleet = await find_fleet(client, await resolve_clients(client, profile.name, client_ids, "--client"))
    if not fleet.members:
        raise CommandFailure(
            "this server lists no clients (community edition: no /clients, no events); name them with --client ID",
            ExitCode.USAGE,
        )
    results = (await fleet_round(client, fleet, now, options, on_missing=say)).results
    judged = [result.health for result in results if result.health is not None]
    order = {id(health): rank for rank, health in enumerate(worst_first(judged))}
    results.sort(key=lambda result: -1 if result.health is None else order[id(result.health)])
    return results


def verdict_code(results: list[MemberHealth], wanted: frozenset[Problem], say: Callable[[str], object]) -> ExitCode:
    """The exit code of one server's check (0, 6, or 3/4/5 when a client could not be checked), said in a note."""
    unchecked = [result for result in results if result.health is None]
    if unchecked:
        return _unchecked_code(unchecked, say)
    judged = [result.health for result in results if result.health is not None]
    bad = unhealthy(judged, wanted)
    if bad:
        say(
            f"unhealthy: {len(bad)} of {len(judged)} clients ({', '.join(sorted(map(str, wanted)))})"
            + _others([health for health in judged if health not in bad], wanted)
        )
        return ExitCode.UNHEALTHY
    return ExitCode.OK


def _unchecked_code(unchecked: list[MemberHealth], say: Callable[[str], object]) -> ExitCode:
    """The exit code when clients could not be checked: 4 when the server does not know any of them (a mistyped
    --client), 3 when it refused the credentials, 5 otherwise (or for a mix: some could not be checked at all)."""
    codes = {ExitCode.SERVER if result.error is None else exit_code_for(result.error) for result in unchecked}
    code = codes.pop() if len(codes) == 1 else ExitCode.SERVER
    if code == ExitCode.NOT_FOUND:
        say(f"{len(unchecked)} client(s) not found on this server; `svctui clients list` lists them")
    else:
        say(f"{len(unchecked)} client(s) could not be checked")
    return code


def print_results(results: list[MemberHealth], fmt: str, now: datetime) -> None:
    """One server's results as a table (or a JSON list) on stdout."""
    if fmt == "json":
        click.echo(json_safe(json.dumps([row_json(result, now) for result in results], indent=2, ensure_ascii=False)))
        return
    writer = TableWriter(HEALTH_COLUMNS, sys.stdout, terminal_width(), "clients", sys.stderr)
    rows: list[Any] = [table_row(result, now) for result in results]  # dicts: the columns read them by key
    writer.write_page(rows)
    writer.close()


def _others(healthy: Sequence[ClientHealth], wanted: frozenset[Problem]) -> str:
    """`; not counted: 1 never-ran`: what the other clients show that --fail-on leaves out (the dashboard's Clients
    screen counts every one of them in "need a look")."""
    counts = Counter(problem for health in healthy for problem in health.problems if problem not in wanted)
    if not counts:
        return ""
    return "; not counted (not in --fail-on): " + ", ".join(f"{n} {problem}" for problem, n in sorted(counts.items()))
