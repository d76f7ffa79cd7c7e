"""The audit reader's issue-25 rules on synthetic logs: a deletion and its resumes read as one, and no line of any
size or shape costs more than a bounded read."""

from __future__ import annotations

import io
import json
from typing import Any

from svctui.store.audit_read import MAX_LINE_BYTES, bounded_lines, parse_audit


def _lines(*records: dict[str, Any]) -> list[bytes]:
    return [json.dumps(record).encode() + b"\n" for record in records]


def _plan(run: str, ts: str, ids: list[int], resumes: str | None = None) -> dict[str, Any]:
    return {"run": run, "ts": ts, "event": "plan", "action": "selectors.delete", "tag_id": 1, "ids": ids,
            "resumes": resumes}  # fmt: skip


def _intent(run: str, selector_id: int, name: str = "") -> dict[str, Any]:
    record = {"id": selector_id, "name": name or f"sel {selector_id}", "created_at": "2026-01-01T00:00:00Z"}
    return {"run": run, "event": "intent", "selector_id": selector_id, "selector": record}


def _outcome(run: str, selector_id: int, outcome: str = "deleted") -> dict[str, Any]:
    return {"run": run, "event": "outcome", "selector_id": selector_id, "outcome": outcome}


def _end(run: str) -> dict[str, Any]:
    return {"run": run, "event": "end", "counts": {}, "stopped": None}


KILLED_CHAIN = [
    _plan("A", "2026-01-01T00:00:00.000Z", [1, 2, 3, 4]),
    _intent("A", 1), _outcome("A", 1), _intent("A", 2),  # killed: 2 in doubt, 3 and 4 never tried
    _plan("B", "2026-01-01T00:01:00.000Z", [2, 3, 4], resumes="A"),
    _outcome("B", 2, "already gone"), _intent("B", 3), _outcome("B", 3),  # killed: 4 left
]  # fmt: skip


def test_a_killed_resume_settles_for_the_run_it_resumed() -> None:
    log = parse_audit(_lines(*KILLED_CHAIN))
    first, second = log.get("A"), log.get("B")
    assert first.unsettled_ids() == [4] and second.unsettled_ids() == [4]
    assert first.entries[2].settled_by == "B" and first.entries[2].planned == first.entries[2].record
    assert second.entries[3].planned is not None and second.entries[3].planned["name"] == "sel 3"


def test_a_resume_of_the_killed_resume_resolves_the_whole_chain() -> None:
    finished = [_plan("C", "2026-01-01T00:02:00.000Z", [4], resumes="B"), _intent("C", 4), _outcome("C", 4), _end("C")]
    log = parse_audit(_lines(*KILLED_CHAIN, *finished))
    assert log.get("B").resolved_by == "C" and log.get("A").resolved_by == "C"
    assert log.last_interrupted() is None
    assert log.get("A").state == "resumed by C"


def test_a_resume_of_the_first_run_resolves_the_killed_resume_too() -> None:
    again = [_plan("D", "2026-01-01T00:03:00.000Z", [4], resumes="A"), _intent("D", 4), _outcome("D", 4), _end("D")]
    log = parse_audit(_lines(*KILLED_CHAIN, *again))
    assert log.get("A").resolved_by == "D" and log.get("B").resolved_by == "D"
    assert log.last_interrupted() is None


def test_a_failure_left_by_the_last_resume_is_its_to_resume() -> None:
    failed = [_plan("C", "2026-01-01T00:02:00.000Z", [4], resumes="B"), _intent("C", 4), _outcome("C", 4, "failed"),
              _end("C")]  # fmt: skip
    log = parse_audit(_lines(*KILLED_CHAIN, *failed))
    assert log.get("A").resolved_by == "C" and log.get("B").resolved_by == "C"
    assert log.get("C").resolved_by is None and log.get("C").unsettled_ids() == [4]


def test_lines_at_and_over_the_cap() -> None:
    at_cap = b"x" * (MAX_LINE_BYTES - 1) + b"\n"
    over = b"y" * (MAX_LINE_BYTES * 2 + 5) + b"\n"
    unended = b"z" * (MAX_LINE_BYTES + 1)
    read = list(bounded_lines(io.BytesIO(b"a\n" + at_cap + over + b"b\n" + unended)))
    assert read == [b"a\n", at_cap, None, b"b\n", None]


def test_foreign_shapes_are_counted_not_fatal() -> None:
    foreign = [
        b"[" * 100_000 + b"\n",
        b'{"run": "X", "event": "plan", "ids": 7}\n',
        b'{"run": "X", "event": "plan", "ids": ' + json.dumps(list(range(100_001))).encode() + b"}\n",
        b'{"run": "X", "event": "intent", "selector_id": 1, "selector": "text"}\n',
        b'{"run": "X", "event": "outcome", "selector_id": 1, "outcome": "deleted", "status": 200, "message": []}\n',
        None,
    ]
    log = parse_audit([*_lines(_plan("A", "2026-01-01T00:00:00.000Z", [1])), *foreign])
    assert log.unreadable_lines == 5  # the last is odd but readable: its message is shown as text
    assert {run.run_id for run in log.runs} == {"A", "X"}
    assert log.get("A").unsettled_ids() == [1]
