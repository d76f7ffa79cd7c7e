"""What the `i` dialog and its toast say, token by token (newcomer walk, 2026-12-05): a refused range is quoted whole
as typed (`'1-99999999999999'`, not `'99999999999999'`), and a long list of ids the tag lacks is cut at a whole range
with how many more follow (`… 161-168 17.` read like an id 17)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from svctui.demo.server import DemoServer
from svctui.text import id_runs
from svctui.tui.screens.selectors.prompts import TypeIds
from tests.support.selectors import on_cleanup
from tests.support.tasks import query
from tests.support.tui import settle

pytestmark = pytest.mark.anyio


async def typed_in_the_ids_dialog(pilot: Pilot[Any], text: str) -> TypeIds:
    """`i`, `text` typed in the Ids dialog and entered; the dialog (still open when it refused some)."""
    await pilot.press("i")
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, TypeIds)
    dialog.query_one("#ids", Input).value = text
    await pilot.press("enter")
    await settle(pilot)
    return dialog


async def test_the_ids_dialog_quotes_each_refused_token_whole(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server) as (_app, pilot, _screen):
        dialog = await typed_in_the_ids_dialog(pilot, "1-99999999999999 ab ٣ 5--7")
        said = str(dialog.query_one("#ids-error").render())
        assert "4 ids refused" in said
        assert "typed: '1-99999999999999' is out of range" in said
        assert "typed: '5--7' is not a selector id or range" in said
        assert "'99999999999999'" not in said and "'-7'" not in said, "no piece of a token is quoted alone"


async def test_the_typed_ids_toast_cuts_at_a_whole_range_and_counts_the_rest(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        await typed_in_the_ids_dialog(pilot, "1-5000")
        said = next(note.message for note in reversed(app.notes) if "not part of this tag" in note.message)
        listed = said.split("not part of this tag (not marked): ", 1)[1]
        in_tag = {row[0] for row in query(demo_server, "SELECT id FROM selectors WHERE asset_group_tag_id = ?", tag.id)}
        runs = id_runs(set(range(1, 5001)) - in_tag)
        match = re.fullmatch(r"(?P<head>[0-9 -]+) … and (?P<more>[0-9,]+) more ranges\.", listed)
        assert match is not None, listed
        shown = match["head"].split(" ")
        expected = [str(a) if a == b else f"{a}-{b}" for a, b in runs[: len(shown)]]
        assert shown == expected, "whole ranges only, in order"
        assert int(match["more"].replace(",", "")) == len(runs) - len(shown)
