"""Issue 30 item 8: the order of the drop list (the Tasks screen's drops panel and `svctui health` read it as is):
timeless tasks first, then by time, then task id, then domain name; a domain's counts in COUNT_NAMES order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from svctui.api.fields import COUNT_NAMES
from svctui.api.models import CompletedTask, DomainResult
from svctui.triage.drops import Drop, detect_drops, domain_series, drops_by_task, is_drop, tasks_with_drops

CLIENT = "7d3c1a2b-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
T0 = datetime(2026, 3, 1, 2, 0, tzinfo=UTC)


def result(domain: str, **counts: int) -> DomainResult:
    """A successful domain result, every count 100 unless given."""
    return DomainResult(
        id=0, domain_name=domain, success=True, message="", **(dict.fromkeys(COUNT_NAMES, 100) | counts)
    )


def failed(domain: str) -> DomainResult:
    """A failed domain result (its counts zeros, as the server sends them)."""
    return DomainResult(id=0, domain_name=domain, success=False, message="boom", **dict.fromkeys(COUNT_NAMES, 0))


def task(task_id: int, when: datetime | None, *results: DomainResult, **extra: Any) -> CompletedTask:
    """A full-collection task of event 1 at `when` (None: a task with no time at all)."""
    return CompletedTask(
        id=task_id, client_id=CLIENT, event_id=1, execution_time=when, status=2, ad_structure_collection=True,
        domain_results=list(results), **extra,
    )  # fmt: skip


def key(drop: Drop) -> tuple[int, str, str]:
    """What a reader sees of a drop's place: task, domain, count."""
    return (drop.task_id, drop.domain_name, drop.field)


def test_drops_are_listed_by_time_then_task_then_domain_whatever_order_the_tasks_came_in() -> None:
    fields = COUNT_NAMES[:2]
    low = dict.fromkeys(fields, 10)
    tasks = [
        task(9, T0 + timedelta(days=2), result("Z", **low), result("A", **low)),  # both domains drop, Z listed first
        task(3, T0, result("A"), result("Z")),
        task(7, T0 + timedelta(days=1), result("A"), result("M"), result("Z")),
        task(5, T0 + timedelta(days=2), result("M", **low)),  # same time as task 9, lower id
        task(4, T0 + timedelta(days=1, hours=-1), result("A"), result("Z")),
    ]
    drops = detect_drops(tasks)
    assert [key(drop) for drop in drops] == [
        (5, "M", fields[0]),
        (5, "M", fields[1]),
        (9, "A", fields[0]),
        (9, "A", fields[1]),
        (9, "Z", fields[0]),
        (9, "Z", fields[1]),
    ]
    assert {(drop.previous_task_id, drop.time) for drop in drops} == {(7, T0 + timedelta(days=2))}
    assert list(drops_by_task(drops)) == [5, 9]
    assert [t.id for t in tasks_with_drops(tasks, reversed(drops))] == [9, 5]


def test_a_drop_in_a_task_with_no_time_comes_before_every_timed_one() -> None:
    tasks = [task(1, T0, result("A")), task(2, T0 + timedelta(days=1), result("A", user_count=1))]
    timeless = [task(50, None, result("B"), created_at=None), task(60, None, result("B", user_count=1))]
    drops = detect_drops([*tasks, *timeless])
    assert [(drop.task_id, drop.time is None) for drop in drops] == [(60, True), (2, False)]
    assert drops[0].previous_task_id == 50


def test_the_drop_rule_at_its_edges() -> None:
    assert is_drop(10, 7, 0.2, 10) and not is_drop(10, 8, 0.2, 10)  # 30 % is a drop, 20 % is not
    assert not is_drop(0, 0, 0.0, 0)  # nothing to lose
    assert is_drop(1, 0, 0.99, 0)
    drop = Drop(1, "CORP", "user_count", 1200, 700, 0)
    assert drop.text() == "CORP Users 1,200 → 700 (-41.7 %)" and drop.label == "Users"
    assert Drop(1, "CORP", "odd_count", 10, 5, 0).label == "odd_count"


def test_domain_series_are_per_domain_oldest_first_with_failures_kept() -> None:
    failed = DomainResult(id=0, domain_name="A", success=False, message="boom", **dict.fromkeys(COUNT_NAMES, 0))
    series = domain_series(
        [task(2, T0 + timedelta(days=1), failed, result("B")), task(1, T0, result("A", user_count=5))]
    )
    assert list(series) == ["A", "B"]
    assert [(point.task_id, point.success, point.counts["user_count"]) for point in series["A"]] == [
        (1, True, 5),
        (2, False, 0),
    ]
    assert series["B"][0].time == T0 + timedelta(days=1) and series["B"][0].event_id == 1


def test_a_later_drop_comes_after_an_earlier_one_whatever_their_task_ids() -> None:
    tasks = [
        task(20, T0, result("A"), result("B")),
        task(30, T0 + timedelta(days=1), result("A", user_count=1)),
        task(10, T0 + timedelta(days=2), failed("A"), result("B", user_count=1)),  # failed A first
    ]
    drops = detect_drops(tasks)
    assert [key(drop) for drop in drops] == [(30, "A", "user_count"), (10, "B", "user_count")]
    assert drops_by_task(drops) == {30: [drops[0]], 10: [drops[1]]}
