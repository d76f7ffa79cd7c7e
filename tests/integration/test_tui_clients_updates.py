"""Issue 29 item 8: a Clients table update of k answers builds k rows, not the whole fleet (the first fill of 1,000
clients re-walked every row on each of its ~85 updates)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from textual.widgets.data_table import ColumnKey

from svctui.demo.server import DemoServer
from svctui.tui.screens import clients
from svctui.tui.screens.clients import ClientJudged, ClientsScreen
from svctui.tui.screens.clients_table import ClientsTable
from tests.support.tui import make_app, running, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def counting(calls: list[str], build: Callable[..., Any]) -> Callable[..., Any]:
    """`build` (the screen's row builder), noting the client id of each row it is asked for."""

    def counted(member: Any, now: Any) -> Any:
        calls.append(member.client_id)
        return build(member, now)

    return counted


async def test_one_answer_builds_one_row(demo_server: DemoServer) -> None:
    app = make_app(demo_server)
    async with running(app, (160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen) and screen.fleet is not None and not screen.awaiting
        assert len(screen.results) > 3
        calls: list[str] = []
        screen._cells_of = counting(calls, screen._cells_of)  # type: ignore[method-assign]
        key, result = next(iter(screen.results.items()))
        screen.awaiting.add(key)  # still being checked: the rows keep their places (no re-rank)
        screen.post_message(ClientJudged(screen._round_seq, replace(result)))
        await settle(pilot)
        assert calls == [key], calls
        assert screen.table.get_row(key)  # its row is still there


async def test_the_pending_rows_go_in_at_once_after_the_first_slice(
    demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fleet-1000-fill: each addition of rows repaints every row on screen; the rows past the first slice (ADD_ROWS,
    here 3) are built a slice a tick and added in one go when all are built, not a slice a tick."""
    monkeypatch.setattr(clients, "ADD_ROWS", 3)
    additions: list[int] = []
    append_rows = ClientsTable.append_rows

    def counted(table: ClientsTable, rows: Any) -> None:
        if rows:
            additions.append(len(rows))
        append_rows(table, rows)

    monkeypatch.setattr(ClientsTable, "append_rows", counted)
    app = make_app(demo_server)
    async with running(app, (160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen) and screen.fleet is not None and not screen.awaiting
        total = len(screen.fleet.members)
        assert total > 2 * 3, total
        # the first slice, then the rest at once (again if the round's settled widths show another column), never
        # a slice a tick
        assert additions[:2] == [3, total - 3] and set(additions) == {3, total - 3} and len(additions) <= 4, additions
        assert screen.table.row_count == total


async def test_a_width_change_keeps_the_rows_and_their_cells(demo_server: DemoServer) -> None:
    """Only the columns' widths change (here the host column's widest cell, as when a round settles its widths):
    the rows stay with their very cells (clearing the table built and added every row again: a thousand, twice in a
    fleet-1000 fill)."""
    app = make_app(demo_server)
    async with running(app, (240, 45)) as pilot:  # room for every column
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen) and not screen.awaiting
        table = screen.table
        keys = [row.key for row in table.ordered_rows]
        cells = {key: table.get_row(key) for key in keys}
        columns = list(screen._columns)
        assert "host" in [key for key, _label, _width in columns]
        host_widths: list[int] = []
        resize_columns = screen._resize_columns

        def resized(fitted: list[tuple[str, str, int]]) -> bool:
            host_widths.append(dict((key, width) for key, _label, width in fitted)["host"])
            return resize_columns(fitted)

        screen._resize_columns = resized  # type: ignore[method-assign]
        screen._settled_widest = {**screen._settled_widest, "host": 10}  # then settled again from the rows (39)
        screen.fit_columns()
        await settle(pilot)
        assert host_widths[:2] == [10, table.columns[ColumnKey("host")].width], host_widths
        assert [(key, label) for key, label, _ in screen._columns] == [(key, label) for key, label, _ in columns]
        assert [row.key for row in table.ordered_rows] == keys
        kept = [new is old for key in keys for new, old in zip(table.get_row(key), cells[key], strict=True)]
        assert all(kept), "every row kept its cells"
        widths = {column.key.value: column.width for column in table.columns.values()}
        assert widths == {key: width for key, _label, width in screen._columns}
