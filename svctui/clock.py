"""The `Clock` type (what svctui calls for "now": an aware datetime) and the one clock the app and commands use."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

Clock = Callable[[], datetime]
FROZEN_NOW_ENV = "SVCTUI_FROZEN_NOW"


def make_clock(environ: Mapping[str, str] | None = None) -> tuple[Clock, bool]:
    """svctui's clock: frozen at SVCTUI_FROZEN_NOW (RFC 3339) when set (tests, screenshots), else real time."""
    frozen = (environ if environ is not None else os.environ).get(FROZEN_NOW_ENV, "").strip()
    if frozen:
        moment = datetime.fromisoformat(frozen.replace("Z", "+00:00")).astimezone(UTC)
        return (lambda: moment), True
    return (lambda: datetime.now(UTC)), False
