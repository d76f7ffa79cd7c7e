"""The audit reader groups lines into runs and finds interrupted ones, whatever the log holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from svctui.store.audit_read import LEGACY_RUN_ID, parse_audit, read_audit
from svctui.store.errors import StoreError


def lines(*records: dict[str, Any]) -> list[bytes]:
    """Encode records as audit lines."""
    return [json.dumps(record).encode() + b"\n" for record in records]


def plan(run: str, ids: list[int], **extra: Any) -> dict[str, Any]:
    """A plan line."""
    return {
        "ts": f"2026-11-24T10:00:0{len(run) % 10}.000Z",
        "event": "plan",
        "run": run,
        "action": "selectors.delete",
        "tag_id": 1,
        "ids": ids,
        **extra,
    }


def test_finished_run_is_not_interrupted_and_counts_come_from_end() -> None:
    log = parse_audit(
        lines(
            plan("r1", [1, 2]),
            {"event": "intent", "run": "r1", "selector_id": 1, "selector": {"name": "one"}},
            {"event": "outcome", "run": "r1", "selector_id": 1, "outcome": "deleted", "status": 204},
            {"event": "end", "run": "r1", "counts": {"deleted": 1, "skipped": 1}, "stopped": "cancelled"},
        )
    )
    run = log.get("r1")
    assert not run.interrupted
    assert run.counts == {"deleted": 1, "skipped": 1}
    assert run.entries[1].name == "one"
    assert run.unsettled_ids() == [2]


def test_intent_without_outcome_is_in_doubt_and_the_run_interrupted() -> None:
    log = parse_audit(
        lines(
            plan("r1", [1, 2, 3]),
            {"event": "intent", "run": "r1", "selector_id": 1, "selector": None},
            {"event": "outcome", "run": "r1", "selector_id": 1, "outcome": "deleted"},
            {"event": "intent", "run": "r1", "selector_id": 2, "selector": {"name": "two"}},
        )
    )
    run = log.get("r1")
    assert run.interrupted and run.entries[2].in_doubt
    assert run.unsettled_ids() == [2, 3]
    assert log.last_interrupted() is run


def test_a_finished_resume_resolves_its_parent() -> None:
    log = parse_audit(
        lines(
            plan("r1", [1, 2]),
            {"event": "intent", "run": "r1", "selector_id": 2},
            plan("r2", [1, 2], resumes="r1"),
            {"event": "end", "run": "r2", "counts": {"deleted": 2}, "stopped": None},
        )
    )
    assert log.get("r1").resolved_by == "r2"
    assert log.last_interrupted() is None


def test_no_answer_stays_in_doubt_and_a_later_attempt_supersedes_it() -> None:
    log = parse_audit(
        lines(
            plan("r1", [5]),
            {"event": "intent", "run": "r1", "selector_id": 5},
            {"event": "outcome", "run": "r1", "selector_id": 5, "outcome": "no answer"},
            {"event": "end", "run": "r1", "counts": {"no answer": 1}},
        )
    )
    assert log.get("r1").interrupted
    assert log.get("r1").unsettled_ids() == [5]


def test_torn_foreign_and_legacy_lines_are_read_not_fatal() -> None:
    raw = [
        b'{"event":"plan","run":"r1","ids":[1]}\n',
        b'{"event":"inte',
        b"[1,2]\n",
        b"\xff\xfe\n",
        *lines(
            {
                "time": "2025-01-01T00:00:00Z",
                "profile": "p",
                "base_url": "https://x",
                "tag": 3,
                "selector": 9,
                "outcome": "deleted",
                "status": 204,
            }
        ),
    ]
    log = parse_audit(raw)
    assert log.unreadable_lines == 3
    legacy = log.get(LEGACY_RUN_ID)
    assert legacy.entries[9].outcome == "deleted" and not legacy.interrupted
    assert log.runs[0] is legacy


def test_get_by_prefix_and_clear_errors(tmp_path: Path) -> None:
    log = parse_audit(lines(plan("20261124T100000Z-aaaa", [1]), plan("20261124T100000Z-aabb", [2])))
    assert log.get("20261124T100000Z-aaaa").run_id.endswith("aaaa")
    with pytest.raises(StoreError, match="matches 2 runs"):
        log.get("20261124T100000Z-aa")
    with pytest.raises(StoreError, match="no run"):
        log.get("x" * 5000)
    assert read_audit(tmp_path / "absent.jsonl").runs == []
