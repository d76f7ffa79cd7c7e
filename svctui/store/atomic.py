"""Private files done carefully: atomic 0600 writes with fsync, ssh-style permission checks, no symlinks."""

from __future__ import annotations

import errno
import fcntl
import json
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from svctui.store.errors import StoreError
from svctui.store.paths import ensure_private_dir

PRIVATE_FILE_MODE = 0o600
TEMP_MARKER = ".tmp-"


def _temp_prefix(path: Path) -> str:
    return f".{path.name}{TEMP_MARKER}"


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_private(path: Path, data: bytes, mode: int = PRIVATE_FILE_MODE) -> None:
    """Replace `path` with `data` atomically: temp file (created with `mode`) → fsync → os.replace → fsync dir.

    A reader, or a crash at any instant, sees either the old complete file or the new one, never a mix.
    """
    directory = ensure_private_dir(path.parent)
    temp = directory / f"{_temp_prefix(path)}{secrets.token_hex(6)}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(temp, flags, mode)
    try:
        os.fchmod(fd, mode)  # exact mode whatever the umask; set before any byte is written
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with suppress(OSError):
            os.unlink(temp)
        raise
    os.close(fd)
    try:
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_dir(directory)


def remove_stale_temps(path: Path) -> int:
    """Delete temp files a killed writer left next to `path`; call only while holding `locked(path)`."""
    removed = 0
    prefix = _temp_prefix(path)
    if not path.parent.is_dir():
        return 0
    for entry in path.parent.iterdir():
        if entry.name.startswith(prefix):
            with suppress(FileNotFoundError):
                entry.unlink()
                removed += 1
    return removed


def _open_lock(lock_path: Path) -> int:
    """The lock file's descriptor (created 0600 in a private directory; a symbolic link is refused)."""
    ensure_private_dir(lock_path.parent)
    return os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE_MODE)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock (a `.NAME.lock` file beside `path`) for a read-modify-write."""
    fd = _open_lock(path.parent / f".{path.name}.lock")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def try_lock(lock_path: Path) -> int | None:
    """An exclusive advisory lock on `lock_path` if nobody holds it: the descriptor holding it (closing it lets
    go), else None at once (never blocks: a waiter polls and stays cancellable). OSError when it can't be opened."""
    fd = _open_lock(lock_path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        raise
    return fd


def _too_open_message(path: Path, mode: int, what: str) -> str:
    return (
        f"Permissions {mode:04o} for '{path}' are too open: the {what} must not be accessible by group or others "
        f"(it may hold secrets), so svctui will not read it. Fix it with: chmod 600 {path}"
    )


def _check_private(path: Path, status: os.stat_result, what: str) -> None:
    if stat.S_ISLNK(status.st_mode):
        raise StoreError(
            f"'{path}' is a symbolic link; svctui does not follow links for its {what}. "
            f"Replace it with a regular file (mode 0600)."
        )
    if not stat.S_ISREG(status.st_mode):
        raise StoreError(f"'{path}' is not a regular file; the {what} must be a plain file with mode 0600.")
    _require_yours_alone(
        path,
        status,
        not_yours=f"svctui will not read a {what} that someone else controls.",
        too_open=lambda mode: _too_open_message(path, mode, what),
    )


def _require_yours_alone(path: Path, status: os.stat_result, *, not_yours: str, too_open: Callable[[int], str]) -> None:
    """Refuse `path` unless this user owns it and neither group nor others have any permission bit on it."""
    if status.st_uid != os.geteuid():
        raise StoreError(f"'{path}' is owned by uid {status.st_uid}, not by you (uid {os.geteuid()}); {not_yours}")
    mode = stat.S_IMODE(status.st_mode)
    if mode & 0o077:
        raise StoreError(too_open(mode))


def require_private_dir(directory: Path, what: str = "profiles file") -> Path:
    """Create `directory` (0700) if missing; refuse one that someone else owns or that group/other can reach.

    An existing directory is never re-moded behind the person's back (SVCTUI_CONFIG_DIR may point at a shared
    one); the message says how to fix it instead.
    """
    ensure_private_dir(directory)
    _require_yours_alone(
        directory,
        os.stat(directory),
        not_yours=f"svctui will not keep its {what} there. Set SVCTUI_CONFIG_DIR to a directory of your own.",
        too_open=lambda mode: (
            f"Permissions {mode:04o} for directory '{directory}' are too open: it holds the {what} (secrets), so "
            f"svctui will not write there while group or others can reach it. Fix it with: chmod 700 {directory} "
            f"(or set SVCTUI_CONFIG_DIR to a private directory)"
        ),
    )
    return directory


def cached_object(raw: bytes | None) -> dict[str, object]:
    """The JSON object a cache file's bytes hold; {} for a missing or corrupt file, or one holding no object (a
    cache that cannot be read is one that holds nothing yet)."""
    if raw is None:
        return {}
    try:
        document = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    return document if isinstance(document, dict) else {}


def read_private(path: Path, what: str = "secrets file") -> bytes | None:
    """Read `path` if it exists (None otherwise), refusing symlinks, other owners and any group/other bit."""
    try:
        before = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot read '{path}': {exc.strerror}") from None
    _check_private(path, before, what)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreError(f"'{path}' is a symbolic link; svctui does not follow links for its {what}.") from None
        raise StoreError(f"cannot read '{path}': {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(handle.fileno())
        _check_private(path, opened, what)  # what we opened, not what lstat saw a moment ago
        return handle.read()
