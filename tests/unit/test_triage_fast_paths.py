"""The one-pass helpers the fleet's judging uses (issue 29 item 8) give what the rules they stand for give."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from svctui.api.fields import COUNT_NAMES, FLAG_MARKS
from svctui.api.models import CompletedTask, DomainResult, flag_marks
from svctui.triage.baseline import baseline_result, baseline_results
from svctui.triage.drops import detect_drops, is_drop
from svctui.triage.summary import count_values, counts_of

START = datetime(2026, 1, 1, tzinfo=UTC)


def result(domain: str, *, success: bool = True, counts: dict[str, int] | None = None, **extra: int) -> DomainResult:
    return DomainResult(id=0, domain_name=domain, success=success, **(counts or {}), **extra)


def task(task_id: int, *results: DomainResult, **extra: Any) -> CompletedTask:
    return CompletedTask(
        id=task_id, client_id="C", execution_time=START + timedelta(days=task_id), domain_results=list(results), **extra
    )


def test_baseline_results_are_exactly_the_results_baseline_result_returns() -> None:
    """The first successful result of each domain, in order: a failed one, and a repeat of a domain, are left out."""
    run = task(
        1,
        result("A", success=False),
        result("A", user_count=1),
        result("B"),
        result("A", user_count=2),
        result("C", success=False),
        result("B", success=False),
    )
    expected = [r for r in run.domain_results if baseline_result(run, r.domain_name) is r]
    assert baseline_results(run) == expected
    assert [(r.domain_name, r.user_count) for r in expected] == [("A", 1), ("B", 0)]
    assert baseline_results(task(2)) == []


def test_count_values_are_counts_of_in_count_names_order() -> None:
    counts = {name: index * 7 + 1 for index, name in enumerate(COUNT_NAMES)}
    one = result("A", counts=counts)
    assert count_values(one) == tuple(counts_of(one).values()) == tuple(counts[name] for name in COUNT_NAMES)


def test_flag_marks_of_every_combination_of_flags() -> None:
    """Each flag on or off, in FLAG_MARKS order: its mark or `·` (all 128 combinations)."""
    names = [name for name, _ in FLAG_MARKS]
    for flags in itertools.product((False, True), repeat=len(names)):
        run = task(1, **dict(zip(names, flags, strict=True)))
        expected = "".join(mark if on else "·" for on, (_, mark) in zip(flags, FLAG_MARKS, strict=True))
        assert flag_marks(run) == expected


def test_a_count_that_did_not_fall_is_never_a_drop_and_every_fall_asks_the_rule() -> None:
    """detect_drops asks is_drop only about counts that fell: the drops it finds are those the rule finds for every
    pair of like runs, at the edges of the threshold (exactly 20 % is no drop) and of the baseline (min 10)."""
    previous = {"user_count": 100, "group_count": 10, "computer_count": 9, "gpo_count": 50, "ou_count": 0}
    current = {"user_count": 80, "group_count": 7, "computer_count": 0, "gpo_count": 60, "ou_count": 0}
    drops = detect_drops([task(1, result("A", counts=previous)), task(2, result("A", counts=current))], 0.2, 10)
    expected = [name for name in COUNT_NAMES if is_drop(previous.get(name, 0), current.get(name, 0), 0.2, 10)]
    assert [drop.field for drop in drops] == expected == ["group_count"]
    assert (drops[0].previous, drops[0].current, drops[0].previous_task_id, drops[0].task_id) == (10, 7, 1, 2)
    for threshold in (0.0, 1.0):  # no loss is no drop even at a threshold of 0; a loss of all is none at 1
        found = detect_drops(
            [task(1, result("A", counts=previous)), task(2, result("A", counts=current))], threshold, 0
        )
        assert all(drop.current < drop.previous for drop in found)
        assert {drop.field for drop in found} == {
            name for name in COUNT_NAMES if is_drop(previous.get(name, 0), current.get(name, 0), threshold, 0)
        }
