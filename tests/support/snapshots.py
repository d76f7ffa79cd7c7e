"""What the snapshot tests share: fixed request and run ids, the cleanup pictures' size, a steady clock and cursor
(the fixtures using them are in tests/snapshots/conftest.py)."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

FIXED_REQUEST_ID = uuid.UUID("5f0c6c2e-9d1b-4b7e-8a43-2c6d0f9e7a11")
FIXED_RUN_ID = "20261124T120000Z-5eed"
SIZE = (140, 40)
SnapCompare = Callable[..., bool]


def fixed_ticker() -> Callable[[], float]:
    """A clock for the run's rate: 0 s at the start, 10 s at every later look."""
    values = itertools.chain([0.0], itertools.repeat(10.0))
    return lambda: next(values)


async def steady_cursor(pilot: Pilot[object]) -> None:
    """A blinking input cursor makes the picture depend on timing: stop it."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def pressing(
    *keys: str, screen: str = "", task_id: int | None = None, quiet: bool = False
) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """A `run_before`: settle, go to `screen` (a screen key), optionally filter the tasks to one id, press `keys`
    (settling after each), steady the cursor; `quiet` clears the notifications before the picture."""

    async def run_before(pilot: Pilot[Any]) -> None:
        from svctui.api.filters import Filter
        from tests.support.tasks import tasks_screen
        from tests.support.tui import settle

        await settle(pilot)
        if screen:
            await pilot.press(screen)
            await settle(pilot)
        if task_id is not None:
            tasks_screen(pilot.app).set_filters([Filter("id", "eq", str(task_id))])  # type: ignore[arg-type]
            await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await steady_cursor(pilot)
        if quiet:
            pilot.app.clear_notifications()
            await settle(pilot)

    return run_before
