"""File helpers for the store tests: the permission bits a test checks."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def mode_bits(path: Path) -> int:
    """The permission bits of `path` itself (a symbolic link is not followed)."""
    return stat.S_IMODE(os.lstat(path).st_mode)


def child_env() -> dict[str, str]:
    """The environment for a Python child process that imports svctui from where this process does: under
    `make mutate` that is mutmut's `mutants/` copy (on sys.path, not in the environment), so the child runs the
    mutant under test too (its name is in the environment) and a test through a child can kill it."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
