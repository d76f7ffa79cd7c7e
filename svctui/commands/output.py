"""Output formats of the read commands: a terminal-width table, JSON, JSON lines and CSV, all written page by page.

Every writer takes pages as they arrive and holds none of them, so `--all` runs in constant memory:
table fixes its column widths from the first page, json streams one array, jsonl and csv one record per item.
"""

from __future__ import annotations

import csv
import json
import shutil
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TextIO

from pydantic import BaseModel

from svctui.api.models import (
    AssetGroupTag,
    CompletedTask,
    DomainResult,
    Event,
    Selector,
    flag_marks,
    status_label,
)
from svctui.schedule import describe

ELLIPSIS = "…"
GAP = "  "
MIN_CELL = 4
MIN_FLEXIBLE = 8


class Format(StrEnum):
    """The output formats of every read command."""

    TABLE = "table"
    JSON = "json"
    JSONL = "jsonl"
    CSV = "csv"


class ItemWriter(Protocol):
    """Receives pages of items as they arrive; `close(complete=False)` after an error midway."""

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Write one page of items and flush."""
        ...

    def close(self, *, complete: bool = True) -> None:
        """Finish the output (e.g. close the JSON array) when the listing completed."""
        ...


# ---------------------------------------------------------------- cells


def _time(value: datetime | None) -> str:
    if value is None:
        return ""
    return value.strftime("%Y-%m-%d %H:%M")


def _names(refs: Sequence[Any]) -> str:
    return ", ".join(getattr(ref, "name", "") or getattr(ref, "objectid", "") for ref in refs)


def _results(results: Sequence[DomainResult]) -> str:
    if not results:
        return ""
    failed = sum(1 for result in results if not result.success)
    return f"{len(results) - failed} ok / {failed} failed"


def single_line(text: str) -> str:
    """Collapse newlines and tabs so a cell stays on one row."""
    return " ".join(text.split())


@dataclass(frozen=True)
class TableColumn:
    """One table column: header, how to get the cell, whether it shrinks first, alignment."""

    header: str
    cell: Callable[[Any], object]
    flexible: bool = False
    right: bool = False
    min_width: int = 0


TABLE_COLUMNS: dict[type[BaseModel], tuple[TableColumn, ...]] = {
    Event: (
        TableColumn("ID", lambda e: e.id, right=True),
        TableColumn("CLIENT", lambda e: e.client_name or e.client_id, flexible=True),
        TableColumn("SCHEDULE", lambda e: describe(e.rrule), flexible=True),
        TableColumn("KINDS", flag_marks, min_width=7),
        TableColumn("DOMAINS", lambda e: len(e.domains), right=True),
        TableColumn("OUS", lambda e: len(e.ous), right=True),
        TableColumn("DOMAIN NAMES", lambda e: _names(e.domains), flexible=True),
    ),
    CompletedTask: (
        TableColumn("ID", lambda t: t.id, right=True),
        TableColumn("EVENT", lambda t: "" if t.event_id is None else t.event_id, right=True),
        TableColumn("EXECUTED (UTC)", lambda t: _time(t.execution_time), min_width=16),
        TableColumn("STATUS", lambda t: status_label(t.status)),
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
}


def fit_widths(natural: Sequence[int], minimum: Sequence[int], flexible: Sequence[bool], total: int) -> list[int]:
    """Shrink column widths until the row (with gaps) fits `total`: flexible columns first, widest first."""
    widths = list(natural)
    excess = sum(widths) + len(GAP) * (len(widths) - 1) - total
    while excess > 0:
        candidates = [index for index, width in enumerate(widths) if width > minimum[index]]
        if not candidates:
            break
        widest = max(candidates, key=lambda index: (flexible[index], widths[index]))
        widths[widest] -= 1
        excess -= 1
    return widths


def truncate(text: str, width: int) -> str:
    """`text` cut to `width` characters, ending in … when cut."""
    if len(text) <= width:
        return text
    if width <= 0:
        return ""
    return text[: width - 1] + ELLIPSIS


def terminal_width() -> int:
    """Columns of the terminal (COLUMNS wins; 120 when stdout is not a terminal)."""
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
                text = cell.rjust(width)  # numbers are never cut: a later page may hold wider ones
            elif index != last:
                text = truncate(cell, width).ljust(width)
            else:
                text = truncate(cell, width)
            parts.append(text)
        return truncate(GAP.join(parts).rstrip(), self.width)

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Print the rows of a page (and the header before the first one)."""
        rows = [self._cells(item) for item in items]
        if not rows:
            return
        if self.widths is None:
            headers = [column.header for column in self.columns]
            natural = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
            minimum = [min(n, self._minimum(c)) for n, c in zip(natural, self.columns, strict=True)]
            self.widths = fit_widths(natural, minimum, [c.flexible for c in self.columns], self.width)
            self.stream.write(self._line(headers) + "\n")
        self.stream.write("".join(self._line(row) + "\n" for row in rows))
        self.rows_written += len(rows)
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Say so on stderr when nothing matched."""
        if complete and self.rows_written == 0:
            self.err.write(f"no {self.noun} found\n")
        self.stream.flush()


# ---------------------------------------------------------------- json, jsonl


def dump_item(item: BaseModel) -> dict[str, Any]:
    """The item as the model parsed it, JSON-ready (parses back through the same model)."""
    return item.model_dump(mode="json")


class JsonArrayWriter:
    """A JSON array streamed item by item; left unclosed after an error so no parser takes it as complete."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.count = 0

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Append the page's items to the array."""
        chunks: list[str] = []
        for item in items:
            body = json.dumps(dump_item(item), indent=2, ensure_ascii=False).replace("\n", "\n  ")
            chunks.append(("[\n  " if self.count == 0 else ",\n  ") + body)
            self.count += 1
        self.stream.write("".join(chunks))
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Close the array (only when the listing completed)."""
        if complete:
            self.stream.write("\n]\n" if self.count else "[]\n")
        self.stream.flush()


class JsonLinesWriter:
    """One compact JSON object per line."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Write one line per item."""
        self.stream.write("".join(json.dumps(dump_item(item), ensure_ascii=False) + "\n" for item in items))
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Nothing to finish."""
        self.stream.flush()


# ---------------------------------------------------------------- csv


def _list_element(annotation: Any) -> Any | None:
    """The element type when `annotation` is `list[X]` (or `list[Annotated[X, ...]]`), else None."""
    if typing.get_origin(annotation) is not list:
        return None
    (element,) = typing.get_args(annotation)
    if typing.get_origin(element) is typing.Annotated:
        element = typing.get_args(element)[0]
    return element


def _label(value: Any) -> str:
    for name in ("name", "domain_name", "value", "objectid"):
        text = getattr(value, name, None)
        if text:
            return str(text)
    return str(value)


def _scalar(value: Any) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, BaseModel | dict | list):
        return json.dumps(value if not isinstance(value, BaseModel) else dump_item(value))
    return value


CsvColumn = tuple[str, Callable[[Any], object]]


def _scalar_getter(name: str) -> Callable[[Any], object]:
    return lambda item: _scalar(getattr(item, name))


def _count_getter(name: str) -> Callable[[Any], object]:
    return lambda item: len(getattr(item, name))


def _joined_getter(name: str) -> Callable[[Any], object]:
    return lambda item: ";".join(_label(value) for value in getattr(item, name))


def _results_getter(name: str, *, success: bool) -> Callable[[Any], object]:
    return lambda item: sum(1 for result in getattr(item, name) if result.success is success)


def _failed_names_getter(name: str) -> Callable[[Any], object]:
    return lambda item: ";".join(result.domain_name for result in getattr(item, name) if not result.success)


def csv_columns(model: type[BaseModel]) -> list[CsvColumn]:
    """CSV columns of a model: its own fields first, then inherited ones; lists become counts and joined names.

    `domains` -> `domains_count`, `domains` ("A.COM;B.COM"); `domain_results` -> `domain_results_ok`,
    `domain_results_failed`, `failed_domains`. Unknown extra fields are left to the JSON formats.
    """
    own = [name for name in getattr(model, "__annotations__", {}) if name in model.model_fields]
    names = own + [name for name in model.model_fields if name not in own]
    columns: list[CsvColumn] = []
    for name in names:
        element = _list_element(model.model_fields[name].annotation)
        if element is None:
            columns.append((name, _scalar_getter(name)))
        elif element is DomainResult:
            columns.append((f"{name}_ok", _results_getter(name, success=True)))
            columns.append((f"{name}_failed", _results_getter(name, success=False)))
            columns.append(("failed_domains", _failed_names_getter(name)))
        else:
            columns.append((f"{name}_count", _count_getter(name)))
            columns.append((name, _joined_getter(name)))
    if issubclass(model, CompletedTask):
        position = [header for header, _ in columns].index("status") + 1
        columns.insert(position, ("status_label", lambda item: status_label(item.status)))
    return columns


class CsvWriter:
    """A header row, then one flat row per item."""

    def __init__(self, model: type[BaseModel], stream: TextIO) -> None:
        self.columns = csv_columns(model)
        self.stream = stream
        self.writer = csv.writer(stream, lineterminator="\n")
        self.header_written = False

    def _header(self) -> None:
        if not self.header_written:
            self.writer.writerow([header for header, _ in self.columns])
            self.header_written = True

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Write one row per item (the header before the first page)."""
        self._header()
        self.writer.writerows([getter(item) for _, getter in self.columns] for item in items)
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Write the header alone when the listing completed empty."""
        if complete:
            self._header()
        self.stream.flush()


def make_writer(
    fmt: Format, model: type[BaseModel], stream: TextIO, *, noun: str, err: TextIO, width: int | None = None
) -> ItemWriter:
    """The writer for `fmt` over items of `model`."""
    if fmt is Format.JSON:
        return JsonArrayWriter(stream)
    if fmt is Format.JSONL:
        return JsonLinesWriter(stream)
    if fmt is Format.CSV:
        return CsvWriter(model, stream)
    return TableWriter(TABLE_COLUMNS[model], stream, width or terminal_width(), noun, err)
