"""Status breakdown, task times and durations, per-task domain-result summaries, count totals."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeVar

from svctui.api.fields import COUNT_LABELS as COUNT_LABELS
from svctui.api.fields import COUNT_NAMES as COUNT_NAMES
from svctui.api.fleet_models import Run, RunResult
from svctui.api.models import CompletedTask, DomainResult, TaskStatus, status_label

R = TypeVar("R", bound=Run)
DEFAULT_DROP_THRESHOLD = 0.2
DEFAULT_MIN_BASELINE = 10
STATUS_ORDER: tuple[int, ...] = tuple(int(status) for status in TaskStatus)


@dataclass(frozen=True)
class StatusCount:
    """How many tasks have one status code."""

    code: int
    label: str
    count: int


def status_breakdown(tasks: Iterable[CompletedTask], *, include_zero: bool = False) -> list[StatusCount]:
    """Counts per status in the fixed order Invalid … Partially complete, unknown codes last (ascending)."""
    counts = Counter(task.status for task in tasks)
    known = [code for code in STATUS_ORDER if include_zero or counts.get(code)]
    unknown = sorted(code for code in counts if code not in STATUS_ORDER)
    return [StatusCount(code, status_label(code), counts.get(code, 0)) for code in [*known, *unknown]]


def task_time(task: Run) -> datetime | None:
    """The moment a task stands for: execution, else start, else end, else creation time."""
    return task.execution_time or task.start_time or task.end_time or task.created_at


def task_order_key(task: Run) -> tuple[int, float, int]:
    """Sort key (has time, timestamp, id): chronological, ties broken by id, timeless tasks first."""
    moment = task_time(task)
    return (0, 0.0, task.id) if moment is None else (1, moment.timestamp(), task.id)


def chronological(tasks: Iterable[R]) -> list[R]:
    """Tasks ordered oldest first by `task_order_key`."""
    return sorted(tasks, key=task_order_key)


def task_duration(task: CompletedTask) -> timedelta | None:
    """End minus start, or None when either is unset or the end precedes the start."""
    if task.start_time is None or task.end_time is None or task.end_time < task.start_time:
        return None
    return task.end_time - task.start_time


def format_duration(duration: timedelta | None) -> str:
    """Compact duration: `45s`, `12m 05s`, `3h 04m`, `2d 03h`; empty when unknown."""
    if duration is None:
        return ""
    seconds = int(duration.total_seconds())
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours:02d}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


@dataclass(frozen=True)
class ResultSummary:
    """Domain results of one task: how many succeeded and failed."""

    ok: int
    failed: int

    @property
    def total(self) -> int:
        """Number of domain results."""
        return self.ok + self.failed

    def text(self) -> str:
        """`3 ok / 1 failed`, `3 ok`, or `—` when there are none."""
        if not self.total:
            return "—"
        return f"{self.ok} ok / {self.failed} failed" if self.failed else f"{self.ok} ok"


def result_summary(task: CompletedTask) -> ResultSummary:
    """Count the task's successful and failed domain results."""
    ok = sum(1 for result in task.domain_results if result.success)
    return ResultSummary(ok=ok, failed=len(task.domain_results) - ok)


def count_totals(results: Iterable[DomainResult]) -> dict[str, int]:
    """Sum of each of the 12 counts over `results`."""
    totals = dict.fromkeys(COUNT_NAMES, 0)
    for result in results:
        for name in COUNT_NAMES:
            totals[name] += int(getattr(result, name))
    return totals


_COUNTS_OF = operator.attrgetter(*COUNT_NAMES)


def count_values(result: RunResult) -> tuple[int, ...]:
    """The 12 counts of one domain result in COUNT_NAMES order (`counts_of` without the names: one C-level call)."""
    return tuple(map(int, _COUNTS_OF(result)))


def counts_of(result: DomainResult) -> dict[str, int]:
    """The 12 counts of one domain result, by field name."""
    return {name: int(getattr(result, name)) for name in COUNT_NAMES}
