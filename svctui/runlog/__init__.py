"""A collector's run log (`GET /api/v2/jobs/{job_id}/log`): parsed into lines, decoded from the answer as it
streams, and read for you (the first error, a stuck status count, the collection methods, each domain's time).

Pure: imports nothing from Textual, and nothing of the network but the shapes it reads.
"""

from __future__ import annotations

from svctui.runlog.decode import LogBodyError, LogDecoder
from svctui.runlog.lines import LEVELS, LineSplitter, LogLine, looks_binary, parse_line
from svctui.runlog.reader import LogReader, NotText
from svctui.runlog.summary import (
    DomainTime,
    LogSummary,
    Stuck,
    SummaryBuilder,
    asked_methods,
    summarise,
)

__all__ = [
    "LEVELS",
    "DomainTime",
    "LineSplitter",
    "LogBodyError",
    "LogDecoder",
    "LogLine",
    "LogReader",
    "LogSummary",
    "NotText",
    "Stuck",
    "SummaryBuilder",
    "asked_methods",
    "looks_binary",
    "parse_line",
    "summarise",
]
