"""Shared pieces of the scriptable commands: exit codes, error reporting, --profile, the connection, list options."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from svctui.api.filters import EndpointSpec, Filter, FilterError, SortKey, parse_filter
from svctui.api.limits import DEFAULT_PAGE_SIZE, INT32_MAX, INT64_MAX, MAX_PAGE_SIZE
from svctui.api.quoting import quote_input
from svctui.clitypes import AsciiInt as AsciiInt  # re-exported: the commands import it from here
from svctui.clitypes import FiniteFloat as FiniteFloat
from svctui.commands.output import Format
from svctui.visible import visible

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.errors import ApiError
    from svctui.store.model import Profile

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_LIMIT = 100
MAX_COUNT = INT64_MAX


class ExitCode(IntEnum):
    """Exit codes of every scriptable command (documented in the README)."""

    OK = 0
    ABORTED = 1
    USAGE = 2
    AUTH = 3
    NOT_FOUND = 4
    SERVER = 5
    UNHEALTHY = 6  # `svctui health`: every client was checked, and one has a problem named by --fail-on
    SKIPPED = (
        7  # `selectors restore`: nothing failed, but some selectors were skipped (still there, restored meanwhile)
    )


class CommandFailure(Exception):
    """A failure already worded for a person, with the exit code to leave with."""

    def __init__(self, message: str, code: ExitCode) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def exit_code_for(exc: ApiError) -> ExitCode:
    """Map an API error to an exit code: 3 auth, 4 not found / enterprise-only, 2 bad request, 5 the rest."""
    from svctui.api.errors import ApiStatusError
    from svctui.ops.selector_delete import is_auth_failure

    if not isinstance(exc, ApiStatusError):
        return ExitCode.SERVER
    if exc.status in (401, 403):
        return ExitCode.AUTH
    if exc.status == 400:
        return ExitCode.AUTH if is_auth_failure(exc) else ExitCode.USAGE
    if exc.status == 404:
        return ExitCode.NOT_FOUND
    return ExitCode.SERVER


def error(message: str) -> None:
    """Print `error: message` on stderr."""
    click.echo(f"error: {message}", err=True)


def note(message: str) -> None:
    """Print a one-line notice on stderr."""
    click.echo(message, err=True)


def _silence_broken_pipe() -> None:
    """After EPIPE (e.g. `| head`), point stdout at /dev/null so the interpreter's final flush stays quiet."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def run(main: Callable[[], Coroutine[Any, Any, ExitCode | None]]) -> NoReturn:
    """Run an async command body and leave with its exit code; every failure becomes a message, never a traceback."""
    from svctui.api.errors import ApiError
    from svctui.store.errors import StoreError

    code: ExitCode
    try:
        code = asyncio.run(main()) or ExitCode.OK
    except CommandFailure as exc:
        error(exc.message)
        code = exc.code
    except FilterError as exc:
        error(str(exc))
        code = ExitCode.USAGE
    except StoreError as exc:
        error(str(exc))
        code = ExitCode.USAGE
    except ApiError as exc:
        error(exc.user_message())
        code = exit_code_for(exc)
    except BrokenPipeError:
        _silence_broken_pipe()
        code = ExitCode.OK
    except KeyboardInterrupt:
        error("interrupted")
        code = ExitCode.ABORTED
    raise click.exceptions.Exit(int(code))


def fail(message: str, code: ExitCode = ExitCode.USAGE) -> NoReturn:
    """Print `message` and leave with `code` (before anything was sent)."""
    error(message)
    raise click.exceptions.Exit(int(code))


def check_tag(text: str) -> int:
    """A tag id from the command line (positive int32), or exit 2."""
    from svctui.ops.selector_ids import IdError, parse_id

    allowed = f"a positive integer up to {INT32_MAX} (the ids `svctui tags list` shows)"
    try:
        return parse_id(text, what="tag id", allowed=allowed)
    except IdError as exc:
        fail(f"TAG: {exc}")


# ---------------------------------------------------------------- profile and connection


def profile_option(func: F) -> F:
    """`--profile NAME` on a subcommand (overrides `svctui --profile`)."""
    return click.option(
        "--profile",
        "profile_name",
        metavar="NAME",
        default=None,
        help="Profile to use (default: svctui --profile, SVCTUI_PROFILE, the environment, the default profile).",
    )(func)


def chosen_profile_name(ctx: click.Context, profile_name: str | None) -> str | None:
    """The subcommand's --profile, else the root group's."""
    if profile_name:
        return profile_name
    root = ctx.find_root()
    obj = root.obj if isinstance(root.obj, dict) else {}
    name = obj.get("profile")
    return name if isinstance(name, str) and name else None


def resolve_profile(name: str | None) -> Profile:
    """The complete profile to connect with (StoreError → exit 2 with the store's message); a named profile
    ignores the SVCTUI_* connection variables, which one note on stderr says (once per run)."""
    from svctui.store.envprofile import env_ignored_note
    from svctui.store.profiles import ProfileStore

    profile = ProfileStore().resolve(name)
    ignored = env_ignored_note(name, os.environ)
    ctx = click.get_current_context(silent=True)
    said = ctx.find_root().meta if ctx is not None else {}  # once per run, however many profiles (--all-profiles)
    if ignored is not None and not said.get("env_ignored_noted"):
        said["env_ignored_noted"] = True
        note(ignored)
    return profile


