"""The generated tasks' times look real: nothing ends after the data's "now" (the anchor), a task lasts as long as
its messages say it waited, and recent runs are still ingesting (6) or analyzing (7) on every client."""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from pathlib import Path

from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.timefmt import to_micros

ANCHOR = to_micros(FIXED_ANCHOR)
DURATION = re.compile(r"after (\d+) (second|minute|hour)s?", re.IGNORECASE)
UNIT = {"second": 1, "minute": 60, "hour": 3600}


def rows(db_path: Path, sql: str) -> list[sqlite3.Row]:
    with sqlite3.connect(str(db_path)) as conn:
        conn.row_factory = sqlite3.Row
        return conn.execute(sql).fetchall()


def stated(text: str) -> int:
    """The longest wait a message states, in seconds (0 when it states none)."""
    return max((int(n) * UNIT[unit.lower()] for n, unit in DURATION.findall(text)), default=0)


def test_no_task_or_result_ends_after_the_anchor(demo_template_db: Path) -> None:
    times = rows(demo_template_db, "SELECT id, start_time, end_time, last_ingest, updated_at FROM tasks")
    late = [tuple(row) for row in times if max(row[1:]) > ANCHOR]
    assert late == []
    results = rows(demo_template_db, "SELECT MAX(created_at), MAX(updated_at) FROM domain_results")[0]
    assert max(results) <= ANCHOR
    ended = [row for row in times if row["end_time"] > 0]
    assert all(row["start_time"] <= row["end_time"] for row in ended) and len(ended) > 3000


def test_durations_agree_with_the_messages(demo_template_db: Path) -> None:
    waits: dict[int, int] = defaultdict(int)
    for row in rows(demo_template_db, "SELECT job_id, message FROM domain_results WHERE message != ''"):
        waits[row["job_id"]] = max(waits[row["job_id"]], stated(row["message"]))
    tasks = rows(demo_template_db, "SELECT id, status_message, start_time, end_time FROM tasks WHERE end_time > 0")
    checked = 0
    for task in tasks:
        wait = max(waits[task["id"]], stated(task["status_message"]))
        if wait:
            checked += 1
            assert (task["end_time"] - task["start_time"]) / 1e6 >= wait, (task["id"], wait)
    assert checked > 100  # the 12-hour timeouts and the "after 3600 seconds" LDAP failures


def test_ingesting_and_analyzing_occur_for_recent_runs_of_every_client(demo_template_db: Path) -> None:
    newest: dict[str, list[int]] = defaultdict(list)
    for row in rows(demo_template_db, "SELECT client_id, status FROM tasks ORDER BY execution_time DESC"):
        if len(newest[row["client_id"]]) < 10:
            newest[row["client_id"]].append(row["status"])
    assert all({6, 7} & set(statuses) for statuses in newest.values()), newest
    seen = {status for statuses in newest.values() for status in statuses}
    assert {6, 7} <= seen
    ingesting = rows(demo_template_db, "SELECT end_time, last_ingest FROM tasks WHERE status = 6")
    assert all(row["end_time"] > 0 and row["last_ingest"] <= 0 for row in ingesting)  # collected, not yet ingested
