"""Why destructive actions are refused, if they are: a module of its own (no pydantic), so the dashboard's header
can say it before its first frame without loading the store's models."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from svctui.store.model import Profile

READ_ONLY_ENV = "SVCTUI_READ_ONLY"


def read_only_reason(profile: Profile | None, flag: bool = False, env: Mapping[str, str] | None = None) -> str | None:
    """Why destructive actions are refused — `--read-only`, SVCTUI_READ_ONLY=1, or a read-only profile — or None.

    The command line refuses destructive commands with this reason; the dashboard hides destructive keys.
    """
    environ = os.environ if env is None else env
    if flag:
        return "svctui runs with --read-only"
    if environ.get(READ_ONLY_ENV, "").strip().lower() in ("1", "true", "yes"):
        return f"{READ_ONLY_ENV} is set"
    if profile is not None and profile.read_only:
        return f"profile {profile.name!r} is read-only (read_only = true)"
    return None
