"""Helpers for the Completed tasks screen tests: the screen, a seeded-drop case, an app already on a client."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from svctui.api.filters import Filter
from svctui.demo.db import seeded_drops
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from svctui.tui.screens.tasks import TasksScreen
from svctui.tui.widgets.client_picker import ClientPicker
from svctui.tui.widgets.state_panel import StateKind
from tests.support.tui import SIZE, RecordingApp, make_app, press_for, settle

# The screen shows its own notice for the deprecated endpoint; the app routes the client's notice away from
# Python warnings, so a DeprecationWarning in a tasks test is a bug.
NO_DEPRECATION_WARNING = pytest.mark.filterwarnings("error:completed-tasks is deprecated:DeprecationWarning")


def text_of(widget: Static) -> str:
    """What a Static shows, as plain text."""
    return str(widget.render())


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


def deletable_selector(server: DemoServer, tag_id: int = 1) -> int:
    """The id of a selector of `tag_id` that is not a default one (a deletion the server carries out)."""
    rows = query(server, "SELECT id FROM selectors WHERE asset_group_tag_id = ? AND NOT is_default LIMIT 1", tag_id)
    return int(rows[0][0])


def drop_case(server: DemoServer, index: int = 0) -> DropCase:
    """The `index`-th seeded drop of the demo data."""
    drop = seeded_drops(server.db_path)[index]
    client_id, event_id = query(server, "SELECT client_id, event_id FROM tasks WHERE id = ?", drop.task_id)[0]
    return DropCase(client_id, drop.task_id, event_id, drop.domain_name, drop.field)


def client_ids(server: DemoServer) -> list[str]:
    """Every client of the demo data that ran (the registered client that never ran has no tasks nor events)."""
    return [
        row[0] for row in query(server, "SELECT id FROM clients WHERE id IN (SELECT client_id FROM tasks) ORDER BY id")
    ]


def tasks_app(server: DemoServer, client_id: str | None = None, **settings: Any) -> RecordingApp:
    """A dashboard whose settings remember `client_id` (so the tasks screen opens on it)."""
    recent = [client_id] if client_id else []
    return make_app(server, settings=Settings(recent_clients=recent, **settings))


async def open_tasks(pilot: Pilot[Any]) -> TasksScreen:
    """Press 2 and wait until everything loaded; the tasks screen."""
    await settle(pilot)
    await pilot.press("2")
    await settle(pilot)
    return tasks_screen(pilot.app)  # type: ignore[arg-type]


@asynccontextmanager
async def on_tasks(
    server: DemoServer, client_id: str | None = None, **settings: Any
) -> AsyncIterator[tuple[RecordingApp, Pilot[Any], TasksScreen]]:
    """Run a dashboard on the tasks screen of `client_id` (remembered in settings): (app, pilot, tasks screen)."""
    app = tasks_app(server, client_id, **settings)
    async with app.run_test(size=SIZE) as pilot:
        yield app, pilot, await open_tasks(pilot)


async def open_picker(pilot: Pilot[Any]) -> ClientPicker:
    """Press C and wait: the client picker."""
    return await press_for(pilot, "C", ClientPicker)


async def only_task(pilot: Pilot[Any], screen: TasksScreen, task_id: int) -> None:
    """Filter the list down to one task (`id=eq:`) and wait for it."""
    screen.set_filters([Filter("id", "eq", str(task_id))])
    await settle(pilot)


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
