"""Issue 25: one foreign line never breaks the audit log, and a log others may write is not trusted.

A deeply nested JSON line made `audit list/show`, resume and restore crash (RecursionError); a line with a million
ids took minutes. Every line that cannot be read — torn, too deep, too long, of a shape svctui never writes — is
skipped and counted. A state directory or audit log that someone else owns or may write is refused as OpenSSH
refuses its own, with the fix.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from svctui.tui.screens.selectors.audit_tab import AuditTab
from tests.support.cli import demo_env, invoke, run_binary
from tests.support.selectors import AuditHost
from tests.support.tui import settle, with_screen

DEEP = b"[" * 200_000 + b"\n"
MILLION_IDS = (
    json.dumps({"run": "20260101T000000Z-dead", "event": "plan", "action": "selectors.delete", "tag_id": 1,
                "ids": list(range(1, 1_000_001))}).encode() + b"\n"
)  # fmt: skip
LONG = b'{"run": "20260101T000000Z-beef", "event": "plan", "note": "' + b"x" * (5 * 1024 * 1024) + b'"}\n'
ODD_SHAPES = [
    b'{"run": "20260101T000001Z-0001", "event": "plan", "ids": 5}\n',
    b'{"run": "20260101T000001Z-0002", "event": "intent", "selector_id": 3, "selector": [1, 2]}\n',
    b"\xff\xfe not utf-8\n",
]
FOREIGN = [DEEP, MILLION_IDS, LONG, *ODD_SHAPES]


@pytest.fixture
def env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _deletable(count: int) -> list[int]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    items = [json.loads(line) for line in result.stdout.splitlines()]
    return [item["id"] for item in items if not item["is_default"] and item["seeds"]][:count]


def _spoil_log() -> None:
    with audit_path().open("ab") as log:
        for line in FOREIGN:
            log.write(line)


def test_foreign_lines_are_skipped_and_counted_by_every_reader(env: dict[str, str]) -> None:
    ids = _deletable(3)
    deleted = invoke(["selectors", "delete", "1", *map(str, ids[:2]), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    failed = invoke(["selectors", "delete", "1", str(ids[2]), "--yes"], env={"SVCTUI_TOKEN_KEY": "d3Jvbmc="})
    assert failed.exit_code == 3
    _spoil_log()
    log = read_audit()
    assert log.unreadable_lines == len(FOREIGN)
    run_id = log.runs[0].run_id
    note = f"{len(FOREIGN)} line(s) of the audit log could not be read and were skipped"

    listed = invoke(["audit", "list"])
    assert listed.exit_code == 0 and run_id in listed.stdout and note in listed.stderr, listed.stderr
    assert "20260101T000000Z-dead" not in listed.stdout  # the million-id plan is not a run
    shown = invoke(["audit", "show", run_id])
    assert shown.exit_code == 0 and note in shown.stderr, shown.stderr
    resumed = invoke(["selectors", "resume", log.runs[-1].run_id, "--yes"])
    assert resumed.exit_code == 0 and note in resumed.stderr, resumed.stderr
    restored = invoke(["selectors", "restore", run_id, "--yes"])
    assert restored.exit_code == 0 and note in restored.stderr, restored.stderr
    assert "restored as" in restored.stdout


def _state_dir() -> Path:
    directory = audit_path().parent
    directory.mkdir(parents=True, exist_ok=True)
    return directory


@pytest.mark.parametrize("command", [["audit", "list"], ["selectors", "delete", "1", "5", "--yes"]])
def test_a_world_writable_state_directory_is_refused_with_the_fix(env: dict[str, str], command: list[str]) -> None:
    directory = _state_dir()
    directory.chmod(0o777)
    result = invoke(command)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert f"Bad permissions 0777 for directory '{directory}'" in result.stderr
    assert f"Fix it with: chmod 700 {directory}" in result.stderr
    assert not audit_path().exists() or "deleted" not in audit_path().read_text()


def test_a_group_writable_audit_log_is_refused_with_the_fix(env: dict[str, str]) -> None:
    _state_dir()
    audit_path().write_bytes(b"")
    audit_path().chmod(0o666)
    result = invoke(["audit", "list"])
    assert result.exit_code == 2
    assert f"Bad permissions 0666 for the audit log '{audit_path()}'" in result.stderr
    assert f"chmod 600 {audit_path()}" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory to another user takes root")
def test_a_state_directory_owned_by_someone_else_is_refused_with_the_fix(env: dict[str, str]) -> None:
    directory = _state_dir()
    os.chown(directory, 65534, 65534)
    result = invoke(["selectors", "delete", "1", "5", "--yes"])
    assert result.exit_code == 2, result.stdout + result.stderr
    assert f"Bad owner for directory '{directory}': it is owned by uid 65534" in result.stderr
    assert f"Fix it with: chown 0 {directory}" in result.stderr


@pytest.mark.anyio
async def test_the_audit_tab_skips_and_counts_foreign_lines(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    """The dashboard's reader of the log too: the runs listed, the foreign lines counted in its summary line."""
    # the commands in a subprocess: this test's event loop runs the app, and invoke() would start another
    listed = run_binary(["selectors", "list", "1", "--limit", "50", "-o", "jsonl"], env=env)
    target = next(item["id"] for item in map(json.loads, listed.stdout.splitlines()) if not item["is_default"])
    assert run_binary(["selectors", "delete", "1", str(target), "--yes"], env=env).code == 0
    _spoil_log()
    async with with_screen(fresh_demo_server, AuditHost(), size=(160, 44)) as (app, pilot):
        await settle(pilot)
        tab = app.screen.query_one(AuditTab)
        assert len(tab.log_runs) == 1, "the one real run"
        summary = str(tab.query_one("#audit-summary", Static).render())
        assert f"{len(FOREIGN)} unreadable lines skipped" in summary, summary
