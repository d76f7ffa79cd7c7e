"""The table format of the read commands: plain text that fits the terminal, in display columns, page by page."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum
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
from svctui.text import cell_width, cut_end, fit_widths, plural
from svctui.visible import visible

GAP = "  "
MIN_TEXT = 8
MIN_NAME = 20  # a name is cut to no fewer cells (SHARPHOUND-FRA-03 stays whole)
MIN_MESSAGE = 20  # a task's message keeps this many cells (or its whole width) before a column that may go is
# kept: `Ingesting c…` beside the EVENT and DOMAINS counts said nothing (issue 28)


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
    """One row of text: whitespace runs become one space, control characters (terminal escapes) are shown
    (`visible`: `␛]0;pwned␇`)."""
    return visible(" ".join(text.split()))


def pad(text: str, width: int, *, right: bool = False) -> str:
    """`text` padded with spaces to `width` terminal columns (on the left when `right`)."""
    spaces = " " * max(0, width - cell_width(text))
    return spaces + text if right else text + spaces


class Role(IntEnum):
    """What a column holds, which decides how it is fitted to a narrow terminal (the higher shrinks first)."""

    ID = 0  # what is typed next (a run id, a client uuid, a selector id): never cut
    NAME = 1  # a client, selector or tag name: cut to no fewer than MIN_NAME cells (or kept whole when shorter)
    FIXED = 2  # short values of a known shape (times, counts, types): cut to `min_width` after the free text, or,
    # with no `min_width`, never cut (`shar…` says nothing): shown whole or left out
    TEXT = 3  # free text (a note, a description, a message): shrinks first, to MIN_TEXT


@dataclass(frozen=True)
class TableColumn:
    """One table column: header, how to get the cell, its role (how it fits a narrow terminal), alignment, the
    least width it is cut to, and `drop`: 0 when it is always shown, else its rank among the columns left out when
    even the least widths do not fit (1 goes first)."""

    header: str
    cell: Callable[[Any], object]
    role: Role = Role.FIXED
    right: bool = False
    min_width: int = 0
    drop: int = 0


NameOf = Callable[[str], str]  # client id -> name ("" when unknown)
CLIENT_HEADER = "CLIENT"


def _no_names(client_id: str) -> str:
    return ""


def client_column(name_of: NameOf = _no_names, drop: int = 0) -> TableColumn:
    """The CLIENT column: the name the item carries, else the one `name_of` knows, else the client id."""
    return TableColumn(
        CLIENT_HEADER,
        lambda item: item.client_name or name_of(item.client_id) or item.client_id,
        Role.NAME,
        drop=drop,
    )


def event_columns(now: datetime, name_of: NameOf = _no_names) -> tuple[TableColumn, ...]:
    """The events table; NEXT RUN (the dashboard's next-run cell, cut after the date) is worked out at `now`, the
    command's one reading of the clock, not the clock's time at each row."""
    return (
        TableColumn("ID", lambda e: e.id, Role.ID, right=True),
        client_column(name_of),
        TableColumn("SCHEDULE", lambda e: describe(e.rrule), Role.TEXT, min_width=18),
        TableColumn("NEXT RUN", lambda e: next_run_words(e.rrule, now), min_width=17),
        TableColumn("KINDS", flag_marks, min_width=7, drop=4),
        TableColumn("DOMAINS", lambda e: len(e.domains), right=True, drop=3),
        TableColumn("OUS", lambda e: len(e.ous), right=True, drop=2),
        TableColumn("DOMAIN NAMES", lambda e: _names(e.domains), Role.TEXT, drop=1),  # a few cells say little
    )


# The table columns of each model but Event, whose NEXT RUN needs the command's time (`event_columns`). Each column
# says its role (how far it is cut on a narrow terminal) and `drop`, the order columns are left out in when even
# their least widths do not fit.
TABLE_COLUMNS: dict[type[BaseModel], tuple[TableColumn, ...]] = {
    CompletedTask: (
        TableColumn("ID", lambda t: t.id, Role.ID, right=True),
        TableColumn("EVENT", lambda t: "" if t.event_id is None else t.event_id, Role.ID, right=True, drop=4),
        TableColumn("EXECUTED (UTC)", lambda t: _time(t.execution_time), min_width=16),
        TableColumn("STATUS", lambda t: status_label(t.status), min_width=10),
        client_column(drop=1),  # one client's tasks: its name is on every row
        TableColumn("KINDS", flag_marks, min_width=7, drop=2),
        TableColumn("DOMAINS", lambda t: len(t.domains), right=True, drop=3),
        TableColumn("RESULTS", lambda t: _results(t.domain_results), min_width=15),
        TableColumn("MESSAGE", lambda t: t.status_message, Role.TEXT, min_width=MIN_MESSAGE),
    ),
    AssetGroupTag: (
        TableColumn("ID", lambda t: t.id, Role.ID, right=True),
        TableColumn("TYPE", lambda t: t.type_label),
        TableColumn("NAME", lambda t: t.name, Role.NAME),
        TableColumn("POSITION", lambda t: "" if t.position is None else t.position, right=True, drop=1),
        TableColumn("DESCRIPTION", lambda t: t.description, Role.TEXT),
    ),
    Selector: (
        TableColumn("ID", lambda s: s.id, Role.ID, right=True),
        TableColumn("NAME", lambda s: s.name, Role.NAME),
        TableColumn("DEFAULT", lambda s: "yes" if s.is_default else "no", drop=2),
        TableColumn("DISABLED", lambda s: "yes" if s.disabled_at is not None else "no", drop=5),  # cleanup's first ask
        TableColumn("AUTO CERTIFY", lambda s: "" if s.auto_certify is None else s.auto_certify, right=True, drop=1),
        TableColumn("SEEDS", lambda s: len(s.seeds), right=True, drop=3),
        TableColumn("CREATED (UTC)", lambda s: _time(s.created_at), min_width=16, drop=4),
        TableColumn("DESCRIPTION", lambda s: s.description, Role.TEXT),
    ),
    CollectionClient: (
        TableColumn("ID", lambda c: c.id, Role.ID),  # the uuid `tasks list` and `health --client` take
        TableColumn("NAME", lambda c: c.name, Role.NAME),
        TableColumn("TYPE", lambda c: c.type, drop=6),  # whole or left out; the check-in says more at 80 columns
        TableColumn("HOSTNAME", lambda c: c.hostname, Role.TEXT, drop=5),
        TableColumn("VERSION", lambda c: c.version, drop=3),
        TableColumn("CHECK-IN (UTC)", lambda c: _time(c.last_checkin), min_width=16, drop=7),
        TableColumn("CURRENT JOB", lambda c: "" if c.current_job_id is None else c.current_job_id, right=True, drop=1),
        TableColumn("JOBS", lambda c: c.completed_job_count, right=True, drop=4),
        TableColumn("SCHEDULES", lambda c: len(c.events), right=True, drop=2),
    ),
}


def table_columns(model: type[BaseModel], now: datetime, name_of: NameOf = _no_names) -> tuple[TableColumn, ...]:
    """The model's table columns with the CLIENT column (if any) naming clients through `name_of`; an event's next
    run is worked out at `now`."""
    if issubclass(model, Event):
        return event_columns(now, name_of)
    return tuple(
        client_column(name_of, column.drop) if column.header == CLIENT_HEADER else column
        for column in TABLE_COLUMNS[model]
    )


PIPE_WIDTH = 100_000  # stdout is a pipe or a file: cells are not cut (a cron mail keeps the whole reason)


def terminal_width() -> int:
    """Columns of the terminal (COLUMNS wins); no limit (PIPE_WIDTH) when stdout is not a terminal."""
    if "COLUMNS" not in os.environ and not sys.stdout.isatty():
        return PIPE_WIDTH
    return shutil.get_terminal_size(fallback=(120, 24)).columns


class TableWriter:
    """A plain-text table that fits `width`; column widths (and the columns left out) come from the first page and
    stay fixed."""

    def __init__(self, columns: Sequence[TableColumn], stream: TextIO, width: int, noun: str, err: TextIO) -> None:
        self.columns = tuple(columns)
        self.stream = stream
        self.width = max(width, 20)
        self.noun = noun
        self.err = err
        self.widths: list[int | None] | None = None
        self.rows_written = 0

    @staticmethod
    def _minimum(column: TableColumn, natural: int) -> int:
        """The least width `column` is cut to (its whole width when it is narrower)."""
        if column.role is Role.ID:
            return natural
        if column.role is Role.NAME:
            least = max(column.min_width, MIN_NAME)
        elif column.min_width:
            least = column.min_width
        elif column.role is Role.TEXT:
            least = MIN_TEXT
        else:
            return natural  # short values of a known shape: whole (`sharphound`, not `shar…`), or left out
        return min(natural, least)

    def _cells(self, item: BaseModel) -> list[str]:
        return [single_line(str(column.cell(item))) for column in self.columns]

    def _line(self, cells: Sequence[str]) -> str:
        assert self.widths is not None
        shown = [
            (cell, width, column)
            for cell, width, column in zip(cells, self.widths, self.columns, strict=True)
            if width is not None
        ]
        parts: list[str] = []
        for index, (cell, width, column) in enumerate(shown):
            if column.right:
                text = pad(cell, width, right=True)  # numbers are never cut: a later page may hold wider ones
            elif column.role is Role.ID:
                text = pad(cell, width)  # an id is never cut: it is what the next command takes
            elif index != len(shown) - 1:
                text = pad(cut_end(cell, width), width)
            else:
                text = cut_end(cell, width)
            parts.append(text)
        return cut_end(GAP.join(parts).rstrip(), self.width)

    def _fit(self, rows: Sequence[Sequence[str]]) -> list[int | None]:
        """The columns' widths for the first page's rows (None: left out), saying on stderr which were left out."""
        headers = [column.header for column in self.columns]
        natural = [max(len(h), *(cell_width(row[i]) for row in rows)) for i, h in enumerate(headers)]
        minimum = [self._minimum(c, n) for n, c in zip(natural, self.columns, strict=True)]
        ranks = [int(c.role) for c in self.columns]
        widths = fit_widths(natural, minimum, ranks, [c.drop for c in self.columns], self.width, len(GAP))
        left_out = sorted((c for c, w in zip(self.columns, widths, strict=True) if w is None), key=lambda c: c.drop)
        if left_out:
            count = plural(len(left_out), "column")
            self.err.write(
                f"note: {count} left out at {self.width} columns ({', '.join(c.header for c in left_out)}); "
                "-o json or a wider terminal shows them\n"
            )
        return widths

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Print the rows of a page (and the header before the first one)."""
        rows = [self._cells(item) for item in items]
        if not rows:
            return
        if self.widths is None:
            self.widths = self._fit(rows)
            self.stream.write(self._line([column.header for column in self.columns]) + "\n")
        self.stream.write("".join(self._line(row) + "\n" for row in rows))
        self.rows_written += len(rows)
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Say so on stderr when nothing matched."""
        if complete and self.rows_written == 0:
            self.err.write(f"no {self.noun} found\n")
        self.stream.flush()
