"""An audit log that can't be written stops the run: no DELETE without its intent on disk, exit 5, the log named.

Real failures, no mocks: a full disk is a character device like /dev/full made at the log's path (needs the
privilege to create device nodes; skipped without it), and a log that fills up mid-run is a real write past the
process's file-size limit (RLIMIT_FSIZE: the kernel writes part of the line, then refuses), which works anywhere.
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.audit import recording_server
from tests.support.cli import demo_env, invoke, run_binary

DEV_FULL = os.makedev(1, 7)  # Linux: the device behind /dev/full, every write fails with ENOSPC


def _deletable(db: Path, count: int) -> list[int]:
    with sqlite3.connect(db) as conn:
        query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
        return [row[0] for row in conn.execute(query, (count,))]


def _still_there(db: Path, ids: list[int]) -> int:
    with sqlite3.connect(db) as conn:
        return int(
            conn.execute(f"SELECT COUNT(*) FROM selectors WHERE id IN ({','.join(map(str, ids))})").fetchone()[0]
        )


def test_a_full_disk_sends_nothing_and_exits_5(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = audit_path()
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mknod(log, stat.S_IFCHR | 0o600, DEV_FULL)
    except PermissionError:
        pytest.skip("creating a device node needs privileges (the RLIMIT_FSIZE test covers a full log anywhere)")
    with recording_server(tmp_path, log, monkeypatch) as (demo, recorder):
        ids = _deletable(demo.db_path, 5)
        result = invoke(["selectors", "delete", "1", *map(str, ids), "--yes"], env=demo_env(demo))
        assert result.exit_code == 5, result.stdout + result.stderr
        assert f"cannot append to the audit log '{log}': No space left on device" in result.stderr
        assert "stopped: nothing more was sent" in result.stderr
        assert recorder.seen == []
        assert _still_there(demo.db_path, ids) == len(ids)


def test_a_log_that_fills_up_mid_run_stops_it_and_resume_finishes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch) as (demo, recorder):
        ids = _deletable(demo.db_path, 30)
        env = demo_env(demo)
        limit = 6000  # bytes: the plan and a few intents and outcomes fit, then a line is cut and the rest refused
        launcher = (
            "import os, resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit})); "
            "os.execv(sys.executable, [sys.executable, '-m', 'svctui', *sys.argv[1:]])"
        )
        args = ["selectors", "delete", "1", *map(str, ids), "--yes", "--concurrency", "2"]
        done = subprocess.run(
            [sys.executable, "-c", launcher, *args],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 5, done.stdout + done.stderr
        assert f"cannot append to the audit log '{log}': " in done.stderr
        reason = done.stderr.split(f"cannot append to the audit log '{log}': ", 1)[1]
        assert reason.startswith(("only ", os.strerror(errno.EFBIG))), reason
        assert "stopped: nothing more was sent" in done.stderr
        assert log.stat().st_size <= limit

        sent = {seen.selector_id for seen in recorder.seen}
        assert 0 < len(sent) < len(ids)
        assert all(seen.intent_on_disk for seen in recorder.seen)  # nothing sent without its intent on disk
        killed = read_audit(log)
        assert killed.unreadable_lines <= 1  # at most the one line the kernel cut
        run = killed.last_interrupted()
        assert run is not None and run.end is None
        # the hint counts what the resume will take up: the log's unsettled ids, an outcome it could not write too
        hint = re.search(r"re-checks the (\d+) unsettled selectors? with GET", done.stderr)
        assert hint is not None and int(hint.group(1)) == len(run.unsettled_ids()), done.stderr

        resumed = run_binary(["selectors", "resume", "--yes"], env=env)
        assert resumed.code == 0, resumed.stdout + resumed.stderr
        assert _still_there(demo.db_path, ids) == 0
        for selector_id, statuses in recorder.statuses().items():
            assert statuses.count(204) == 1 and statuses[-1] == 204, (selector_id, statuses)
        after = read_audit(log)
        assert after.last_interrupted() is None
        assert after.unreadable_lines == killed.unreadable_lines  # the resume's lines start on a fresh line


def test_an_audit_log_that_is_a_symbolic_link_is_refused_before_any_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    log.parent.mkdir(parents=True, exist_ok=True)
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text("")
    log.symlink_to(elsewhere)
    with recording_server(tmp_path, log, monkeypatch) as (demo, recorder):
        ids = _deletable(demo.db_path, 2)
        result = invoke(["selectors", "delete", "1", *map(str, ids), "--yes"], env=demo_env(demo))
        assert result.exit_code == 2, result.stdout + result.stderr
        assert f"cannot append to the audit log '{log}': it is a symbolic link" in result.stderr
        assert recorder.seen == [] and demo.request_count == 0
    assert elsewhere.read_text() == ""
