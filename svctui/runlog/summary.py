"""The log read for you: the first error, a status count that stopped moving (from when to when), the collection
methods SharpHound resolved against the ones the run asked for, and how long each domain took. Built one line at
a time (`SummaryBuilder`), so the CLI and the dashboard's worker read a log of any size once, as it arrives."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Protocol

from svctui.runlog.lines import LogLine
from svctui.triage.summary import format_duration

# What each of a run's collection flags asks SharpHound for, in the words its `Resolved Collection Methods` line uses.
FLAG_METHODS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ad_structure_collection", ("Group", "Trusts", "ACL", "Container", "ObjectProps", "GPOLocalGroup", "SPNTargets")),
    ("session_collection", ("Session",)),
    ("local_group_collection", ("LocalAdmin", "RDP", "DCOM", "PSRemote")),
    ("cert_services_collection", ("CertServices",)),
    ("ca_registry_collection", ("CARegistry",)),
    ("dc_registry_collection", ("DCRegistry",)),
)
STATUS = re.compile(r"Status: (\d+) objects finished")
RESOLVED = "Resolved Collection Methods:"
DOMAIN_START = re.compile(r"Beginning LDAP search for (\S+)")
FINISHED = re.compile(r"Enumeration finished in (\S+)")
COMPLETED = "Happy Graphing"
STUCK_LINES = 3  # the same count on this many status lines in a row is a stuck run


class Flags(Protocol):
    """A run's collection flags (a CompletedTask has them)."""

    session_collection: bool
    local_group_collection: bool
    ad_structure_collection: bool
    cert_services_collection: bool
    ca_registry_collection: bool
    dc_registry_collection: bool


def asked_methods(flags: Flags) -> list[str]:
    """The collection methods a run's flags ask for, in SharpHound's words."""
    return [method for name, methods in FLAG_METHODS if getattr(flags, name, False) for method in methods]


@dataclass(frozen=True)
class Stuck:
    """A status count that did not move: `count` on `lines` status lines from `first` to `last`."""

    count: int
    first: LogLine
    last: LogLine
    lines: int

    def words(self, day: date | None = None) -> str:
        """`stuck at 40,641 objects 02:10:05Z → 04:55:05Z (12 status lines)` (a time on a later UTC day than `day`
        marked `+1d`)."""
        return (
            f"stuck at {self.count:,} objects {_clock(self.first, day)} → {_clock(self.last, day)} "
            f"({self.lines} status lines)"
        )


@dataclass(frozen=True)
class DomainTime:
    """One domain's part of the run: from its `Beginning LDAP search` line to the next domain's or the end."""

    domain: str
    first: int  # line numbers
    last: int
    seconds: float | None  # None when a time is missing


