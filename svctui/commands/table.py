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
from svctui.table_fit import filled
from svctui.text import cell_width, cut_end, plural, shrink_widths
from svctui.triage.summary import ResultSummary
from svctui.visible import visible

GAP = "  "
MIN_TEXT = 8
MIN_NAME = 20  # a name is cut to no fewer cells (SHARPHOUND-FRA-03 stays whole)
NAME_ROOM = 48  # a name claims its whole width up to this many cells before an optional column is kept (names
# get the free room first: `Accounts like Citrix delivery controllers APAC` whole, not beside a SEEDS count)
MIN_MESSAGE = 20  # a task's message keeps this many cells (or its whole width) before a column that may go is
# kept: `Ingesting c…` beside the EVENT and DOMAINS counts said nothing (issue 28)
MESSAGE_ROOM = 40  # a task's message claims its whole width up to this many cells before EVENT is kept, then
# wraps: in a failed-runs listing the reason is the answer (`Kerberos authenticat…` beside EVENT); RESULTS outranks
# that room (`0 ok / 1 failed`, which the dashboard keeps too): the message gives it up and wraps in less
TASK_MESSAGE_LEAST = 18  # 80 columns hold ID, time, `Partially complete`, RESULTS and 18+ cells of wrapped message


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
    """Said the dashboard's way: `1 ok`, `0 ok / 1 failed`, `—` for none."""
    failed = sum(1 for result in results if not result.success)
    return ResultSummary(ok=len(results) - failed, failed=failed).text()


def _utc(value: datetime | None) -> str:
    """A UTC time as the dashboard says it: `2026-12-04 23:20Z`."""
    return f"{_time(value)}Z" if value is not None else ""


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

    ESSENTIAL = 0  # the answer or what is typed next (an id, a next run, outcomes, a request id): never cut while any
    # other column can give way; cut (by its `cut`, or wrapped) to `min_width` only when nothing else is left
    NAME = 1  # a client, selector or tag name: cut to no fewer than MIN_NAME cells (or kept whole when shorter)
    FIXED = 2  # short values of a known shape (times, counts, types): cut to `min_width` after the free text, or,
    # with no `min_width`, never cut (`shar…` says nothing): shown whole or left out
    TEXT = 3  # free text (a note, a description, a message): shrinks first, to MIN_TEXT


@dataclass(frozen=True)
class TableColumn:
    """One table column: header, how to get the cell, its role (how it fits a narrow terminal), alignment, the
    least width it is cut to, and `drop`: 0 when it is always shown, else it is optional, and its rank among the
    columns left out whole when even the least widths do not fit (1 goes first). `cut` shortens a cell that does
    not fit (`cut_start` keeps a request id's end, the part that differs); `wrap` continues it on the next lines
    instead (outcomes: `3 in doubt` is never hidden). `room`: the cells it claims (up to its whole width) before an
    optional column is kept (0: its least width; a name claims NAME_ROOM); `room_drop`: when not 0, that room is
    given up (down to its least width) before an optional column of a higher `drop` is left out."""

    header: str
    cell: Callable[[Any], object]
    role: Role = Role.FIXED
    right: bool = False
    min_width: int = 0
    drop: int = 0
    cut: Callable[[str, int], str] = cut_end
    wrap: bool = False
    room: int = 0
    room_drop: int = 0


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


SCHEDULE_WIDTH = len("Weekly on Tue at 14:15 UTC")  # a schedule keeps its time of day before a count is shown


