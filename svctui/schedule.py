"""Recurrence rules in words and their next occurrences (python-dateutil); pure, no Textual.

`describe("DTSTART:20240909T100000Z\\nRRULE:FREQ=WEEKLY;BYDAY=TU")` -> "Weekly on Tue at 10:00 UTC".
A rule that does not parse never raises here: `Schedule.error` says why and the words say "unparseable".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from dateutil.rrule import DAILY, HOURLY, MINUTELY, SECONDLY, WEEKLY, rrule, rruleset, rrulestr

UNPARSEABLE = "unparseable schedule"
_DAY_NAMES = {"MO": "Mon", "TU": "Tue", "WE": "Wed", "TH": "Thu", "FR": "Fri", "SA": "Sat", "SU": "Sun"}
_WEEKDAYS = ("MO", "TU", "WE", "TH", "FR")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_FREQ_WORDS: Mapping[str, tuple[str, str]] = {
    "YEARLY": ("Yearly", "years"),
    "MONTHLY": ("Monthly", "months"),
    "WEEKLY": ("Weekly", "weeks"),
    "DAILY": ("Daily", "days"),
    "HOURLY": ("Hourly", "hours"),
    "MINUTELY": ("Every minute", "minutes"),
    "SECONDLY": ("Every second", "seconds"),
}
_PERIOD_SECONDS: Mapping[int, int] = {WEEKLY: 7 * 86400, DAILY: 86400, HOURLY: 3600, MINUTELY: 60, SECONDLY: 1}
_BYDAY_RE = re.compile(r"^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$")
_SIMPLE_START_RE = re.compile(r"DTSTART:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?", re.IGNORECASE)
_DTSTART_RE = re.compile(r"^DTSTART(?:;TZID=([^:]+))?:(\d{8}T\d{6})(Z?)$", re.IGNORECASE)


@dataclass(frozen=True)
class Schedule:
    """A parsed recurrence rule: the raw text, its words, and (when it parsed) the rule to expand."""

    raw: str
    words: str
    error: str | None = None
    has_start: bool = False
    rule: rrule | rruleset | None = field(default=None, repr=False, compare=False)

    def next_runs(self, now: datetime, count: int = 5) -> list[datetime]:
        """The next `count` occurrences strictly after `now`, in UTC; empty when the rule ended or is broken."""
        rule = self.rule
        if rule is None:
            return []
        if not self.has_start:
            rule = _anchor(self.raw, now)
            if rule is None:
                return []
        aware = _is_aware(rule)
        moment = now.astimezone(UTC) if aware else now.astimezone(UTC).replace(tzinfo=None)
        rule = _rebased(rule, moment)
        runs: list[datetime] = []
        try:
            for occurrence in rule.xafter(moment, count=count, inc=False):
                runs.append(occurrence.astimezone(UTC) if aware else occurrence.replace(tzinfo=UTC))
        except (ValueError, OverflowError, TypeError):
            return runs
        return runs

    def next_run(self, now: datetime) -> datetime | None:
        """The first occurrence after `now`, or None (cached per minute: a table refresh recomputes nothing)."""
        minute = now.replace(second=0, microsecond=0)
        for run in _first_two_after(self, minute):
            if run > now:
                return run
        runs = self.next_runs(now, 1)  # two runs inside one minute (a SECONDLY rule): ask directly
        return runs[0] if runs else None


@lru_cache(maxsize=8192)
def _first_two_after(schedule: Schedule, minute: datetime) -> tuple[datetime, ...]:
    """The two occurrences after the start of a minute; the first one after any moment in that minute is
    among them unless the rule fires twice within the minute."""
    return tuple(schedule.next_runs(minute, 2))


def _rebased(rule: rrule | rruleset, moment: datetime) -> rrule | rruleset:
    """The same rule with DTSTART moved forward by whole periods to just before `moment`.

    dateutil expands every occurrence from DTSTART, so an hourly rule started a year ago costs ~9,000 steps per
    next-run lookup. For a fixed-length period (weekly and shorter) without COUNT, shifting DTSTART by a whole
    number of `INTERVAL` periods leaves every later occurrence where it was, so the answer is the same.
    """
    if not isinstance(rule, rrule) or getattr(rule, "_count", None) is not None:
        return rule
    period = _PERIOD_SECONDS.get(getattr(rule, "_freq", -1))
    start = getattr(rule, "_dtstart", None)
    if period is None or not isinstance(start, datetime):
        return rule
    span = period * max(int(getattr(rule, "_interval", 1) or 1), 1)
    whole = int((moment - start).total_seconds() // span) - 1
    if whole <= 0:
        return rule
    return rule.replace(dtstart=start + timedelta(seconds=whole * span))


def _is_aware(rule: rrule | rruleset) -> bool:
    probe = rule if isinstance(rule, rrule) else next(iter(getattr(rule, "_rrule", [])), None)
    start = getattr(probe, "_dtstart", None)
    return isinstance(start, datetime) and start.tzinfo is not None


def _lines(raw: str) -> list[str]:
    text = raw.replace("\\n", "\n").replace("\r", "\n")
    return [line.strip() for line in text.split("\n") if line.strip()]


def _properties(raw: str) -> dict[str, str]:
    """The key=value parts of the (first) RRULE line, upper-cased keys."""
    for line in _lines(raw):
        body = line[len("RRULE:") :] if line.upper().startswith("RRULE:") else line
        if "FREQ=" in body.upper():
            parts = (part.partition("=") for part in body.split(";") if part)
            return {key.strip().upper(): value.strip().upper() for key, _, value in parts}
    return {}


def _start(raw: str) -> tuple[datetime, str] | None:
    """DTSTART as a datetime and the zone label (UTC, or the TZID, or UTC for a floating time)."""
    for line in _lines(raw):
        match = _DTSTART_RE.match(line)
        if match:
            tzid, stamp, _zulu = match.groups()
            moment = datetime.strptime(stamp, "%Y%m%dT%H%M%S")
            return moment, tzid or "UTC"
    return None


def _anchor(raw: str, now: datetime) -> rrule | rruleset | None:
    start = now.astimezone(UTC).replace(second=0, microsecond=0)
    try:
        return rrulestr(_normalised(raw), dtstart=start)
    except (ValueError, TypeError, KeyError, OverflowError):
        return None


def _normalised(raw: str) -> str:
    """Join the lines with real newlines; a floating DTSTART (no Z, no TZID) is read as UTC."""
    lines = []
    for line in _lines(raw):
        match = _DTSTART_RE.match(line)
        if match and not match.group(1) and not match.group(3):
            line = f"{line}Z"
        lines.append(line)
    return "\n".join(lines)


def _ordinal(number: int) -> str:
    if number == -1:
        return "last"
    if number < 0:
        return f"{_ordinal(-number)} from last"
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _days_words(byday: str) -> str:
    tokens = [token for token in byday.split(",") if token]
    plain = [token for token in tokens if token in _DAY_NAMES]
    if sorted(plain, key=list(_DAY_NAMES).index) == list(_WEEKDAYS) and len(tokens) == 5:
        return "on weekdays"
    words = []
    for token in tokens:
        match = _BYDAY_RE.match(token)
        if not match:
            raise ValueError(f"BYDAY value {token!r}")
        nth, day = match.groups()
        words.append(f"the {_ordinal(int(nth))} {_DAY_NAMES[day]}" if nth else _DAY_NAMES[day])
    return "on " + ", ".join(words)


def _int_list(value: str) -> list[int]:
    return [int(part) for part in value.split(",") if part]


def _time_words(props: Mapping[str, str], start: tuple[datetime, str] | None, freq: str) -> str:
    if freq in ("HOURLY", "MINUTELY", "SECONDLY"):
        minutes = _int_list(props["BYMINUTE"]) if "BYMINUTE" in props else []
        if freq == "HOURLY" and not minutes and start is not None and start[0].minute:
            minutes = [start[0].minute]
        return "at " + ", ".join(f":{m:02d}" for m in minutes) if freq == "HOURLY" and minutes else ""
    zone = start[1] if start is not None else "UTC"
    hours = _int_list(props["BYHOUR"]) if "BYHOUR" in props else []
    minutes = _int_list(props["BYMINUTE"]) if "BYMINUTE" in props else []
    if not hours and start is None:
        return ""
    if not hours and start is not None:
        hours = [start[0].hour]
    if not minutes:
        minutes = [start[0].minute] if start is not None else [0]
    times = [f"{hour:02d}:{minute:02d}" for hour in hours for minute in minutes]
    return f"at {', '.join(times)} {zone}"


def _words(raw: str) -> str:
    props = _properties(raw)
    freq = props.get("FREQ", "")
    if freq not in _FREQ_WORDS:
        raise ValueError(f"FREQ {freq or 'missing'}")
    interval = int(props.get("INTERVAL", "1") or "1")
    single, plural = _FREQ_WORDS[freq]
    parts = [single if interval == 1 else f"Every {interval} {plural}"]
    if "BYMONTH" in props:
        parts.append("in " + ", ".join(_MONTH_NAMES[m - 1] for m in _int_list(props["BYMONTH"])))
    if "BYMONTHDAY" in props:
        days = _int_list(props["BYMONTHDAY"])
        parts.append("on " + ", ".join("the last day" if d == -1 else f"day {d}" for d in days))
    if "BYDAY" in props:
        parts.append(_days_words(props["BYDAY"]))
    start = _start(raw)
    time_text = _time_words(props, start, freq)
    if time_text:
        parts.append(time_text)
    text = " ".join(parts)
    if "COUNT" in props:
        text += f", {int(props['COUNT'])} times"
    if "UNTIL" in props:
        until = props["UNTIL"]
        text += f", until {until[0:4]}-{until[4:6]}-{until[6:8]}"
    return text


@lru_cache(maxsize=4096)
def parse_schedule(raw: str) -> Schedule:
    """Parse a rule (`DTSTART:...\\nRRULE:...` or just `RRULE:...`); never raises."""
    text = (raw or "").strip()
    if not text:
        return Schedule(raw=raw, words="no schedule", error="the rule is empty")
    try:
        has_start = _start(text) is not None  # a DTSTART that is no date (30 February) raises here
        words = _words(text)
        rule = _rule_of(text, has_start)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
        return Schedule(raw=raw, words=UNPARSEABLE, error=f"the rule does not parse: {exc}")
    return Schedule(raw=raw, words=words, has_start=has_start, rule=rule)


def _rule_of(text: str, has_start: bool) -> rrule | rruleset:
    """dateutil's rule for `text`. The shape servers send, `DTSTART:YYYYMMDDTHHMMSS[Z]` and one plain RRULE line,
    is read without dateutil's general date parser (~0.5 ms a rule and ~20 ms to import, ~70 ms for a 100-row
    events page before its first row): DTSTART becomes the same UTC moment and dateutil parses the RRULE alone,
    exactly as it would inside the full text. Anything else (TZID, EXDATE, more lines, a date that does not exist)
    takes the full path, so its result or error is the same as the full parser's."""
    simple = _simple_rule(text) if has_start else None
    if simple is not None:
        start, body = simple
        return rrulestr(body, dtstart=start)
    return rrulestr(_normalised(text), dtstart=None if has_start else datetime(2000, 1, 1, tzinfo=UTC))


