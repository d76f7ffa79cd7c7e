"""Adversarial: a restore whose POST never reached the server must not be settled by another selector's name."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.audit_read import read_audit
from tests.support.cli import demo_env, invoke


def _selectors() -> list[dict[str, Any]]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def _namesake(db_path: Path, selector_id: int) -> int:
    """A copy of the selector with another description, written to the database as a server older than 8.3.0 kept
    it (POST refuses a second selector of a name now: 409); its id."""
    with sqlite3.connect(db_path) as conn:
        columns = "asset_group_tag_id, name, created_at, created_by, updated_at, updated_by, auto_certify"
        columns += ", is_default, allow_disable, member_count"
        made = conn.execute(
            f"INSERT INTO selectors ({columns}, description) SELECT {columns}, 'a namesake' FROM selectors "
            "WHERE id = ?",
            (selector_id,),
        ).lastrowid
        assert made is not None
        conn.execute(
            "INSERT INTO selector_seeds SELECT ?, type, value, position FROM selector_seeds WHERE selector_id = ?",
            (made, selector_id),
        )
    return made


def test_a_restore_in_doubt_is_not_settled_by_another_selector_of_the_same_name(
    fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tag 1 holds two selectors named N (an older server's data: names were not unique). Run D deletes one of them
    (A). A restore of D gets no answer to its POST (the connection reset before the server did anything): in doubt.
    The next restore looks for N by name, finds the other selector B (another definition), does not log A as B's;
    its POST is refused (409: the name is taken by B) and the outcome says so and what to do."""
    for name, value in demo_env(fresh_demo_server).items():
        monkeypatch.setenv(name, value)
    target = next(item for item in _selectors() if not item["is_default"] and item["seeds"])
    namesake = _namesake(fresh_demo_server.db_path, target["id"])
    deleted = invoke(["selectors", "delete", "1", str(target["id"]), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    run_id = read_audit().runs[-1].run_id

    fresh_demo_server.faults = Faults(kinds={"reset": 1.0}, only_path="/api/v2/asset-group-tags/1/selectors")
    lost = invoke(["selectors", "restore", run_id, "--yes"])
    fresh_demo_server.faults = Faults()
    assert "no answer" in lost.stdout, lost.stdout + lost.stderr
    assert [item["id"] for item in _selectors() if item["name"] == target["name"]] == [namesake], "nothing created"

    again = invoke(["selectors", "restore", run_id, "--yes"])
    now = [item["id"] for item in _selectors() if item["name"] == target["name"]]
    entry = read_audit().runs[-1].entries[target["id"]]
    assert entry.new_id != namesake, f"logged restored as the namesake {namesake}; the tag holds {now}: {again.stdout}"
    assert entry.outcome == "failed" and now == [namesake], (entry, now)
    assert f"exists now (id {namesake}) with another definition" in again.stdout, again.stdout
    assert again.exit_code == 5, again.stderr
