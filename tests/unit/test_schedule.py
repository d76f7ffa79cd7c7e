"""Recurrence rules in words and their next occurrences (pure; no Textual)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svctui.schedule import UNPARSEABLE, describe, next_occurrences, parse_schedule, relative

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # a Sunday


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU", "Weekly on Tue at 10:00 UTC"),
        ("DTSTART:20240909T100000Z\\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU", "Weekly on Tue at 10:00 UTC"),
        ("RRULE:FREQ=DAILY;INTERVAL=1", "Daily"),
        ("FREQ=HOURLY;INTERVAL=6", "Every 6 hours"),
        ("DTSTART:20240909T104000Z\nRRULE:FREQ=HOURLY", "Hourly at :40"),
        (
            "DTSTART:20240101T023000Z\nRRULE:FREQ=MONTHLY;BYDAY=1MO,-1FR",
            "Monthly on the 1st Mon, the last Fri at 02:30 UTC",
        ),
        (
            "DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
            "Every 2 weeks on Mon, Thu at 10:00 UTC",
        ),
        (
            "DTSTART:20240909T100000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=3",
            "Weekly on weekdays at 10:00 UTC, 3 times",
        ),
        (
            "DTSTART:20240909T000000Z\nRRULE:FREQ=DAILY;BYHOUR=2,14;UNTIL=20270101T000000Z",
            "Daily at 02:00, 14:00 UTC, until 2027-01-01",
        ),
        ("DTSTART;TZID=Europe/Berlin:20240909T100000\nRRULE:FREQ=DAILY", "Daily at 10:00 Europe/Berlin"),
        ("DTSTART:20240101T000000Z\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1,-1", "Monthly on day 1, the last day at 00:00 UTC"),
        ("DTSTART:20240101T090000Z\nRRULE:FREQ=YEARLY;BYMONTH=1,7", "Yearly in Jan, Jul at 09:00 UTC"),
        ("DTSTART:20240101T090000Z\nRRULE:FREQ=MINUTELY;INTERVAL=15", "Every 15 minutes"),
    ],
)
def test_words(rule: str, words: str) -> None:
    assert describe(rule) == words
    assert parse_schedule(rule).error is None


@pytest.mark.parametrize(
    "rule",
    [
        "garbage",
        "RRULE:FREQ=FORTNIGHTLY",
        "RRULE:FREQ=WEEKLY;BYDAY=XX",
        "RRULE:FREQ=DAILY;INTERVAL=abc",
        "DTSTART:x",
        "DTSTART:20250230T111800Z\nRRULE:FREQ=DAILY",
    ],
)
def test_unparseable_rules_never_raise(rule: str) -> None:
    schedule = parse_schedule(rule)
    assert schedule.words == UNPARSEABLE
    assert schedule.error is not None and "does not parse" in schedule.error
    assert next_occurrences(rule, NOW) == []


def test_empty_rule() -> None:
    schedule = parse_schedule("")
    assert schedule.words == "no schedule"
    assert schedule.next_runs(NOW) == []


def test_next_five_weekly_runs_are_after_now_in_utc() -> None:
    runs = next_occurrences("DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU", NOW, 5)
    assert runs == [datetime(2026, 11, 24, 10, tzinfo=UTC) + timedelta(weeks=week) for week in range(5)]
    assert all(run.tzinfo is not None and run.utcoffset() == timedelta(0) for run in runs)


def test_run_exactly_at_now_is_not_next() -> None:
    runs = next_occurrences("DTSTART:20240909T120000Z\nRRULE:FREQ=DAILY", NOW, 1)
    assert runs == [datetime(2026, 11, 23, 12, tzinfo=UTC)]


def test_floating_start_is_read_as_utc() -> None:
    assert next_occurrences("DTSTART:20240909T100000\nRRULE:FREQ=DAILY", NOW, 1) == [
        datetime(2026, 11, 23, 10, tzinfo=UTC)
    ]


def test_tzid_start_converts_to_utc() -> None:
    runs = next_occurrences("DTSTART;TZID=Europe/Berlin:20240909T100000\nRRULE:FREQ=DAILY", NOW, 1)
    assert runs == [datetime(2026, 11, 23, 9, tzinfo=UTC)]  # CET = UTC+1 in November


def test_ended_rule_has_no_runs() -> None:
    schedule = parse_schedule("DTSTART:20240909T100000Z\nRRULE:FREQ=DAILY;COUNT=3")
    assert schedule.error is None
    assert schedule.next_runs(NOW) == []
    assert schedule.next_run(NOW) is None


def test_rule_without_start_counts_from_now() -> None:
    schedule = parse_schedule("RRULE:FREQ=DAILY;INTERVAL=1")
    assert not schedule.has_start
    assert schedule.next_runs(NOW, 2) == [NOW + timedelta(days=1), NOW + timedelta(days=2)]


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (timedelta(days=1, hours=22), "in 1d 22h"),
        (timedelta(days=3), "in 3d"),
        (timedelta(hours=2, minutes=5), "in 2h 5m"),
        (timedelta(hours=1), "in 1h"),
        (timedelta(minutes=35), "in 35m"),
        (timedelta(seconds=20), "in <1m"),
        (-timedelta(hours=2), "2h ago"),
    ],
)
def test_relative(delta: timedelta, text: str) -> None:
    assert relative(NOW + delta, NOW) == text


@settings(max_examples=300, deadline=None)
@given(
    freq=st.sampled_from(["WEEKLY", "DAILY", "HOURLY", "MINUTELY"]),
    interval=st.integers(min_value=1, max_value=5),
    byday=st.sampled_from(["", ";BYDAY=TU", ";BYDAY=MO,WE,FR", ";BYDAY=SU"]),
    until=st.sampled_from(["", ";UNTIL=20260101T000000Z", ";UNTIL=20301231T235959Z"]),
    start=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2027, 1, 1)),
    now=st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2027, 6, 1)),
)
def test_rebasing_dtstart_never_changes_the_next_runs(
    freq: str, interval: int, byday: str, until: str, start: datetime, now: datetime
) -> None:
    """The shortcut that moves DTSTART forward gives exactly what dateutil's full expansion gives."""
    if freq == "MINUTELY" and (now - start).days > 60:
        start = now - timedelta(days=60)  # keep the full expansion (the oracle) affordable
    raw = f"DTSTART:{start:%Y%m%dT%H%M%S}Z\nRRULE:FREQ={freq};INTERVAL={interval}{byday}{until}"
    schedule = parse_schedule(raw)
    assert schedule.rule is not None
    moment = now.replace(tzinfo=UTC)
    full = [run.astimezone(UTC) for run in schedule.rule.xafter(moment, count=3, inc=False)]
    assert schedule.next_runs(moment, 3) == full


