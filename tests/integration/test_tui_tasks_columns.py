"""The tasks table gives its free room to the message: the short columns are no wider than their cells (issue 28)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from svctui.demo.server import DemoServer
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, query
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_message_takes_the_room_before_the_short_columns(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """While the message is cut, no other column is wider than its widest cell (or its title): the reason a run
    failed reads in the list (docs/DASHBOARD.md)."""
    client_id = query(demo_server, "SELECT client_id FROM tasks ORDER BY length(status_message) DESC, id LIMIT 1")[0][0]
    async with on_tasks(demo_server, client_id) as (_app, pilot, screen):
        await pilot.resize_terminal(*size)
        await settle(pilot)
        table = screen.table
        widths = table.shown_widths
        records = table.items
        assert records and "message" in widths
        widest = {
            column.key: max(cell_len(str(column.render(record))) for record in records)
            for column in table.shown_columns
        }
        assert widths["message"] < widest["message"], "the message must be cut for this test to say anything"
        for column in table.shown_columns:
            if column.key == "message":
                continue
            title = len(column.label) + (3 if column.sort else 0)
            assert widths[column.key] <= max(widest[column.key], title, column.fit.cut_to or 0), (column.key, widths)
