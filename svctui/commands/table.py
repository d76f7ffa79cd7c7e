"""The table format of the read commands: plain text that fits the terminal, in display columns, page by page."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TextIO

from pydantic import BaseModel

from svctui.api.models import (
    AssetGroupTag,
    CollectionClient,
    CompletedTask,
    DomainResult,
    Event,
    Selector,
    flag_marks,
    status_label,
)
from svctui.clock import make_clock
from svctui.schedule import describe, next_run_words
from svctui.text import cell_width, cut_end, shrink_widths

REPLACEMENT = "\ufffd"
GAP = "  "
MIN_CELL = 4
MIN_FLEXIBLE = 8


# ---------------------------------------------------------------- cells


def _time(value: datetime | None) -> str:
    if value is None:
        return ""
    return value.strftime("%Y-%m-%d %H:%M")


def _names(refs: Sequence[Any]) -> str:
    return ", ".join(getattr(ref, "name", "") or getattr(ref, "objectid", "") for ref in refs)


def cli_now() -> datetime:
    """What the commands call now: svctui's clock (frozen at SVCTUI_FROZEN_NOW when set, as the dashboard's)."""
    return make_clock()[0]()


def _results(results: Sequence[DomainResult]) -> str:
    if not results:
        return ""
    failed = sum(1 for result in results if not result.success)
    return f"{len(results) - failed} ok / {failed} failed"


def single_line(text: str) -> str:
    """One row of text: whitespace runs become one space, control characters (terminal escapes) become U+FFFD."""
    return "".join(ch if ch.isprintable() else REPLACEMENT for ch in " ".join(text.split()))


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` padded with spaces to `width` terminal columns (on the left when `right`)."""
    spaces = " " * max(0, width - cell_width(text))
    return spaces + text if right else text + spaces


@dataclass(frozen=True)
class TableColumn:
    """One table column: header, how to get the cell, whether it shrinks first, alignment."""

    header: str
    cell: Callable[[Any], object]
    flexible: bool = False
    right: bool = False
    min_width: int = 0


NameOf = Callable[[str], str]  # client id -> name ("" when unknown)
CLIENT_HEADER = "CLIENT"


def _no_names(client_id: str) -> str:
    return ""


def client_column(name_of: NameOf = _no_names) -> TableColumn:
    """The CLIENT column: the name the item carries, else the one `name_of` knows, else the client id."""
    return TableColumn(
        CLIENT_HEADER, lambda item: item.client_name or name_of(item.client_id) or item.client_id, flexible=True
    )


def event_columns(now: datetime, name_of: NameOf = _no_names) -> tuple[TableColumn, ...]:
    """The events table; NEXT RUN (the dashboard's next-run cell, cut after the date) is worked out at `now`, the
    command's one reading of the clock, not the clock's time at each row."""
    return (
        TableColumn("ID", lambda e: e.id, right=True),
        client_column(name_of),
        TableColumn("SCHEDULE", lambda e: describe(e.rrule), flexible=True),
        TableColumn("NEXT RUN", lambda e: next_run_words(e.rrule, now), min_width=17),
        TableColumn("KINDS", flag_marks, min_width=7),
        TableColumn("DOMAINS", lambda e: len(e.domains), right=True),
        TableColumn("OUS", lambda e: len(e.ous), right=True),
        TableColumn("DOMAIN NAMES", lambda e: _names(e.domains), flexible=True),
    )


