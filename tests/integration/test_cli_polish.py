"""A newcomer's walk of the command line: `locate` without an argument, the groups' `--help` at 80 columns, a
control character in a filter value. What each says is whole, on one line, and shows control characters visibly."""

from __future__ import annotations

import pytest

from tests.support.cli import invoke

GROUPS = ["tasks", "events", "clients", "tags", "selectors", "audit", "profile"]


def test_locate_without_an_argument_names_the_choices_on_one_line() -> None:
    result = invoke(["locate"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "one of config, data, state, exports" in result.stderr
    assert "\t" not in result.stderr and "Choose from" not in result.stderr


@pytest.mark.parametrize("group", GROUPS)
def test_every_subcommand_description_fits_at_80_columns(group: str) -> None:
    result = invoke([group, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    commands = result.stdout.split("Commands:", 1)[1].splitlines()
    cut = [line for line in commands if line.rstrip().endswith("...")]
    assert not cut, cut


def test_a_control_character_in_a_filter_value_is_shown_as_its_picture() -> None:
    result = invoke(["events", "list", "-f", "rrule=~eq:x\x1by"])
    assert result.exit_code == 2
    assert "--filter 'rrule=~eq:x␛y'" in result.stderr and "has '␛' at position 2" in result.stderr
    assert "\\x1b" not in result.stderr and "\x1b" not in result.stderr
