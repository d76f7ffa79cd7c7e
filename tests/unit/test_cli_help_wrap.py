"""`--help` wraps between words only: `health --help` cut its default as `[default: not-` / `ok,drops,stale]` (click
wraps with textwrap, which breaks after a hyphen); what is shown is still the text as written (plain hyphens)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from svctui.cli import cli
from svctui.clihelp import NO_BREAK_HYPHEN


@pytest.mark.parametrize("columns", [60, 70, 80, 90, 100, 120, 160])
def test_health_help_breaks_no_word_at_its_hyphen(columns: int) -> None:
    result = CliRunner().invoke(cli, ["health", "--help"], env={"COLUMNS": str(columns)}, terminal_width=columns)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert not [line for line in lines if re.search(r"\w-$", line)], result.output
    assert "[default: not-ok,drops,stale]" in " ".join(line.strip() for line in lines)
    assert NO_BREAK_HYPHEN not in result.output
