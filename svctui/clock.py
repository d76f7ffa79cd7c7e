"""The `Clock` type (what svctui calls for "now": an aware datetime) and the one clock the app and commands use."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

Clock = Callable[[], datetime]
FROZEN_NOW_ENV = "SVCTUI_FROZEN_NOW"
FROZEN_YEARS = range(1971, 9999)  # a year of room either side: "now - 7 days" and "next run" stay datetimes


class ClockError(ValueError):
    """SVCTUI_FROZEN_NOW is set to something that is not a time svctui can run at."""


def frozen_moment(text: str) -> datetime:
    """The aware UTC time SVCTUI_FROZEN_NOW names (RFC 3339); ClockError saying what is allowed when it names none."""
    from svctui.api.quoting import quote_input

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
    except (ValueError, OverflowError):
        moment = None
    if moment is None or moment.year not in FROZEN_YEARS:
        raise ClockError(
            f"{FROZEN_NOW_ENV}={quote_input(text)} is not a time svctui can run at; set an RFC 3339 time between "
            f"{FROZEN_YEARS.start} and {FROZEN_YEARS.stop - 1} such as 2026-03-01T09:00:00Z, or unset it"
        )
    return moment


def make_clock(environ: Mapping[str, str] | None = None) -> tuple[Clock, bool]:
    """svctui's clock: frozen at SVCTUI_FROZEN_NOW (RFC 3339) when set (tests, screenshots), else real time.
    ClockError when the variable is not such a time (the command line checks it first: exit 2)."""
    frozen = (environ if environ is not None else os.environ).get(FROZEN_NOW_ENV, "").strip()
    if frozen:
        moment = frozen_moment(frozen)
        return (lambda: moment), True
    return (lambda: datetime.now(UTC)), False
