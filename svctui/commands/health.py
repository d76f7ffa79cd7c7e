"""`svctui health`: the morning check for scripts and cron.

`health` prints one line per client with its verdict — failing, stale, drops, never ran, ok (rules in
`svctui.triage.health`) — and exits 0 when every client is well, 6 when one has a problem named by `--fail-on`,
5 when a client could not be checked (its line says why), and the usual 2-4 for bad input, authentication and
a missing client. With several profiles (`--profile` repeated, `--all-profiles`: svctui.commands.health_servers)
it judges their servers in one table and exits with the worst of their codes.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import click

from svctui.api.filters import TimeOutOfRange, parse_timestamp
from svctui.api.limits import TASK_ENDPOINTS
from svctui.api.quoting import quote_input
from svctui.clihelp import WholeWordsCommand
from svctui.commands.client_ref import check_client
from svctui.commands.common import ExitCode, FiniteFloat, fail, note, run_connected
from svctui.commands.health_check import check_server, print_results, verdict_code
from svctui.commands.health_servers import check_servers
from svctui.fleet import HealthOptions
from svctui.triage.health import Problem

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
    except TimeOutOfRange as exc:  # the form is right, the span too long: say the range, as the filters do
        fail(f"--since {exc}")
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
        duration = (
            datetime.fromisoformat(parse_timestamp(f"+{span[1] if span else text}", EPOCH).replace("Z", "+00:00"))
            - EPOCH
        )
    except ValueError:
        fail(f"{option} {quote_input(text)} is not a duration; allowed: 24h, 90m, 2d, 1w")
    if duration <= timedelta(0):  # `0h` made every client stale (newcomer walk)
        fail(f"{option} {quote_input(text)} is no time at all; allowed: a span longer than 0, e.g. 24h, 90m, 2d")
    return duration


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


@click.command(cls=WholeWordsCommand)
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
    default=None,
    help="Where a client's own runs are read: completed-jobs (the default; completed-tasks on a server without it), "
    "or the deprecated completed-tasks (a notice on stderr).",
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
@click.option(
    "--profile",
    "profile_names",
    multiple=True,
    metavar="NAME",
    help="Profile to check (default: svctui --profile, the environment, the default profile); repeat it to judge "
    "several servers in one table.",
)
@click.option("--all-profiles", is_flag=True, help="Judge the server of every saved profile, in one table.")
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
    profile_names: tuple[str, ...],
    all_profiles: bool,
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

    if all_profiles or len(profile_names) > 1:
        if client_ids:
            fail("--client names clients of one server: use it with one --profile")
        check_servers(profile_names, all_profiles, now, options, wanted, fmt)

    async def body(client: ApiClient, profile: Profile) -> ExitCode:
        results = await check_server(client, profile, client_ids, now, options, note)
        print_results(results, fmt, now)
        return verdict_code(results, wanted, note)

    run_connected(ctx, profile_names[0] if profile_names else None, body)
