"""Every dashboard table refits itself on resize (issue 27, item 3): resized to a width, a table shows the very columns,
at the very widths, that it shows when the dashboard starts at that width, and none runs past its right edge."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from svctui.demo.server import DemoServer
from svctui.tui.breakpoints import NARROW_TERMINAL, NARROWER
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.widgets.paged_table import PagedTable
from tests.support.selectors import open_cleanup
from tests.support.selectors_run import plan_of, tag_selectors
from tests.support.tasks import client_ids, open_tasks, tasks_app
from tests.support.tui import events_screen, settle

pytestmark = pytest.mark.anyio

WIDE, NARROW = (160, 45), (80, 24)
Opener = Callable[[Pilot[Any]], Awaitable[DataTable[Any]]]


async def events_table(pilot: Pilot[Any]) -> DataTable[Any]:
    """The Events screen's table (the dashboard opens on it)."""
    await settle(pilot)
    return events_screen(pilot.app).table  # type: ignore[arg-type]


async def tasks_table(pilot: Pilot[Any]) -> DataTable[Any]:
    """The Completed tasks screen's table."""
    return (await open_tasks(pilot)).table


async def selectors_table(pilot: Pilot[Any]) -> DataTable[Any]:
    """The Cleanup screen's selectors table."""
    return (await open_cleanup(pilot)).table


async def clients_table(pilot: Pilot[Any]) -> DataTable[Any]:
    """The Clients screen's table, its round judged."""
    await settle(pilot)
    await pilot.press("4")
    for _ in range(4):
        await settle(pilot)
    table: DataTable[Any] = pilot.app.screen.query_one("#clients-table", DataTable)
    return table


def columns(table: DataTable[Any]) -> list[tuple[str, int]]:
    """The table's columns on show, (key, width) in display order."""
    return [(str(column.key.value), column.width) for column in table.ordered_columns]


def assert_fits(table: DataTable[Any]) -> None:
    """No column runs off the table's right edge."""
    used = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
    assert used <= table.scrollable_content_region.width, (used, table.scrollable_content_region.width)


async def shown_at(server: DemoServer, size: tuple[int, int], open_table: Opener) -> list[tuple[str, int]]:
    """The table's columns in a dashboard started at `size`."""
    app = tasks_app(server, client_ids(server)[0])
    async with app.run_test(size=size) as pilot:
        table = await open_table(pilot)
        await settle(pilot)
        return columns(table)


@pytest.mark.parametrize("open_table", [events_table, tasks_table, selectors_table, clients_table])
async def test_a_table_resized_shows_the_columns_it_shows_when_started_at_that_width(
    demo_server: DemoServer, open_table: Opener
) -> None:
    wide, narrow = await shown_at(demo_server, WIDE, open_table), await shown_at(demo_server, NARROW, open_table)
    assert wide != narrow, "the widths differ: a resize has something to refit"
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=WIDE) as pilot:
        table = await open_table(pilot)
        for size, expected in ((NARROW, narrow), (WIDE, wide), (NARROW, narrow)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert columns(table) == expected, size
            assert_fits(table)


async def test_the_deletion_review_refits_its_table_on_resize(fresh_demo_server: DemoServer) -> None:
    plan = plan_of(fresh_demo_server, tag_selectors(fresh_demo_server)[:4])

    async def review_table(pilot: Pilot[Any]) -> DataTable[Any]:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen(plan))
        await settle(pilot)
        table: DataTable[Any] = pilot.app.screen.query_one("#review-table", DataTable)
        return table

    wide = await shown_at(fresh_demo_server, WIDE, review_table)
    narrow = await shown_at(fresh_demo_server, NARROW, review_table)
    assert wide != narrow
    app = tasks_app(fresh_demo_server, client_ids(fresh_demo_server)[0])
    async with app.run_test(size=WIDE) as pilot:
        table = await review_table(pilot)
        for size, expected in ((NARROW, narrow), (WIDE, wide), (NARROW, narrow)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert columns(table) == expected, size
            assert_fits(table)


@pytest.mark.parametrize(("size", "created"), [((80, 30), False), ((90, 30), True)])
async def test_the_selectors_table_maximized_refits_to_the_whole_width(
    demo_server: DemoServer, size: tuple[int, int], created: bool
) -> None:
    """A newcomer's walk: after the palette's "Maximize" no `created` column showed with room to spare. Maximized,
    the table is fitted to the whole width: `created` (17 cells and its padding) shows where the room left beside
    id, the whole name and the flags has it (90 columns), and at 80 the room left is less than it needs."""
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=size) as pilot:
        screen = await open_cleanup(pilot)
        table = screen.selector_table
        screen.maximize(table)
        await settle(pilot)
        assert table.size.width == size[0]
        assert_fits(table)
        keys = [key for key, _width in columns(table)]
        assert keys[:4] == ["_mark", "id", "name", "flags"], keys
        assert ("created_at" in keys) is created, keys
        name = table.columns[ColumnKey("name")].width
        assert name == max(len(selector.name) for selector in table.items), "the names whole"
        if not created:
            used = sum(column.width + 2 * table.cell_padding for column in table.columns.values())
            assert table.scrollable_content_region.width - used < 17 + 2 * table.cell_padding


@pytest.mark.parametrize("open_table", [events_table, tasks_table, selectors_table])
async def test_a_list_table_is_narrow_by_its_screens_breakpoint_class(
    demo_server: DemoServer, open_table: Opener
) -> None:
    """Issue 27, item 4: one place decides a narrow terminal. Across NARROW_TERMINAL (99 and 100 columns) a list
    screen's table takes its narrow columns exactly when the screen is `-narrower`, as when started at that width."""
    edge = [(NARROW_TERMINAL - 1, 40), (NARROW_TERMINAL, 40)]
    started = {size: await shown_at(demo_server, size, open_table) for size in edge}
    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=WIDE) as pilot:
        table = await open_table(pilot)
        for size in (*edge, *edge):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert isinstance(table, PagedTable)
            narrow = size[0] < NARROW_TERMINAL
            assert table.narrow is narrow and table.screen.has_class(NARROWER) is narrow, size
            assert columns(table) == started[size], size
