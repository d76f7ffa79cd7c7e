"""Hanging text: a `label  value` line too long for its widget continues under the value, at any width, and reads
(str, selection) as written."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from svctui.tui.widgets.hanging import MIN_ROOM, Hanging, cut_offsets

pytestmark = pytest.mark.anyio

MESSAGE = "message       the collector timed out waiting for the domain controller"


class OneStatic(App[None]):
    """A Static of a given width holding `visual`."""

    def __init__(self, visual: Hanging, width: int) -> None:
        super().__init__()
        self.visual, self.width = visual, width

    def compose(self) -> ComposeResult:
        yield Static(self.visual, id="text")

    def on_mount(self) -> None:
        self.query_one("#text").styles.width = self.width


async def shown(visual: Hanging, width: int) -> list[str]:
    """The rows a Static `width` cells wide shows for `visual`."""
    async with OneStatic(visual, width).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = pilot.app.query_one("#text", Static)
        return [text.render_line(y).text.rstrip() for y in range(text.size.height)]


def test_cut_offsets_break_after_spaces_and_fold_long_words() -> None:
    assert cut_offsets("short", 10) == []
    assert cut_offsets("the collector timed out", 10) == [4, 14]
    assert cut_offsets("abcdefghijkl", 5) == [5, 10]
    assert cut_offsets("漢字漢字", 4) == [2]


async def test_a_long_value_continues_under_the_value() -> None:
    lines = await shown(Hanging([(MESSAGE, 14), ("next          5", 14)]), 30)
    assert lines == [
        "message       the collector",
        "              timed out",
        "              waiting for the",
        "              domain",
        "              controller",
        "next          5",
    ]


async def test_it_wraps_again_at_another_width_and_reads_as_written() -> None:
    visual = Hanging([(MESSAGE, 14), ("a note\nits second line", 2)])
    assert await shown(visual, 50) == [
        "message       the collector timed out waiting for",
        "              the domain controller",
        "a note",
        "  its second line",
    ]
    assert str(visual) == f"{MESSAGE}\na note\n  its second line"


async def test_no_room_for_the_hang_wraps_from_the_edge() -> None:
    assert MIN_ROOM == 12
    assert await shown(Hanging([(MESSAGE, 14)]), 25) == [
        "message       the",
        "collector timed out",
        "waiting for the domain",
        "controller",
    ]


async def test_a_selection_across_wrapped_lines_copies_the_text_as_written() -> None:
    async with OneStatic(Hanging([(MESSAGE, 14), ("next", 0)]), 30).run_test(size=(80, 24)) as pilot:
        text = pilot.app.query_one("#text", Static)
        await pilot.mouse_down(text, offset=(14, 1))  # "timed", the first continuation's first word
        await pilot.hover(text, offset=(24, 2))
        await pilot.mouse_up(text, offset=(24, 2))
        await pilot.pause()
        assert pilot.app.screen.get_selected_text() == "timed out waiting for"
        text.text_select_all()
        await pilot.pause()
        assert pilot.app.screen.get_selected_text() == f"{MESSAGE}\nnext"
