"""Per-domain count series across a client's tasks, and drop detection (the rule is in svctui.triage)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from svctui.api.fleet_models import Run
from svctui.api.models import CompletedTask, flag_marks
from svctui.triage.baseline import Kind, baseline_results, comparable_kind
from svctui.triage.summary import (
    COUNT_LABELS,
    COUNT_NAMES,
    DEFAULT_DROP_THRESHOLD,
    DEFAULT_MIN_BASELINE,
    chronological,
    count_values,
    counts_of,
    task_time,
)


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

    def run_text(self) -> str:
        """`task 3980: CORP.EXAMPLE.COM Users 1,200 → 700 (-41.7 %) vs task 3484`: the run it is in and its baseline
        (`svctui health`'s note and the Clients detail say it so)."""
        return f"task {self.task_id}: {self.text()} vs task {self.previous_task_id}"


def is_drop(previous: int, current: int, threshold: float, min_baseline: int) -> bool:
    """The drop rule: baseline at least `min_baseline` and a loss strictly above `threshold`."""
    return previous >= min_baseline and previous > 0 and (previous - current) / previous > threshold


def detect_drops(
    tasks: Iterable[Run],
    threshold: float = DEFAULT_DROP_THRESHOLD,
    min_baseline: int = DEFAULT_MIN_BASELINE,
    *,
    ordered: bool = False,
) -> list[Drop]:
    """All drops in `tasks`, oldest first: each successful domain result against the same domain's result in its
    previous comparable run (`svctui.triage.baseline`), by the rule in the package docstring. `ordered`: `tasks`
    is chronological already (a caller judging a fleet sorts each client's runs once, not three times)."""
    if not 0 <= threshold <= 1:
        raise ValueError(f"drop threshold must be between 0 and 1 (0.2 = 20 %), got {threshold}")
    drops: list[Drop] = []
    # one chronological pass: the last comparable success of each (domain, kind) so far is exactly what
    # previous_comparable() finds for the next task (tests check the two agree)
    latest: dict[tuple[str, Kind], tuple[int, tuple[int, ...]]] = {}  # the baseline's task id and its counts
    for task in tasks if ordered else chronological(tasks):
        kind = comparable_kind(task)
        for result in baseline_results(task):  # a failed result is neither judged nor a baseline
            counts = count_values(result)
            before = latest.get((result.domain_name, kind))
            if before is not None:
                for name, previous, current in zip(COUNT_NAMES, before[1], counts, strict=True):
                    # no loss is no drop at any threshold: the rule is asked only about the counts that fell
                    if current < previous and is_drop(previous, current, threshold, min_baseline):
                        drops.append(
                            Drop(task.id, result.domain_name, name, previous, current, before[0], task_time(task))
                        )
            latest[(result.domain_name, kind)] = (task.id, counts)
    drops.sort(key=lambda drop: (drop.time is not None, drop.time or datetime.min, drop.task_id, drop.domain_name))
    return drops


def drops_by_task(drops: Iterable[Drop]) -> dict[int, list[Drop]]:
    """Group drops by the task they were found in."""
    grouped: dict[int, list[Drop]] = defaultdict(list)
    for drop in drops:
        grouped[drop.task_id].append(drop)
    return dict(grouped)


def tasks_with_drops(tasks: Sequence[CompletedTask], drops: Iterable[Drop]) -> list[CompletedTask]:
    """The tasks (in their given order) that have at least one drop."""
    flagged = {drop.task_id for drop in drops}
    return [task for task in tasks if task.id in flagged]
