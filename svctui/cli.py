"""Entry point: `svctui` opens the dashboard; `svctui <subcommand>` runs a scriptable command.

Subcommands are loaded lazily (module imported only when named) so `svctui --help` and the first frame stay fast.
"""

from __future__ import annotations

import importlib
import io
import sys
from typing import IO, Any, NoReturn

import click

from svctui.clitypes import AsciiInt
from svctui.startup import quiet_pydantic_plugins, runtime_for, skip_unused_imports, tune_runtime
from svctui.store.bounds import MAX_REFRESH_SECONDS
from svctui.visible import VisibleStream

# name -> ("module:attribute", the one-line help `svctui --help` lists); each family lives in its own module under
# svctui.commands. The help is kept here so that listing the commands imports none of them (a test keeps each one
# equal to its command's own short help).
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "audit": (
        "svctui.commands.audit:audit",
        "The audit log of destructive actions: every deletion and restore run (docs/AUDIT.md).",
    ),
    "clients": (
        "svctui.commands.reads:clients",
        "Collection clients (enterprise edition): name, host, version, last check-in, current job.",
    ),
    "demo-server": (
        "svctui.commands.demo:demo_server",
        "Run a local server that behaves like the real API (SQLite-backed, deterministic data) until Ctrl-C.",
    ),
    "events": ("svctui.commands.reads:events", "Collection schedules (enterprise edition)."),
    "health": ("svctui.commands.health:health", "Did last night's collections work? One line per client, worst first."),
    "locate": (
        "svctui.commands.profile:locate",
        "Print the config, data, state or exports directory svctui uses (all four, each named, without KIND).",
    ),
    "profile": (
        "svctui.commands.profile:profile",
        "Manage connection profiles (server URL, token, TLS) stored in the config directory.",
    ),
    "selectors": ("svctui.commands.reads:selectors", "Selectors of an asset group tag: list them, delete them."),
    "tags": ("svctui.commands.reads:tags", "Asset group tags (tiers, labels, owned)."),
    "tasks": ("svctui.commands.reads:tasks", "Completed collection tasks of a client."),
}
AT_LAUNCH = "at_launch"  # ctx.obj key: set by `main` (the console script), not by a caller invoking `cli` itself
DEMO_DASHBOARD_ONLY = (
    "--demo starts the dashboard only; for commands, run `svctui demo-server` and add the profile it prints"
)


def refuse_demo_with_command() -> NoReturn:
    """`--demo` given with a subcommand (before or after it): say what it does instead, exit 2."""
    click.echo(f"error: {DEMO_DASHBOARD_ONLY}", err=True)
    raise click.exceptions.Exit(2)


def echoed_arguments(argv: list[str]) -> list[str]:
    """What click may echo of the command line in a message: each argument and an option's `=value`, longest first."""
    from svctui.api.quoting import QUOTE_LIMIT  # on an error only: `svctui --help` imports no svctui.api

    found = {arg for arg in argv} | {arg.partition("=")[2] for arg in argv if arg.startswith("--") and "=" in arg}
    return sorted((arg for arg in found if len(arg) > QUOTE_LIMIT), key=len, reverse=True)


def cut_echoes(message: str, argv: list[str]) -> str:
    """`message` (click's) with every long argument it echoes quoted and cut to ~QUOTE_LIMIT characters."""
    from svctui.api.quoting import quote_input

    for arg in echoed_arguments(argv):
        short = quote_input(arg)
        for echoed in (repr(arg), f"'{arg}'", f'"{arg}"', arg):
            message = message.replace(echoed, short)
    return message


class SvctuiError(click.ClickException):
    """A click error (usage, bad value, a command's own) shown as svctui shows every error: `error: message` in
    lowercase as its last line, after click's usage lines when it has them (click writes `Error: message`)."""

    def __init__(self, original: click.ClickException) -> None:
        super().__init__(original.message)
        self.original = original
        self.exit_code = original.exit_code  # type: ignore[misc]  # a class variable in the stubs; read per instance

    def show(self, file: IO[Any] | None = None) -> None:
        """Click's own text, its `Error: ` made `error: ` (the first at a line's start: the message may hold one)."""
        buffer = io.StringIO()
        self.original.show(buffer)
        text = buffer.getvalue()
        text = (
            "error: " + text[len("Error: ") :]
            if text.startswith("Error: ")
            else text.replace("\nError: ", "\nerror: ", 1)
        )
        click.echo(text, file=file, err=True, nl=False)


