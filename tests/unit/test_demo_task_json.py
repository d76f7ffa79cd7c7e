"""The demo builds completed tasks' JSON in SQLite: its times and page envelope read as the Python shapes do."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest

from svctui.demo.responses import go_json, page_body
from svctui.demo.task_json import go_time_sql
from svctui.demo.timefmt import ZERO_TIME, render_time, to_micros

MOMENTS = [
    datetime(2026, 3, 2, 10, 59, 19, 585661, tzinfo=UTC),
    datetime(2026, 3, 2, 10, 59, 19, 500000, tzinfo=UTC),
    datetime(2026, 3, 2, 10, 59, 19, tzinfo=UTC),
    datetime(1970, 1, 1, tzinfo=UTC),
    datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
    datetime(1, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
    datetime(9999, 12, 31, 23, 59, 59, 10, tzinfo=UTC),
]


@pytest.mark.parametrize("micros", [*(to_micros(moment) for moment in MOMENTS), ZERO_TIME, None])
def test_sql_time_is_render_time(micros: int | None) -> None:
    """SQLite writes a stored time exactly as `render_time` does: Go's RFC 3339, trimmed fraction, zero time, null."""
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (at INTEGER)")
    conn.execute("INSERT INTO t VALUES (?)", (micros,))
    (text,) = conn.execute(f"SELECT {go_time_sql('t.at')} FROM t").fetchone()
    assert text == render_time(micros)


def test_page_body_is_go_json_of_the_page() -> None:
    """The envelope around pre-built items is byte for byte what `go_json` writes for the same page, escapes too."""
    items = [{"id": 1, "message": "a <b> & c", "name": "Zürich"}, {"id": 2, "message": "", "name": None}]
    texts = [json.dumps(item, separators=(",", ":"), ensure_ascii=False) for item in items]
    built = page_body(1234, 1000, 2000, texts)
    assert go_json(built) == go_json({"count": 1234, "limit": 1000, "skip": 2000, "data": items})
    assert b"\\u003cb\\u003e \\u0026 c" in built.body
