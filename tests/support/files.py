"""File helpers for the store tests: the permission bits a test checks."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def mode_bits(path: Path) -> int:
    """The permission bits of `path` itself (a symbolic link is not followed)."""
    return stat.S_IMODE(os.lstat(path).st_mode)