def event_columns(now: datetime, name_of: NameOf = _no_names) -> tuple[TableColumn, ...]:
    """The events table; NEXT RUN (the dashboard's next-run cell, whole while any other column can give way, else
    cut after the date) is worked out at `now`, the command's one reading of the clock, not the clock's time at each
    row. The counts and domain names are optional: left out (said on stderr) before the schedule or next run is cut."""
    return (
        TableColumn("ID", lambda e: e.id, Role.ESSENTIAL, right=True),
        client_column(name_of),
        TableColumn("SCHEDULE", lambda e: describe(e.rrule), Role.TEXT, min_width=SCHEDULE_WIDTH),
        TableColumn("NEXT RUN", lambda e: next_run_words(e.rrule, now), Role.ESSENTIAL, min_width=18),  # the answer
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
        TableColumn("ID", lambda t: t.id, Role.ESSENTIAL, right=True),
        TableColumn("EVENT", lambda t: "" if t.event_id is None else t.event_id, Role.ESSENTIAL, right=True, drop=4),
        TableColumn("EXECUTED (UTC)", lambda t: _utc(t.execution_time), min_width=17),
        # the status is what a listing is scanned for: whole (`Partially complete`) while the message can wrap
        TableColumn("STATUS", lambda t: status_label(t.status), Role.ESSENTIAL, min_width=10),
        client_column(drop=1),  # one client's tasks: its name is on every row
        TableColumn("KINDS", flag_marks, min_width=7, drop=2),
        TableColumn("DOMAINS", lambda t: len(t.domains), right=True, drop=3),
        TableColumn("RESULTS", lambda t: _results(t.domain_results), Role.ESSENTIAL, drop=5),  # whole, or left out
        TableColumn(
            "MESSAGE",
            lambda t: t.status_message,
            Role.TEXT,
            min_width=TASK_MESSAGE_LEAST,
            wrap=True,
            room=MESSAGE_ROOM,
            room_drop=4,  # its room goes after EVENT (4), before RESULTS (5)
        ),
    ),
    AssetGroupTag: (
        TableColumn("ID", lambda t: t.id, Role.ESSENTIAL, right=True),
        TableColumn("TYPE", lambda t: t.type_label),
        TableColumn("NAME", lambda t: t.name, Role.NAME),
        TableColumn("POSITION", lambda t: "" if t.position is None else t.position, right=True, drop=1),
        TableColumn("DESCRIPTION", lambda t: t.description, Role.TEXT),
    ),
    Selector: (
        TableColumn("ID", lambda s: s.id, Role.ESSENTIAL, right=True),
        TableColumn("NAME", lambda s: s.name, Role.NAME),
        TableColumn("DEFAULT", lambda s: "yes" if s.is_default else "no", drop=3),
        TableColumn("DISABLED", lambda s: "yes" if s.disabled_at is not None else "no", drop=6),  # cleanup's first ask
        TableColumn("AUTO CERTIFY", lambda s: "" if s.auto_certify is None else s.auto_certify, right=True, drop=2),
        TableColumn("SEEDS", lambda s: len(s.seeds), right=True, drop=4),
        TableColumn("CREATED (UTC)", lambda s: _time(s.created_at), min_width=16, drop=5),
        # a description that keeps 8 cells (`Selects…`) said nothing: 20 cells of it, or left out before the name is cut
        TableColumn("DESCRIPTION", lambda s: s.description, Role.TEXT, min_width=MIN_MESSAGE, drop=1),
    ),
    CollectionClient: (
        TableColumn("ID", lambda c: c.id, Role.ESSENTIAL),  # the uuid `tasks list` and `health --client` take
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


# ---------------------------------------------------------------- fitting a width


@dataclass(frozen=True)
class ColumnFit:
    """What one column asks of a row's width (terminal cells, `cell_width`)."""

    natural: int  # its widest cell or its header
    claim: int  # what it holds before an optional column is kept: a name its whole width (up to NAME_ROOM)
    least: int  # what it is cut to while another column can give way (an essential: its whole width)
    last: int  # what it is cut to when nothing else can give (an essential's `min_width`, free text's MIN_TEXT)
    rank: int  # the order columns shrink in, the highest first (Role: free text, then fixed, names, essentials)
    drop: int  # 0: always shown; else optional, left out in this order (1 first)
    room_drop: int = 0  # when not 0: `claim` falls to `least` before an optional column of a higher drop goes


def column_fit(column: TableColumn, natural: int) -> ColumnFit:
    """The fit of `column` whose widest cell (or header) takes `natural` cells; no header is ever cut."""
    header = cell_width(column.header)
    if column.role is Role.ESSENTIAL:
        least = natural
    elif column.role is Role.NAME:
        least = min(natural, max(column.min_width, MIN_NAME, header))
    elif column.role is Role.TEXT:
        least = min(natural, max(column.min_width or MIN_TEXT, header))
    else:  # short values of a known shape: whole (`sharphound`, not `shar…`), or cut to `min_width` (a time)
        least = min(natural, max(column.min_width, header)) if column.min_width else natural
    room = column.room or (NAME_ROOM if column.role is Role.NAME else 0)
    claim = max(least, min(natural, room))
    if column.role is Role.ESSENTIAL:
        last = min(natural, max(column.min_width, header)) if column.min_width else least
    else:  # free text gives its last cells before an essential is cut
        last = min(least, max(MIN_TEXT, header)) if column.role is Role.TEXT else least
    return ColumnFit(natural, claim, least, last, int(column.role), column.drop, column.room_drop)


def fit_columns(fits: Sequence[ColumnFit], total: int, gap: int = 2) -> list[int | None]:
    """Column widths that fit `total` cells (None: the column is left out): one rule for every command's table.

    While the columns' claims do not fit, the optional column with the lowest `drop` is left out (essentials are
    whole, names claim their whole width, so a count goes before a name or a next run is cut); those left out are
    taken back, the last first, where they fit in the room the shown columns leave at their whole widths. The rest
    shrink by rank to `least` (`shrink_widths`: free text first, names last), then, only when that is not enough, to
    `last` (free text to MIN_TEXT, an essential with a `min_width` to it). When nothing more can give,
    the row stays wider than `total` (the writer cuts the line). Separate from the dashboard's svctui.table_fit: a
    printed table is fitted once (nothing scrolls or refits later)."""

    def need(indices: Sequence[int], width_of: Callable[[ColumnFit], int]) -> int:
        return sum(width_of(fits[index]) for index in indices) + gap * (len(indices) - 1)

    kept = list(range(len(fits)))
    left_out: list[int] = []
    claims = [fit.claim for fit in fits]
    while sum(claims[index] for index in kept) + gap * (len(kept) - 1) > total:
        optional = [index for index in kept if fits[index].drop > 0]
        first = min(optional, key=lambda index: fits[index].drop) if optional else None
        rooms = [
            index
            for index in kept
            if fits[index].room_drop and claims[index] > fits[index].least
            and (first is None or fits[first].drop > fits[index].room_drop)
        ]  # fmt: skip
        if rooms:  # a room that ranks below the next column to go is given up first
            claims[rooms[0]] = fits[rooms[0]].least
            continue
        if first is None:
            break
        left_out.append(first)
        kept.remove(first)
    for index in reversed(left_out):  # a narrow column may fit in the room left after all (a JOBS count)
        if need(kept, lambda fit: fit.natural) + gap + fits[index].least <= total:
            kept = sorted([*kept, index])
    shown = [fits[index] for index in kept]
    widths = shrink_widths([f.natural for f in shown], [f.least for f in shown], [f.rank for f in shown], total, gap)
    widths = shrink_widths(widths, [f.last for f in shown], [f.rank for f in shown], total, gap)  # nothing else gives
    fitted: list[int | None] = [None] * len(fits)
    for index, width in zip(kept, widths, strict=True):
        fitted[index] = width
    return fitted


def _pieces(word: str, width: int) -> list[str]:
    """`word` in pieces of at most `width` cells (at least one character each)."""
    pieces = [""]
    for char in word:
        if pieces[-1] and cell_width(pieces[-1] + char) > width:
            pieces.append("")
        pieces[-1] += char
    return pieces


def _wrapped(text: str, width: int) -> list[str]:
    """`text` on lines of at most `width` cells, broken after its commas first (`45 deleted,` / `3 in doubt`),
    then between words; a word wider than `width` is broken across lines (nothing of it is hidden)."""
    lines: list[str] = []
    clauses = text.split(", ")
    for index, clause in enumerate(clauses):
        clause += "," if index < len(clauses) - 1 else ""
        if lines and cell_width(f"{lines[-1]} {clause}") <= width:
            lines[-1] += f" {clause}"
        elif cell_width(clause) <= width:
            lines.append(clause)
        else:  # a clause wider than the column: its words, as many to a line as fit
            current = ""
            for word in clause.split(" "):
                if current and cell_width(f"{current} {word}") <= width:
                    current += f" {word}"
                else:
                    lines.extend([current] if current else [])
                    *whole, current = _pieces(word, width)
                    lines.extend(whole)
            lines.append(current)
    return lines


def _cell_lines(cell: str, width: int, column: TableColumn) -> list[str]:
    """The lines of a cell wider than its column (`width` cells): whole, wrapped or cut by the column's rule."""
    if column.right or (column.role is Role.ESSENTIAL and not column.min_width):
        # a number or an id is never cut: a later page may hold a wider one than the first page's, and an id is
        # what the next command takes (the line is cut at the terminal's edge instead)
        return [cell]
    if column.wrap:
        return _wrapped(cell, width)
    return [column.cut(cell, width)]


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
        # A one-page output (every row known at the first page) leaves out a column empty in every row, and says so.
        self.drop_empty = False

    def _cells(self, item: BaseModel) -> list[str]:
        return [single_line(str(column.cell(item))) for column in self.columns]

    def _line(self, cells: Sequence[str]) -> str:
        """One row: each shown cell padded to its column, cut (or wrapped onto more lines) by the column's rule."""
        assert self.widths is not None
        shown = [
            (cell, width, column)
            for cell, width, column in zip(cells, self.widths, self.columns, strict=True)
            if width is not None
        ]
        final = len(shown) - 1
        parts: list[str] = []
        for index, (cell, width, column) in enumerate(shown):
            if cell_width(cell) > width:
                stack = _cell_lines(cell, width, column)
                if len(stack) > 1:
                    return self._stacked(shown)
                cell = stack[0]
            parts.append(cell if index == final and not column.right else pad(cell, width, right=column.right))
        return cut_end(GAP.join(parts).rstrip(), self.width)

    def _stacked(self, shown: Sequence[tuple[str, int, TableColumn]]) -> str:
        """A row with a wrapped cell: as many lines as its tallest cell, the others blank below their first."""
        stacks = [
            [cell] if cell_width(cell) <= width else _cell_lines(cell, width, column) for cell, width, column in shown
        ]
        final = len(shown) - 1
        lines: list[str] = []
        for row in range(max(map(len, stacks))):
            parts: list[str] = []
            for index, ((_, width, column), stack) in enumerate(zip(shown, stacks, strict=True)):
                text = stack[row] if row < len(stack) else ""
                parts.append(text if index == final and not column.right else pad(text, width, right=column.right))
            lines.append(cut_end(GAP.join(parts).rstrip(), self.width))
        return "\n".join(lines)

    def _fit(self, rows: Sequence[Sequence[str]]) -> list[int | None]:
        """The columns' widths for the first page's rows (None: left out), saying on stderr which were left out: for
        the width, and (`drop_empty`) for having no value in any row."""
        every = range(len(self.columns))
        kept = filled(rows, len(self.columns)) if self.drop_empty else list(every)
        empty = set(every) - set(kept)
        fits = [
            column_fit(self.columns[i], max(cell_width(self.columns[i].header), *(cell_width(row[i]) for row in rows)))
            for i in kept
        ]
        fitted = dict(zip(kept, fit_columns(fits, self.width, len(GAP)), strict=True))
        widths = [fitted.get(i) for i in range(len(self.columns))]
        narrow = sorted((self.columns[i] for i in kept if fitted[i] is None), key=lambda c: c.drop)
        parts = []
        if narrow:
            headers = ", ".join(c.header for c in narrow)
            parts.append(
                f"{plural(len(narrow), 'column')} left out at {self.width} columns ({headers}); "
                "-o json or a wider terminal shows them"
            )
        if empty:
            headers = ", ".join(self.columns[i].header for i in sorted(empty))
            parts.append(f"{plural(len(empty), 'column')} left out as empty in every row ({headers})")
        if parts:
            self.err.write(f"note: {'; '.join(parts)}\n")
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
