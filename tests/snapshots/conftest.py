"""Fixtures of the snapshot tests: fixed request and run ids, a DELETE gate, a demo server with a big tag."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.demo.server import DemoServer
from tests.support.selectors_run import DeleteGate, big_tag_server
from tests.support.snapshots import FIXED_REQUEST_ID, FIXED_RUN_ID


@pytest.fixture
def fixed_request_ids(monkeypatch: pytest.MonkeyPatch) -> None:
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
    with big_tag_server(tmp_path, gate=gate) as demo:
        yield demo


@pytest.fixture
def anyio_backend() -> str:
    """The matrix tests run on asyncio only (Textual's loop), without a backend id in their snapshot names."""
    return "asyncio"


@pytest.fixture
def utc_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC (the zone is read again once the variable is restored)."""
    monkeypatch.setenv("TZ", "UTC0")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()
