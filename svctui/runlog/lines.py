"""SharpHound's log lines, `<RFC 3339 time>|<LEVEL>|<message>`, split into time, level and message; a line in
another shape (a stack trace's continuation, a banner) is kept whole as a plain line, never dropped."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

LEVELS = ("ERROR", "WARNING", "INFORMATION", "DEBUG")  # SharpHound's; another upper-case word is kept as it is
SEVERE = frozenset({"ERROR", "CRITICAL", "FATAL"})
WARNINGS_AND_ERRORS = frozenset({"WARNING", *SEVERE})
# The time field: a date, a `T`, a clock, an optional fraction and an offset; checked cheaply, parsed only on demand.
_STAMP = re.compile(r"\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:?\d\d)?")
_LEVEL = re.compile(r"[A-Z][A-Z]{1,15}")
# A log whose first bytes hold this share of characters no text has (NUL, other C0 but tab/CR/LF, U+FFFD from bytes
# that were not UTF-8) is not text: its lines would be noise.
BINARY_SHARE = 0.1
SNIFF_CHARS = 4096


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of a run's log: `number` counts from 1 in the file; `level` is None for a line without the format;
    `cut` marks a last line the log ends in the middle of (no newline after it)."""

    number: int
    stamp: str
    level: str | None
    message: str
    cut: bool = False

    @property
    def time(self) -> datetime | None:
        """The line's time (aware when the log gives an offset), None for a plain line or an unreadable stamp."""
        if not self.stamp:
            return None
        try:
            return datetime.fromisoformat(self.stamp.replace(" ", "T").replace("z", "Z"))
        except ValueError:
            return None

    def utc(self) -> datetime | None:
        """The line's time in UTC, None when the log gives no offset (or no readable time): then it is shown as
        written, not guessed."""
        when = self.time
        if when is None or when.tzinfo is None:
            return None
        return when.astimezone(UTC)

    def clock(self, fraction: bool = False) -> str:
        """The line's time of day as the dashboard shows times: in UTC marked `Z` (`22:58:57Z`, with `fraction` the
        milliseconds `22:58:57.886Z`) when the log gives an offset, else as the log writes it; "" for a plain line."""
        when = self.utc()
        if when is None:
            return self.stamp[11:23] if fraction else self.stamp[11:19]
        shown = when.strftime("%H:%M:%S")
        if fraction and len(self.stamp) > 19 and self.stamp[19] == ".":
            shown += f".{when.microsecond // 1000:03d}"
        return shown + "Z"

    def utc_stamp(self) -> str | None:
        """The line's time in UTC as RFC 3339 (`2026-12-04T22:58:57.877603Z`), None without an offset."""
        when = self.utc()
        return None if when is None else when.isoformat().replace("+00:00", "Z")

    @property
    def severe(self) -> bool:
        """An ERROR line (or a CRITICAL/FATAL one, should a collector write it)."""
        return self.level in SEVERE

    @property
    def warns(self) -> bool:
        """A WARNING or an error line: what the level filter keeps."""
        return self.level in WARNINGS_AND_ERRORS

    def text(self) -> str:
        """The line as the log has it."""
        return f"{self.stamp}|{self.level}|{self.message}" if self.level is not None else self.message


def parse_line(number: int, raw: str, cut: bool = False) -> LogLine:
    """One line (without its newline) as time, level and message; a line in another shape is a plain line."""
    raw = raw.removesuffix("\r")
    first = raw.find("|")
    if 19 <= first <= 40:
        second = raw.find("|", first + 1)
        if second > first + 1 and _LEVEL.fullmatch(raw, first + 1, second) and _STAMP.fullmatch(raw, 0, first):
            return LogLine(number, raw[:first], raw[first + 1 : second], raw[second + 1 :], cut)
    return LogLine(number, "", None, raw, cut)


def looks_binary(text: str) -> bool:
    """Whether the start of a log is not text (see BINARY_SHARE)."""
    sample = text[:SNIFF_CHARS]
    if not sample:
        return False
    odd = sum(1 for ch in sample if (ch < " " and ch not in "\t\r\n") or ch == "\ufffd" or ch == "\x7f")
    return odd / len(sample) >= BINARY_SHARE


class LineSplitter:
    """Text arriving in pieces, handed back as parsed lines as soon as each is whole; `finish()` gives the last
    line when the log does not end with a newline (marked `cut`)."""

    def __init__(self) -> None:
        self.partial = ""
        self.count = 0

    def feed(self, text: str) -> Iterator[LogLine]:
        """Every line `text` completes."""
        if not text:
            return
        pieces = (self.partial + text).split("\n")
        self.partial = pieces.pop()
        for raw in pieces:
            self.count += 1
            yield parse_line(self.count, raw)

    def finish(self) -> LogLine | None:
        """The last line when the log ended without a newline after it (cut short mid-line), else None."""
        if not self.partial:
            return None
        self.count += 1
        line = parse_line(self.count, self.partial, cut=True)
        self.partial = ""
        return line
