"""A relative time of the right form but too far (`-99999999d`) is said to be out of range, with the range allowed,
on the command line and in the dashboard's filter editor (both share the filters' validation); it was called `not
a valid time`, which sent a newcomer looking for a typo. Against the demo server."""

from __future__ import annotations

import re

import pytest
from textual.widgets import Input, Static

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_editor import FilterEditor, FilterRow
from tests.support.cli import DemoLike, demo_env, invoke
from tests.support.tui import on_events, settle

OUT_OF_RANGE = re.compile(
    r"'-99999999d' is out of range: a relative time must land between the years 1 and 9999 "
    r"\(from now -7\d{5}d to \+29\d{5}d\)"
)


@pytest.mark.parametrize("command", [["events", "list"], ["tasks", "list", "SHARPHOUND-DC01"]])
def test_the_command_line_says_out_of_range(demo_server: DemoLike, command: list[str]) -> None:
    column = "created_at" if command[0] == "events" else "execution_time"
    refused = invoke([*command, "-f", f"{column}=gte:-99999999d"], env=demo_env(demo_server))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert OUT_OF_RANGE.search(refused.stderr), refused.stderr
    assert "not a valid time" not in refused.stderr
    assert invoke([*command, "-f", f"{column}=gte:-7d"], env=demo_env(demo_server)).exit_code == 0


@pytest.mark.anyio
async def test_the_filter_editor_says_out_of_range(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(160, 45)) as (app, pilot, _):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        row = editor.query_one("#row-created_at", FilterRow)
        row.query_one(Input).value = "-99999999d"
        await pilot.press("enter")
        await settle(pilot)
        shown = str(row.query_one(".filter-error", Static).render())
        assert OUT_OF_RANGE.search(" ".join(shown.split())), shown
