"""Issue 25: a restore that skips selectors leaves with exit code 7 (docs/COMMANDS.md), not 1 (Ctrl-C's, "no")."""

from __future__ import annotations

import json

import pytest

from svctui.api.models import Selector
from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, intent_line, plan_line, selector_record
from svctui.store.audit import append_audit, new_run_id
from svctui.store.audit_read import read_audit
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


def _delete_two() -> tuple[str, list[int]]:
    """Delete two plain selectors of tag 1 with `selectors delete`: the run id and their ids."""
    listed = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    ids = [item["id"] for item in map(json.loads, listed.stdout.splitlines()) if not item["is_default"]][:2]
    deleted = invoke(["selectors", "delete", "1", *map(str, ids), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    return read_audit().runs[-1].run_id, ids


def test_an_id_not_in_the_run_is_skipped_and_exits_7(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    """Newcomer: `restore RUN 9999 --yes` said `1 skipped, not part of run …` and `nothing to re-create`, exit 0."""
    run_id, _ids = _delete_two()
    sent = fresh_demo_server.request_count
    result = invoke(["selectors", "restore", run_id, "9999", "--yes"])
    assert result.exit_code == 7, result.stdout + result.stderr
    assert f"1 skipped, not part of run {run_id}: 9999" in result.stderr and "nothing to re-create" in result.stderr
    assert fresh_demo_server.request_count - sent <= 1, "nothing posted (at most the edition probe)"


def test_a_restore_of_a_restored_run_exits_7(env: dict[str, str]) -> None:
    run_id, _ids = _delete_two()
    first = invoke(["selectors", "restore", run_id, "--yes"])
    assert first.exit_code == 0, first.stderr
    again = invoke(["selectors", "restore", run_id, "--yes"])
    assert again.exit_code == 7, again.stdout + again.stderr
    assert "2 already restored" in again.stderr and "nothing to re-create" in again.stderr


def test_some_restored_and_one_not_in_the_run_exits_7(env: dict[str, str]) -> None:
    run_id, ids = _delete_two()
    result = invoke(["selectors", "restore", run_id, str(ids[0]), "9999", "--yes"])
    assert result.exit_code == 7, result.stdout + result.stderr
    assert f"{ids[0]} " in result.stdout and "restored as" in result.stdout
    assert "1 skipped, not part of run" in result.stderr
