"""Completed-task triage as pure functions: status breakdown, durations, per-domain series, drops, run comparison.

No Textual and no I/O here: the screen and the CLI feed lists of `CompletedTask` in and render what comes out.

Rules, in one place:
- A task's time is its execution time, else its start time, else its end time, else its creation time; tasks are
  ordered by (time, id). Tasks without any time sort first.
- Drop rule: for each domain (by `domain_name`) and each of the 12 counts, a successful domain result is a drop
  when `(previous - current) / previous > threshold` (default 0.2 = 20 %), where `previous` is the same count
  in the latest earlier *successful* result of the same domain from a task with the same collection kinds
  (like for like: a run that does not collect AD structure reports zero users, which is no drop). Failed
  domain results are ignored (neither flagged nor used as a baseline), and baselines below `min_baseline`
  (default 10) are too small to judge.
- "Previous run" of a task: the latest earlier task (same ordering) with the same `event_id`, whatever its status.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from svctui.api.filters import COMPLETED_TASKS, Filter
from svctui.api.models import COUNT_FIELDS, CompletedTask, DomainResult, TaskStatus, flag_marks, status_label

DEFAULT_DROP_THRESHOLD = 0.2
DEFAULT_MIN_BASELINE = 10
COUNT_NAMES: tuple[str, ...] = tuple(name for name, _ in COUNT_FIELDS)
COUNT_LABELS: Mapping[str, str] = dict(COUNT_FIELDS)
STATUS_ORDER: tuple[int, ...] = tuple(int(status) for status in TaskStatus)


# ---------------------------------------------------------------- status and per-task summaries


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


def task_time(task: CompletedTask) -> datetime | None:
    """The moment a task stands for: execution, else start, else end, else creation time."""
    return task.execution_time or task.start_time or task.end_time or task.created_at


def task_order_key(task: CompletedTask) -> tuple[int, float, int]:
    """Sort key (has time, timestamp, id): chronological, ties broken by id, timeless tasks first."""
    moment = task_time(task)
    return (0, 0.0, task.id) if moment is None else (1, moment.timestamp(), task.id)


def chronological(tasks: Iterable[CompletedTask]) -> list[CompletedTask]:
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


def counts_of(result: DomainResult) -> dict[str, int]:
    """The 12 counts of one domain result, by field name."""
    return {name: int(getattr(result, name)) for name in COUNT_NAMES}


# ---------------------------------------------------------------- per-domain series and drops


@dataclass(frozen=True)
class DomainPoint:
    """One domain's result in one task, placed in time."""

    task_id: int
    event_id: int | None
    time: datetime | None
    success: bool
    kinds: str
    counts: Mapping[str, int]


def domain_series(tasks: Iterable[CompletedTask]) -> dict[str, list[DomainPoint]]:
    """Per domain name, its results across `tasks` oldest first (all results, failed ones included)."""
    series: dict[str, list[DomainPoint]] = defaultdict(list)
    for task in chronological(tasks):
        kinds = flag_marks(task)
        for result in task.domain_results:
            point = DomainPoint(task.id, task.event_id, task_time(task), result.success, kinds, counts_of(result))
            series[result.domain_name].append(point)
    return dict(sorted(series.items()))


@dataclass(frozen=True)
class Drop:
    """A count that fell by more than the threshold against the previous like-for-like successful run."""

    task_id: int
    domain_name: str
    field: str
    previous: int
    current: int
    previous_task_id: int
    time: datetime | None = None

    @property
    def fraction(self) -> float:
        """How much was lost, 0..1 (0.35 = 35 % fewer)."""
        return (self.previous - self.current) / self.previous

    @property
    def label(self) -> str:
        """The count's human label, e.g. `Users`."""
        return COUNT_LABELS.get(self.field, self.field)

    def text(self) -> str:
        """`CORP.EXAMPLE.COM Users 1,200 → 700 (-41.7 %)`."""
        return f"{self.domain_name} {self.label} {self.previous:,} → {self.current:,} (-{self.fraction * 100:.1f} %)"


def is_drop(previous: int, current: int, threshold: float, min_baseline: int) -> bool:
    """The drop rule: baseline at least `min_baseline` and a loss strictly above `threshold`."""
    return previous >= min_baseline and previous > 0 and (previous - current) / previous > threshold


def detect_drops(
    tasks: Iterable[CompletedTask],
    threshold: float = DEFAULT_DROP_THRESHOLD,
    min_baseline: int = DEFAULT_MIN_BASELINE,
) -> list[Drop]:
    """All drops in `tasks` (one client's tasks), oldest first, by the rule in the module docstring."""
    if not 0 < threshold < 1:
        raise ValueError(f"drop threshold must be between 0 and 1 (exclusive), got {threshold}")
    drops: list[Drop] = []
    for domain_name, points in domain_series(tasks).items():
        baseline: dict[str, DomainPoint] = {}
        for point in points:
            if not point.success:
                continue
            before = baseline.get(point.kinds)
            if before is not None:
                for name in COUNT_NAMES:
                    previous, current = before.counts[name], point.counts[name]
                    if is_drop(previous, current, threshold, min_baseline):
                        drops.append(
                            Drop(point.task_id, domain_name, name, previous, current, before.task_id, point.time)
                        )
            baseline[point.kinds] = point
    drops.sort(key=lambda drop: (drop.time is not None, drop.time or datetime.min, drop.task_id, drop.domain_name))
    return drops


def drops_by_task(drops: Iterable[Drop]) -> dict[int, list[Drop]]:
    """Group drops by the task they were found in."""
    grouped: dict[int, list[Drop]] = defaultdict(list)
    for drop in drops:
        grouped[drop.task_id].append(drop)
    return dict(grouped)


# ---------------------------------------------------------------- compare with the previous run


