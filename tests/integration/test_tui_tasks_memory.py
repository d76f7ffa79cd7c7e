"""Pages the tasks screen left behind are freed by reference counting, with no collection of reference cycles."""

from __future__ import annotations

import gc
import weakref

import pytest

from svctui.demo.server import DemoServer
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, query
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]

TURNS = 3  # pages turned with `]` after the first


async def test_a_page_turned_away_is_freed_without_the_cycle_collector(demo_server: DemoServer) -> None:
    busiest = query(demo_server, "SELECT client_id FROM tasks GROUP BY client_id ORDER BY count(*) DESC LIMIT 1")
    async with on_tasks(demo_server, busiest[0][0]) as (_app, pilot, screen):
        assert (screen.window.count or 0) > (TURNS + 1) * screen.window.limit, "the busiest client has enough pages"
        first_page = [weakref.ref(task) for task in screen.table.items]
        assert first_page
        gc.disable()  # the launch tuning makes full passes rare: what a page leaves must go by reference counting
        try:
            for _ in range(TURNS):
                await pilot.press("right_square_bracket")
                await settle(pilot)
            alive = sum(ref() is not None for ref in first_page)
        finally:
            gc.enable()
    assert alive == 0, f"{alive} of the first page's {len(first_page)} tasks outlived {TURNS} page turns"
