"""svctui.tui.export_file: an export's CSV is the CLI's columns, its file 0600."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

from svctui.api.models import Event
from svctui.commands.output import csv_columns
from svctui.tui.export_file import csv_of_records, model_of, write_export

NOW = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)


def test_an_empty_page_exports_the_header_alone() -> None:
    header = csv_of_records([], NOW, None, model_of("events"))
    expected = [name for name, _ in csv_columns(Event, NOW)]
    assert header == ",".join(expected) + "\n"
    assert "svctui_next_run" in expected and "session_collection" in expected
    assert not [name for name in expected if name.endswith("_text")], "data only: no words that age (`in 6d 23h`)"


def test_an_export_replaces_a_file_and_is_private_whatever_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old")
    target.chmod(0o644)
    write_export(target, "id\n1\n")
    assert target.read_text() == "id\n1\n" and stat.S_IMODE(target.stat().st_mode) == 0o600
