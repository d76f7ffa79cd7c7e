"""`svctui --help` lists every command without importing any command module, with each command's own help."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from svctui.cli import LAZY_COMMANDS, cli


@pytest.mark.parametrize("name", sorted(LAZY_COMMANDS))
def test_the_listed_help_is_the_commands_own(name: str) -> None:
    command = cli.get_command(click.Context(cli), name)
    assert command is not None
    assert command.get_short_help_str(limit=1000) == LAZY_COMMANDS[name][1]


def test_help_imports_no_command_module_nor_the_dashboard() -> None:
    probe = (
        "import sys\nfrom svctui.cli import cli\n"
        "try:\n    cli(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('svctui.commands', 'svctui.tui', 'svctui.api', "
        "'pydantic', 'httpx', 'textual'))))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "Commands:" in result.stdout and "tasks" in result.stdout
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_no_help_text_prints_a_missing_bound() -> None:
    """An unbounded integer option said `[default: 0; x<=None]` in --help."""
    from click.testing import CliRunner

    def commands(group: click.Group, ctx: click.Context) -> list[click.Command]:
        found: list[click.Command] = []
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                found += commands(command, ctx)
            elif command is not None:
                found.append(command)
        return found

    ctx = click.Context(cli)
    for command in commands(cli, ctx):
        text = command.get_help(click.Context(command, info_name=command.name))
        assert "None" not in text, f"{command.name}: {text}"
    assert "None" not in CliRunner().invoke(cli, ["--help"]).output