@settings(max_examples=200, deadline=None)
@given(
    rule=st.sampled_from(
        [
            "DTSTART:20260101T000000Z\nRRULE:FREQ=SECONDLY;INTERVAL=20",
            "DTSTART:20261122T120000Z\nRRULE:FREQ=MINUTELY",
            "DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;BYDAY=TU",
            "DTSTART:20261122T115930Z\nRRULE:FREQ=HOURLY;COUNT=3",
        ]
    ),
    now=st.datetimes(min_value=datetime(2026, 11, 22, 11, 0), max_value=datetime(2026, 11, 22, 15, 0)),
)
def test_cached_next_run_equals_a_direct_lookup(rule: str, now: datetime) -> None:
    """The per-minute cache behind `next_run` answers exactly what an uncached lookup answers, to the second."""
    moment = now.replace(tzinfo=UTC)
    schedule = parse_schedule(rule)
    direct = schedule.next_runs(moment, 1)
    assert schedule.next_run(moment) == (direct[0] if direct else None)


@settings(max_examples=100, deadline=None)
@given(
    freq=st.sampled_from(["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY"]),
    interval=st.integers(min_value=1, max_value=4),
    extra=st.sampled_from(["", ";BYDAY=TU", ";BYDAY=1MO,-1FR", ";BYMONTHDAY=1,-1", ";BYHOUR=2,14"]),
    until=st.sampled_from(["", ";UNTIL=20290101T000000Z", ";COUNT=4"]),
    start=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2027, 1, 1)),
    zulu=st.booleans(),
    lower=st.booleans(),
)
def test_a_plain_dtstart_is_read_as_dateutil_reads_the_whole_text(
    freq: str, interval: int, extra: str, until: str, start: datetime, zulu: bool, lower: bool
) -> None:
    """DTSTART + one RRULE, read without dateutil's date parser, expands exactly like rrulestr over the text."""
    from dateutil.rrule import rrulestr

    raw = f"DTSTART:{start:%Y%m%dT%H%M%S}{'Z' if zulu else ''}\nRRULE:FREQ={freq};INTERVAL={interval}{extra}{until}"
    raw = raw.lower() if lower else raw
    schedule = parse_schedule(raw)
    try:
        oracle = rrulestr(raw.replace("\n", "Z\n", 1) if not zulu else raw)
    except ValueError:  # e.g. an hourly rule whose BYHOUR misses DTSTART's hour: refused either way
        assert schedule.words == UNPARSEABLE
        return
    assert schedule.rule is not None and schedule.error is None
    after = datetime(2026, 1, 1, tzinfo=UTC)
    mine = [run.astimezone(UTC) for run in schedule.rule.xafter(after, count=6, inc=False)]
    theirs = [run.astimezone(UTC) for run in oracle.xafter(after, count=6, inc=False)]
    assert mine == theirs


def test_parsing_the_rules_servers_send_does_not_import_dateutils_date_parser() -> None:
    """The events table parses a rule per row: the plain shape skips dateutil.parser (~20 ms to import)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from svctui.schedule import describe, parse_schedule\n"
        "from datetime import UTC, datetime\n"
        "s = parse_schedule('DTSTART:20240909T100000Z\\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU')\n"
        "assert s.error is None and s.next_runs(datetime(2026, 1, 1, tzinfo=UTC), 2)\n"
        "print('dateutil.parser' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.strip() == "False"
