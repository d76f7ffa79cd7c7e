"""Issue 29 item 8: a Clients table update of k answers builds k rows, not the whole fleet (the first fill of 1,000
clients re-walked every row on each of its ~85 updates)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.screens.clients import ClientJudged, ClientsScreen
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
