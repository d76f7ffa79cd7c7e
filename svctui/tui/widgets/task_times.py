"""Task times for people: local time with its zone, and UTC alongside."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo


def local_zone() -> tzinfo:
    """The system's local zone (honours TZ)."""
    zone = datetime.now().astimezone().tzinfo
    return zone if zone is not None else UTC


def format_local(moment: datetime | None, zone: tzinfo | None = None) -> str:
    """`2026-03-01 03:00:05 CET`, or empty when unset."""
    if moment is None:
        return ""
    local = moment.astimezone(zone or local_zone())
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or ''}".rstrip()


def format_utc(moment: datetime | None) -> str:
    """`2026-03-01 02:00:05Z`, or empty when unset."""
    if moment is None:
        return ""
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S}Z"


def format_local_utc(moment: datetime | None, zone: tzinfo | None = None) -> str:
    """Local then UTC: `2026-03-01 03:00:05 CET (02:00:05Z)`; when the zone is UTC, just the UTC form."""
    if moment is None:
        return "—"
    utc = moment.astimezone(UTC)
    local = moment.astimezone(zone or local_zone())
    if local.utcoffset() == utc.utcoffset():
        return format_utc(moment)
    return f"{format_local(moment, zone)} ({utc:%H:%M:%S}Z)"


def format_short(moment: datetime | None, zone: tzinfo | None = None) -> str:
    """Compact local time for table cells: `03-01 03:00`, empty when unset."""
    if moment is None:
        return ""
    return f"{moment.astimezone(zone or local_zone()):%m-%d %H:%M}"
