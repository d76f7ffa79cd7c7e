"""Issue 25: a server that gives a deleted selector's id to a new one must not make svctui act on the newcomer.

The demo reused ids until its table got AUTOINCREMENT; with that, a resume deleted a selector another user created
after the run, and a restore skipped deleted selectors whose ids it had just recycled. The fixed demo never reuses
an id, so these tests force it: the newcomer is written into the demo's database under the deleted selector's id.
A resume's GET re-check and a restore's in-doubt check compare what they find with the record the run kept.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest

from svctui.api.models import Selector
from svctui.demo.server import DemoServer
from svctui.demo.timefmt import to_micros
from svctui.ops.audit_lines import AuditContext, intent_line, plan_line, selector_record
from svctui.store.audit import append_audit, audit_path, new_run_id
from svctui.store.audit_read import read_audit
from tests.support.cli import demo_env, invoke
from tests.support.demo_http import signed

NEWCOMER = "created by someone else after the run"


@pytest.fixture
def env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _a_deletable_selector() -> dict[str, Any]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    items = [json.loads(line) for line in result.stdout.splitlines()]
    return next(item for item in items if not item["is_default"] and item["seeds"] and not item["disabled_at"])


def _deleted_in_doubt(demo: DemoServer) -> tuple[str, dict[str, Any]]:
    """A run whose DELETE of one selector landed but whose answer never came (intent, no outcome: killed), then
    another selector created under the same id — as a server that reuses ids does. The run id and the old record."""
    old = _a_deletable_selector()
    run_id = new_run_id()
    context = AuditContext("env", demo.token_id, demo.base_url, "tester")
    append_audit(plan_line(run_id, context, 1, "", [old["id"]], 1))
    append_audit(intent_line(run_id, 1, old["id"], selector_record(Selector.model_validate(old))))
    with signed(demo) as client:
        assert client.delete(f"/api/v2/asset-group-tags/1/selectors/{old['id']}").status_code == 204
    later = to_micros(datetime(2026, 12, 1, 9, 30, tzinfo=UTC))
    with sqlite3.connect(demo.db_path) as conn:  # the reused id: what the demo's MAX(id) + 1 used to give
        conn.execute(
            "INSERT INTO selectors (id, asset_group_tag_id, name, description, created_at, created_by, updated_at,"
            " updated_by, disabled_at, disabled_by, auto_certify, is_default, allow_disable, member_count)"
            " VALUES (?, 1, ?, '', ?, 'someone', ?, 'someone', NULL, NULL, 0, 0, 1, 7)",
            (old["id"], NEWCOMER, later, later),
        )
        conn.execute("INSERT INTO selector_seeds VALUES (?, 2, 'MATCH (n:Computer) RETURN n', 0)", (old["id"],))
    return run_id, old


def _by_id(demo: DemoServer, selector_id: int) -> str | None:
    with sqlite3.connect(demo.db_path) as conn:
        row = conn.execute("SELECT name FROM selectors WHERE id = ?", (selector_id,)).fetchone()
    return None if row is None else str(row[0])


def test_a_resume_never_deletes_a_newcomer_under_the_planned_id(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    run_id, old = _deleted_in_doubt(fresh_demo_server)
    result = invoke(["selectors", "resume", run_id, "--yes"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert _by_id(fresh_demo_server, old["id"]) == NEWCOMER  # not deleted
    line = f"selector {old['id']}: already gone"
    assert line in result.stdout and f"now holds {NEWCOMER!r}" in result.stdout, result.stdout
    resume = read_audit(audit_path()).runs[-1]
    entry = resume.entries[old["id"]]
    assert entry.outcome == "already gone" and not entry.intended  # no DELETE was sent
    assert f"not {old['name']!r}" in entry.message and "which is not deleted" in entry.message


def test_a_restore_never_takes_a_newcomer_for_the_deleted_selector(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    run_id, old = _deleted_in_doubt(fresh_demo_server)
    result = invoke(["selectors", "restore", run_id, "--yes"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"{old['id']} {old['name']!r}: restored as" in result.stdout, result.stdout
    assert "skipped" not in result.stdout
    assert f"now holds {NEWCOMER!r}" in result.stdout and "not ours" in result.stdout
    assert _by_id(fresh_demo_server, old["id"]) == NEWCOMER  # left alone
    restore = read_audit(audit_path()).runs[-1]
    entry = restore.entries[old["id"]]
    assert entry.outcome == "restored" and entry.new_id not in (None, old["id"])
    assert _by_id(fresh_demo_server, entry.new_id or 0) == old["name"]
