"""Pilot tests of the log view's long lines: ctrl+w wraps them (drawn virtually, cut by cells), and unwrapped the
sideways scroll reaches the end of a line of wide characters (its limit counts cells, not characters)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from svctui.runlog import LogLine
from svctui.tui.widgets.log_view import PREFIX, LogView

pytestmark = pytest.mark.anyio

STAMP = "2026-03-01T10:00:00.1234567+00:00"
LONG = "".join(f"word{index:03d} " for index in range(40)).strip()  # 319 characters
WIDE = "日本語のログ" * 20  # 120 characters, 240 cells
MORE_MARK = "…"  # the last cell of a line cut at the right edge


class LogApp(App[None]):
    """Just the view, focused."""

    def __init__(self, lines: list[LogLine]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        yield LogView(id="log")

    def on_mount(self) -> None:
        view = self.query_one(LogView)
        view.extend(self.lines)
        view.focus()


def lines_of(*messages: str) -> list[LogLine]:
    return [LogLine(number, STAMP, "INFORMATION", message) for number, message in enumerate(messages, start=1)]


def screen_lines(view: LogView) -> list[str]:
    """The text of every line the view draws now."""
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


def message_part(text: str) -> str:
    return text[PREFIX:].rstrip()


async def toggle_wrap(pilot: Pilot[None]) -> None:
    """ctrl+w, and wait for the rows' screen lines (counted in a thread)."""
    await pilot.press("ctrl+w")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_ctrl_w_wraps_long_lines_and_back() -> None:
    app = LogApp(lines_of("short", LONG, "after"))
    async with app.run_test(size=(60, 20)) as pilot:
        view = app.query_one(LogView)
        assert screen_lines(view)[1][PREFIX:].startswith("word000") and not view.wrap
        await toggle_wrap(pilot)
        assert view.wrap
        room = view.wrap_width
        pieces = -(-len(LONG) // room)
        drawn = screen_lines(view)
        assert [message_part(text) for text in drawn[1 : 1 + pieces]] == [
            LONG[start : start + room].rstrip() for start in range(0, len(LONG), room)
        ], "the long line goes on over the next screen lines, under its message"
        assert drawn[2].startswith(" " * PREFIX), "a continuation has no time or level"
        assert message_part(drawn[1 + pieces]) == "after", "the next line starts after the wrapped one"
        assert view.virtual_size.height == 2 + pieces
        await pilot.press("l")
        assert view.scroll_x == 0, "wrapped, there is nothing to scroll sideways to"
        await toggle_wrap(pilot)
        assert not view.wrap and message_part(screen_lines(view)[2]) == "after"


async def test_wrapped_cursor_moves_by_line_and_stays_in_view() -> None:
    app = LogApp(lines_of(*(LONG if index % 2 else f"line {index}" for index in range(60))))
    async with app.run_test(size=(60, 12)) as pilot:
        view = app.query_one(LogView)
        await toggle_wrap(pilot)
        await pilot.press("G")
        await pilot.pause()
        assert view.cursor == 59
        last = view.current()
        assert last is not None and last.message == LONG
        drawn = screen_lines(view)
        assert any(text[PREFIX:].startswith("word000") for text in drawn), "the last line's start is on screen"
        assert any(message_part(text).endswith("word039") for text in drawn), "and its end"
        await pilot.press("k")
        current = view.current()
        assert current is not None and current.message == "line 58"


async def test_wide_characters_wrap_by_cells() -> None:
    app = LogApp(lines_of(WIDE))
    async with app.run_test(size=(50, 20)) as pilot:
        view = app.query_one(LogView)
        await toggle_wrap(pilot)
        room = view.wrap_width
        drawn = [message_part(text) for text in screen_lines(view)]
        pieces = [text for text in drawn if text]
        assert "".join(pieces) == WIDE, "every character drawn once, none cut in half"
        assert all(cell_len(piece) <= room for piece in pieces)
        assert all(cell_len(piece) >= room - 1 for piece in pieces[:-1]), "each screen line filled but for a half"


async def test_sideways_scroll_reaches_the_end_of_wide_characters() -> None:
    app = LogApp(lines_of(WIDE))
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(LogView)
        await pilot.press(*["l"] * 40)
        await pilot.pause()
        assert screen_lines(view)[0].rstrip().endswith("ログ"), "the line's last characters come into view"
        assert view.scroll_x == cell_len(WIDE) + PREFIX - view.scrollable_content_region.width


async def test_wrapped_rows_are_counted_again_for_the_filter_and_for_lines_that_arrive() -> None:
    lines = [
        LogLine(number, STAMP, "WARNING" if number % 3 == 0 else "INFORMATION", LONG if number % 2 else "short")
        for number in range(1, 13)
    ]
    app = LogApp(lines[:6])
    async with app.run_test(size=(60, 20)) as pilot:
        view = app.query_one(LogView)
        await toggle_wrap(pilot)
        room = view.wrap_width
        pieces = -(-len(LONG) // room)

        def screen_lines_of(shown: list[LogLine]) -> int:
            return sum(pieces if line.message == LONG else 1 for line in shown)

        assert view.virtual_size.height == screen_lines_of(lines[:6])
        view.extend(lines[6:])
        assert view.virtual_size.height == screen_lines_of(lines), "the new lines' screen lines after the others"
        view.set_filtered(True)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        warnings = [line for line in lines if line.level == "WARNING"]
        assert view.row_count == len(warnings) and view.virtual_size.height == screen_lines_of(warnings)


async def test_a_line_cut_at_the_right_edge_says_it_goes_on() -> None:
    """A walker: unwrapped, a long line was cut at the right edge with no sign that it goes on. Its last cell now
    shows a dim `…` until the line's end is in view (scrolled with `l`), and wrapped there is none."""
    app = LogApp(lines_of("short", LONG, *(f"line {index}" for index in range(40))))  # a scrollbar too
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(LogView)
        width = view.scrollable_content_region.width
        drawn = screen_lines(view)
        assert drawn[1][:width].endswith(MORE_MARK) and drawn[1][PREFIX : width - 1] == LONG[: width - 1 - PREFIX]
        assert MORE_MARK not in drawn[0] and MORE_MARK not in drawn[2], "a line that fits has no mark"
        mark = next(segment for segment in view.render_line(1) if segment.text == MORE_MARK)
        assert mark.style is not None and mark.style.dim, "dim, apart from the text"
        await pilot.press(*["l"] * 40)
        await pilot.pause()
        assert screen_lines(view)[1].rstrip().endswith("word039"), "at the line's end: its last word, no mark"
        await pilot.press(*["h"] * 40)
        await toggle_wrap(pilot)
        assert not any(MORE_MARK in text for text in screen_lines(view)), "wrapped, nothing is cut"