def _simple_rule(text: str) -> tuple[datetime, str] | None:
    """(DTSTART as an aware UTC datetime, the RRULE value) for a two-line `DTSTART:…` + `RRULE:…` rule, else None."""
    lines = _lines(text)
    if len(lines) != 2 or not lines[1].upper().startswith("RRULE:"):
        return None
    match = _SIMPLE_START_RE.fullmatch(lines[0])
    body = lines[1][len("RRULE:") :]
    if match is None or not body or ":" in body or any(ch.isspace() for ch in body):
        return None
    try:
        year, month, day, hour, minute, second = (int(part) for part in match.groups())
        start = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        return None  # e.g. February 30th: the full path says why, in dateutil's words
    return start, body


def describe(raw: str) -> str:
    """The rule in words, e.g. "Weekly on Tue at 10:00 UTC"; "unparseable schedule" when it does not parse."""
    return parse_schedule(raw).words


def next_occurrences(raw: str, now: datetime, count: int = 5) -> list[datetime]:
    """The next `count` occurrences after `now` in UTC (a rule without DTSTART is counted from `now`)."""
    return parse_schedule(raw).next_runs(now, count)


def utc_minute(moment: datetime | None) -> str:
    """A UTC time as `2026-11-24 10:00Z`, or an empty string."""
    return moment.strftime("%Y-%m-%d %H:%M") + "Z" if moment is not None else ""


