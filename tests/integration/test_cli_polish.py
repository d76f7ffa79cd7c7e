"""A newcomer's walk of the command line: `locate` without an argument (every directory), the groups' `--help` at
80 columns, a control character in a filter value. What each says is whole, on one line, and shows control
characters visibly."""

from __future__ import annotations

import pytest

from tests.support.cli import invoke

GROUPS = ["tasks", "events", "clients", "tags", "selectors", "audit", "profile"]


def test_locate_without_an_argument_lists_every_directory_by_name() -> None:
    """The newcomer's second walk: `svctui locate` alone was an error; it lists the four, each named, one a line."""
    result = invoke(["locate"])
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["config", "data", "state", "exports"]
    assert all(len(line.split(maxsplit=1)) == 2 and line.split(maxsplit=1)[1].startswith("/") for line in lines)
    assert len({line.index("/") for line in lines}) == 1, "the paths line up"
    alone = {kind: invoke(["locate", kind]).stdout.strip() for kind in ("config", "data", "state", "exports")}
    assert [line.split(maxsplit=1)[1] for line in lines] == list(alone.values()), "the same as each alone"


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