@dataclass(frozen=True)
class LogSummary:
    """What the log says about the run."""

    lines: int
    plain: int  # lines without SharpHound's format
    errors: int
    warnings: int
    first_error: LogLine | None
    stuck: Stuck | None
    resolved: tuple[str, ...] | None  # None: no `Resolved Collection Methods` line
    asked: tuple[str, ...] | None  # None: the run's flags were not given
    domains: tuple[DomainTime, ...]
    finished: str | None  # `Enumeration finished in` duration, when the log has it
    completed: bool  # the closing `Happy Graphing!` line
    cut: bool  # the last line has no newline: the log ends mid-line
    binary: bool = False  # the log is not text
    day: date | None = None  # the UTC day of the first line with an offset: a time on another day shows its date

    @property
    def missing(self) -> list[str]:
        """Methods the run asked for that SharpHound did not resolve."""
        if self.resolved is None or self.asked is None:
            return []
        return [method for method in self.asked if method not in self.resolved]

    @property
    def formatted(self) -> bool:
        """Whether any line has SharpHound's format."""
        return self.plain < self.lines

    def headline(self) -> str:
        """The one line that matters most: the first error, else a stuck count, missing methods, an unfinished
        run, or how it finished."""
        if self.binary:
            return "the log is not text"
        if self.lines == 0:
            return "the log is empty"
        if not self.formatted:
            return f"no line in SharpHound's format ({self.lines:,} lines as they are)"
        parts: list[str] = []
        if self.first_error is not None:
            parts.append(f"first error {_clock(self.first_error, self.day)}: {self.first_error.message}")
        if self.stuck is not None:
            parts.append(self.stuck.words(self.day))
        if self.missing:
            parts.append("not resolved: " + ", ".join(self.missing))
        if not parts:
            ended = f"finished in {_timespan(self.finished)}" if self.finished else "stopped before it finished"
            parts.append(f"{ended}, {_many(self.errors, 'error')}, {_many(self.warnings, 'warning')}")
        elif self.cut:
            parts.append("ends mid-line")
        return " · ".join(parts)

    def details(self) -> list[str]:
        """The facts besides the headline, short (the log pane's top line): counts, methods, each domain's time,
        how the log ends."""
        if self.binary or not self.lines or not self.formatted:
            return [self.headline()]
        out = [f"{_many(self.lines, 'line')}, {_many(self.errors, 'error')}, {_many(self.warnings, 'warning')}"]
        if self.missing:
            out.append("not resolved: " + ", ".join(self.missing))  # asked for, by the task: short (80 columns)
        elif self.resolved is not None:
            out.append(f"{_many(len(self.resolved), 'method')} resolved")
        out += [
            f"{part.domain} took {'?' if part.seconds is None else _duration(part.seconds)}" for part in self.domains
        ]
        if self.finished:
            out.append(f"finished in {_timespan(self.finished)}")
        elif not self.cut:
            out.append("stops before the enumeration finished")
        if self.cut:
            out.append("last line cut short")
        return out

    def lines_of_text(self) -> list[str]:
        """The whole summary, a line per fact (the CLI's header and the log view's top)."""
        if self.binary or not self.lines or not self.formatted:
            return [self.headline()]
        out = [f"{_many(self.lines, 'line')}, {_many(self.errors, 'error')}, {_many(self.warnings, 'warning')}"]
        out.append(
            f"first error (line {self.first_error.number}, {_clock(self.first_error, self.day)}): "
            f"{self.first_error.message}"
            if self.first_error is not None
            else "no error line"
        )
        if self.stuck is not None:
            out.append(f"{self.stuck.words(self.day)}, lines {self.stuck.first.number}-{self.stuck.last.number}")
        if self.resolved is not None:
            out.append("resolved methods: " + (", ".join(self.resolved) or "none"))
        if self.missing:
            out.append("asked for but not resolved: " + ", ".join(self.missing))
        for part in self.domains:
            took = "?" if part.seconds is None else _duration(part.seconds)
            out.append(f"{part.domain}: took {took} (lines {part.first}-{part.last})")
        if self.finished:
            out.append(
                f"enumeration finished in {_timespan(self.finished)}" + ("" if self.completed else ", not completed")
            )
        elif not self.cut:
            out.append("the log stops before the enumeration finished")
        if self.cut:
            out.append("the last line is cut short (no newline after it)")
        return out


