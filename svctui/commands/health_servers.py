"""`svctui health --all-profiles` (or `--profile` repeated): several servers judged at once, in one table.

Each profile is checked on its own client (its own connection pool and rate limiter), all of them at the same time.
The table is `svctui health`'s with a PROFILE column first; a server that cannot be checked (unreachable, bad
credentials, no clients, a profile that cannot be loaded) is one row with its error, never left out. The exit code
is the worst of the servers': a server or client that could not be checked (3 authentication, 4 not found, 5 server
or network; a mix of them is 5, a profile that cannot be used is 2) before 6 (a client unhealthy), before 0.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NoReturn

import click

from svctui.commands.common import (
    CommandFailure,
    ExitCode,
    connect,
    exit_code_for,
    fail,
    note,
    resolve_profile,
    run,
)
from svctui.commands.health_check import HEALTH_COLUMNS, check_server, row_json, table_row, verdict_code
from svctui.commands.table import TableColumn, TableWriter, terminal_width
from svctui.fleet import HealthOptions, MemberHealth
from svctui.triage.health import Problem
from svctui.visible import json_safe

PROFILE_COLUMN = TableColumn("PROFILE", lambda row: row["profile"], min_width=7)
BLOCKING = (ExitCode.USAGE, ExitCode.AUTH, ExitCode.NOT_FOUND, ExitCode.SERVER)


@dataclass
class ServerCheck:
    """One profile's outcome: its clients' results, or why its server could not be checked; its exit code."""

    profile: str
    results: list[MemberHealth] = field(default_factory=list)
    failure: str = ""
    code: ExitCode = ExitCode.OK


def worst_code(codes: list[ExitCode]) -> ExitCode:
    """The worst of the servers' exit codes: not checked (3/4/5, 2; a mix: 5) before 6 before 0."""
    blocking = {code for code in codes if code in BLOCKING}
    if blocking:
        return blocking.pop() if len(blocking) == 1 else ExitCode.SERVER
    return ExitCode.UNHEALTHY if ExitCode.UNHEALTHY in codes else ExitCode.OK


def profile_names(given: tuple[str, ...], every: bool) -> list[str]:
    """The profiles to check: every saved one (`--all-profiles`, in file order), else those given, once each."""
    if not every:
        return list(dict.fromkeys(given))
    from svctui.store.errors import StoreError
    from svctui.store.profiles import ProfileStore

    try:
        saved = list(ProfileStore().load().profiles)
    except StoreError as exc:
        fail(str(exc))
    if not saved:
        fail("--all-profiles: no profile is saved; add one with `svctui profile add NAME --base-url URL ...`")
    return list(dict.fromkeys([*saved, *given]))


async def check_profile(name: str, now: datetime, options: HealthOptions, wanted: frozenset[Problem]) -> ServerCheck:
    """One profile's server judged on a client of its own; any failure becomes the check's `failure`, never raised."""
    from svctui.api.errors import ApiError
    from svctui.store.errors import StoreError

    check = ServerCheck(name)

    def say(text: str) -> None:
        note(f"{name}: {text}")

    try:
        profile = resolve_profile(name)
        async with connect(profile, on_deprecation=say) as client:
            check.results = await check_server(client, profile, (), now, options, say)
    except CommandFailure as exc:
        check.failure, check.code = exc.message, exc.code
    except StoreError as exc:
        check.failure, check.code = str(exc), ExitCode.USAGE
    except ApiError as exc:
        check.failure, check.code = exc.user_message(), exit_code_for(exc)
    else:
        check.code = verdict_code(check.results, wanted, say)
    return check


def check_servers(
    given: tuple[str, ...],
    every: bool,
    now: datetime,
    options: HealthOptions,
    wanted: frozenset[Problem],
    fmt: str,
) -> NoReturn:
    """Judge every chosen profile's server at once, print one table (or JSON list), exit with the worst code."""
    names = profile_names(given, every)

    async def main() -> ExitCode:
        checks = await asyncio.gather(*(check_profile(name, now, options, wanted) for name in names))
        _print(list(checks), fmt, now)
        failed = [check.profile for check in checks if check.failure]
        if failed:
            note(f"could not be checked: {', '.join(failed)}")
        return worst_code([check.code for check in checks])

    run(main)


def _rows(check: ServerCheck, now: datetime, table: bool) -> list[dict[str, Any]]:
    """The check's rows, each with its profile: a row per client, or one row with the server's error."""
    if check.failure:
        row = {"client_id": None, "name": "", "verdict": "error", "error": check.failure}
        if table:
            row |= {"client_id": "-", "last_run_text": "-", "checkin_text": "-", "note": check.failure}
        return [{"profile": check.profile, **row}]
    build = table_row if table else row_json
    return [{"profile": check.profile, **build(result, now)} for result in check.results]


def _print(checks: list[ServerCheck], fmt: str, now: datetime) -> None:
    if fmt == "json":
        rows = [row for check in checks for row in _rows(check, now, table=False)]
        click.echo(json_safe(json.dumps(rows, indent=2, ensure_ascii=False)))
        return
    writer = TableWriter((PROFILE_COLUMN, *HEALTH_COLUMNS), sys.stdout, terminal_width(), "clients", sys.stderr)
    lines: list[Any] = [row for check in checks for row in _rows(check, now, table=True)]  # dicts, read by key
    writer.write_page(lines)
    writer.close()
