"""Shared set-up of the cleanup review/run/audit snapshots: a big-tag demo server, fixed request and run ids."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from svctui.demo.server import DemoServer
from tests.integration.selectors_run_support import DeleteGate, big_tag_server

FIXED_REQUEST_ID = uuid.UUID("5f0c6c2e-9d1b-4b7e-8a43-2c6d0f9e7a11")
FIXED_RUN_ID = "20261124T120000Z-5eed"
SIZE = (140, 40)
SnapCompare = Callable[..., bool]


@pytest.fixture
def fixed_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """One request id from the demo server (same process) and one run id, so the pictures are stable."""
    import svctui.store.audit as audit_module

    monkeypatch.setattr(uuid, "uuid4", lambda: FIXED_REQUEST_ID)
    monkeypatch.setattr(audit_module, "new_run_id", lambda moment=None: FIXED_RUN_ID)


@pytest.fixture
def gate() -> DeleteGate:
    """A gate for DELETEs (none held unless a test says so)."""
    return DeleteGate()


@pytest.fixture
def big_demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: DeleteGate) -> Iterator[DemoServer]:
    """A demo server of its own whose tag 1 has 400 selectors; DELETEs pass `gate`."""
    with big_tag_server(tmp_path, monkeypatch, gate=gate) as demo:
        yield demo


def fixed_ticker() -> Callable[[], float]:
    """A clock for the run's rate: 0 s at the start, 10 s at every later look."""
    values = itertools.chain([0.0], itertools.repeat(10.0))
    return lambda: next(values)


async def steady_cursor(pilot: Pilot[object]) -> None:
    """A blinking input cursor makes the picture depend on timing: stop it."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()
