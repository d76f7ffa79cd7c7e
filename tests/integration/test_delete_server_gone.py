"""The server goes away in the middle of `selectors delete`, then comes back: the log never says "deleted" for a
selector that still exists, the run stops rather than hammering a dead address, and `resume` finishes the job."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.audit import POLL_LIMIT, audit_lines, outcome_lines, recording_server, start_delete
from tests.support.cli import demo_env, run_binary
from tests.support.demo_http import scalar

RUN_SIZE = 150
STOP_AFTER_OUTCOMES = 30


def _ids_of_tag_one(db: Path, count: int) -> list[int]:
    with sqlite3.connect(db) as conn:
        query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
        return [row[0] for row in conn.execute(query, (count,))]


def _still_there(db: Path, ids: list[int]) -> set[int]:
    with sqlite3.connect(db) as conn:
        marks = ",".join("?" * len(ids))
        return {row[0] for row in conn.execute(f"SELECT id FROM selectors WHERE id IN ({marks})", ids)}


@pytest.mark.slow
def test_server_gone_mid_delete_stops_the_run_truthfully_and_resume_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch, rate_limit=55) as (demo, recorder):
        db = demo.db_path
        ids = _ids_of_tag_one(db, RUN_SIZE)
        env = demo_env(demo)
        process = start_delete(ids, env)
        give_up = time.monotonic() + POLL_LIMIT
        while outcome_lines(log) < STOP_AFTER_OUTCOMES:
            assert process.poll() is None and time.monotonic() < give_up
            time.sleep(0.005)
        demo.stop()  # the server goes away: in-flight requests are answered, then the port is closed
        code = process.wait(timeout=POLL_LIMIT)
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
        assert code == 5, stderr
        assert "Traceback" not in stderr
        assert "stopped: the server could not be reached" in stderr
        assert "svctui selectors resume" in stderr

        run = read_audit(log).runs[-1]
        there = _still_there(db, ids)
        deleted = {entry.selector_id for entry in run.entries.values() if entry.outcome == "deleted"}
        assert deleted and not deleted & there, "the log says deleted only for selectors that are gone"
        gone_unlogged = set(ids) - there - deleted
        in_doubt = {entry.selector_id for entry in run.entries.values() if entry.in_doubt}
        assert gone_unlogged <= in_doubt, "a selector gone without 'deleted' must at least be in doubt"
        end = audit_lines(log)[-1]
        assert end["event"] == "end" and end["stopped"] == "server unreachable"
        assert end["counts"]["skipped"] > 0, "the run stopped instead of trying every id against a closed port"
        assert end["counts"].get("no answer", 0) <= 16, end["counts"]

        demo.start()  # the server is back, same address, same database
        resumed = run_binary(["selectors", "resume", "--yes", "--concurrency", "8"], env=env)
        assert resumed.code == 0, resumed.stdout + resumed.stderr
        assert f"resumed run {run.run_id}" in resumed.stderr

    assert scalar(db, f"SELECT COUNT(*) FROM selectors WHERE id IN ({','.join(map(str, ids))})") == 0
    for selector_id, statuses in recorder.statuses().items():
        answered = [status for status in statuses if status not in (0, 429)]
        assert answered.count(204) <= 1, (selector_id, statuses)
    after = read_audit(log)
    assert after.last_interrupted() is None and after.runs[-1].unsettled_ids() == []
