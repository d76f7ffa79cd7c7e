"""Work the dashboard keeps off its event loop: big bodies parsed in a thread, a history's series computed with its
drops in the worker, a page's cells rendered ahead in a thread, a history kept out of the collector's scans."""

from __future__ import annotations

import asyncio
import gc
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from functools import partial
from typing import Any

import httpx
import pytest
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widgets import DataTable

from svctui.api.client import THREAD_PARSE_BYTES, ApiClient
from svctui.api.filters import SortKey
from svctui.api.models import Event
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.triage import detect_drops, domain_series
from svctui.tui.screens.events import EventsScreen
from svctui.tui.screens.list_screen import DRAW_AHEAD_MIN_ROWS
from svctui.tui.screens.tasks.loaders import HISTORY_PAGE, fetch_history
from svctui.tui.textual_internals import HighlightedRows, Lines
from svctui.tui.widgets.paged_table import DRAW_AHEAD_LINES, MARK_ON, PREPARE_MIN_ROWS, PagedTable
from svctui.tui.widgets.row_table import FrameStyles
from tests.support.tasks import NO_DEPRECATION_WARNING, drop_case, on_tasks
from tests.support.tui import RecordingApp, events_screen, laid_out_texts, make_app, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


class ThreadNotingClient(ApiClient):
    """The real client, noting which thread parsed each body and how big it was."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.parsed: list[tuple[int, bool]] = []  # (body bytes, parsed on the caller's thread)

    def parse(self, model: Any, response: httpx.Response) -> Any:
        """Note the thread, then parse as usual."""
        self.parsed.append((len(response.content), threading.current_thread() is threading.main_thread()))
        return super().parse(model, response)


async def test_a_big_body_is_parsed_in_a_thread_a_small_one_on_the_loop(demo_server: DemoServer) -> None:
    auth = SignatureAuth(demo_server.token_id, demo_server.token_key)
    client = ThreadNotingClient(demo_server.base_url, auth)
    async with client:
        small = await client.events.list(ListQuery(limit=1))
        big = await client.events.list(ListQuery(limit=200))  # every demo event
    assert len(small.data) == 1 and len(big.data) == 200
    (small_bytes, small_on_loop), (big_bytes, big_on_loop) = client.parsed
    assert small_bytes < THREAD_PARSE_BYTES <= big_bytes
    assert small_on_loop and not big_on_loop


async def test_a_history_arrives_with_its_series_and_drops(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    auth = SignatureAuth(demo_server.token_id, demo_server.token_key)
    async with ApiClient(demo_server.base_url, auth) as client:
        history = await fetch_history(client, case.client_id, "completed-jobs", 0.2)
    assert history.tasks and len(history.tasks) <= HISTORY_PAGE * 5
    assert history.series == domain_series(history.tasks)
    assert history.drops == detect_drops(history.tasks, 0.2)


async def test_the_plot_draws_the_series_computed_in_the_worker(demo_server: DemoServer) -> None:
    case = drop_case(demo_server)
    try:
        async with on_tasks(demo_server, case.client_id) as (_app, pilot, screen):
            await pilot.press("P")
            await settle(pilot)
            assert screen.runs.tasks is not None and screen.runs.series is not None
            assert screen.task_detail.series is screen.runs.series, "taken as computed, not recomputed on the loop"
            assert screen.runs.series == domain_series(screen.runs.tasks)
    finally:
        gc.unfreeze()


def cells_of(table: Any, key: str) -> list[tuple[str, str, list[Any]]]:
    """Plain text, base style and spans of every cell of a row."""
    row = table.get_row(key)
    return [(cell.plain, str(cell.style), list(cell.spans)) for cell in row if isinstance(cell, Text)]


def noting_renders(table: PagedTable[Any]) -> list[bool]:
    """From now on, for every cell the table's columns render: whether it was rendered on the event loop's thread."""
    on_loop: list[bool] = []

    def noting(render: Callable[[Any], str | Text]) -> Callable[[Any], str | Text]:
        def rendering(record: Any) -> str | Text:
            on_loop.append(threading.current_thread() is threading.main_thread())
            return render(record)

        return rendering

    noted = {column.key: replace(column, render=noting(column.render)) for column in table.shown_columns}
    table.shown_columns[:] = [noted[column.key] for column in table.shown_columns]
    # the table's own adapter too (the shown columns' cells only): columns fitted again are added back from it
    table.adapter = replace(table.adapter, columns=tuple(noted.get(c.key, c) for c in table.adapter.columns))
    return on_loop


async def test_a_page_shows_the_cells_rendered_ahead_and_they_equal_the_loops(demo_server: DemoServer) -> None:
    app = make_app(demo_server)
    async with app.run_test() as pilot:
        await settle(pilot)
        table = events_screen(app).table
        auth = SignatureAuth(demo_server.token_id, demo_server.token_key)
        async with ApiClient(demo_server.base_url, auth) as client:
            records: list[Event] = (await client.events.list(ListQuery(limit=PREPARE_MIN_ROWS + 10))).data
        table.show_items(records)  # rendered on the loop
        await settle(pilot)
        on_loop = {key: cells_of(table, key) for key in (str(record.id) for record in records)}
        table.show_items([])
        rendered = noting_renders(table)
        every_cell = len(records) * len(table.shown_columns)
        await table.prepare(records)
        assert len(rendered) == every_cell and not any(rendered), "every cell rendered in a thread"
        table.show_items(records)
        assert len(rendered) == every_cell, "the cells shown are the ones rendered ahead: none rendered on the loop"
        await settle(pilot)
        assert {key: cells_of(table, key) for key in on_loop} == on_loop
        await pilot.press("space", "j")  # a marked row, the cursor on the second row: every style in play
        base = table.rich_style
        coordinates = [(row, column) for row in range(12) for column in range(len(table.columns))]
        widths = [column.get_render_width(table) for column in table.ordered_columns]
        drawn = laid_out_texts(app)

        def draw(cell_lines: Callable[..., list[Any]]) -> list[Any]:
            table.notify_style_update()  # every rendered cell dropped, as a theme change does
            drawn.clear()
            return [
                cell_lines(row, column, base + table.row_highlight(row, in_cursor_cell=cursor), widths[column], cursor)
                for row, column in coordinates
                for cursor in [(row, column) == table.cursor_coordinate]
            ]

        ahead = draw(partial(table.cell_lines, hover=False))
        assert Counter(drawn) <= Counter({" ": 1, MARK_ON: 1}), "laid out in the thread; the marks once, not per row"
        by_datatable = draw(partial(HighlightedRows.cell_lines, table, hover=False))  # every cell as DataTable does
        assert len(drawn) == len(coordinates), "(as the count above sees)"
        assert by_datatable == ahead, "cells laid out ahead (and the marks) draw exactly as DataTable draws them"
        table.show_items(records)
        assert len(rendered) == 2 * every_cell and all(rendered[every_cell:]), "used once: rendered again, on the loop"


async def test_a_frame_of_the_table_is_the_one_datatable_draws(demo_server: DemoServer) -> None:
    app = make_app(demo_server)
    async with app.run_test() as pilot:
        await settle(pilot)
        table = events_screen(app).table
        await pilot.press("space", "j", "j")
        crop = Region(0, 0, table.size.width, table.size.height)

        def frame() -> list[list[Segment]]:
            table.notify_style_update()  # every rendered cell and line dropped
            return [list(strip) for strip in table.render_lines(crop)]

        fast = frame()
        header = table.get_component_styles("datatable--header")
        assert len(fast) == table.size.height and not isinstance(header, FrameStyles), "styles kept for one frame only"
        table.cell_lines = partial(HighlightedRows.cell_lines, table)  # type: ignore[method-assign]
        table.get_component_styles = partial(DataTable.get_component_styles, table)  # type: ignore[method-assign]
        assert frame() == fast, "the same segments as DataTable's own drawing, line by line"


async def test_cells_rendered_ahead_under_another_theme_are_not_used(demo_server: DemoServer) -> None:
    app = make_app(demo_server)
    async with app.run_test() as pilot:
        await settle(pilot)
        table = events_screen(app).table
        records = table.items
        assert len(records) >= PREPARE_MIN_ROWS
        table.show_items([])
        rendered = noting_renders(table)
        preparing = asyncio.create_task(table.prepare(records))
        await asyncio.sleep(0)  # the page's cells are being rendered in a thread when the theme changes
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await preparing
        await settle(pilot)
        assert rendered and not any(rendered), "rendered ahead, in a thread"
        rendered.clear()
        table.show_items(records)
        assert len(rendered) == len(records) * len(table.shown_columns) and all(rendered), "rendered again on the loop"


@asynccontextmanager
async def big_page(demo_server: DemoServer) -> AsyncIterator[tuple[RecordingApp, Pilot[Any], EventsScreen]]:
    """The events screen settled on a page of DRAW_AHEAD_MIN_ROWS rows: (app, pilot, screen)."""
    app = make_app(demo_server, settings=Settings(page_size=DRAW_AHEAD_MIN_ROWS))
    async with app.run_test() as pilot:
        await settle(pilot)
        yield app, pilot, events_screen(app)


async def test_a_big_page_is_drawn_ahead_in_slices_with_updates_held_and_draws_as_datatable_does(
    demo_server: DemoServer,
) -> None:
    async with big_page(demo_server) as (app, pilot, screen):
        table = screen.table
        width, height = table.size
        drawn: list[tuple[int, int, bool]] = []  # (first line, lines, screen updates held)
        held = 0  # App.batch_update blocks entered and not left
        render_lines, batch_update = table.render_lines, app.batch_update

        def noting(crop: Region) -> list[Strip]:
            drawn.append((crop.y, crop.height, held > 0))
            return render_lines(crop)

        @contextmanager
        def holding() -> Iterator[None]:
            nonlocal held
            held += 1
            try:
                with batch_update():
                    yield
            finally:
                held -= 1

        table.render_lines = noting  # type: ignore[method-assign]
        app.batch_update = holding  # type: ignore[method-assign]
        screen.set_sort((SortKey("id", descending=True),))  # the same rows the other way round: every line new
        await settle(pilot)
        ahead = [(top, lines) for top, lines, updates_held in drawn if updates_held]
        slices = [(top, min(DRAW_AHEAD_LINES, height - top)) for top in range(0, height, DRAW_AHEAD_LINES)]
        assert ahead == slices, "every visible line drawn ahead, a slice at a time, before the screen updated"
        assert held == 0, "and the screen updates resumed"
        crop = Region(0, 0, width, height)
        shown = [list(strip) for strip in render_lines(crop)]
        table.notify_style_update()  # every rendered cell and line dropped
        assert [list(strip) for strip in render_lines(crop)] == shown, "what was drawn ahead is what a frame draws"


async def test_the_table_shown_again_at_the_width_it_was_drawn_keeps_its_rendered_rows(
    demo_server: DemoServer,
) -> None:
    app = make_app(demo_server)
    async with app.run_test() as pilot:
        await settle(pilot)
        screen = events_screen(app)
        table = screen.table
        width = table.size.width
        rows: list[int] = []  # each row drawn afresh (not from DataTable's caches of rendered rows), once per drawing
        cell_lines, last = table.cell_lines, len(table.columns) - 1

        def noting(row_index: int, col_index: int, style: Style, width: int, cursor: bool, hover: bool) -> Lines:
            if col_index == last:  # the fixed columns are drawn twice a row (DataTable crops one away): not this one
                rows.append(row_index)
            return cell_lines(row_index, col_index, style, width, cursor, hover)

        table.cell_lines = noting  # type: ignore[method-assign]
        screen.show_state(True)  # the loading panel instead of the table, as a first page's load shows it
        await pilot.pause()
        assert table.size.width == 0
        screen.show_state(False)
        await settle(pilot)
        assert table.size.width == width and rows, "shown again (its styles changed): its rows were drawn"
        rows.clear()
        table.refresh()
        await pilot.pause()
        assert rows == [], "the next frame finds them drawn: DataTable's resize handler would have them drawn again"
        await pilot.resize_terminal(width + 10, 30)
        await settle(pilot)
        assert set(rows) >= set(range(table.size.height - 1)), "another width: rows drawn again"
        crop = Region(0, 0, table.size.width, table.size.height)
        shown = [list(strip) for strip in table.render_lines(crop)]
        table.notify_style_update()  # every rendered cell and line dropped
        assert [list(strip) for strip in table.render_lines(crop)] == shown, "no row of the old width is left"
