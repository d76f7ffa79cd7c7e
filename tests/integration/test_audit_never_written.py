"""Issue 25: a run whose plan line never reached the audit log is not offered to `selectors resume`.

With the disk already full (or a log that cannot take the plan line), the run sent nothing, yet its last line was
`hint: svctui selectors resume RUN re-checks the 5 unsettled selectors` — a run the log does not hold, so the resume
then said `no run … in the audit log`. The command now says the run was never written and gives no resume hint.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.audit import recording_server
from tests.support.cli import demo_env, invoke

DEV_FULL = os.makedev(1, 7)  # Linux: the device behind /dev/full, every write fails with ENOSPC
PLAN_DOES_NOT_FIT = 64  # bytes the log may grow to: less than any plan line


def _deletable(db: Path, count: int) -> list[int]:
    with sqlite3.connect(db) as conn:
        query = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND NOT is_default ORDER BY id LIMIT ?"
        return [row[0] for row in conn.execute(query, (count,))]


def _says_never_written(stderr: str) -> None:
    assert "selectors resume" not in stderr, stderr
    assert "was not written to the audit log" in stderr and "nothing was sent" in stderr, stderr


def test_a_full_disk_gives_no_resume_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = audit_path()
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mknod(log, stat.S_IFCHR | 0o600, DEV_FULL)
    except PermissionError:
        pytest.skip("creating a device node needs privileges (the file-size limit test covers it anywhere)")
    with recording_server(tmp_path, log, monkeypatch) as (demo, recorder):
        result = invoke(
            ["selectors", "delete", "1", *map(str, _deletable(demo.db_path, 5)), "--yes"], env=demo_env(demo)
        )
        assert result.exit_code == 5, result.stdout + result.stderr
        assert recorder.seen == []
    _says_never_written(result.stderr)


def test_a_log_that_cannot_take_the_plan_line_gives_no_resume_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    with recording_server(tmp_path, log, monkeypatch) as (demo, recorder):
        launcher = (
            "import os, resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
            f"resource.setrlimit(resource.RLIMIT_FSIZE, ({PLAN_DOES_NOT_FIT}, {PLAN_DOES_NOT_FIT})); "
            "os.execv(sys.executable, [sys.executable, '-m', 'svctui', *sys.argv[1:]])"
        )
        args = ["selectors", "delete", "1", *map(str, _deletable(demo.db_path, 5)), "--yes"]
        done = subprocess.run(
            [sys.executable, "-c", launcher, *args],
            env={**os.environ, **demo_env(demo)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 5, done.stdout + done.stderr
        assert recorder.seen == []
    _says_never_written(done.stderr)
    assert read_audit(log).runs == []  # what the resume would have been sent to look for
