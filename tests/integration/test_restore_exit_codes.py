"""Issue 25: a restore that skips selectors leaves with exit code 7 (docs/COMMANDS.md), not 1 (Ctrl-C's, "no")."""

from __future__ import annotations

import json

import pytest

from svctui.api.models import Selector
from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, intent_line, plan_line, selector_record
from svctui.store.audit import append_audit, new_run_id
from tests.support.cli import demo_env, invoke


@pytest.fixture
def env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def test_a_restore_that_skips_a_selector_still_there_exits_7(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    """A DELETE in doubt (intent, no outcome) whose selector is still there: nothing to re-create, skipped. Exit 7:
    nothing failed, but not everything asked for was re-created."""
    listed = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    items = [json.loads(line) for line in listed.stdout.splitlines()]
    kept = next(item for item in items if not item["is_default"] and item["seeds"])
    first = new_run_id()
    context = AuditContext("env", fresh_demo_server.token_id, fresh_demo_server.base_url, "tester")
    append_audit(plan_line(first, context, 1, "", [kept["id"]], 1))
    append_audit(intent_line(first, 1, kept["id"], selector_record(Selector.model_validate(kept))))
    result = invoke(["selectors", "restore", first, "--yes"])
    assert result.exit_code == 7, result.stdout + result.stderr
    assert f"{kept['id']} {kept['name']!r}: skipped: its deletion is in doubt" in result.stdout
    assert "1 skipped" in result.stderr
