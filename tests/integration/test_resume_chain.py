"""Issue 25: a resume killed midway, resumed in turn, leaves nothing for a later `selectors resume` to redo.

The campaign found 22 redundant runs and 2,055 GETs: after `delete` (killed), `resume` (killed) and `resume`
(finished), the first run still read INTERRUPTED (its resume had no end line), so the next `selectors resume` took it
up again and re-checked every selector it had left — all long gone. A resume reads the outcomes of the whole chain
before acting.
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
from tests.support.audit import POLL_LIMIT, outcome_lines, recording_server, start_delete, start_svctui
from tests.support.cli import demo_env, run_binary
from tests.support.demo_http import scalar

RUN_SIZE = 120


def _kill_after(process: subprocess.Popen[bytes], log: Path, outcomes: int) -> None:
    """SIGKILL once the log holds `outcomes` outcome lines (the run must still be going)."""
    give_up = time.monotonic() + POLL_LIMIT
    while outcome_lines(log) < outcomes:
        assert process.poll() is None, f"the run ended before the kill: {process.stderr and process.stderr.read()!r}"
        assert time.monotonic() < give_up, "no outcome lines appeared"
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL


@pytest.mark.slow
def test_a_killed_resume_resumed_leaves_nothing_to_redo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch, rate_limit=55, answer_delay=0.2) as (demo, recorder):
        with sqlite3.connect(demo.db_path) as conn:
            query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
            ids = [row[0] for row in conn.execute(query, (RUN_SIZE,))]
        env = demo_env(demo)
        _kill_after(start_delete(ids, env), log, 30)
        first = read_audit(log).runs[-1]
        _kill_after(start_svctui(["selectors", "resume", "--yes", "--concurrency", "8"], env), log, 60)
        killed = read_audit(log)
        second = killed.runs[-1]
        assert second.resumes == first.run_id and second.end is None  # the resume really was cut off
        left = killed.get(second.run_id).unsettled_ids()
        assert left

        gets_before = len(recorder.gets)
        third = run_binary(["selectors", "resume", "--yes", "--concurrency", "8"], env=env)
        assert third.code == 0, third.stdout + third.stderr
        assert f"resumed run {second.run_id}" in third.stderr
        # the killed resume's last requests can reach the server after `gets_before` (sent, not yet read): judge the
        # third by the ids it asked about, not by a count the second may still add to
        asked_by_third = set(recorder.gets[gets_before:])
        assert asked_by_third <= set(left), sorted(asked_by_third - set(left))  # only what the second left

        after = read_audit(log)
        assert after.last_interrupted() is None, [(run.run_id, run.state) for run in after.runs]
        assert after.get(first.run_id).state == f"resumed by {after.runs[-1].run_id}"
        seen = (len(recorder.seen), len(recorder.gets))
        again = run_binary(["selectors", "resume", "--yes"], env=env)
        assert again.code == 0, again.stderr
        assert "nothing to resume" in again.stderr
        assert (len(recorder.seen), len(recorder.gets)) == seen  # nothing re-checked, nothing sent
        explicit = run_binary(["selectors", "resume", first.run_id, "--yes"], env=env)
        assert explicit.code == 0 and "nothing to resume" in explicit.stderr, explicit.stderr
        assert (len(recorder.seen), len(recorder.gets)) == seen
    remaining = scalar(demo.db_path, f"SELECT COUNT(*) FROM selectors WHERE id IN ({','.join(map(str, ids))})")
    assert remaining == 0
    print(f"GETs: second resume {len(asked_by_third)} ids for {len(left)} left; later resumes 0")