class Change(StrEnum):
    """How a domain differs between a run and the previous run of its event."""

    SAME = "same"
    ADDED = "added"
    REMOVED = "removed"


@dataclass(frozen=True)
class CountDelta:
    """One count of one domain: before, after, and the difference."""

    field: str
    previous: int | None
    current: int | None

    @property
    def label(self) -> str:
        """The count's human label."""
        return COUNT_LABELS.get(self.field, self.field)

    @property
    def delta(self) -> int:
        """current - previous (a missing side counts as 0)."""
        return (self.current or 0) - (self.previous or 0)

    @property
    def percent(self) -> float | None:
        """Relative change in percent, None when there is no non-zero baseline."""
        if not self.previous:
            return None
        return self.delta / self.previous * 100


@dataclass(frozen=True)
class DomainComparison:
    """One domain in the comparison: present in both runs, added, or removed; with per-count deltas."""

    domain_name: str
    change: Change
    previous_success: bool | None
    current_success: bool | None
    deltas: tuple[CountDelta, ...]


@dataclass(frozen=True)
class RunComparison:
    """A task against the previous task of the same event (None when there is none)."""

    task: CompletedTask
    previous: CompletedTask | None
    domains: tuple[DomainComparison, ...] = field(default=())

    @property
    def totals(self) -> tuple[CountDelta, ...]:
        """Per-count deltas summed over all domains of both runs."""
        before = count_totals(self.previous.domain_results) if self.previous else dict.fromkeys(COUNT_NAMES, 0)
        after = count_totals(self.task.domain_results)
        return tuple(CountDelta(name, before[name], after[name]) for name in COUNT_NAMES)


def previous_run(task: CompletedTask, tasks: Iterable[CompletedTask]) -> CompletedTask | None:
    """The latest task of the same event strictly before `task` (by time, then id), or None."""
    if task.event_id is None:
        return None
    key = task_order_key(task)
    earlier = [
        other
        for other in tasks
        if other.event_id == task.event_id and other.id != task.id and task_order_key(other) < key
    ]
    return max(earlier, key=task_order_key, default=None)


def compare_runs(task: CompletedTask, previous: CompletedTask | None) -> RunComparison:
    """Per-domain, per-count deltas of `task` against `previous`, matched by domain name."""
    if previous is None:
        return RunComparison(task, None)
    before = {result.domain_name: result for result in previous.domain_results}
    after = {result.domain_name: result for result in task.domain_results}
    rows: list[DomainComparison] = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        change = Change.SAME if old and new else (Change.ADDED if new else Change.REMOVED)
        old_counts = counts_of(old) if old else {}
        new_counts = counts_of(new) if new else {}
        deltas = tuple(CountDelta(count, old_counts.get(count), new_counts.get(count)) for count in COUNT_NAMES)
        rows.append(DomainComparison(name, change, old.success if old else None, new.success if new else None, deltas))
    return RunComparison(task, previous, tuple(rows))


def compare_with_previous(task: CompletedTask, tasks: Iterable[CompletedTask]) -> RunComparison:
    """`compare_runs` against the previous run of the same event found among `tasks`."""
    return compare_runs(task, previous_run(task, tasks))


def format_delta(delta: CountDelta) -> str:
    """`+12 (+3.4 %)`, `-40 (-25.0 %)`, `0`, or `+5 (new)` when there was no baseline."""
    if delta.delta == 0:
        return "0"
    sign = "+" if delta.delta > 0 else "-"
    number = f"{sign}{abs(delta.delta):,}"
    percent = delta.percent
    return f"{number} (new)" if percent is None else f"{number} ({sign}{abs(percent):.1f} %)"


# ---------------------------------------------------------------- quick filters


def _failed_last_24h(now: datetime) -> list[Filter]:
    return [
        Filter.build(COMPLETED_TASKS, "status", "eq", str(int(TaskStatus.FAILED))),
        Filter.build(COMPLETED_TASKS, "execution_time", "gte", "-24h", now),
    ]


def _partially_complete(now: datetime) -> list[Filter]:
    return [Filter.build(COMPLETED_TASKS, "status", "eq", str(int(TaskStatus.PARTIALLY_COMPLETE)))]


def _client_side(now: datetime) -> list[Filter]:
    return []


@dataclass(frozen=True)
class QuickFilter:
    """A one-key filter: server-side filters built from the app clock, or a client-side test over loaded tasks."""

    name: str
    key: str
    title: str
    description: str
    server_side: bool
    build: Callable[[datetime], list[Filter]] = _client_side

    def filters(self, now: datetime) -> list[Filter]:
        """The server filters this quick filter sends at `now` (empty for client-side ones)."""
        return self.build(now)


QUICK_FILTERS: tuple[QuickFilter, ...] = (
    QuickFilter(
        "failed-24h",
        "f",
        "Failed, last 24 h",
        "status Failed and execution time within the last 24 hours (server-side)",
        server_side=True,
        build=_failed_last_24h,
    ),
    QuickFilter(
        "partial",
        "i",
        "Partially complete",
        "status Partially complete (server-side)",
        server_side=True,
        build=_partially_complete,
    ),
    QuickFilter(
        "drops",
        "d",
        "Runs with drops",
        "tasks with a count drop beyond the threshold; client-side, over the tasks loaded for the plot",
        server_side=False,
    ),
)
QUICK_FILTERS_BY_NAME: Mapping[str, QuickFilter] = {quick.name: quick for quick in QUICK_FILTERS}


def tasks_with_drops(tasks: Sequence[CompletedTask], drops: Iterable[Drop]) -> list[CompletedTask]:
    """The tasks (in their given order) that have at least one drop."""
    flagged = {drop.task_id for drop in drops}
    return [task for task in tasks if task.id in flagged]
