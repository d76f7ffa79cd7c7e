"""Text of a log arriving in pieces → its lines and its summary, telling a log that is not text before any line of
it is handed on (the CLI and the dashboard read a log the same way)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from svctui.runlog.lines import SNIFF_CHARS, LineSplitter, LogLine, looks_binary
from svctui.runlog.summary import LogSummary, SummaryBuilder


class NotText(ValueError):
    """The log is binary data, not text."""


class LogReader:
    """Feed the log's text (`feed`), then `finish()`; `summary()` at any time."""

    def __init__(self, asked: Sequence[str] | None = None) -> None:
        self.splitter = LineSplitter()
        self.builder = SummaryBuilder(asked=asked)
        self.head = ""
        self.sniffed = False
        self.chars = 0

    def feed(self, text: str) -> list[LogLine]:
        """The lines `text` completes; NotText when the log's first SNIFF_CHARS characters are not text."""
        self.chars += len(text)
        if not self.sniffed:
            self.head += text
            if len(self.head) < SNIFF_CHARS:
                return []
            text, self.head = self._sniffed(), ""
        return self._lines(self.splitter.feed(text))

    def finish(self) -> list[LogLine]:
        """The lines left: a log shorter than the sniff, and a last line without a newline (marked `cut`)."""
        lines = [] if self.sniffed else self._lines(self.splitter.feed(self._sniffed()))
        last = self.splitter.finish()
        if last is not None:
            lines += self._lines([last])
        return lines

    def _sniffed(self) -> str:
        self.sniffed = True
        if looks_binary(self.head):
            raise NotText("the log is not text (binary data)")
        return self.head

    def _lines(self, lines: Iterable[LogLine]) -> list[LogLine]:
        out = list(lines)
        add = self.builder.add
        for line in out:
            add(line)
        return out

    def summary(self) -> LogSummary:
        """What the lines so far say."""
        return self.builder.result()
