"""`tasks list -o json` carries the status's label, as `-o csv` does (`status_label`): the server's fields as the
model parsed them, then the computed one under a name that says so, `svctui_status_label`.

A newcomer read `"status_label": null` in JSON where CSV said `Failed`."""

from __future__ import annotations

import csv
import io

import pytest

from svctui.api.models import status_label
from tests.support.cli import DemoLike, invoke, json_items, jsonl_items, use_demo_env


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The demo server as the environment profile."""
    return use_demo_env(monkeypatch, demo_server, COLUMNS="100")


def test_json_and_csv_carry_the_same_status_label(env: dict[str, str]) -> None:
    events = jsonl_items(invoke(["events", "list", "--all", "-o", "jsonl"]).stdout)
    client_id = events[0]["client_id"]
    args = ["tasks", "list", client_id, "--all", "--endpoint", "completed-jobs"]
    as_json = invoke([*args, "-o", "json"])
    as_csv = invoke([*args, "-o", "csv"])
    assert as_json.exit_code == as_csv.exit_code == 0, as_json.stderr + as_csv.stderr
    items = json_items(as_json.stdout)
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert items and len(items) == len(rows)
    assert [item["svctui_status_label"] for item in items] == [row["status_label"] for row in rows]
    assert all(item["svctui_status_label"] == status_label(item["status"]) for item in items)
    assert "Failed" in {item["svctui_status_label"] for item in items}
