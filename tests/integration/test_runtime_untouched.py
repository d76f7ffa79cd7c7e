"""Issue 27: runtime tuning is set once at the program's launch (svctui/startup.py); the dashboard, its screens and
widgets never change the collector while they run: pages, a page turn, a client's runs and history, a run's log,
the Clients round."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

import pytest

from svctui.demo.server import DemoServer
from tests.support.tasks import NO_DEPRECATION_WARNING, drop_case, open_tasks, tasks_app
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]
SETTERS = ("set_threshold", "freeze", "unfreeze", "collect", "disable", "enable", "set_debug")


async def test_the_dashboard_never_changes_the_collector_while_it_runs(
    demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def recording(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return original(*args, **kwargs)

        return call

    for name in SETTERS:
        monkeypatch.setattr(gc, name, recording(name, getattr(gc, name)))
    before = (gc.get_threshold(), gc.isenabled(), gc.get_freeze_count())
    case = drop_case(demo_server)
    app = tasks_app(demo_server, case.client_id)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        screen = await open_tasks(pilot)
        await settle(pilot)
        assert screen.table.row_count and screen.runs.tasks, "a page and the client's history"
        await pilot.press("L")
        await settle(pilot)
        assert screen.task_detail.log_pane.view.lines, "a run's log"
        await pilot.press("4")
        await settle(pilot)
    assert calls == [], f"the app changed the collector: {calls}"
    assert (gc.get_threshold(), gc.isenabled(), gc.get_freeze_count()) == before
