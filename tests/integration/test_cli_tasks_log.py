"""`svctui tasks log TASK_ID` against the demo server over loopback: every option and exit code."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from svctui.demo.runlogs import BIG_EVERY, NO_LOG_EVERY
from svctui.demo.server import DemoServer
from tests.support.cli import DemoLike, demo_env, invoke, jsonl_items, use_demo_env


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The demo server as the environment profile."""
    return use_demo_env(monkeypatch, demo_server)


def task_ids(db_path: Path, where: str) -> list[int]:
    """Task ids of the demo's database matching an SQL condition (to pick runs of a kind)."""
    with sqlite3.connect(db_path) as conn:
        return [int(row[0]) for row in conn.execute(f"SELECT id FROM tasks WHERE {where} ORDER BY id")]


@pytest.fixture
def db(demo_server: DemoServer) -> Path:
    """The session demo server's database (read only)."""
    return Path(demo_server.db_path)


def test_text_prints_every_line_in_the_format(env: dict[str, str], db: Path) -> None:
    task = task_ids(db, f"status = 2 AND id % {NO_LOG_EVERY} != 11")[0]
    result = invoke(["tasks", "log", str(task)])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "|INFORMATION|Resolved Collection Methods: " in lines[1]
    assert lines[-1].endswith("Happy Graphing!")
    assert all(line.count("|") >= 2 for line in lines)


def test_jsonl_level_and_grep(env: dict[str, str], db: Path) -> None:
    task = task_ids(db, f"status = 4 AND id % {NO_LOG_EVERY} != 11")[0]
    every = jsonl_items(invoke(["tasks", "log", str(task), "-o", "jsonl"]).stdout)
    assert [item["line"] for item in every] == list(range(1, len(every) + 1))
    assert {item["level"] for item in every} >= {"INFORMATION"}
    warned = invoke(["tasks", "log", str(task), "-o", "jsonl", "--level", "warning"])
    assert warned.exit_code == 0, warned.stderr
    kept = jsonl_items(warned.stdout)
    assert kept and all(item["level"] in ("WARNING", "ERROR") for item in kept)
    assert len(kept) == sum(1 for item in every if item["level"] in ("WARNING", "ERROR"))
    grep = invoke(["tasks", "log", str(task), "--grep", "status: "])
    assert grep.exit_code == 0
    assert grep.stdout and all("Status: " in line for line in grep.stdout.splitlines())


def test_summary_of_a_timed_out_run_names_the_stuck_count(env: dict[str, str], db: Path) -> None:
    task = task_ids(db, f"status = 4 AND id % {NO_LOG_EVERY} != 11")[0]
    result = invoke(["tasks", "log", str(task), "--summary"])
    assert result.exit_code == 0, result.stderr
    assert "stuck at " in result.stdout
    assert "the log stops before the enumeration finished" in result.stdout


def test_a_failed_runs_error_line_has_its_domain_message(env: dict[str, str], db: Path) -> None:
    with sqlite3.connect(db) as conn:
        task, message = conn.execute(
            f"SELECT job_id, message FROM domain_results WHERE success = 0 AND message != '' "
            f"AND job_id % {NO_LOG_EVERY} != 11 ORDER BY job_id LIMIT 1"
        ).fetchone()
    result = invoke(["tasks", "log", str(task), "--level", "error", "-o", "jsonl"])
    assert message in [item["message"] for item in jsonl_items(result.stdout)]


def test_a_run_without_a_log_exits_4(env: dict[str, str], db: Path) -> None:
    task = task_ids(db, f"id % {NO_LOG_EVERY} = 11")[0]
    result = invoke(["tasks", "log", str(task)])
    assert result.exit_code == 4
    assert f"run {task} kept no log" in result.stderr
    assert re.search(r"HTTP 404 Not Found — .+ \(request id [0-9a-zA-Z-]{8,}\)", result.stderr), result.stderr
    assert result.stdout == ""


def test_bad_task_id_exits_2_before_any_request(env: dict[str, str]) -> None:
    result = invoke(["tasks", "log", "abc\x1b[2J"])
    assert result.exit_code == 2
    assert "\x1b" not in result.stderr and "not a task id" in result.stderr


