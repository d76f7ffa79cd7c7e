"""What the dashboard's exports write: data, not screen text (ISO-8601 UTC times, one true/false column per
collection kind: the columns of `svctui <list> -o csv`), in a file only its owner can read, written atomically."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel


def model_of(spec_name: str) -> type[BaseModel] | None:
    """The record model of a list (by its EndpointSpec's name): what an empty export's header is made from."""
    from svctui.api.filters import CLIENTS, COMPLETED_TASKS, EVENTS, SELECTORS, TAGS
    from svctui.api.models import AssetGroupTag, CollectionClient, CompletedTask, Event, Selector

    models: dict[str, type[BaseModel]] = {
        EVENTS.name: Event,
        COMPLETED_TASKS.name: CompletedTask,
        SELECTORS.name: Selector,
        TAGS.name: AssetGroupTag,
        CLIENTS.name: CollectionClient,
    }
    return models.get(spec_name)


def csv_of_records(
    records: Sequence[Any],
    now: datetime,
    name_of: Callable[[str], str] | None = None,
    model: type[BaseModel] | None = None,
) -> str:
    """The CSV text of `records` (models of one type; `model` when there are none: the header alone) as `svctui
    <list> -o csv` writes them (data only: no words that age, such as `in 6d 23h`); control characters shown."""
    from svctui.commands.output import CsvWriter

    models = [record for record in records if isinstance(record, BaseModel)]
    model = type(models[0]) if models else model
    if model is None:
        return ""
    stream = io.StringIO()
    writer = CsvWriter(model, stream, now, name_of)
    writer.write_page(models)
    writer.close()
    return stream.getvalue()


def csv_of_rows(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """CSV text of plain rows (the audit runs), control characters shown."""
    from svctui.commands.output import visible_cell

    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(headers)
    writer.writerows([visible_cell(cell) for cell in row] for row in rows)
    return stream.getvalue()


def write_export(target: Path, text: str) -> Path:
    """Write `text` to `target` atomically, mode 0600 whatever the umask (an export may hold client names and ids,
    as the token store's files are written); OSError when it cannot be. Returns `target`."""
    from svctui.store.atomic import write_private

    write_private(target, text.encode("utf-8"))
    return target
