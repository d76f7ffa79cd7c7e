"""Helpers for the Completed tasks screen tests: the screen, a seeded-drop case, an app already on a client."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from textual.pilot import Pilot

from svctui.demo.db import seeded_drops
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from svctui.tui.screens.tasks import TasksScreen
from svctui.tui.widgets.state_panel import StateKind
from tests.integration.tui_support import make_app, settle


@dataclass(frozen=True)
class DropCase:
    """A seeded drop and where it lives: client, task, event, domain, count field."""

    client_id: str
    task_id: int
    event_id: int | None
    domain_name: str
    field: str


def query(server: DemoServer, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Read the demo database directly (the oracle the screen is checked against)."""
    with sqlite3.connect(str(server.db_path)) as conn:
        return list(conn.execute(sql, args))


def drop_case(server: DemoServer, index: int = 0) -> DropCase:
    """The `index`-th seeded drop of the demo data."""
    drop = seeded_drops(server.db_path)[index]
    client_id, event_id = query(server, "SELECT client_id, event_id FROM tasks WHERE id = ?", drop.task_id)[0]
    return DropCase(client_id, drop.task_id, event_id, drop.domain_name, drop.field)


def client_ids(server: DemoServer) -> list[str]:
    """Every client id of the demo data."""
    return [row[0] for row in query(server, "SELECT id FROM clients ORDER BY id")]


def tasks_app(server: DemoServer, client_id: str | None = None, **settings: Any) -> SvcTuiApp:
    """A dashboard whose settings remember `client_id` (so the tasks screen opens on it)."""
    recent = [client_id] if client_id else []
    return make_app(server, settings=Settings(recent_clients=recent, **settings))


async def open_tasks(pilot: Pilot[Any]) -> TasksScreen:
    """Press 2 and wait until everything loaded; the tasks screen."""
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    return tasks_screen(pilot.app)  # type: ignore[arg-type]


def tasks_screen(app: SvcTuiApp) -> TasksScreen:
    """The tasks screen (the mode's base screen, even when a modal is on top)."""
    screen = app.get_screen_stack("tasks")[0]
    assert isinstance(screen, TasksScreen)
    return screen


def state_of(app: SvcTuiApp) -> StateKind:
    """What the tasks screen's state panel shows."""
    return tasks_screen(app).state_panel.kind


def task_ids(screen: TasksScreen) -> list[int]:
    """Task ids in table order."""
    return [task.id for task in screen.table.items]
