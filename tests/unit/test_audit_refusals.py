"""Issue 30: what the audit writer refuses, word for word — a log or a state directory others may write to or that
someone else owns, a log that is a directory, a restore lock that can't be opened — and what it still writes: a
line after a one-byte torn line on a line of its own, a value JSON has no form for as its text, a run id in UTC
whatever the local zone."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from svctui.store.audit import append_audit, audit_path, check_state_dir, new_run_id, try_lock_restores
from svctui.store.errors import StoreError
from tests.support.zones import local_zone

PLAN = {"run": "r", "event": "plan", "action": "selectors.delete", "tag_id": 1, "ids": [2]}


def refused(path: Path | None = None) -> str:
    """The StoreError message of appending a plan line to the log (at `path`)."""
    with pytest.raises(StoreError) as info:
        append_audit(PLAN, path)
    return str(info.value)


def test_a_log_others_may_write_to_is_refused_and_left_as_it_was() -> None:
    path = audit_path()
    path.parent.mkdir(mode=0o700, parents=True)
    path.write_bytes(b"")
    path.chmod(0o664)
    assert refused() == (
        f"Bad permissions 0664 for the audit log '{path}': group or others can write to it, so someone else could "
        f"change the audit log. Fix it with: chmod 600 {path}"
    )
    assert path.read_bytes() == b""


def test_a_state_directory_others_may_write_to_is_refused() -> None:
    directory = audit_path().parent
    directory.mkdir(parents=True)
    directory.chmod(0o770)
    assert refused() == (
        f"Bad permissions 0770 for directory '{directory}': group or others can write to it, so someone else could "
        f"change the audit log. Fix it with: chmod 700 {directory}"
    )
    assert not audit_path().exists()


def test_a_state_directory_someone_else_owns_is_refused(tmp_path: Path) -> None:
    """As root a directory is given away with chown; anyone else finds one root owns (`/`)."""
    directory = tmp_path if os.geteuid() == 0 else Path("/")
    owner = 4242 if os.geteuid() == 0 else 0
    if os.geteuid() == 0:
        os.chown(directory, owner, -1)
    with pytest.raises(StoreError) as info:
        check_state_dir(directory)
    assert str(info.value) == (
        f"Bad owner for directory '{directory}': it is owned by uid {owner}, not by you (uid {os.geteuid()}), so "
        f"svctui will not trust the audit log there. Fix it with: chown {os.geteuid()} {directory} (or set "
        "SVCTUI_STATE_DIR to a directory of your own)"
    )


def test_a_log_that_cannot_be_opened_is_refused_with_the_systems_reason() -> None:
    path = audit_path()
    path.mkdir(parents=True)  # a directory where the log should be
    assert refused() == f"cannot append to the audit log '{path}': Is a directory"


def test_a_restore_lock_that_cannot_be_opened_is_refused_with_the_systems_reason() -> None:
    log = audit_path()
    (log.parent / "audit.restore.lock").mkdir(parents=True)
    with pytest.raises(StoreError) as info:
        try_lock_restores()
    assert str(info.value) == f"cannot lock the restore lock beside {log}: Is a directory"


def test_a_line_after_a_one_byte_torn_line_starts_on_its_own_line() -> None:
    path = audit_path()
    path.parent.mkdir(mode=0o700, parents=True)
    path.write_bytes(b"{")  # a full disk let one byte of the last line through
    append_audit(PLAN)
    torn, line = path.read_bytes().split(b"\n", 1)
    assert torn == b"{" and json.loads(line)["run"] == "r"


def test_a_value_json_has_no_form_for_is_written_as_its_text() -> None:
    """A record holding a time (or a path) is written, not refused: a refusal would stop the run it records."""
    append_audit({"run": "r", "event": "note", "at": datetime(2026, 12, 4, 18, 0, tzinfo=UTC), "log": Path("/x")})
    line = json.loads(audit_path().read_text())
    assert (line["at"], line["log"]) == ("2026-12-04 18:00:00+00:00", "/x")


def test_a_run_id_carries_the_utc_start_whatever_the_local_zone() -> None:
    with local_zone():
        before = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        run_id = new_run_id()
        after = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    assert re.fullmatch(r"\d{8}T\d{6}Z-[0-9a-f]{4}", run_id)
    assert before <= run_id.split("-")[0] <= after
