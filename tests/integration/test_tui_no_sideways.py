"""No sideways scrolling: the events table fits its width at 80 to 160 columns, with the detail pane open or not,
keeping the id and the client and leaving out (or cutting) the columns that matter least first; so does the
Clients table (its detail pane always open) at the screenshots' size and around it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from svctui.demo.server import DemoServer
from svctui.triage.health import strip_text
from svctui.tui.screens import clients_columns
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.events.detail import FIT_ORDER
from tests.support.tui import on_events, press_for, settle

pytestmark = pytest.mark.anyio
WIDTHS = (80, 100, 110, 119, 120, 160)


def shown_keys(table: DataTable[Any]) -> list[str]:
    """The table's column keys in display order, without the marks column."""
    return [str(column.key.value) for column in table.ordered_columns if not str(column.key.value).startswith("_")]


async def test_the_events_table_never_scrolls_sideways_with_or_without_the_detail_pane(
    demo_server: DemoServer,
) -> None:
    wrong: list[str] = []
    async with on_events(demo_server, size=(160, 30)) as (_app, pilot, screen):
        table = screen.table
        for width in WIDTHS:
            for pane in (False, True):
                await pilot.resize_terminal(width, 30)
                if screen.detail.is_open != pane:
                    await pilot.press("p")
                await settle(pilot)
                assert screen.detail.is_open == pane
                keys = shown_keys(table)
                over = table.virtual_size.width - table.scrollable_content_region.width
                ranked = [key for key in FIT_ORDER if key in keys]
                if over > 0 or keys[:2] != ["id", "client"] or ranked != list(FIT_ORDER[: len(ranked)]):
                    wrong.append(f"{width} columns, pane {'open' if pane else 'shut'}: {over} cells over, {keys}")
        assert not wrong, wrong


async def test_the_clients_table_never_scrolls_sideways_and_keeps_the_counts_and_the_strip(
    demo_server: DemoServer,
) -> None:
    """At the screenshots' 120x36 the type column pushed drops to the pane's edge (and the strip past it)."""
    wrong: list[str] = []
    async with on_events(demo_server, size=(120, 36)) as (_app, pilot, _events):
        screen = await press_for(pilot, "4", ClientsScreen)
        table = screen.table
        for width, height in ((120, 36), (80, 24), (100, 30), (119, 30), (160, 45)):
            await pilot.resize_terminal(width, height)
            await settle(pilot)
            keys = shown_keys(table)
            over = table.virtual_size.width - table.scrollable_content_region.width
            ranked = [key for key in clients_columns.FIT_ORDER if key in keys]
            if (
                over > 0
                or ranked[:6] != list(clients_columns.FIT_ORDER[:6])
                or ranked != list(clients_columns.FIT_ORDER[: len(ranked)])
            ):
                wrong.append(f"{width}x{height}: {over} cells over, {keys}")
            runs = table.columns[ColumnKey("strip")].width if "strip" in keys else 0
            for result in screen.results.values():
                if result.health is not None:
                    shown = str(table.get_cell(result.member.client_id, "strip"))
                    assert shown == strip_text(result.health.strip[-runs:]), (width, shown)  # the newest runs
        assert not wrong, wrong
