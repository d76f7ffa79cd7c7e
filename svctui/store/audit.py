"""An append-only JSON Lines audit log of destructive actions in state_dir()/audit.jsonl."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from svctui.store.paths import ensure_private_dir, state_dir

SECRET_FIELDS = frozenset({"token_key", "jwt", "secret", "password", "authorization", "signature"})


def audit_path() -> Path:
    """Where the audit log lives."""
    return state_dir() / "audit.jsonl"


def append_audit(record: dict[str, Any]) -> Path:
    """Append `record` as one JSON line (with `ts` added when absent), fsynced; secret-named keys are refused."""
    leaked = sorted(key for key in record if key.lower() in SECRET_FIELDS)
    if leaked:
        raise ValueError(f"audit records must not carry secrets; drop the key(s): {', '.join(leaked)}")
    line = {"ts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"), **record}
    data = (json.dumps(line, default=str, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path = audit_path()
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, data)  # one write per line: appends from several processes do not interleave
        os.fsync(fd)
    finally:
        os.close(fd)
    return path