@dataclass
class SummaryBuilder:
    """Feed every line in order (`add`), then `result()`."""

    asked: Sequence[str] | None = None
    lines: int = 0
    plain: int = 0
    errors: int = 0
    warnings: int = 0
    first_error: LogLine | None = None
    resolved: tuple[str, ...] | None = None
    finished: str | None = None
    completed: bool = False
    cut: bool = False
    stuck: Stuck | None = None
    _run: list[LogLine] = field(default_factory=list)  # first and last line of the current same-count run
    _run_count: int = -1
    _run_lines: int = 0
    _domains: list[tuple[str, int, datetime | None]] = field(default_factory=list)  # (name, first line, its time)
    _last_number: int = 0
    _last_time: LogLine | None = None
    _end: tuple[int, datetime | None] | None = None  # where the last domain's part ends (the finished line)
    day: date | None = None  # the UTC day of the first line with an offset

    def add(self, line: LogLine) -> None:
        """One more line."""
        self.lines += 1
        self._last_number = line.number
        self.cut = line.cut
        if line.level is None:
            self.plain += 1
            return
        self._last_time = line
        if self.day is None:
            when = line.utc()
            if when is not None:
                self.day = when.date()
        if line.severe:
            self.errors += 1
            if self.first_error is None:
                self.first_error = line
        elif line.level == "WARNING":
            self.warnings += 1
        message = line.message
        if message.startswith("Status: "):
            found = STATUS.match(message)
            if found is not None:
                self._status(int(found.group(1)), line)
            return
        if message.startswith(RESOLVED):
            self.resolved = tuple(part.strip() for part in message[len(RESOLVED) :].split(",") if part.strip())
        elif message.startswith("Beginning LDAP search"):
            found = DOMAIN_START.match(message)
            if found is not None:
                self._domains.append((found.group(1), line.number, line.time))
        elif message.startswith("Enumeration finished"):
            found = FINISHED.match(message)
            self.finished = found.group(1) if found else message
            self._end = (line.number, line.time)
        elif COMPLETED in message:
            self.completed = True

    def _status(self, count: int, line: LogLine) -> None:
        if count == self._run_count:
            self._run_lines += 1
            self._run[1:] = [line]
        else:
            self._run_count, self._run_lines, self._run = count, 1, [line, line]
        if self._run_lines >= STUCK_LINES and count > 0 and (self.stuck is None or self._run_lines > self.stuck.lines):
            self.stuck = Stuck(count, self._run[0], self._run[1], self._run_lines)

    def domain_of(self, number: int) -> str | None:
        """The domain whose part of the log holds line `number` (None before the first)."""
        found = None
        for name, first, _ in self._domains:
            if first > number:
                break
            found = name
        return found

    def result(self) -> LogSummary:
        """The summary of every line added."""
        parts: list[DomainTime] = []
        end_number, end_time = (
            self._end
            if self._end is not None
            else (self._last_number, self._last_time.time if self._last_time else None)
        )
        for index, (name, first, start) in enumerate(self._domains):
            if index + 1 < len(self._domains):
                _, next_first, next_start = self._domains[index + 1]
                last, stop = next_first - 1, next_start
            else:
                last, stop = max(end_number, first), end_time
            parts.append(DomainTime(name, first, last, _seconds(start, stop)))
        return LogSummary(
            lines=self.lines,
            plain=self.plain,
            errors=self.errors,
            warnings=self.warnings,
            first_error=self.first_error,
            stuck=self.stuck,
            resolved=self.resolved,
            asked=tuple(self.asked) if self.asked is not None else None,
            domains=tuple(parts),
            finished=self.finished,
            completed=self.completed,
            cut=self.cut,
            day=self.day,
        )


def summarise(lines: Iterable[LogLine], asked: Sequence[str] | None = None) -> LogSummary:
    """The summary of a whole log."""
    builder = SummaryBuilder(asked=asked)
    for line in lines:
        builder.add(line)
    return builder.result()


def _clock(line: LogLine, day: date | None = None) -> str:
    """The line's time in UTC as the dashboard shows times (`22:10:05Z`; `00:10:05Z +1d` on a later UTC day than
    `day`, as the tasks table's clocks; as the log writes it when it gives no offset), or its number when it has
    none."""
    if len(line.stamp) < 19:
        return f"line {line.number}"
    when = line.utc()
    days = (when.date() - day).days if when is not None and day is not None else 0
    return f"{line.clock()} {days:+d}d" if days else line.clock()


def _seconds(start: datetime | None, stop: datetime | None) -> float | None:
    """Seconds from `start` to `stop`; None when one is missing, or one has an offset and the other none (no
    guessing which zone the other is in)."""
    if start is None or stop is None or (start.tzinfo is None) != (stop.tzinfo is None):
        return None
    return (stop - start).total_seconds()


def _duration(seconds: float) -> str:
    """In the words the tasks' `took` uses (`6m 00s`, `1h 02m`)."""
    return format_duration(timedelta(seconds=seconds))


_TIMESPAN = re.compile(r"(?:(\d+)\.)?(\d+):(\d{2}):(\d{2})(?:\.\d+)?")  # .NET TimeSpan: [d.]hh:mm:ss[.fffffff]


def _timespan(text: str) -> str:
    """SharpHound's `finished in 00:09:01.1234567` in the tasks' words (`9m 01s`); any other text as it is."""
    match = _TIMESPAN.fullmatch(text.strip())
    if match is None:
        return text
    days, hours, minutes, seconds = (int(group or 0) for group in match.groups())
    return format_duration(timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds))


def _many(count: int, noun: str) -> str:
    return f"{count:,} {noun}" + ("" if count == 1 else "s")
