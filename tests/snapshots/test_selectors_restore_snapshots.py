"""SVG snapshots of undo from the Audit tab: the question (names, what is skipped) and the finished restore.
Each at 80x24 and 160x45, dark and light, from one run (tests/support/matrix.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot
from textual.widgets import DataTable

from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, end_line, intent_line, outcome_line, plan_line, selector_record
from svctui.ops.outcomes import DeleteResult, Outcome
from svctui.store.audit import append_audit
from svctui.tui.screens.selectors.restore import RestoreScreen
from tests.support.matrix import compare_matrix
from tests.support.selectors import AuditHost
from tests.support.selectors_run import BIG_TAG_ID, delete_now, tag_selectors
from tests.support.snapshots import FIXED_REQUEST_ID
from tests.support.tui import make_app, settle

RUN_ID = "20261120T091500Z-1a2b"
TS = "2026-11-20T09:15:00.000Z"

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


def deletion_run(demo: DemoServer, *, enabled_only: bool = False) -> None:
    """A finished run on the demo server: 4 deleted (really gone from the server; `enabled_only`: none of them
    disabled, so the restore has no message to give), 1 default refused."""
    selectors = tag_selectors(demo)
    default = next(selector for selector in selectors if selector.is_default)
    deletable = [s for s in selectors if not s.is_default and (s.disabled_at is None or not enabled_only)]
    chosen = [default, *deletable[:4]]
    context = AuditContext("demo", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", demo.base_url.rstrip("/"), "alice")
    append_audit(
        {**plan_line(RUN_ID, context, BIG_TAG_ID, "Tier Zero", [s.id for s in chosen], 4, resumes=None), "ts": TS}
    )
    results = []
    for selector in chosen:
        append_audit({**intent_line(RUN_ID, BIG_TAG_ID, selector.id, selector_record(selector)), "ts": TS})
        if selector.is_default:
            result = DeleteResult(
                selector.id, Outcome.REFUSED_DEFAULT, status=403, request_id=str(FIXED_REQUEST_ID), message="default"
            )
        else:
            delete_now(demo, selector.id)
            result = DeleteResult(selector.id, Outcome.DELETED, status=204, request_id=str(FIXED_REQUEST_ID))
        results.append(result)
        append_audit({**outcome_line(RUN_ID, BIG_TAG_ID, result), "ts": TS})
    append_audit({**end_line(RUN_ID, results, None), "ts": TS})


async def open_restore(pilot: Pilot[Any]) -> None:
    """The Audit tab, its newest run chosen, `u`."""
    await settle(pilot)
    pilot.app.push_screen(AuditHost())
    await settle(pilot)
    pilot.app.screen.query_one("#audit-runs", DataTable).focus()
    await pilot.press("u")
    await settle(pilot)


async def test_restore_question(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, fixed_request_ids: None
) -> None:
    deletion_run(big_demo)
    await compare_matrix(make_app(big_demo), open_restore, snapshot, tmp_path)


async def test_restore_finished(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, fixed_request_ids: None
) -> None:
    deletion_run(big_demo)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_restore(pilot)
        await pilot.press("tab", "enter")
        await settle(pilot)
        assert isinstance(pilot.app.screen, RestoreScreen) and pilot.app.screen.finished

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_restore_finished_without_messages(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, fixed_request_ids: None
) -> None:
    """No row has a message: the message column takes no room, the names take it first (issue 28)."""
    deletion_run(big_demo, enabled_only=True)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_restore(pilot)
        await pilot.press("tab", "enter")
        await settle(pilot)
        assert isinstance(pilot.app.screen, RestoreScreen) and pilot.app.screen.finished

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)
