"""Unit tests of svctui.triage: breakdown, durations, summaries, series, drop rule, run comparison, quick filters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from svctui.api.fields import COUNT_NAMES
from svctui.api.models import CompletedTask, DomainResult
from svctui.triage import (
    QUICK_FILTERS,
    QUICK_FILTERS_BY_NAME,
    Change,
    CountDelta,
    chronological,
    compare_runs,
    compare_with_previous,
    count_totals,
    detect_drops,
    domain_series,
    drops_by_task,
    format_delta,
    format_duration,
    is_drop,
    previous_comparable,
    result_summary,
    status_breakdown,
    task_duration,
    task_time,
    tasks_with_drops,
)
from tests.triage_samples import sample_tasks
from tests.unit.test_layers import _import_with_textual_blocked

T0 = datetime(2026, 3, 1, 2, 0, tzinfo=UTC)
CLIENT = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


def result(domain: str, success: bool = True, **counts: int) -> DomainResult:
    base = dict.fromkeys(COUNT_NAMES, 100)
    base.update(counts)
    return DomainResult(id=0, domain_name=domain, success=success, message="" if success else "boom", **base)


def task(
    task_id: int, day: int, *results: DomainResult, status: int = 2, event_id: int | None = 1, **extra: Any
) -> CompletedTask:
    start = T0 + timedelta(days=day)
    fields: dict[str, Any] = {
        "id": task_id,
        "client_id": CLIENT,
        "event_id": event_id,
        "execution_time": start,
        "start_time": start + timedelta(seconds=5),
        "end_time": start + timedelta(minutes=12, seconds=5),
        "status": status,
        "ad_structure_collection": True,
        "domain_results": list(results),
    }
    fields.update(extra)
    return CompletedTask(**fields)


def test_status_breakdown_fixed_order_and_unknown_last() -> None:
    tasks = [
        task(1, 0, status=8),
        task(2, 1, status=2),
        task(3, 2, status=5),
        task(4, 3, status=2),
        task(5, 4, status=42),
    ]
    breakdown = status_breakdown(tasks)
    assert [(s.code, s.label, s.count) for s in breakdown] == [
        (2, "Complete", 2),
        (5, "Failed", 1),
        (8, "Partially complete", 1),
        (42, "Unknown (42)", 1),
    ]
    full = status_breakdown(tasks, include_zero=True)
    assert [s.code for s in full][:10] == [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert sum(s.count for s in full) == 5


def test_duration_and_format() -> None:
    assert task_duration(task(1, 0)) == timedelta(minutes=12)
    assert task_duration(task(1, 0, end_time="0001-01-01T00:00:00Z")) is None
    assert task_duration(task(1, 0, end_time=T0 - timedelta(days=1))) is None
    assert format_duration(None) == ""
    assert format_duration(timedelta(seconds=45)) == "45s"
    assert format_duration(timedelta(minutes=12, seconds=5)) == "12m 05s"
    assert format_duration(timedelta(hours=3, minutes=4, seconds=59)) == "3h 04m"
    assert format_duration(timedelta(days=2, hours=3)) == "2d 03h"


def test_task_time_falls_back() -> None:
    assert task_time(task(1, 0)) == T0
    assert task_time(task(1, 0, execution_time=None)) == T0 + timedelta(seconds=5)
    bare = CompletedTask(id=9, client_id=CLIENT)
    assert task_time(bare) is None
    assert [t.id for t in chronological([task(3, 1), bare, task(2, 1), task(1, 0)])] == [9, 1, 2, 3]


def test_result_summary_and_totals() -> None:
    one = task(1, 0, result("A"), result("B", success=False), result("C"))
    summary = result_summary(one)
    assert (summary.ok, summary.failed, summary.total, summary.text()) == (2, 1, 3, "2 ok / 1 failed")
    assert result_summary(task(2, 0, result("A"))).text() == "1 ok"
    assert result_summary(task(3, 0)).text() == "—"
    totals = count_totals(one.domain_results)
    assert totals["user_count"] == 300 and len(totals) == 12


def test_domain_series_is_chronological_and_keyed_by_domain() -> None:
    tasks = [task(2, 1, result("B"), result("A", user_count=90)), task(1, 0, result("A", user_count=80))]
    series = domain_series(tasks)
    assert list(series) == ["A", "B"]
    assert [p.task_id for p in series["A"]] == [1, 2]
    assert [p.counts["user_count"] for p in series["A"]] == [80, 90]


def test_is_drop_boundaries() -> None:
    assert is_drop(100, 79, 0.2, 10)
    assert not is_drop(100, 80, 0.2, 10)  # exactly 20 % is not "more than"
    assert not is_drop(9, 0, 0.2, 10)  # tiny baseline
    assert is_drop(10, 0, 0.2, 10)
    assert not is_drop(100, 150, 0.2, 10)


def test_detect_drops_flags_only_real_drops() -> None:
    tasks = [
        task(1, 0, result("A", user_count=1000), result("B", group_count=50)),
        task(2, 1, result("A", user_count=700), result("B", group_count=45)),  # A users -30 %; B -10 %
        task(3, 2, result("A", success=False, user_count=0)),  # failed: ignored
        task(4, 3, result("A", user_count=690), result("B", group_count=5)),  # vs task 2: -1.4 %; B -88.9 %
        task(5, 4, result("A", user_count=100, computer_count=5)),  # users -85.5 %, computers -95 %
    ]
    drops = detect_drops(tasks)
    assert [(d.task_id, d.domain_name, d.field, d.previous, d.current, d.previous_task_id) for d in drops] == [
        (2, "A", "user_count", 1000, 700, 1),
        (4, "B", "group_count", 45, 5, 2),
        (5, "A", "user_count", 690, 100, 4),
        (5, "A", "computer_count", 100, 5, 4),
    ]
    assert drops[0].fraction == pytest.approx(0.3)
    assert drops[0].text() == "A Users 1,000 → 700 (-30.0 %)"
    assert set(drops_by_task(drops)) == {2, 4, 5}
    assert [t.id for t in tasks_with_drops(tasks, drops)] == [2, 4, 5]
    assert [(d.task_id, d.field) for d in detect_drops(tasks, threshold=0.5)] == [
        (4, "group_count"),
        (5, "user_count"),
        (5, "computer_count"),
    ]


def test_drops_compare_like_for_like_collection_kinds() -> None:
    full = task(1, 0, result("A", user_count=1000))
    sessions_only = task(2, 1, result("A", user_count=0), ad_structure_collection=False, session_collection=True)
    full_again = task(3, 2, result("A", user_count=990))
    assert detect_drops([full, sessions_only, full_again]) == []


def test_detect_drops_rejects_bad_threshold() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        detect_drops([], threshold=1.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        detect_drops([], threshold=-0.1)
    tasks = [task(1, 0, result("A", user_count=100)), task(2, 1, result("A", user_count=99))]
    assert [d.field for d in detect_drops(tasks, threshold=0.0)] == ["user_count"]  # 0: any decrease
    assert detect_drops(tasks, threshold=1.0) == []  # 1: nothing can fall by more than 100 %


def test_previous_comparable_run_is_one_rule_same_client_same_kinds_domain_collected() -> None:
    base = task(1, 0, result("A", user_count=200), result("B"), event_id=7)
    other_event = task(2, 1, result("A", user_count=190), event_id=8)  # another schedule, same kinds: counts
    failed_a = task(3, 2, result("A", success=False), result("B"), event_id=7)  # A failed: not A's baseline
    sessions_only = task(4, 3, result("A"), event_id=7, ad_structure_collection=False)  # other kinds
    other_client = task(5, 3, result("A"), event_id=7, client_id="1b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0")
    manual = task(6, 3, result("B", user_count=80), event_id=None)  # no event: still comparable
    latest = task(7, 4, result("A", user_count=100), result("B"), event_id=7)
    everything = [latest, manual, other_client, sessions_only, failed_a, other_event, base]
    assert previous_comparable(latest, "A", everything) is other_event
    assert previous_comparable(latest, "B", everything) is manual
    assert previous_comparable(other_event, "A", everything) is base
    assert previous_comparable(base, "A", everything) is None
    assert previous_comparable(latest, "C", everything) is None
    comparison = compare_with_previous(latest, everything)
    assert {row.domain_name: row.previous_task.id for row in comparison.domains if row.previous_task} == {
        "A": 2,
        "B": 6,
    }
    assert comparison.previous is manual and [run.id for run in comparison.baselines] == [6, 2]
    assert comparison.domains[0].deltas[0].delta == 100 - 190


def test_drops_and_comparison_name_the_same_baseline_for_every_drop() -> None:
    tasks = sample_tasks()
    drops = detect_drops(tasks, threshold=0.0)
    assert drops, "the samples have decreases"
    for drop in drops:
        current = next(t for t in tasks if t.id == drop.task_id)
        baseline = previous_comparable(current, drop.domain_name, tasks)
        assert baseline is not None and baseline.id == drop.previous_task_id, drop
        row = next(r for r in compare_with_previous(current, tasks).domains if r.domain_name == drop.domain_name)
        assert row.previous_task is baseline
        delta = row.deltas[[d.field for d in row.deltas].index(drop.field)]
        assert (delta.previous, delta.current) == (drop.previous, drop.current)


def test_compare_runs_marks_added_and_removed() -> None:
    before = task(1, 0, result("A", user_count=200), result("GONE"))
    after = task(2, 1, result("A", user_count=150, group_count=100), result("NEW", success=False))
    comparison = compare_runs(after, before)
    assert comparison.previous is before
    rows = {row.domain_name: row for row in comparison.domains}
    assert [row.domain_name for row in comparison.domains] == ["A", "GONE", "NEW"]
    assert rows["A"].change is Change.SAME
    assert rows["GONE"].change is Change.REMOVED and rows["GONE"].current_success is None
    assert rows["NEW"].change is Change.ADDED and rows["NEW"].current_success is False
    users = rows["A"].deltas[0]
    assert (users.field, users.previous, users.current, users.delta, users.percent) == (
        "user_count",
        200,
        150,
        -50,
        -25.0,
    )
    assert format_delta(users) == "-50 (-25.0 %)"
    totals = {delta.field: delta for delta in comparison.totals}
    # NEW failed: its counts stay out of the total (a failed result is not judged)
    assert (totals["user_count"].previous, totals["user_count"].current) == (300, 150)
    assert compare_runs(after, None).domains == ()


def test_format_delta() -> None:
    assert format_delta(CountDelta("user_count", 10, 10)) == "0"
    assert format_delta(CountDelta("user_count", 1000, 1250)) == "+250 (+25.0 %)"
    assert format_delta(CountDelta("user_count", None, 5)) == "+5 (new)"
    assert format_delta(CountDelta("user_count", 0, 5)) == "+5 (new)"
    assert format_delta(CountDelta("user_count", 5, None)) == "-5 (-100.0 %)"


def test_quick_filters() -> None:
    now = datetime(2026, 3, 10, 12, 30, 15, tzinfo=UTC)
    failed = QUICK_FILTERS_BY_NAME["failed-24h"]
    assert [str(f) for f in failed.filters(now)] == ["status=eq:5", "execution_time=gte:2026-03-09T12:30:15Z"]
    assert [str(f) for f in QUICK_FILTERS_BY_NAME["partial"].filters(now)] == ["status=eq:8"]
    drops = QUICK_FILTERS_BY_NAME["drops"]
    assert drops.filters(now) == [] and not drops.server_side
    assert len({quick.key for quick in QUICK_FILTERS}) == len(QUICK_FILTERS)


def test_compare_with_previous_passes_over_runs_that_did_not_collect_the_domain() -> None:
    full = task(1, 0, result("A", user_count=200), event_id=7)
    failed = task(2, 1, event_id=7, status=5)
    canceled = task(3, 2, event_id=7, status=3)
    latest = task(5, 3, result("A", user_count=100), result("NEW"), event_id=7)
    everything = [latest, canceled, failed, full]
    comparison = compare_with_previous(latest, everything)
    assert comparison.previous is full
    rows = {row.domain_name: row for row in comparison.domains}
    assert rows["A"].deltas[0].delta == -100 and rows["A"].change is Change.SAME
    assert rows["NEW"].change is Change.ADDED and rows["NEW"].previous_task is None
    first = compare_with_previous(full, everything)
    assert first.previous is None and first.baselines == ()


def test_triage_imports_without_textual() -> None:
    result = _import_with_textual_blocked("triage")
    assert result.returncode == 0, result.stderr
