"""The dashboard's exports hold data, not screen text: the Events CSV once held `2026-12-12 09:03Z  in 6d 23h`
(stale once opened later) and the kinds as glyphs (`·····D·`), in a file any local user could read (0644).
Each list's CSV has the columns of `svctui <list> -o csv`: times ISO-8601 UTC, one true/false column per collection
kind; every export file is 0600, written atomically."""

from __future__ import annotations

import csv
import re
import sqlite3
import stat
from pathlib import Path

import pytest

from svctui.api.fields import FLAG_MARKS
from svctui.demo.server import DemoServer
from svctui.tui.palette import export_view
from tests.support.cli import demo_env, run_binary
from tests.support.selectors import on_cleanup
from tests.support.tasks import on_tasks
from tests.support.tui import on_events

pytestmark = pytest.mark.anyio

ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
SCREEN_WORDS = re.compile(r"\bin \d+[dhm]\b|\b\d+[dhm] ago\b|·|…")  # a countdown, an age, a glyph, a cut


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def assert_private_and_alone(path: Path) -> None:
    """0600 whatever the umask, and no temp file left beside it (written atomically)."""
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, oct(path.stat().st_mode)
    assert not [entry.name for entry in path.parent.iterdir() if ".tmp-" in entry.name]


def cli_headers(demo: DemoServer, *command: str) -> list[str]:
    """The header of `svctui COMMAND -o csv` (the real binary: this test's event loop is running)."""
    result = run_binary([*command, "-o", "csv", "--limit", "1"], env=demo_env(demo))
    assert result.code == 0, result.stderr
    return result.stdout.splitlines()[0].split(",")


async def test_the_events_export_holds_iso_times_and_one_column_per_kind(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    async with on_events(demo_server) as (_app, _pilot, screen):
        path = export_view(screen, "csv", tmp_path)
        json_path = export_view(screen, "json", tmp_path)
    text = path.read_text(encoding="utf-8")
    assert not SCREEN_WORDS.search(text), SCREEN_WORDS.search(text)
    rows = read_rows(path)
    assert len(rows) == 100
    assert list(rows[0]) == cli_headers(demo_server, "events", "list")  # the CLI's columns: data, no words that age
    for row in rows:
        assert ISO_UTC.fullmatch(row["svctui_next_run"]) or row["svctui_next_run"] == "", row
        assert all(row[flag] in ("true", "false") for flag, _ in FLAG_MARKS), row
        assert all(ISO_UTC.fullmatch(row[name]) for name in ("created_at", "updated_at") if row[name]), row
    assert any(row["svctui_next_run"] for row in rows)
    assert {row[flag] for row in rows for flag, _ in FLAG_MARKS} == {"true", "false"}
    assert_private_and_alone(path)
    assert_private_and_alone(json_path)


async def test_the_tasks_and_selectors_exports_hold_data_too(fresh_demo_server: DemoServer, tmp_path: Path) -> None:
    with sqlite3.connect(fresh_demo_server.db_path) as conn:
        (client_id,) = conn.execute("SELECT client_id FROM tasks GROUP BY client_id ORDER BY COUNT(*) DESC").fetchone()
    async with on_tasks(fresh_demo_server, str(client_id)) as (_app, _pilot, screen):
        tasks = export_view(screen, "csv", tmp_path)
    async with on_cleanup(fresh_demo_server) as (_app, _pilot, cleanup):
        selectors = export_view(cleanup, "csv", tmp_path)
    for path in (tasks, selectors):
        assert not SCREEN_WORDS.search(path.read_text(encoding="utf-8")), (path, SCREEN_WORDS.search(path.read_text()))
        assert_private_and_alone(path)
    task_rows = read_rows(tasks)
    assert task_rows and all(ISO_UTC.fullmatch(row["start_time"]) for row in task_rows), task_rows[0]
    assert all(row[flag] in ("true", "false") for row in task_rows for flag, _ in FLAG_MARKS)
    assert read_rows(selectors) and all(ISO_UTC.fullmatch(row["created_at"]) for row in read_rows(selectors))
