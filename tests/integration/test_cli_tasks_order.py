"""`svctui tasks list` against the demo server: newest first by default (as the dashboard), an explicit `--sort`
overrides it, and the help says the default."""

from __future__ import annotations

import sqlite3

import pytest

from svctui.demo.server import DemoServer
from tests.support.cli import demo_env, invoke, json_items
from tests.support.demo_http import client_ids


@pytest.fixture
def busiest(demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> str:
    """The demo server as the environment profile; the id of its client with the most tasks."""
    for name, value in demo_env(demo_server).items():
        monkeypatch.setenv(name, value)
    return client_ids(demo_server.db_path)[0]


def test_tasks_list_is_newest_first_by_default(demo_server: DemoServer, busiest: str) -> None:
    result = invoke(["tasks", "list", busiest, "--limit", "15", "-o", "json", "--endpoint", "completed-jobs"])
    assert result.exit_code == 0, result.stderr
    listed = [item["id"] for item in json_items(result.stdout)]
    with sqlite3.connect(str(demo_server.db_path)) as conn:
        newest = conn.execute(
            "SELECT id FROM tasks WHERE client_id = ? ORDER BY execution_time DESC LIMIT 15", (busiest,)
        ).fetchall()
    assert listed == [row[0] for row in newest]
    # an explicit --sort overrides the default
    result = invoke(["tasks", "list", busiest, "--limit", "15", "-o", "json", "--sort", "id"])
    assert result.exit_code == 0, result.stderr
    listed = [item["id"] for item in json_items(result.stdout)]
    assert listed == sorted(listed) and len(listed) == 15
    times = invoke(["tasks", "list", busiest, "--limit", "15", "-o", "json", "-s", "execution_time"])
    assert [item["id"] for item in json_items(times.stdout)] == listed  # ids grow with execution time


def test_help_names_the_default_order() -> None:
    result = invoke(["tasks", "list", "--help"])
    assert result.exit_code == 0
    assert "Default: -execution_time (newest first" in " ".join(result.stdout.split())