def note_deprecation(notice: str) -> None:
    """The client's once-a-session deprecation notice on stderr, in the CLI's words (`--endpoint` to switch)."""
    from svctui.api.limits import CLI_DEPRECATION_NOTE, COMPLETED_TASKS_NOTICE

    note(CLI_DEPRECATION_NOTE if notice == COMPLETED_TASKS_NOTICE else notice)


@contextlib.asynccontextmanager
async def connect(
    profile: Profile, *, on_deprecation: Callable[[str], None] = note_deprecation
) -> AsyncIterator[ApiClient]:
    """An open client for `profile`, closed on exit; a deprecation notice from the client goes to stderr."""
    from svctui.api.errors import ApiConnectionError, ApiError
    from svctui.connect import failure_hint, open_client

    client = open_client(profile, on_deprecation=on_deprecation)
    try:
        async with client:
            yield client
    except ApiError as exc:
        code = exit_code_for(exc)
        if code is ExitCode.AUTH or isinstance(exc, ApiConnectionError):
            raise CommandFailure(f"{exc.user_message()}\nhint: {failure_hint(exc, profile)}", code) from exc
        raise


ConnectedBody = Callable[["ApiClient", "Profile"], Awaitable["ExitCode | None"]]


def run_connected(
    ctx: click.Context,
    profile_name: str | None,
    body: ConnectedBody,
    *,
    on_deprecation: Callable[[str], None] = note_deprecation,
) -> NoReturn:
    """Resolve the profile (--profile, svctui --profile, environment, default), connect, run `body`, exit its code."""
    name = chosen_profile_name(ctx, profile_name)

    async def main() -> ExitCode | None:
        profile = resolve_profile(name)
        async with connect(profile, on_deprecation=on_deprecation) as client:
            return await body(client, profile)

    run(main)


# ---------------------------------------------------------------- list options


def format_option(func: F) -> F:
    """`--format/-o table|json|jsonl|csv` on a read command."""
    return click.option(
        "--format",
        "-o",
        "fmt",
        type=click.Choice([f.value for f in Format]),
        default=Format.TABLE.value,
        show_default=True,
        help="Output format.",
    )(func)


filter_option = click.option(
    "--filter",
    "-f",
    "filters",
    multiple=True,
    metavar="COL=OP:VALUE",
    help="Filter, repeatable (ANDed); OP one of eq neq gt gte lt lte ~eq; `COL=VALUE` means eq.",
)


def list_options(*, hydration: bool, default_sort: str = "") -> Callable[[F], F]:
    """The options shared by the list commands: filters, sort, paging, --all, format, profile (`default_sort`: what
    --sort's help names as the order without one)."""
    sort_help = "Sort column, repeatable (first = highest priority); leading - for descending."
    if default_sort:
        sort_help += f" Default: {default_sort}."

    def decorate(func: F) -> F:
        options: list[Callable[[F], F]] = [
            filter_option,
            click.option(
                "--sort",
                "-s",
                "sorts",
                multiple=True,
                metavar="[-]COL",
                help=sort_help,
            ),
            click.option("--skip", type=AsciiInt(0, MAX_COUNT), default=0, show_default=True, help="Items to skip."),
            click.option(
                "--limit",
                type=AsciiInt(1, MAX_COUNT),
                default=None,
                help=f"Items to fetch (default {DEFAULT_LIMIT}; with --all: stop after this many).",
            ),
            click.option("--all", "fetch_all", is_flag=True, help="Fetch every page, streaming (constant memory)."),
            click.option(
                "--page-size",
                type=AsciiInt(1, MAX_PAGE_SIZE),
                default=DEFAULT_PAGE_SIZE,
                show_default=True,
                help="Items per request with --all.",
            ),
            format_option,
            profile_option,
        ]
        if hydration:
            options += [
                click.option(
                    "--no-hydrate-domains", is_flag=True, help="Domains as objectids only (hydrate_domains=false)."
                ),
                click.option("--no-hydrate-ous", is_flag=True, help="OUs as objectids only (hydrate_ous=false)."),
            ]
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def parse_query(spec: EndpointSpec, filters: Sequence[str], sorts: Sequence[str]) -> tuple[list[Filter], list[SortKey]]:
    """Validate every --filter and --sort against `spec` before any request: when any is wrong, every problem is
    printed (one `error:` line each, in the order given) and the command leaves with exit 2."""
    problems: list[str] = []
    parsed: list[Filter] = []
    for text in filters:
        try:
            parsed.append(parse_filter(spec, text))
        except FilterError as exc:
            problems.append(f"--filter {quote_input(visible(text))}: {exc}")  # a control character as `␛`
    keys: list[SortKey] = []
    for text in sorts:
        try:
            keys.append(SortKey.parse(spec, text))
        except FilterError as exc:
            problems.append(f"--sort {quote_input(text)}: {exc}")
    for problem in problems[:-1]:
        error(problem)
    if problems:
        fail(problems[-1])
    return parsed, keys