# The table columns of each model but Event, whose NEXT RUN needs the command's time (`event_columns`).
TABLE_COLUMNS: dict[type[BaseModel], tuple[TableColumn, ...]] = {
    CompletedTask: (
        TableColumn("ID", lambda t: t.id, right=True),
        TableColumn("EVENT", lambda t: "" if t.event_id is None else t.event_id, right=True),
        TableColumn("EXECUTED (UTC)", lambda t: _time(t.execution_time), min_width=16),
        TableColumn("STATUS", lambda t: status_label(t.status)),
        client_column(),
        TableColumn("KINDS", flag_marks, min_width=7),
        TableColumn("DOMAINS", lambda t: len(t.domains), right=True),
        TableColumn("RESULTS", lambda t: _results(t.domain_results)),
        TableColumn("MESSAGE", lambda t: t.status_message, flexible=True),
    ),
    AssetGroupTag: (
        TableColumn("ID", lambda t: t.id, right=True),
        TableColumn("TYPE", lambda t: t.type_label),
        TableColumn("NAME", lambda t: t.name, flexible=True),
        TableColumn("POSITION", lambda t: "" if t.position is None else t.position, right=True),
        TableColumn("DESCRIPTION", lambda t: t.description, flexible=True),
    ),
    Selector: (
        TableColumn("ID", lambda s: s.id, right=True),
        TableColumn("NAME", lambda s: s.name, flexible=True),
        TableColumn("DEFAULT", lambda s: "yes" if s.is_default else "no"),
        TableColumn("AUTO CERTIFY", lambda s: "" if s.auto_certify is None else s.auto_certify, right=True),
        TableColumn("SEEDS", lambda s: len(s.seeds), right=True),
        TableColumn("CREATED (UTC)", lambda s: _time(s.created_at), min_width=16),
        TableColumn("DESCRIPTION", lambda s: s.description, flexible=True),
    ),
    CollectionClient: (
        TableColumn("ID", lambda c: c.id, min_width=8),
        TableColumn("NAME", lambda c: c.name, flexible=True),
        TableColumn("TYPE", lambda c: c.type),
        TableColumn("HOSTNAME", lambda c: c.hostname, flexible=True),
        TableColumn("VERSION", lambda c: c.version),
        TableColumn("CHECK-IN (UTC)", lambda c: _time(c.last_checkin), min_width=16),
        TableColumn("CURRENT JOB", lambda c: "" if c.current_job_id is None else c.current_job_id, right=True),
        TableColumn("JOBS", lambda c: c.completed_job_count, right=True),
        TableColumn("SCHEDULES", lambda c: len(c.events), right=True),
    ),
}


def table_columns(model: type[BaseModel], now: datetime, name_of: NameOf = _no_names) -> tuple[TableColumn, ...]:
    """The model's table columns with the CLIENT column (if any) naming clients through `name_of`; an event's next
    run is worked out at `now`."""
    if issubclass(model, Event):
        return event_columns(now, name_of)
    return tuple(
        client_column(name_of) if column.header == CLIENT_HEADER else column for column in TABLE_COLUMNS[model]
    )


PIPE_WIDTH = 100_000  # stdout is a pipe or a file: cells are not cut (a cron mail keeps the whole reason)


def terminal_width() -> int:
    """Columns of the terminal (COLUMNS wins); no limit (PIPE_WIDTH) when stdout is not a terminal."""
    if "COLUMNS" not in os.environ and not sys.stdout.isatty():
        return PIPE_WIDTH
    return shutil.get_terminal_size(fallback=(120, 24)).columns


class TableWriter:
    """A plain-text table that fits `width`; column widths come from the first page and stay fixed."""

    def __init__(self, columns: Sequence[TableColumn], stream: TextIO, width: int, noun: str, err: TextIO) -> None:
        self.columns = tuple(columns)
        self.stream = stream
        self.width = max(width, 20)
        self.noun = noun
        self.err = err
        self.widths: list[int] | None = None
        self.rows_written = 0

    @staticmethod
    def _minimum(column: TableColumn) -> int:
        if column.min_width:
            return column.min_width
        return MIN_FLEXIBLE if column.flexible else max(MIN_CELL, len(column.header))

    def _cells(self, item: BaseModel) -> list[str]:
        return [single_line(str(column.cell(item))) for column in self.columns]

    def _line(self, cells: Sequence[str]) -> str:
        assert self.widths is not None
        parts: list[str] = []
        last = len(cells) - 1
        for index, (cell, width, column) in enumerate(zip(cells, self.widths, self.columns, strict=True)):
            if column.right:
                text = pad(cell, width, right=True)  # numbers are never cut: a later page may hold wider ones
            elif index != last:
                text = pad(cut_end(cell, width), width)
            else:
                text = cut_end(cell, width)
            parts.append(text)
        return cut_end(GAP.join(parts).rstrip(), self.width)

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Print the rows of a page (and the header before the first one)."""
        rows = [self._cells(item) for item in items]
        if not rows:
            return
        if self.widths is None:
            headers = [column.header for column in self.columns]
            natural = [max(len(h), *(cell_width(row[i]) for row in rows)) for i, h in enumerate(headers)]
            minimum = [min(n, self._minimum(c)) for n, c in zip(natural, self.columns, strict=True)]
            self.widths = shrink_widths(natural, minimum, [c.flexible for c in self.columns], self.width, len(GAP))
            self.stream.write(self._line(headers) + "\n")
        self.stream.write("".join(self._line(row) + "\n" for row in rows))
        self.rows_written += len(rows)
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Say so on stderr when nothing matched."""
        if complete and self.rows_written == 0:
            self.err.write(f"no {self.noun} found\n")
        self.stream.flush()
