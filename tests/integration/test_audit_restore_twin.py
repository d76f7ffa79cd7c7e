"""Adversarial: a restore whose POST never reached the server must not be settled by another selector's name."""

from __future__ import annotations

import json
from typing import Any

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.audit_read import read_audit
from tests.support.cli import demo_env, invoke
from tests.support.demo_http import signed


def _selectors() -> list[dict[str, Any]]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_restore_in_doubt_is_not_settled_by_another_selector_of_the_same_name(
    fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tag 1 holds two selectors named N (names are not unique). Run D deletes one of them (A). A restore of D
    gets no answer to its POST (the connection reset before the server did anything): in doubt. The next restore
    looks for N by name, finds the other selector B, logs A `restored` as B's id and never re-creates A."""
    for name, value in demo_env(fresh_demo_server).items():
        monkeypatch.setenv(name, value)
    target = next(item for item in _selectors() if not item["is_default"] and item["seeds"])
    body = {"name": target["name"], "description": "a namesake", "seeds": target["seeds"]}
    with signed(fresh_demo_server) as http:
        created = http.post("/api/v2/asset-group-tags/1/selectors", json=body)
    assert created.status_code == 201, created.text
    namesake = created.json()["data"]["id"]
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
    new_id = read_audit().runs[-1].entries[target["id"]].new_id
    assert new_id != namesake, f"logged restored as the namesake {namesake}; the tag holds {now}: {again.stdout}"
    assert len(now) == 2, f"the deleted selector was never re-created: {now}"