def test_community_server_says_enterprise_only(
    demo_server_community: DemoLike, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in demo_env(demo_server_community).items():
        monkeypatch.setenv(name, value)
    result = invoke(["tasks", "log", "1"])
    assert result.exit_code == 4
    assert "run logs are an enterprise feature" in result.stderr


def test_big_log_streams(env: dict[str, str], db: Path) -> None:
    task = task_ids(db, f"id % {BIG_EVERY} = 5 AND ad_structure_collection = 1 AND id % {NO_LOG_EVERY} != 11")[0]
    result = invoke(["tasks", "log", str(task), "-o", "jsonl", "--level", "error"])
    assert result.exit_code == 0, result.stderr
    counted = invoke(["tasks", "log", str(task)])
    assert len(counted.stdout) > 3_000_000
    assert all(json.loads(line)["level"] == "ERROR" for line in result.stdout.splitlines())


HOARD_LOG = """
import asyncio
from svctui.connect import open_client
from svctui.runlog import LogReader
from svctui.store.profiles import ProfileStore

async def main() -> None:
    async with open_client(ProfileStore().resolve(None)) as client:
        text = "".join([piece async for piece in client.jobs.log_text(int(sys.argv[1]))])
    reader = LogReader()
    lines = reader.feed(text) + reader.finish()
    print(len(lines))

asyncio.run(main())
"""


def test_a_big_log_streams_in_flat_memory(env: dict[str, str], db: Path, tmp_path: Path) -> None:
    """Peak RSS of `tasks log` on a ~5.8 MB log against a process that holds that log's lines (as the dashboard
    does): streaming stays at least 8 MB under it (the RSS of like runs varies by a few MB)."""
    from tests.integration.test_cli_memory import COMMAND, HIGH_WATER, peak_rss_kib

    big = task_ids(db, f"id % {BIG_EVERY} = 5 AND ad_structure_collection = 1 AND id % {NO_LOG_EVERY} != 11")[0]
    hoard = peak_rss_kib([sys.executable, "-c", HIGH_WATER + HOARD_LOG, str(big)], env, tmp_path / "hoard.txt")
    peak = peak_rss_kib([sys.executable, "-c", COMMAND, "tasks", "log", str(big)], env, tmp_path / "big.txt")
    assert (tmp_path / "big.txt").stat().st_size > 5_000_000
    assert int((tmp_path / "hoard.txt").read_text()) > 30_000
    assert hoard - peak > 8 * 1024, (hoard, peak)


def test_a_run_that_does_not_exist_is_said_so_not_a_missing_log(env: dict[str, str], db: Path) -> None:
    with sqlite3.connect(db) as conn:
        unknown = int(conn.execute("SELECT MAX(id) FROM tasks").fetchone()[0]) + 1000
    result = invoke(["tasks", "log", str(unknown)])
    assert result.exit_code == 4
    assert f"no run {unknown} (no finished run has that id; " in result.stderr
    assert "kept no log" not in result.stderr
    # a server error shows status, message and request id (the newcomer walk saw none of them here)
    assert re.search(r"the log's answer: HTTP 404 Not Found — .+ \(request id [0-9a-zA-Z-]{8,}\)\)", result.stderr), (
        result.stderr
    )


def test_summary_times_are_utc_and_jsonl_adds_time_utc(env: dict[str, str], db: Path) -> None:
    """Issue 28: the summary's times are UTC marked `Z` (as every other time svctui shows); `-o jsonl` keeps the
    log's `time` with its offset and adds `time_utc`."""
    import re
    from datetime import UTC, datetime

    for task in task_ids(db, f"status = 4 AND id % {NO_LOG_EVERY} != 11"):  # a collector away from UTC
        items = jsonl_items(invoke(["tasks", "log", str(task), "-o", "jsonl"]).stdout)
        timed = [item for item in items if item["time"]]
        if timed[0]["time"][-6:] not in ("+00:00", "-00:00"):
            break
    else:
        pytest.fail("no timed-out run of the demo logs away from UTC")
    for item in timed:
        utc = datetime.fromisoformat(item["time"]).astimezone(UTC)
        assert datetime.fromisoformat(item["time_utc"]) == utc and item["time_utc"].endswith("Z")
    summary = invoke(["tasks", "log", str(task), "--summary"]).stdout
    stuck = re.search(r"stuck at [\d,]+ objects (\d\d:\d\d:\d\dZ) → (\d\d:\d\d:\d\dZ).*lines (\d+)-(\d+)", summary)
    assert stuck is not None, summary
    first = timed[[item["line"] for item in timed].index(int(stuck.group(3)))]
    assert stuck.group(1) == first["time_utc"][11:19] + "Z"
