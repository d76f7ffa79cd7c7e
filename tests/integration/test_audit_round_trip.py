"""Issue 30 item 6: the lines of a deletion run have the shape docs/AUDIT.md lays out, and the intent records carry
what a restore needs — shown by the round trip: delete on the demo server, read the log back, restore from it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.models import Selector
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext
from svctui.ops.selector_delete import delete_selectors
from svctui.ops.selector_restore import plan_restore, restore_run, same_definition
from svctui.store.audit import append_audit, audit_path
from svctui.store.audit_read import read_audit
from tests.support.demo_http import all_items, signed

PLAN_KEYS = {"ts", "run", "event", "action", "profile", "token_id", "user", "server", "tag_id", "tag_name", "ids"}
PLAN_KEYS |= {"concurrency", "resumes"}
INTENT_KEYS = {"ts", "run", "event", "tag_id", "selector_id", "selector"}
OUTCOME_KEYS = {"ts", "run", "event", "tag_id", "selector_id", "outcome", "status", "request_id", "message"}


def log_lines() -> list[dict[str, Any]]:
    """Every line of the audit log."""
    return [json.loads(line) for line in audit_path().read_text().splitlines()]


def demo_client(demo: DemoServer) -> ApiClient:
    """A signed client of the demo server."""
    return ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key))


@pytest.mark.anyio
async def test_a_deletion_run_written_then_restored_from_its_own_lines(fresh_demo_server: DemoServer) -> None:
    with signed(fresh_demo_server) as http:
        listed = all_items(http, "/api/v2/asset-group-tags/1/selectors")
    chosen = [item for item in listed if not item["is_default"] and item["seeds"]][:3]
    default = next(item for item in listed if item["is_default"])
    ids = [item["id"] for item in chosen] + [default["id"]]
    context = AuditContext(profile="demo", token_id="tok-1", server=fresh_demo_server.base_url, user="tester")
    async with demo_client(fresh_demo_server) as api:
        report = await delete_selectors(api, 1, ids, context=context, concurrency=2, tag_name="Tier Zero")
    lines = log_lines()
    plan, *middle, end = lines
    assert set(plan) == PLAN_KEYS
    assert {key: plan[key] for key in PLAN_KEYS - {"ts", "run"}} == {
        "event": "plan", "action": "selectors.delete", "profile": "demo", "token_id": "tok-1", "user": "tester",
        "server": fresh_demo_server.base_url, "tag_id": 1, "tag_name": "Tier Zero", "ids": ids, "concurrency": 2,
        "resumes": None,
    }  # fmt: skip
    assert all(line["run"] == report.run_id for line in lines)
    intents = {line["selector_id"]: line for line in middle if line["event"] == "intent"}
    outcomes = {line["selector_id"]: line for line in middle if line["event"] == "outcome"}
    assert sorted(intents) == sorted(outcomes) == sorted(ids) and len(middle) == 2 * len(ids)
    for item in [*chosen, default]:
        intent = intents[item["id"]]
        assert set(intent) == INTENT_KEYS and intent["event"] == "intent" and intent["tag_id"] == 1
        assert Selector.model_validate(intent["selector"]) == Selector.model_validate(item)  # every field kept
        assert intent["selector"]["seeds"] == [{"type": s["type"], "value": s["value"]} for s in item["seeds"]]
        outcome = outcomes[item["id"]]
        assert set(outcome) == OUTCOME_KEYS and outcome["tag_id"] == 1 and outcome["request_id"]
    assert [outcomes[i]["outcome"] for i in ids] == ["deleted"] * 3 + ["refused: default selector"]
    assert [outcomes[i]["status"] for i in ids] == [204] * 3 + [403]
    assert outcomes[default["id"]]["message"] == "cannot delete a default selector"
    assert end == {
        "ts": end["ts"], "run": report.run_id, "event": "end",
        "counts": {"deleted": 3, "refused: default selector": 1}, "stopped": None,
    }  # fmt: skip

    restore = plan_restore(read_audit(), report.run_id)
    assert sorted(entry.selector_id for entry in restore.to_restore) == sorted(item["id"] for item in chosen)
    assert list(restore.not_restorable) == [default["id"]]
    async with demo_client(fresh_demo_server) as api:
        results = await restore_run(api, restore, context=context, run_id="restore-1", audit=append_audit)
    assert [str(result.outcome) for result in results] == ["restored"] * 3
    with signed(fresh_demo_server) as http:
        now = {item["id"]: item for item in all_items(http, "/api/v2/asset-group-tags/1/selectors")}
    for item, result in zip(chosen, results, strict=True):
        assert result.new_id is not None and item["id"] not in now
        created = Selector.model_validate(now[result.new_id])
        assert same_definition(created, intents[item["id"]]["selector"])
        assert (created.name, created.description, created.auto_certify) == (
            item["name"], item["description"], item["auto_certify"],
        )  # fmt: skip
