"""Compare a run with the previous run of the same event: per-domain, per-count deltas, added/removed domains."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from svctui.api.models import CompletedTask
from svctui.triage.summary import COUNT_LABELS, COUNT_NAMES, count_totals, counts_of, task_order_key


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
    skipped: tuple[CompletedTask, ...] = field(default=())

    @property
    def totals(self) -> tuple[CountDelta, ...]:
        """Per-count deltas summed over all domains of both runs."""
        before = count_totals(self.previous.domain_results) if self.previous else dict.fromkeys(COUNT_NAMES, 0)
        after = count_totals(self.task.domain_results)
        return tuple(CountDelta(name, before[name], after[name]) for name in COUNT_NAMES)


def _same_event_before(task: CompletedTask, tasks: Iterable[CompletedTask]) -> list[CompletedTask]:
    if task.event_id is None:
        return []
    key = task_order_key(task)
    return [
        other
        for other in tasks
        if other.event_id == task.event_id and other.id != task.id and task_order_key(other) < key
    ]


def previous_run(
    task: CompletedTask, tasks: Iterable[CompletedTask], *, require_results: bool = False
) -> CompletedTask | None:
    """The latest task of the same event strictly before `task` (by time, then id), or None.

    With `require_results`, runs without domain results (failed early, canceled) are passed over.
    """
    earlier = [other for other in _same_event_before(task, tasks) if other.domain_results or not require_results]
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


def compare_with_previous(
    task: CompletedTask, tasks: Iterable[CompletedTask], *, require_results: bool = False
) -> RunComparison:
    """`compare_runs` against the previous run of the same event among `tasks`.

    With `require_results`, the comparison is against the previous run that has domain results, and the runs
    passed over on the way (newest first) are listed in `skipped`.
    """
    candidates = _same_event_before(task, tasks)
    previous = previous_run(task, candidates, require_results=require_results)
    comparison = compare_runs(task, previous)
    if not require_results:
        return comparison
    floor = task_order_key(previous) if previous is not None else None
    skipped = [other for other in candidates if floor is None or task_order_key(other) > floor]
    return replace(comparison, skipped=tuple(sorted(skipped, key=task_order_key, reverse=True)))


def format_delta(delta: CountDelta) -> str:
    """`+12 (+3.4 %)`, `-40 (-25.0 %)`, `0`, or `+5 (new)` when there was no baseline."""
    if delta.delta == 0:
        return "0"
    sign = "+" if delta.delta > 0 else "-"
    number = f"{sign}{abs(delta.delta):,}"
    percent = delta.percent
    return f"{number} (new)" if percent is None else f"{number} ({sign}{abs(percent):.1f} %)"
