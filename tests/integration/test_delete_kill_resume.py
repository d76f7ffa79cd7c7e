"""Issue 11's must-show: the real command-line delete killed with SIGKILL mid-run, then `selectors resume`.

Every selector ends gone exactly once, every DELETE the server saw had its intent line on disk before it
arrived, nothing is deleted twice, and every line of the log is whole.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.audit import POLL_LIMIT, audit_lines, outcome_lines, recording_server, start_delete
from tests.support.cli import demo_env, run_binary
from tests.support.demo_http import scalar

RUN_SIZE = 200
KILL_AFTER_OUTCOMES = 40


def _kill_mid_run(process: subprocess.Popen[bytes], log: Path) -> None:
    """SIGKILL once the log has some outcomes (polling the file; the run must still be going)."""
    give_up = time.monotonic() + POLL_LIMIT
    while outcome_lines(log) < KILL_AFTER_OUTCOMES:
        assert process.poll() is None, f"the delete ended before the kill: {process.stderr and process.stderr.read()!r}"
        assert time.monotonic() < give_up, "no outcome lines appeared"
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL


@pytest.mark.slow
def test_sigkill_mid_delete_then_resume_deletes_each_selector_exactly_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    # each 204 is held 0.2 s after the server deleted: the kill lands on deletions done but not yet answered
    with recording_server(tmp_path, log, monkeypatch, rate_limit=55, answer_delay=0.2) as (demo, recorder):
        db = demo.db_path
        with sqlite3.connect(db) as conn:
            query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
            ids = [row[0] for row in conn.execute(query, (RUN_SIZE,))]
        assert len(ids) == RUN_SIZE
        env = demo_env(demo)
        process = start_delete(ids, env)
        _kill_mid_run(process, log)

        killed = read_audit(log)
        first = killed.last_interrupted()
        assert first is not None and first.end is None  # the run really was cut off
        assert killed.unreadable_lines == 0 and audit_lines(log)  # no torn line
        left = first.unsettled_ids()
        assert 0 < len(left) < RUN_SIZE
        in_doubt = [entry.selector_id for entry in first.entries.values() if entry.in_doubt]

        resumed = run_binary(["selectors", "resume", "--yes", "--concurrency", "8"], env=env)
        assert resumed.code == 0, resumed.stdout + resumed.stderr
        assert f"resumed run {first.run_id}" in resumed.stderr

    remaining = scalar(db, f"SELECT COUNT(*) FROM selectors WHERE id IN ({','.join(map(str, ids))})")
    assert remaining == 0
    statuses = recorder.statuses()
    for selector_id in ids:
        answered = [status for status in statuses.get(selector_id, []) if status != 429]  # 429: not processed
        assert answered.count(204) == 1, (selector_id, statuses.get(selector_id))
        assert answered[-1] == 204, (selector_id, answered)  # no DELETE after the one that deleted it
    assert not set(statuses) - set(ids)
    assert all(seen.intent_on_disk for seen in recorder.seen), [s for s in recorder.seen if not s.intent_on_disk]

    lines = audit_lines(log)  # every line whole
    after = read_audit(log)
    assert after.last_interrupted() is None and after.unreadable_lines == 0
    second = after.runs[-1]
    assert second.plan["resumes"] == first.run_id and second.unsettled_ids() == []
    assert list(second.entries) == left
    settled_by_get = {e.selector_id for e in second.entries.values() if e.outcome == "already gone"}
    assert settled_by_get, "no deletion was caught between the server and the log: the GET re-check went untested"
    assert settled_by_get <= set(in_doubt)  # only a selector whose DELETE may have landed can be found gone
    assert not [line for line in lines if line["run"] == second.run_id and line.get("selector_id") in settled_by_get
                and line["event"] == "intent"]  # found gone with GET: no second DELETE  # fmt: skip


def test_ctrl_c_cancels_gracefully_then_resume_finishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGINT (Ctrl-C): requests in flight finish, nothing more is sent, the end line says `cancelled`, exit 1."""
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch, rate_limit=55) as (demo, recorder):
        with sqlite3.connect(demo.db_path) as conn:
            query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT 60"
            ids = [row[0] for row in conn.execute(query)]
        env = demo_env(demo)
        process = start_delete(ids, env)
        give_up = time.monotonic() + POLL_LIMIT
        while outcome_lines(log) < 10:
            assert process.poll() is None and time.monotonic() < give_up
            time.sleep(0.005)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 1
        assert process.stderr is not None
        assert b"cancelling: requests in flight finish" in process.stderr.read()
        lines = audit_lines(log)
        end = lines[-1]
        assert end["event"] == "end" and end["stopped"] == "cancelled"
        assert end["counts"]["skipped"] > 0 and sum(end["counts"].values()) == len(ids)
        cancelled = read_audit(log).runs[-1]
        assert not any(entry.in_doubt for entry in cancelled.entries.values())  # in-flight requests finished
        sent = len(recorder.seen)
        resumed = run_binary(["selectors", "resume", cancelled.run_id, "--yes"], env=env)
        assert resumed.code == 0, resumed.stderr
        assert len({seen.selector_id for seen in recorder.seen}) == len(ids) and len(recorder.seen) >= sent
    for selector_id, statuses in recorder.statuses().items():
        answered = [status for status in statuses if status != 429]
        assert answered == [204], (selector_id, statuses)
