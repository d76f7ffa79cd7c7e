"""Issue 28: restoring a run that was killed and resumed (twice) re-creates what its resumes deleted too.

A newcomer restored the first run of a deletion resumed 4 times: the plan re-created its own 82 and skipped the 310
its resumes deleted as `not deleted by the run (not attempted)`, naming none of them. A run and its later resumes
are one deletion: one restore of the run undoes it all, and its plan says how many each part deleted.
"""

from __future__ import annotations

import re
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

RUN_SIZE = 90


def _kill_after(process: subprocess.Popen[bytes], log: Path, outcomes: int) -> None:
    """SIGKILL once the log holds `outcomes` outcome lines (the run must still be going)."""
    give_up = time.monotonic() + POLL_LIMIT
    while outcome_lines(log) < outcomes:
        assert process.poll() is None, f"the run ended before the kill: {process.stderr and process.stderr.read()!r}"
        assert time.monotonic() < give_up, "no outcome lines appeared"
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL


def _names(db_path: Path) -> list[str]:
    with sqlite3.connect(db_path) as conn:
        return sorted(row[0] for row in conn.execute("SELECT name FROM selectors WHERE asset_group_tag_id = 1"))


@pytest.mark.slow
def test_restoring_a_killed_run_restores_what_its_resumes_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch, rate_limit=55, answer_delay=0.2) as (demo, _recorder):
        before = _names(demo.db_path)
        with sqlite3.connect(demo.db_path) as conn:
            query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
            ids = [row[0] for row in conn.execute(query, (RUN_SIZE,))]
        env = demo_env(demo)
        _kill_after(start_delete(ids, env), log, 20)
        first = read_audit(log).runs[-1]
        _kill_after(start_svctui(["selectors", "resume", "--yes", "--concurrency", "8"], env), log, 45)
        second = read_audit(log).runs[-1]
        third = run_binary(["selectors", "resume", "--yes", "--concurrency", "8"], env=env)
        assert third.code == 0, third.stdout + third.stderr
        chain = read_audit(log)
        third_id = chain.runs[-1].run_id
        assert second.resumes == first.run_id and chain.get(third_id).resumes == second.run_id
        assert len(_names(demo.db_path)) == len(before) - RUN_SIZE

        restore = run_binary(["selectors", "restore", first.run_id, "--yes"], env=env)
        assert restore.code == 0, restore.stdout + restore.stderr  # nothing skipped: the whole chain is the run's
        said = re.search(r"(\d+) deleted by this run, (\d+) by its resumes (.*)", restore.stderr)
        assert said is not None, restore.stderr
        own, by_resumes = int(said[1]), int(said[2])
        later = {sid for run in chain.runs[-2:] for sid, entry in run.entries.items() if entry.outcome == "deleted"}
        first_did = [sid for sid, entry in first.entries.items() if entry.outcome == "deleted" or entry.in_doubt]
        assert own == len(set(first_did) - later)  # in doubt, then found still there and deleted: the resume's
        assert own + by_resumes == RUN_SIZE and by_resumes > 0
        assert said[3] == f"{second.run_id}, {third_id}"
        assert "not deleted by the run" not in restore.stderr
        assert _names(demo.db_path) == before, "every selector back, none twice"

        after = read_audit(log)
        restore_run = after.runs[-1]
        assert restore_run.plan["restores"] == first.run_id and restore_run.end is not None
        assert sorted(restore_run.entries) == sorted(ids)
        assert all(entry.outcome == "restored" for entry in restore_run.entries.values())
        for run_id in (first.run_id, second.run_id, third_id):  # any run of the chain: nothing twice
            again = run_binary(["selectors", "restore", run_id, "--yes"], env=env)
            assert again.code == 7 and "nothing to re-create" in again.stderr, again.stderr
        assert _names(demo.db_path) == before
