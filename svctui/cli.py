"""Entry point: `svctui` opens the dashboard; `svctui <subcommand>` runs a scriptable command.

Subcommands are loaded lazily (module imported only when named) so `svctui --help` and the first frame stay fast.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys

import click

# name -> "module:attribute"; each family lives in its own module under svctui.commands.
LAZY_COMMANDS: dict[str, str] = {
    "profile": "svctui.commands.profile:profile",
    "locate": "svctui.commands.profile:locate",
    "demo-server": "svctui.commands.demo:demo_server",
    "events": "svctui.commands.reads:events",
    "tasks": "svctui.commands.reads:tasks",
    "tags": "svctui.commands.reads:tags",
    "selectors": "svctui.commands.reads:selectors",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Names of the subcommands whose modules exist."""
        names = set(super().list_commands(ctx))
        for name, target in LAZY_COMMANDS.items():
            module = target.partition(":")[0]
            if importlib.util.find_spec(module) is not None:
                names.add(name)
        return sorted(names)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import and return the named subcommand."""
        target = LAZY_COMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = target.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                return None
            raise
        command = getattr(module, attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--profile", "profile_name", metavar="NAME", help="Profile to use (default: the default profile).")
@click.option("--demo", is_flag=True, help="Start the embedded demo server and open the dashboard against it.")
@click.option("--read-only", is_flag=True, help="Refuse every destructive command (and hide them in the dashboard).")
@click.version_option(package_name="svctui")
@click.pass_context
def cli(ctx: click.Context, profile_name: str | None, demo: bool, read_only: bool) -> None:
    """Terminal dashboard for the BloodHound v2 API. Without a subcommand, opens the dashboard."""
    ctx.ensure_object(dict)
    ctx.obj["profile"] = profile_name
    ctx.obj["read_only"] = read_only
    if ctx.invoked_subcommand is not None:
        return
    from svctui.tui.app import run_dashboard

    if read_only:  # the dashboard asks svctui.store.model.read_only_reason(), which reads this
        from svctui.store.model import READ_ONLY_ENV

        os.environ[READ_ONLY_ENV] = "1"

    sys.exit(run_dashboard(profile_name=profile_name, demo=demo))


def main() -> None:
    """Console-script entry point."""
    cli(obj={})
