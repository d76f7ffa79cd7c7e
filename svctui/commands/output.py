"""Output formats of the read commands: a terminal-width table, JSON, JSON lines and CSV, all written page by page.

Every writer takes pages as they arrive and holds none of them, so `--all` runs in constant memory:
table fixes its column widths from the first page, json streams one array, jsonl and csv one record per item.
"""

from __future__ import annotations

import csv
import json
import typing
from collections.abc import Callable, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TextIO

from pydantic import BaseModel

from svctui.api.models import CompletedTask, DomainResult, Event, status_label
from svctui.commands.table import NameOf, TableColumn, TableWriter, cli_now, table_columns, terminal_width
from svctui.schedule import next_run_at
from svctui.visible import json_safe, visible


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


# ---------------------------------------------------------------- computed fields

COMPUTED_PREFIX = "svctui_"
"""The prefix of every field svctui computes (not the server's): `svctui_client_name`, `svctui_next_run`..."""

Computed = Callable[[Any], dict[str, object]]  # an item -> the fields svctui adds, each name with COMPUTED_PREFIX


def _rfc3339(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def event_computed(now: datetime, name_of: NameOf) -> Computed:
    """An event's computed fields, as data: the client's name (the server's `client_name`, else the one svctui knows;
    null when neither) and the next run (RFC 3339 UTC, null when there is none). The table's words (`in 6d 23h`)
    are left to the table: they are true only at the moment they are written, and a file is read later."""
    return lambda event: {
        f"{COMPUTED_PREFIX}client_name": event.client_name or name_of(event.client_id) or None,
        f"{COMPUTED_PREFIX}next_run": _rfc3339(next_run_at(event.rrule, now)),
    }


def task_computed(task: CompletedTask) -> dict[str, object]:
    """A task's computed field: its status's label, as the table and CSV's `status_label` show it."""
    return {f"{COMPUTED_PREFIX}status_label": status_label(task.status)}


def computed_fields(model: type[BaseModel], now: datetime, name_of: NameOf | None = None) -> Computed | None:
    """The computed fields of `model`'s items (an event's, a task's), or None for a model that has none."""
    if issubclass(model, Event):
        return event_computed(now, name_of or (lambda client_id: ""))
    if issubclass(model, CompletedTask):
        return task_computed
    return None


# ---------------------------------------------------------------- json, jsonl


def dump_item(item: BaseModel, computed: Computed | None = None) -> dict[str, Any]:
    """The item as the model parsed it, JSON-ready (parses back through the same model), then its computed fields."""
    return item.model_dump(mode="json") | (computed(item) if computed is not None else {})


class JsonArrayWriter:
    """A JSON array streamed item by item; left unclosed after an error so no parser takes it as complete."""

    def __init__(self, stream: TextIO, computed: Computed | None = None) -> None:
        self.stream = stream
        self.computed = computed
        self.count = 0

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Append the page's items to the array."""
        chunks: list[str] = []
        for item in items:
            body = json_safe(json.dumps(dump_item(item, self.computed), indent=2, ensure_ascii=False)).replace(
                "\n", "\n  "
            )
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

    def __init__(self, stream: TextIO, computed: Computed | None = None) -> None:
        self.stream = stream
        self.computed = computed

    def _line(self, item: BaseModel) -> str:
        if self.computed is None:
            return item.model_dump_json()
        return json.dumps(dump_item(item, self.computed), ensure_ascii=False, separators=(",", ":"))

    def write_page(self, items: Sequence[BaseModel]) -> None:
        """Write one line per item (pydantic's own JSON encoder, or json's when fields are computed: the same document
        as `dump_item`, compact; DEL, C1 and bidi controls as `\\u` escapes, `json_safe`, as the array's)."""
        self.stream.write(json_safe("".join(self._line(item) + "\n" for item in items)))
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
    """A list element's name in a `;`-joined CSV cell: its name, domain, seed value or object id, else its id (a
    client's schedules), else its text (a plain string, e.g. an unhydrated domain's object id)."""
    for name in ("name", "domain_name", "value", "objectid", "id"):
        text = getattr(value, name, None)
        if text is not None and text != "":
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


def visible_cell(value: object) -> object:
    """A CSV field as written: text with its control characters shown (`visible`; a line break in a description
    stays, quoted), so `cat`ting the file drives no terminal."""
    return visible(value, lines=True) if isinstance(value, str) else value


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


def _computed_getter(computed: Computed, name: str) -> Callable[[Any], object]:
    return lambda item: _scalar(computed(item)[name])


def _one_line(value: object) -> object:
    """A rule on one CSV line: its line breaks as the two characters `\\n`, as JSON writes them (svctui reads
    either form back)."""
    return "\\n".join(value.splitlines()) if isinstance(value, str) else value


def csv_columns(model: type[BaseModel], now: datetime, name_of: NameOf | None = None) -> list[CsvColumn]:
    """CSV columns of a model: its fields in order, those of its bookkeeping bases (`csv_last`: times, stamps,
    collection flags) after the rest; lists become counts and joined names.

    `domains` -> `domains_count`, `domains` ("A.COM;B.COM"); `domain_results` -> `domain_results_ok`,
    `domain_results_failed`, `failed_domains`. Computed columns, as the table shows them: a task's
    `status_label`; an event's `computed_fields` (`svctui_client_name` after `client_name`, `svctui_next_run` after
    `next_scheduled_at`), and its `rrule` on one line.
    Unknown extra fields are left to the JSON formats; a field the model excludes from its dumps (a client's `token`)
    is left out here too, as from JSON.
    """
    fields = {name: info for name, info in model.model_fields.items() if not info.exclude}
    last = {name for base in model.__mro__ if base.__dict__.get("csv_last") for name in base.__annotations__}
    names = [name for name in fields if name not in last] + [name for name in fields if name in last]
    columns: list[CsvColumn] = []
    for name in names:
        element = _list_element(fields[name].annotation)
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
    computed = computed_fields(model, now, name_of) if issubclass(model, Event) else None
    if computed is not None:  # an event's: each after the server's field it stands beside
        beside = {"svctui_client_name": "client_name", "svctui_next_run": "next_scheduled_at"}
        for name, after in beside.items():
            position = [header for header, _ in columns].index(after) + 1
            columns.insert(position, (name, _computed_getter(computed, name)))
        position = [header for header, _ in columns].index("rrule")
        columns[position] = ("rrule", lambda item: _one_line(_scalar(item.rrule)))
    return columns


class CsvWriter:
    """A header row, then one flat row per item."""

    def __init__(
        self,
        model: type[BaseModel],
        stream: TextIO,
        now: datetime,
        name_of: NameOf | None = None,
    ) -> None:
        self.columns = csv_columns(model, now, name_of)
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
        self.writer.writerows([visible_cell(getter(item)) for _, getter in self.columns] for item in items)
        self.stream.flush()

    def close(self, *, complete: bool = True) -> None:
        """Write the header alone when the listing completed empty."""
        if complete:
            self._header()
        self.stream.flush()


def make_writer(
    fmt: Format,
    model: type[BaseModel],
    stream: TextIO,
    *,
    noun: str,
    err: TextIO,
    width: int | None = None,
    columns: tuple[TableColumn, ...] | None = None,
    now: datetime | None = None,
    name_of: NameOf | None = None,
) -> ItemWriter:
    """The writer for `fmt` over items of `model` (a table uses `columns`, else the model's registered ones); an
    event's next run is worked out at `now` (the command's time; the clock read once here when not given) and its
    client named by `name_of` (json, jsonl and csv add them as `computed_fields`)."""
    if fmt in (Format.JSON, Format.JSONL):
        computed = computed_fields(model, now or cli_now(), name_of)
        return JsonArrayWriter(stream, computed) if fmt is Format.JSON else JsonLinesWriter(stream, computed)
    if fmt is Format.CSV:
        return CsvWriter(model, stream, now or cli_now(), name_of)
    return TableWriter(columns or table_columns(model, now or cli_now()), stream, width or terminal_width(), noun, err)
