"""Issue 30 item 5: the audit writer's refusals, its file lock and its fsync, each shown to matter on a real file.

The lock: this test holds it with a line half written, and a second process appending must wait for it (seen in
/proc/locks as a blocked waiter) and then start on a fresh line; without the lock it appends at once, after the
torn half. The fsync: a crash can't be simulated from inside, so a spy on the real `os.fsync` checks it is called
on the log's own descriptor after the whole line is written (and the real fsync still runs).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from svctui.store.audit import (
    SECRET_FIELDS,
    append_audit,
    audit_path,
    check_audit_writable,
    encode_line,
    utc_stamp,
)
from svctui.store.errors import StoreError
from tests.support.files import child_env

POLL_LIMIT = 120.0  # seconds: a guard against a hung test, not an assertion on speed


@pytest.mark.parametrize("key", [*sorted(SECRET_FIELDS), "JWT", "Authorization", "Token_Key"])
def test_every_secret_named_key_is_refused_and_nothing_is_written(key: str) -> None:
    with pytest.raises(ValueError) as info:
        append_audit({"run": "r", "event": "plan", key: "x", "token_id": "kept"})
    assert str(info.value) == f"audit records must not carry secrets; drop the key(s): {key}"
    assert not audit_path().exists()


def test_the_secret_field_list_is_exactly_the_known_secrets() -> None:
    assert frozenset({"token_key", "jwt", "secret", "password", "authorization", "signature"}) == SECRET_FIELDS


def test_several_secret_keys_are_named_in_order() -> None:
    with pytest.raises(ValueError, match=r"drop the key\(s\): jwt, password$"):
        encode_line({"password": 1, "run": "r", "jwt": 2})


def test_a_line_is_compact_json_with_the_stamp_first_and_text_unescaped() -> None:
    line = encode_line({"run": "r", "name": "Ünïcode DCs", "ids": [1, 2]})
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    text = line.decode("utf-8")
    assert text.startswith('{"ts":"') and ',"run":"r","name":"Ünïcode DCs","ids":[1,2]}' in text
    assert encode_line({"ts": "given", "run": "r"}) == b'{"ts":"given","run":"r"}\n'


def test_the_stamp_is_utc_with_milliseconds_and_a_z() -> None:
    assert utc_stamp(datetime(2026, 11, 24, 18, 55, 1, 123456, tzinfo=UTC)) == "2026-11-24T18:55:01.123Z"
    assert utc_stamp().endswith("Z") and len(utc_stamp()) == len("2026-11-24T18:55:01.123Z")


def test_checking_the_log_is_writable_adds_nothing_even_after_a_torn_line() -> None:
    path = audit_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"run": "a", "ids": [1')
    assert check_audit_writable() == path
    assert path.read_bytes() == b'{"run": "a", "ids": [1'
    fresh = path.with_name("other.jsonl")
    assert check_audit_writable(fresh) == fresh and fresh.read_bytes() == b""
    assert fresh.stat().st_mode & 0o777 == 0o600


def test_a_symbolic_link_in_place_of_the_log_is_refused_by_name(tmp_path: Path) -> None:
    path = audit_path()
    path.parent.mkdir(parents=True)
    target = tmp_path / "elsewhere.jsonl"
    target.write_bytes(b"")
    path.symlink_to(target)
    with pytest.raises(StoreError) as info:
        append_audit({"run": "r", "event": "plan"})
    assert str(info.value) == f"cannot append to the audit log '{path}': it is a symbolic link"
    assert target.read_bytes() == b""


def _waits_for_a_lock(pid: int, inode: int) -> bool:
    """True when /proc/locks shows process `pid` blocked on an flock of file `inode`."""
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields and "FLOCK" in fields and str(pid) in fields and fields[-3].endswith(f":{inode}"):
            return True
    return False


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs Linux /proc/locks")
def test_a_second_process_waits_for_a_writer_caught_mid_line_then_starts_a_line_of_its_own() -> None:
    path = audit_path()
    path.parent.mkdir(parents=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, b'{"run":"held","n":1')  # a writer holding the lock, its line half written
        program = (
            "import sys\nfrom pathlib import Path\nfrom svctui.store.audit import append_audit\n"
            "append_audit({'run': 'second'}, Path(sys.argv[1]))\n"
        )
        other = subprocess.Popen([sys.executable, "-c", program, str(path)], env=child_env())
        inode = os.fstat(fd).st_ino
        guard = time.monotonic() + POLL_LIMIT
        while other.poll() is None and not _waits_for_a_lock(other.pid, inode) and time.monotonic() < guard:
            time.sleep(0.01)
        assert other.poll() is None, "the second process appended while another writer held the lock"
        assert _waits_for_a_lock(other.pid, inode)
        os.write(fd, b"}\n")
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    assert other.wait(timeout=POLL_LIMIT) == 0
    lines = path.read_bytes().split(b"\n")
    assert lines[0] == b'{"run":"held","n":1}' and json.loads(lines[1])["run"] == "second" and lines[2:] == [b""]


def test_each_line_is_fsynced_on_the_logs_own_descriptor_once_it_is_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    path = audit_path()
    real_fsync = os.fsync
    synced: list[tuple[int, int]] = []  # (inode, size) the descriptor had when fsync was called

    def spy(fd: int) -> None:
        status = os.fstat(fd)
        synced.append((status.st_ino, status.st_size))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    append_audit({"run": "r", "event": "plan"})
    first = path.stat().st_size
    append_audit({"run": "r", "event": "end"})
    assert synced == [(path.stat().st_ino, first), (path.stat().st_ino, path.stat().st_size)]
    check_audit_writable()
    assert len(synced) == 2, "a writability check writes nothing, so it has nothing to sync"
