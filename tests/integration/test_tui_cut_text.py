"""Text the dashboard cuts to fit shows it: table cells and tag names end with `…`, the review's columns fit the
sheet, the tasks client bar keeps the client's name at 80 columns (the uuid shortens)."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.widgets import DataTable, Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.screens.selectors.tags_pane import TagsPane
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import plan_of, tag_selectors
from tests.support.tasks import client_ids, open_tasks, tasks_app, text_of
from tests.support.tui import on_events, settle, with_screen

pytestmark = pytest.mark.anyio

SMALL = (80, 24)


def line(table: DataTable[Any], y: int) -> str:
    """Line `y` of the table as drawn (0 is the header)."""
    return table.render_line(y).text


def plain(cell: object) -> str:
    """A cell's text."""
    return cell.plain if isinstance(cell, Text) else str(cell)


async def test_a_cell_cut_by_its_column_ends_with_an_ellipsis(demo_server: DemoServer) -> None:
    async with on_events(demo_server, size=SMALL) as (_app, _pilot, screen):
        table = screen.table
        column = table.adapter.column("schedule")
        assert column is not None and column.narrow_width is not None
        width = column.narrow_width
        cut = [
            (row, plain(column.render(event)))
            for row, event in enumerate(table.items[: table.size.height - 2])
            if len(plain(column.render(event))) > width
        ]
        assert cut, "the demo data has schedules longer than the narrow column"
        for row, words in cut:
            assert words[: width - 1] + "…" in line(table, row + 1)


async def test_a_tag_name_cut_in_the_tag_list_ends_with_an_ellipsis(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server, size=SMALL) as (_app, _pilot, screen):
        pane = screen.query_one(TagsPane)
        width = dict((key, width) for _, key, width in pane.tag_columns)["name"]
        long = [(row, tag.name) for row, tag in enumerate(pane.tags) if len(tag.name) > width]
        assert long, "the demo has tag names longer than the narrow name column"
        for row, name in long:
            assert name[: width - 1] + "…" in line(pane.table, row + 1)


@pytest.mark.parametrize("size", [SMALL, (120, 36)])
async def test_the_review_shows_every_column_and_cuts_by_kind_with_an_ellipsis(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    selectors = [selector for selector in tag_selectors(demo_server) if not selector.is_default][:3]
    async with with_screen(demo_server, ReviewScreen(plan_of(demo_server, selectors)), size=size) as (app, _pilot):
        table = app.screen.query_one("#review-table", DataTable)
        header = line(table, 0)
        assert "members" in header and "by kind" in header  # nothing is left off the sheet's right edge
        kinds_width = table.columns["kinds"].width  # type: ignore[index]
        drawn = [line(table, row + 1) for row in range(len(selectors))]
        texts = [plain(cell) for cell in table.get_column("kinds")]
        assert any(len(text) > kinds_width for text in texts), "a by-kind text wider than the column"
        for text, row in zip(texts, drawn, strict=True):
            shown = text if len(text) <= kinds_width else text[: kinds_width - 1] + "…"
            assert row.rstrip().endswith(shown)


async def test_the_client_bar_at_80_columns_keeps_the_name_and_shortens_the_uuid(demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server)[0]
    app = tasks_app(demo_server, client_id)
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_tasks(pilot)
        await settle(pilot)
        name = screen.client_name()
        bar = screen.query_one("#client-bar", Static)
        assert name and text_of(bar).startswith(f"Client {name} ({client_id[:8]}…) · completed-tasks · history ")
        drawn = bar.render_line(0).text.rstrip()
        assert drawn.startswith(f"Client {name} ({client_id[:8]}…)")
        assert drawn.endswith("…") if len(text_of(bar)) > SMALL[0] - 2 else drawn.endswith(text_of(bar))
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert f"Client {name} ({client_id}) · completed-tasks" in text_of(screen.query_one("#client-bar", Static))
