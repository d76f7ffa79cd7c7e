"""An Apply the filter editor refuses says how many problems there are and, when not all are on screen, how many
are: at 80x24 the quick line's messages scroll and a bad row may be scrolled out of the rows. The count it gives is
the count of problems whose whole message is on screen, as the user scrolls too; the rest are reachable (tab).

A newcomer read `3 problems` with two in view and looked for the third."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, Static

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_editor import FilterEditor, FilterRow, QuickMessages
from tests.support.screen_text import screen_text
from tests.support.tui import on_events, settle

pytestmark = pytest.mark.anyio

# client_id's predicate is the bad part: an unknown name's message lists candidates over 4 lines at 80 columns, and the
# scrollbar drawn inside them hides it from the screen-text match below
BAD_QUICK = "id=abc next_scheduled_at=gt:yesterday client_id=gt:nobody created_at=gt:x"
SUMMARY = re.compile(r"Not applied: (\d+) of (\d+) problems in view \(tab, then ↓ scrolls\); nothing was sent\.")


def problems_on_screen(app: App[Any], editor: FilterEditor) -> int:
    """How many problems' whole message is on screen: the quick line's and the bad rows'."""
    shown = screen_text(app)
    quick = editor._quick_filters(editor.clock())[1]
    rows = [row for row in editor.query(FilterRow) if row.has_class("-invalid")]
    messages = [f"✗ {problem}" for problem in quick] + [
        str(row.query_one(".filter-error", Static).render()) for row in rows
    ]
    return sum(" ".join(message.split()) in shown for message in messages)


def said(editor: FilterEditor) -> tuple[int, int]:
    found = SUMMARY.search(str(editor.query_one("#summary", Static).render()))
    assert found is not None, editor.query_one("#summary", Static).render()
    return int(found.group(1)), int(found.group(2))


async def test_the_refused_apply_counts_the_problems_in_view(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        editor.query_one("#row-id", FilterRow).query_one(Input).value = "ten"  # a bad row, in view
        editor.query_one("#row-deleted_at", FilterRow).query_one(Input).value = "later"  # a bad row, scrolled out
        editor.query_one("#quick", Input).value = BAD_QUICK
        await pilot.press("enter")
        await settle(pilot)
        in_view, total = said(editor)
        assert total == 6 and in_view == problems_on_screen(app, editor) < total
        messages = editor.query_one(QuickMessages)
        assert messages.allow_focus(), "the rest of the quick line's messages are reachable"
        messages.focus()
        await pilot.press("end")
        await settle(pilot)
        assert said(editor)[0] == problems_on_screen(app, editor), "the count follows the scroll"
        assert "created_at gt: 'x' is not a valid time" in screen_text(app)


async def test_every_problem_in_view_keeps_the_plain_count(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=(160, 45)) as (app, pilot, _):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        editor.query_one("#quick", Input).value = "id=abc rrule=gt:x"
        await pilot.press("enter")
        await settle(pilot)
        summary = str(editor.query_one("#summary", Static).render())
        assert summary == "Not applied (2 problems): fix the fields marked ✗ - nothing was sent."
        assert problems_on_screen(app, editor) == 2


async def test_the_quick_lines_problems_are_listed_in_the_order_typed(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 27): an unknown client's name was listed first, whatever its place on the line."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        editor.query_one("#quick", Input).value = "id=gt:x client_id=eq:nosuch created_at=gte:yesterday"
        await pilot.press("enter")
        await settle(pilot)
        problems = editor._quick_filters(editor.clock())[1]
        assert [problem.split(":")[0] for problem in problems] == ["id gt", "client_id eq", "created_at gte"]
        messages = editor.query_one(QuickMessages)
        assert messages.max_scroll_y > 0 and messages.show_vertical_scrollbar, "some are out of view: a scrollbar"
