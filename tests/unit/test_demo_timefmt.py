"""The demo server renders times as Go's time.Time marshals them (RFC 3339, `Z`, trimmed fraction)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from svctui.demo.timefmt import ZERO_TIME, ZERO_TIME_TEXT, render_time, to_micros


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 3, 2, 10, 59, 19, 585661, tzinfo=UTC), "2026-03-02T10:59:19.585661Z"),
        (datetime(2026, 3, 2, 10, 59, 19, 500000, tzinfo=UTC), "2026-03-02T10:59:19.5Z"),  # trailing zeros trimmed
        (datetime(2026, 3, 2, 10, 59, 19, tzinfo=UTC), "2026-03-02T10:59:19Z"),  # no fraction at all
        (datetime(1970, 1, 1, tzinfo=UTC), "1970-01-01T00:00:00Z"),
        (datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC), "1969-12-31T23:59:59.999999Z"),
        (datetime(1, 1, 1, 0, 0, 0, 1, tzinfo=UTC), "0001-01-01T00:00:00.000001Z"),  # Go pads the year to 4 digits
        (datetime(9999, 12, 31, 23, 59, 59, 10, tzinfo=UTC), "9999-12-31T23:59:59.00001Z"),
    ],
)
def test_render_time_is_gos_rfc3339_nano(moment: datetime, text: str) -> None:
    """Go's `2006-01-02T15:04:05.999999999Z07:00` for UTC; what the real server's JSON carries."""
    assert render_time(to_micros(moment)) == text


def test_unset_times() -> None:
    """Go's zero time is its own text; a NULL column stays null."""
    assert render_time(ZERO_TIME) == ZERO_TIME_TEXT == "0001-01-01T00:00:00Z"
    assert render_time(None) is None
