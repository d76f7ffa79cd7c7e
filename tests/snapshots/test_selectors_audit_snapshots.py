"""SVG snapshot of the Audit tab: a finished run and an interrupted one (a hand-written, real audit log).
Each at 80x24 and 160x45, dark and light, from one run (tests/support/matrix.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot

from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, end_line, intent_line, outcome_line, plan_line, selector_record
from svctui.ops.outcomes import DeleteResult, Outcome
from svctui.store.audit import append_audit
from tests.support.matrix import compare_matrix
from tests.support.selectors import AuditHost, open_cleanup
from tests.support.selectors_run import BIG_TAG_ID, tag_selectors
from tests.support.snapshots import FIXED_REQUEST_ID
from tests.support.tui import make_app, settle

STAMP = "2026-11-26T12:17:31.618Z"
CONTEXT = AuditContext("prod", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "https://bh.example.com", "alice")

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


def write_log(demo: DemoServer) -> None:
    """Two runs: one finished (3 deleted, 1 refused), a later one interrupted (1 deleted, 1 in doubt, 2 left)."""
    selectors = tag_selectors(demo)
    default = next(selector for selector in selectors if selector.is_default)
    plain = [selector for selector in selectors if not selector.is_default]
    runs = (
        ("20261120T091500Z-1a2b", "2026-11-20T09:15:00.000Z", [default, *plain[:3]], 4),
        ("20261124T101500Z-0abc", "2026-11-24T10:15:00.000Z", plain[3:7], 2),
    )
    for run_id, ts, chosen, attempted in runs:
        ids = [selector.id for selector in chosen]
        append_audit({**plan_line(run_id, CONTEXT, BIG_TAG_ID, "Tier Zero", ids, 4, resumes=None), "ts": ts})
        results = []
        for selector in chosen[:attempted]:
            append_audit({**intent_line(run_id, BIG_TAG_ID, selector.id, selector_record(selector)), "ts": ts})
            if selector.is_default:
                result = DeleteResult(
                    selector.id,
                    Outcome.REFUSED_DEFAULT,
                    status=403,
                    request_id=str(FIXED_REQUEST_ID),
                    message="default",
                )
            else:
                result = DeleteResult(selector.id, Outcome.DELETED, status=204, request_id=str(FIXED_REQUEST_ID))
            if run_id.endswith("0abc") and selector is chosen[1]:
                continue  # killed before the answer: in doubt
            results.append(result)
            append_audit({**outcome_line(run_id, BIG_TAG_ID, result), "ts": ts})
        if attempted == len(chosen):
            append_audit({**end_line(run_id, results, None), "ts": ts})


async def test_audit_tab(snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer) -> None:
    write_log(big_demo)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(AuditHost())
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_audit_tab_on_the_cleanup_screen(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer
) -> None:
    """Issue 28: at 80 columns the tags pane gives way to the tab (tag, action and counts in view); at 160 it stays."""
    write_log(big_demo)

    async def run_before(pilot: Pilot[Any]) -> None:
        await open_cleanup(pilot)
        await pilot.press("a")
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_resume_dialog_of_many_scattered_selectors(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer
) -> None:
    """Issue 28: at 80x24 the resume dialog showed a heading of id ranges where the names should be."""
    from svctui.store.audit_read import read_audit
    from svctui.tui.screens.selectors.resume import start_resume

    chosen = [selector for selector in tag_selectors(big_demo) if not selector.is_default][:120:4]
    context = AuditContext("demo", big_demo.token_id, big_demo.base_url.rstrip("/"), "alice")
    run_id = "20261126T121731Z-7c0d"
    plan = plan_line(run_id, context, BIG_TAG_ID, "Tier Zero", [selector.id for selector in chosen], 1, resumes=None)
    append_audit({**plan, "ts": STAMP})
    for selector in chosen:
        append_audit({**intent_line(run_id, BIG_TAG_ID, selector.id, selector_record(selector)), "ts": STAMP})
        failed = DeleteResult(selector.id, Outcome.FAILED, status=500, request_id=str(FIXED_REQUEST_ID))
        append_audit({**outcome_line(run_id, BIG_TAG_ID, failed), "ts": STAMP})

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        start_resume(pilot.app, read_audit().get(run_id))  # type: ignore[arg-type]
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)
