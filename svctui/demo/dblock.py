"""Locks that let several demo servers share one database: one prepares it at a time, and none regenerates it (or
changes its admin token) while another serves it.

Two `svctui --demo` on one data dir once gave the first a 401: the second, started while the first was still
generating, saw an incomplete database, deleted it and generated its own with new tokens. Now preparing takes
`<db>.prepare.lock` (exclusive, waited for), and each server holds `<db>.lock` shared for as long as it serves; a
start that would rewrite the database must get `<db>.lock` exclusively at once, or it stops with `DatabaseInUse`.
Advisory `flock` locks: the kernel drops them when a process ends, however it ends. Where `fcntl` is missing
(Windows) nothing is locked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(RuntimeError):
    """Another running demo server serves the database this start would regenerate or give another token."""


def in_use_message(path: Path, why: str) -> str:
    """Why a start stops, and the two ways out."""
    return (
        f"the demo database {path} is served by another demo server (`svctui --demo` or `svctui demo-server`), and "
        f"this start would {why}: stop the other one first, or give this one data of its own "
        "(SVCTUI_DATA_DIR=DIR, or `svctui demo-server --db FILE`)"
    )


def _open(path: Path) -> IO[bytes]:
    path.parent.mkdir(parents=True, exist_ok=True)  # the database's folder, made before the database itself
    return open(path, "a+b")  # held open for as long as the lock is


@contextlib.contextmanager
def preparing(db_path: Path) -> Iterator[None]:
    """Hold `<db>.prepare.lock` while the database is checked, generated and given its tokens (waits for another
    start that is doing it)."""
    handle = _open(Path(f"{db_path}.prepare.lock"))
    try:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # closing releases the lock


class ServingLock:
    """`<db>.lock`, held shared while a server serves the database; `release()` (or the process's end) lets go."""

    def __init__(self, db_path: Path) -> None:
        self.path = Path(f"{db_path}.lock")
        self._handle: IO[bytes] | None = _open(self.path)

    def exclusive_now(self) -> bool:
        """Take the lock exclusively if no other server holds it (never waits): True when taken."""
        if fcntl is None or self._handle is None:
            return True
        try:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def share(self) -> None:
        """Hold the lock shared (from exclusive, or from nothing): other servers may serve the database too."""
        if fcntl is not None and self._handle is not None:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_SH)

    def release(self) -> None:
        """Let go of the lock (a stopped server)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.close()
