"""Pilot tests of the log's search field and status line, against the demo server: a long search term is cut in the
status line (the match count and the keys stay), and keys typed in a burst into the field act in their order."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.text import ELLIPSIS, cell_width
from svctui.tui.screens.tasks.log_tab import TERM_CELLS, LogPane
from tests.integration.test_tui_log_resize import run_with_long_lines
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, only_task, text_of
from tests.support.tui import burst, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def status_of(pane: LogPane) -> tuple[str, int]:
    """The status line's text and the cells it has."""
    status = pane.query_one("#log-status", Static)
    return text_of(status), status.content_region.width


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_a_long_search_term_is_cut_and_the_count_and_keys_stay(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    client, task = run_with_long_lines(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await pilot.resize_terminal(*size)
        await only_task(pilot, screen, task)
        await pilot.press("L")
        await settle(pilot)
        pane = screen.task_detail.log_pane
        await pilot.press("/")
        burst(pilot, *"q" * 200, "enter")  # typed at once: 200 presses one by one take a minute
        await settle(pilot)
        assert pane.view.needle == "q" * 200
        text, room = status_of(pane)
        assert cell_width(text) <= room and text.startswith("line ") and f"{ELLIPSIS}” not found" in text, text
        term = text.split("“")[1].split("”")[0]
        assert TERM_CELLS[0] <= cell_width(term) <= TERM_CELLS[1], text
        if size[0] >= 120:  # at 80 columns the keys leave the term no room: the keys go, the term and count stay
            assert text.endswith("” not found · / search · w warnings · e next error · D domain"), text
        long_message = max((line.message for line in pane.view.lines), key=len)
        await pilot.press("/")
        burst(pilot, "ctrl+u", *long_message, "enter")
        await settle(pilot)
        text, room = status_of(pane)
        assert pane.view.needle == long_message.strip() and cell_width(text) <= room and "” 1 of " in text, text
        assert " (n/N) · / search" in text or size[0] < 120, text
        await pilot.resize_terminal(size[0] + 30, size[1])
        await settle(pilot)
        wider, _ = status_of(pane)
        assert len(wider.split("“")[1]) >= len(text.split("“")[1]), "wider: as much of the term, or more"


async def test_ctrl_u_then_a_word_in_one_burst_searches_the_whole_word_and_esc_closes(demo_server: DemoServer) -> None:
    client, task = run_with_long_lines(demo_server)
    async with on_tasks(demo_server, client) as (_app, pilot, screen):
        await only_task(pilot, screen, task)
        await pilot.press("L")
        await settle(pilot)
        pane = screen.task_detail.log_pane
        burst(pilot, "/", *"status", "enter")  # newcomer walk: the keys behind `/` searched nothing
        await settle(pilot)
        assert pane.view.needle == "status"
        await pilot.press("/")  # the field open, `status` in it; ctrl+u and the word arrive in one read
        burst(pilot, "ctrl+u", *"ldap", "enter")
        await settle(pilot)
        assert pane.view.needle == "ldap"
        await pilot.press("/", *"xyz", "escape")
        await settle(pilot)
        field = pane.query_one("#log-search")
        assert pane.view.needle == "ldap" and not field.has_class("-open") and screen.detail.is_open, "esc: closed"
        assert pane.view.has_focus
        await pilot.press("/")  # the newcomer's report: ctrl+u and the first letter in one read, the rest after
        burst(pilot, "ctrl+u", "s")
        await settle(pilot)
        await pilot.press(*"tatus", "enter")
        await settle(pilot)
        assert pane.view.needle == "status", "the first letter kept (it was 'tatus')"
