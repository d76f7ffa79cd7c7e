"""Pilot tests of the wrapped log (ctrl+w) when the view's width changes, against the demo server: the terminal
grown or shrunk, the detail zoomed (`z`). The wrapped screen lines are counted again for the new width, and no line
is drawn past the old count while the new one is under way (it raised IndexError)."""

from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot

from svctui.demo.runlogs import NO_LOG_EVERY
from svctui.demo.server import DemoServer
from svctui.tui.widgets.log_view import PREFIX, LogView
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, only_task, query
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def run_with_long_lines(server: DemoServer) -> tuple[str, int]:
    """(client, task) of a finished run that has a log (its lines are longer than 80 columns can hold)."""
    row = query(
        server,
        f"SELECT client_id, id FROM tasks WHERE id % {NO_LOG_EVERY} != 11 AND status = 8 ORDER BY id LIMIT 1",
    )[0]
    return str(row[0]), int(row[1])


def check_wrapped_to_width(view: LogView, narrow: bool) -> None:
    """Every screen line drawn fits the view, the rows' screen lines are counted for its width now, and the long
    lines on screen are cut at that width."""
    room = view.wrap_width
    assert view.wrap
    long_rows = [width for width in view.widths if width > room]
    assert bool(long_rows) == narrow, f"narrow: some line of the log is longer than {room} cells"
    assert view.virtual_size.height == sum(max(-(-width // room), 1) for width in view.widths), "counted for now"
    drawn = [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
    assert all(cell_len(text) == view.size.width for text in drawn)
    messages = [text[PREFIX:].rstrip() for text in drawn]
    assert all(cell_len(text) <= room for text in messages)
    first = view.row_at(int(view.scroll_y))[0]
    line = view.line_at(first)
    assert line is not None and messages[0] == line.message[:room].rstrip(), "the top row starts at the top"


async def wrapped_log(pilot: Pilot[Any], screen: Any, task: int) -> LogView:
    await only_task(pilot, screen, task)
    await pilot.press("L")
    await settle(pilot)
    view = screen.task_detail.log_pane.view
    assert isinstance(view, LogView) and view.lines
    await pilot.press("ctrl+w")
    await settle(pilot)
    return view


async def resize(pilot: Pilot[Any], width: int, height: int) -> None:
    await pilot.resize_terminal(width, height)
    await settle(pilot)


async def test_wrapped_log_rewraps_when_the_terminal_grows_and_shrinks(demo_server: DemoServer) -> None:
    client, task = run_with_long_lines(demo_server)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        await resize(pilot, 80, 24)
        view = await wrapped_log(pilot, screen, task)
        check_wrapped_to_width(view, True)
        narrow = view.wrap_width
        await pilot.press("j", "j", "j")
        await resize(pilot, 160, 45)  # the old count had more screen lines than the new width draws: IndexError
        assert app.is_running and view.wrap_width > narrow
        check_wrapped_to_width(view, False)
        await resize(pilot, 80, 24)
        assert view.wrap_width == narrow
        check_wrapped_to_width(view, True)


async def test_wrapped_log_rewraps_when_zoomed_and_back(demo_server: DemoServer) -> None:
    client, task = run_with_long_lines(demo_server)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        await resize(pilot, 160, 45)
        view = await wrapped_log(pilot, screen, task)
        check_wrapped_to_width(view, False)
        await resize(pilot, 80, 24)  # the newcomer's walk: shrink, zoom, grow back
        check_wrapped_to_width(view, True)
        await pilot.press("z")
        await settle(pilot)
        check_wrapped_to_width(view, True)
        await resize(pilot, 160, 45)
        assert app.is_running
        check_wrapped_to_width(view, False)
        await pilot.press("z")  # unzoomed again
        await settle(pilot)
        check_wrapped_to_width(view, False)
        await resize(pilot, 80, 24)
        check_wrapped_to_width(view, True)
