"""Issue 28: a deletion made against the embedded demo, interrupted, could not be resumed (or restored) once the demo
came back on another port: `run … deleted on http://127.0.0.1:33055, not on http://127.0.0.1:32805; resume it with
the profile for that server`, and the demo's profile lives only in memory. The demo keeps its token in its database,
so a loopback server holding the run's token id is the server the run deleted on, whatever its port."""

from __future__ import annotations

import signal
import sqlite3
import time
from pathlib import Path

import pytest

from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.ops.resume import ResumeRefused, check_same_server
from svctui.store.audit import audit_path
from svctui.store.audit_read import parse_audit, read_audit
from tests.support.audit import BIG_TAG, POLL_LIMIT, outcome_lines, recording_server, start_delete
from tests.support.cli import demo_env, run_binary

RUN_SIZE = 60


def _names(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as conn:
        return sorted(row[0] for row in conn.execute("SELECT name FROM selectors WHERE asset_group_tag_id = 1"))


@pytest.mark.slow
def test_a_run_killed_on_the_demo_resumes_and_restores_after_a_restart_on_another_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch, rate_limit=55, answer_delay=0.2) as (first_demo, _recorder):
        before = _names(first_demo.db_path)
        with sqlite3.connect(first_demo.db_path) as conn:
            query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
            ids = [row[0] for row in conn.execute(query, (RUN_SIZE,))]
        process = start_delete(ids, demo_env(first_demo))
        give_up = time.monotonic() + POLL_LIMIT
        while outcome_lines(log) < 15:
            assert process.poll() is None and time.monotonic() < give_up, "the run ended before the kill"
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        assert process.wait(timeout=30) == -signal.SIGKILL
        first_url, token_id = first_demo.base_url, first_demo.token_id
    run = read_audit(log).runs[-1]
    assert run.interrupted and run.plan["server"] == first_url

    with DemoServer(db_path=tmp_path / "demo.sqlite3", sizes=BIG_TAG, anchor=FIXED_ANCHOR) as again:
        assert again.base_url != first_url and again.token_id == token_id  # another port, the same database
        env = demo_env(again)
        resumed = run_binary(["selectors", "resume", "--yes"], env=env)
        assert resumed.code == 0, resumed.stdout + resumed.stderr
        assert f"resumed run {run.run_id}" in resumed.stderr and "not on" not in resumed.stderr
        assert len(_names(again.db_path)) == len(before) - RUN_SIZE
        restored = run_binary(["selectors", "restore", run.run_id, "--yes"], env=env)
        assert restored.code == 0, restored.stdout + restored.stderr
        assert _names(again.db_path) == before


def test_another_server_is_still_refused_and_a_demo_run_says_how_to_reach_it() -> None:
    lines = [
        b'{"event":"plan","run":"r1","action":"selectors.delete","tag_id":1,"ids":[5],"profile":"demo",'
        b'"token_id":"3f2504e0-4f89-41d3-9a0c-0305e82c3301","server":"http://127.0.0.1:33055"}\n'
    ]
    run = parse_audit(lines).get("r1")
    check_same_server(run, "http://127.0.0.1:32805", verb="resume", token_id="3f2504e0-4f89-41d3-9a0c-0305e82c3301")
    for server, token_id in (
        ("http://127.0.0.1:32805", "6e1f6ad4-5a0b-4a3c-9b3e-8a1d1c2b3e4f"),  # another demo database
        ("http://127.0.0.1:32805", None),  # a bearer token: nothing to match
        ("https://bh.example.com", "3f2504e0-4f89-41d3-9a0c-0305e82c3301"),  # not this machine
    ):
        with pytest.raises(ResumeRefused) as refused:
            check_same_server(run, server, verb="resume", token_id=token_id)
        assert str(refused.value) == (
            f"run r1 deleted on http://127.0.0.1:33055, not on {server}; resume it with the profile for that server "
            "(the embedded demo: start it on that port with `svctui demo-server --port 33055`)"
        )
