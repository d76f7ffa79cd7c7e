"""`selectors resume` on a terminal asks for the count it will send: what a GET check finds settled already (gone
since) is not in the count to type, as in the dashboard's resume dialog and the deletion review."""

from __future__ import annotations

import json

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.audit_read import read_audit
from tests.support.cli import demo_env, invoke, run_on_pty


@pytest.fixture
def env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _listed(tag_id: int = 1) -> list[dict[str, object]]:
    result = invoke(["selectors", "list", str(tag_id), "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_the_count_to_type_leaves_out_what_is_gone_already(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    ids = [int(str(item["id"])) for item in _listed() if not item["is_default"]][:24]
    fresh_demo_server.faults = Faults(error_rate=1.0)
    failed = invoke(["selectors", "delete", "1", *map(str, ids), "--yes", "--concurrency", "16"])
    assert failed.exit_code == 5, failed.stderr
    run_id = read_audit().runs[0].run_id  # the failed run: all 24 unsettled
    fresh_demo_server.faults = Faults()
    gone = invoke(["selectors", "delete", "1", str(ids[0]), str(ids[1]), "--yes"])  # deleted since, by another run
    assert gone.exit_code == 0, gone.stderr
    args = ["selectors", "resume", run_id]
    code, screen = run_on_pty(args, env, asked="Type 22 to", answer="24")
    assert code == 1, screen
    assert "Checked with GET just now: 2 settled already" in screen, screen
    assert "Type 22 to resume: delete the 22 still there of 24 selectors" in screen, screen
    assert {item["id"] for item in _listed()} >= set(ids[2:]), "24 is not the count: nothing was deleted"
    code, screen = run_on_pty(args, env, asked="Type 22 to", answer="22")
    assert code == 0, screen
    assert not {item["id"] for item in _listed()} & set(ids)
