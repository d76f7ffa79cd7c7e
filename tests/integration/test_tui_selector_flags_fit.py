"""Issue 28 (newcomer's walk): the selectors' flags are whole at 80 columns (`extension`, not `extensi…`), and at
60 columns, where the flags column is left out, the status line still says what the table leaves out."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import Static

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.columns import EXTENSION_FLAG
from tests.support.selectors import on_cleanup
from tests.support.tui import settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_at_80_columns_an_extension_flag_is_whole(demo_server: DemoServer) -> None:
    """The flags column was 8 wide at 80 columns: `extensi…`."""
    async with on_cleanup(demo_server, size=(80, 24)) as (_app, pilot, screen):
        screen.set_filters([Filter("name", "~eq", "Entra ID")])  # the extension's selectors
        await settle(pilot)
        table = screen.table
        flags = [str(table.get_cell(row.key, "flags")) for row in table.ordered_rows]
        assert EXTENSION_FLAG in flags, "the test needs an extension-owned selector on the first page"
        assert table.shown_widths["flags"] >= cell_len(EXTENSION_FLAG), table.shown_widths


async def test_at_60_columns_the_flags_left_out_are_hinted(demo_server: DemoServer) -> None:
    """At 60x20 the status line gave no `+N columns` hint for the columns left out (the tag's words took it)."""
    async with on_cleanup(demo_server, size=(60, 20)) as (_app, pilot, screen):
        await settle(pilot)
        assert screen.table.left_out, "at 60 columns some columns are left out"
        status = str(screen.query_one("#status-line", Static).render())
        assert f"+{len(screen.table.left_out)} columns (p)" in status, status
