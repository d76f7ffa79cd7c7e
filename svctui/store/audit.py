"""An append-only JSON Lines audit log of destructive actions in state_dir()/audit.jsonl (format: docs/AUDIT.md)."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from svctui.store.atomic import try_lock
from svctui.store.errors import StoreError
from svctui.store.paths import ensure_private_dir, state_dir

SECRET_FIELDS = frozenset({"token_key", "jwt", "secret", "password", "authorization", "signature"})
_APPEND_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC


def audit_path() -> Path:
    """Where the audit log lives."""
    return state_dir() / "audit.jsonl"


def utc_stamp(moment: datetime | None = None) -> str:
    """`2026-11-24T18:55:01.123Z`: UTC with milliseconds, as every audit line's `ts`."""
    return (moment or datetime.now(UTC)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_run_id(moment: datetime | None = None) -> str:
    """A run id such as `20261124T185501Z-3f9a`: UTC start time and four random hex digits (sorts by time)."""
    return f"{(moment or datetime.now(UTC)).strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(2)}"


def _refuse_unsafe(path: Path, status: os.stat_result, what: str, fix_mode: str) -> None:
    """StoreError, worded as OpenSSH words its own, when `path` is owned by someone else or group or others may write
    to it: they could then replace or forge the audit log a resume and a restore act on."""
    if status.st_uid != os.geteuid():
        raise StoreError(
            f"Bad owner for {what} '{path}': it is owned by uid {status.st_uid}, not by you (uid {os.geteuid()}), "
            f"so svctui will not trust the audit log there. Fix it with: chown {os.geteuid()} {path} "
            f"(or set SVCTUI_STATE_DIR to a directory of your own)"
        )
    mode = stat.S_IMODE(status.st_mode)
    if mode & 0o022:
        raise StoreError(
            f"Bad permissions {mode:04o} for {what} '{path}': group or others can write to it, so someone else "
            f"could change the audit log. Fix it with: chmod {fix_mode} {path}"
        )


def check_state_dir(directory: Path) -> None:
    """Refuse a state directory someone else owns or group/others can write to (as ssh refuses its own)."""
    try:
        status = os.stat(directory)
    except FileNotFoundError:
        return
    _refuse_unsafe(directory, status, "directory", "700")


@contextmanager
def open_audit_for_reading(path: Path) -> Iterator[BinaryIO]:
    """The audit log opened for reading, once it is found to be a regular file and it and its folder this user's
    alone to write (`check_state_dir`); FileNotFoundError when there is no log."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)  # a FIFO must not hang the open
    except FileNotFoundError:
        check_state_dir(path.parent)  # no log yet: a folder others may write is refused all the same
        raise
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):  # a device (/dev/zero, /dev/full) never ends: never read
            raise StoreError(f"cannot read the audit log '{path}': not a regular file")
        check_state_dir(path.parent)
        _refuse_unsafe(path, status, "the audit log", "600")
        yield handle


def _after_torn_line(fd: int) -> bytes:
    """A line end when the log's last byte is not one (a torn line from a full disk), so the next line stays whole."""
    size = os.fstat(fd).st_size
    if size == 0:
        return b""
    try:
        last = os.pread(fd, 1, size - 1)
    except OSError:  # not a regular file (a device): nothing to repair
        return b""
    return b"" if last in (b"\n", b"") else b"\n"


def _append(path: Path, data: bytes) -> None:
    """Append `data` in one write and fsync; a short write or any OS error is a StoreError naming the log and why."""
    try:
        ensure_private_dir(path.parent)
        check_state_dir(path.parent)
        fd = os.open(path, _APPEND_FLAGS, 0o600)
        try:
            _refuse_unsafe(path, os.fstat(fd), "the audit log", "600")
            if data:
                # Held from the look at the last byte to the fsync: another writer (a thread of this run, another
                # process) caught mid-write must not make this line start with a line end of its own.
                fcntl.flock(fd, fcntl.LOCK_EX)
                data = _after_torn_line(fd) + data
                written = os.write(fd, data)  # one write per line: appends from several processes do not interleave
                if written != len(data):
                    raise OSError(errno.ENOSPC, f"only {written} of {len(data)} bytes could be written (disk full?)")
                os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        reason = "it is a symbolic link" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        raise StoreError(f"cannot append to the audit log '{path}': {reason}") from None


def check_audit_writable(path: Path | None = None) -> Path:
    """Make sure the audit log can be appended to (creating it if needed) before anything destructive happens."""
    path = path or audit_path()
    _append(path, b"")
    return path


def encode_line(record: dict[str, Any]) -> bytes:
    """`record` as one JSON line (with `ts` first, added when absent); ValueError for a secret-named key."""
    leaked = sorted(key for key in record if key.lower() in SECRET_FIELDS)
    if leaked:
        raise ValueError(f"audit records must not carry secrets; drop the key(s): {', '.join(leaked)}")
    line = {"ts": utc_stamp(), **record}
    return (json.dumps(line, default=str, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def append_audit(record: dict[str, Any], path: Path | None = None) -> Path:
    """Append `record` as one JSON line (with `ts` added when absent), fsynced; secret-named keys are refused."""
    data = encode_line(record)
    path = path or audit_path()
    _append(path, data)
    return path


def try_lock_restores(path: Path | None = None) -> int | None:
    """The restore lock (`audit.restore.lock` beside the log, `atomic.try_lock`) if no other restore holds it: the
    descriptor that holds it (`unlock_restores` lets go; so does the process's end), else None. Two restores of one
    run at once each read the log before asking, then both re-created everything: the second now waits for the
    lock, then reads the log again under it."""
    log = path or audit_path()
    try:
        return try_lock(log.with_name("audit.restore.lock"))
    except OSError as exc:
        raise StoreError(f"cannot lock the restore lock beside {log}: {exc.strerror or exc}") from None


def unlock_restores(fd: int) -> None:
    """Let go of the restore lock `try_lock_restores` returned."""
    os.close(fd)