def next_run_words(raw: str, now: datetime) -> str:
    """The next run as the dashboard's next-run column and `svctui events list` say it: `2026-11-24 10:00Z  in
    1d 22h`; `ended`; `?` when the rule does not parse; `- (rule has no DTSTART)` (the server picks the start)."""
    schedule = parse_schedule(raw)
    if schedule.error is not None:
        return "?"
    if not schedule.has_start:
        return "- (rule has no DTSTART)"
    upcoming = schedule.next_run(now)
    return f"{utc_minute(upcoming)}  {relative(upcoming, now)}" if upcoming is not None else "ended"


def next_run_at(raw: str, now: datetime) -> datetime | None:
    """The next run after `now` computed from the rule (what `next_run_words` says), or None: the rule does not
    parse, has no DTSTART (the server picks the start), or has ended."""
    schedule = parse_schedule(raw)
    return schedule.next_run(now) if schedule.error is None and schedule.has_start else None


def relative(moment: datetime, now: datetime) -> str:
    """A short distance like "in 1d 22h", "in 35m", "2h ago"."""
    seconds = int((moment - now).total_seconds())
    future = seconds >= 0
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        span = f"{days}d {hours}h" if hours else f"{days}d"
    elif hours:
        span = f"{hours}h {minutes}m" if minutes else f"{hours}h"
    else:
        span = f"{minutes}m" if minutes else "<1m"
    return f"in {span}" if future else f"{span} ago"
