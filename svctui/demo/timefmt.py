"""Time handling of the demo server: storage as epoch microseconds, Go-style RFC 3339 rendering, lenient parsing.

Stored times are integers (microseconds since the Unix epoch, like Postgres' precision) so that filters and sorts
compare numbers, never strings. `ZERO_TIME` is Go's zero time, rendered `0001-01-01T00:00:00Z` (unset).
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta, timezone

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAIVE_EPOCH = datetime(1970, 1, 1)  # naive: arithmetic only (render_time adds the `Z`), isoformat without +00:00
ZERO_TIME = -62135596800 * 1_000_000
ZERO_TIME_TEXT = "0001-01-01T00:00:00Z"

# What Postgres would accept as a timestamptz literal once the server has cut the value at the first character
# outside its filter character set (so a `+05:00` offset is already gone and the time is read as UTC).
_LENIENT_TIME_RE = re.compile(
    r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?"
    r"\s*(?:([Zz])|([-])(\d{2})(?::?(\d{2}))?)?\s*$"
)


def to_micros(moment: datetime) -> int:
    """Microseconds since the epoch of an aware datetime."""
    delta = moment - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_micros(micros: int) -> datetime:
    """The aware UTC datetime of a microsecond timestamp."""
    return EPOCH + timedelta(microseconds=micros)


def render_time(micros: int | None) -> str | None:
    """RFC 3339 as Go's time.Time marshals it: UTC `Z`, fraction with trailing zeros trimmed; None stays None."""
    if micros is None:
        return None
    if micros == ZERO_TIME:
        return ZERO_TIME_TEXT
    text = (_NAIVE_EPOCH + timedelta(microseconds=micros)).isoformat()  # C code: a third of a page's time was strftime
    return (text.rstrip("0") if "." in text else text) + "Z"  # isoformat leaves out a zero fraction, pads the rest


def go_rfc3339(moment: datetime) -> str:
    """Go's time.RFC3339 format (seconds precision): `Z` for UTC, else `+hh:mm`."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    offset = moment.utcoffset()
    if offset is None or offset == timedelta(0):
        return text + "Z"
    total = int(offset.total_seconds())
    sign = "+" if total >= 0 else "-"
    hours, minutes = divmod(abs(total) // 60, 60)
    return f"{text}{sign}{hours:02d}:{minutes:02d}"


def nano_timestamp() -> str:
    """The current UTC time in RFC 3339 with nine fractional digits (the error envelope's `timestamp`)."""
    now_ns = time.time_ns()
    seconds, nanos = divmod(now_ns, 1_000_000_000)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return f"{stamp}.{nanos:09d}Z"


def parse_filter_time(text: str) -> int:
    """Read a filter value as Postgres would read a timestamptz literal; ValueError when it cannot."""
    match = _LENIENT_TIME_RE.match(text)
    if not match:
        raise ValueError(f"invalid input syntax for type timestamp with time zone: {text!r}")
    year, month, day, hour, minute, second, fraction, _zulu, sign, off_h, off_m = match.groups()
    tz = UTC
    if sign:
        offset = timedelta(hours=int(off_h), minutes=int(off_m or 0))
        tz = timezone(-offset)
    moment = datetime(
        int(year),
        int(month),
        int(day),
        int(hour or 0),
        int(minute or 0),
        int(second or 0),
        int((fraction or "0").ljust(6, "0")[:6]),
        tzinfo=tz,
    )
    return to_micros(moment)


def parse_request_date(raw: str) -> datetime:
    """Parse a RequestDate header like Go's time.Parse(time.RFC3339): aware, uppercase T; ValueError otherwise."""
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})", raw)
    if not match:
        raise ValueError(f'parsing time "{raw}" as "2006-01-02T15:04:05Z07:00": cannot parse "{raw}" as "2006"')
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    if zone == "Z":
        tz = UTC
    else:
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 23 or minutes > 59:
            raise ValueError(f'parsing time "{raw}": time zone offset out of range')
        offset = timedelta(hours=hours, minutes=minutes)
        tz = timezone(offset if zone[0] == "+" else -offset)
    try:
        return datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second),
            int((fraction or "0")[:6].ljust(6, "0")),
            tzinfo=tz,
        )
    except ValueError:
        raise ValueError(f'parsing time "{raw}": value out of range') from None
