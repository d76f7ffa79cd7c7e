"""What the snapshot tests share: fixed request and run ids, the cleanup pictures' size, a steady clock and cursor
(the fixtures using them are in tests/snapshots/conftest.py)."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable

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