def said_as_svctui(exc: click.ClickException) -> SvctuiError:
    """`exc` with a long argument it echoes cut (`cut_echoes`), to be shown as `error: …` (`SvctuiError`)."""
    if isinstance(exc, SvctuiError):
        return exc
    exc.message = cut_echoes(exc.message, sys.argv[1:])  # type: ignore[misc]  # final in the stubs only
    return SvctuiError(exc)


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use (not to list them in `--help`); click's own
    messages (usage errors, bad option values) quote a long argument cut (`cut_echoes`) and end `error: …` as every
    other error (`SvctuiError`), and the command line's stderr shows their control characters (`main`)."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: object
    ) -> click.Context:
        """Parse the group's own options; a usage error quotes a long argument cut."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:
            raise said_as_svctui(exc) from None

    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand; a usage error in its arguments (or an unknown command) quotes a long argument cut;
        `--demo` after a subcommand gets the same answer as before it (`refuse_demo_with_command`)."""
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            if isinstance(exc, click.NoSuchOption) and exc.option_name == "--demo":
                refuse_demo_with_command()
            raise said_as_svctui(exc) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Names of the subcommands."""
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import and return the named subcommand."""
        entry = LAZY_COMMANDS.get(cmd_name)
        if entry is None:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = entry[0].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their one-line help, from LAZY_COMMANDS: no command module is imported."""
        rows = [(name, LAZY_COMMANDS[name][1]) for name in self.list_commands(ctx) if name in LAZY_COMMANDS]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--profile", "profile_name", metavar="NAME", help="Profile to use (default: the default profile).")
@click.option("--demo", is_flag=True, help="Start the embedded demo server and open the dashboard against it.")
@click.option("--read-only", is_flag=True, help="Refuse every destructive command (and hide them in the dashboard).")
@click.option(
    "--refresh",
    "refresh_seconds",
    type=AsciiInt(0, MAX_REFRESH_SECONDS),
    metavar="SECONDS",
    help="Dashboard: reload the list on screen every SECONDS (0 = off; default: refresh_seconds in settings).",
)
@click.version_option(package_name="svctui")
@click.pass_context
def cli(ctx: click.Context, profile_name: str | None, demo: bool, read_only: bool, refresh_seconds: int | None) -> None:
    """Terminal dashboard for the BloodHound v2 API. Without a subcommand, opens the dashboard."""
    ctx.ensure_object(dict)
    if demo and ctx.invoked_subcommand is not None:
        refuse_demo_with_command()  # before the environment and any profile: the profile error would mislead
    check_environment()
    ctx.obj["profile"] = profile_name
    ctx.obj["read_only"] = read_only
    runtime = runtime_for(ctx.invoked_subcommand)
    if ctx.obj.get(AT_LAUNCH) and runtime is not None:
        tune_runtime(runtime)  # the program's own process only, once, before any thread: never a test's or a caller's
    if ctx.invoked_subcommand is not None:
        return
    from svctui.tui.launch import run_dashboard

    sys.exit(run_dashboard(profile_name=profile_name, demo=demo, refresh_seconds=refresh_seconds, read_only=read_only))


def check_environment() -> None:
    """Refuse (exit 2, before anything runs) an SVCTUI_* variable every command reads and no command can use."""
    from svctui.clock import ClockError, make_clock

    try:
        make_clock()
    except ClockError as exc:
        click.echo(f"error: {exc}", err=True)
        raise click.exceptions.Exit(2) from None


def main() -> None:
    """Console-script entry point."""
    quiet_pydantic_plugins()
    skip_unused_imports()
    # Nothing a command writes (a server's message, a name, an argument echoed by click) may drive the terminal.
    if not isinstance(sys.stdout, VisibleStream) and sys.stdout is not None:
        sys.stdout = VisibleStream(sys.stdout)
    if not isinstance(sys.stderr, VisibleStream) and sys.stderr is not None:
        sys.stderr = VisibleStream(sys.stderr)
    cli(obj={AT_LAUNCH: True})
