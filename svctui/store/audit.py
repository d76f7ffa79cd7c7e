"""An append-only JSON Lines audit log of destructive actions in state_dir()/audit.jsonl."""

from __future__ import annotations

import errno
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from svctui.store.errors import StoreError
from svctui.store.paths import ensure_private_dir, state_dir

SECRET_FIELDS = frozenset({"token_key", "jwt", "secret", "password", "authorization", "signature"})
_APPEND_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC


def audit_path() -> Path:
    """Where the audit log lives."""
    return state_dir() / "audit.jsonl"


def _append(path: Path, data: bytes) -> None:
    """Append `data` in one write and fsync; any OS error becomes a StoreError naming the log and the reason."""
    try:
        ensure_private_dir(path.parent)
        fd = os.open(path, _APPEND_FLAGS, 0o600)
        try:
            if data:
                os.write(fd, data)  # one write per line: appends from several processes do not interleave
                os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        reason = "it is a symbolic link" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        raise StoreError(f"cannot append to the audit log '{path}': {reason}") from None


def check_audit_writable() -> Path:
    """Make sure the audit log can be appended to (creating it if needed) before anything destructive happens."""
    path = audit_path()
    _append(path, b"")
    return path


def append_audit(record: dict[str, Any]) -> Path:
    """Append `record` as one JSON line (with `ts` added when absent), fsynced; secret-named keys are refused."""
    leaked = sorted(key for key in record if key.lower() in SECRET_FIELDS)
    if leaked:
        raise ValueError(f"audit records must not carry secrets; drop the key(s): {', '.join(leaked)}")
    line = {"ts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"), **record}
    data = (json.dumps(line, default=str, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path = audit_path()
    _append(path, data)
    return path
