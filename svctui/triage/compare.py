"""Compare a run with its previous comparable run (`svctui.triage.baseline`, the rule the drops use): per-domain,
per-count deltas, each domain against its own baseline task."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from svctui.api.models import CompletedTask, DomainResult
from svctui.triage.baseline import baseline_result, previous_comparable
from svctui.triage.summary import COUNT_LABELS, COUNT_NAMES, counts_of, task_order_key


class Change(StrEnum):
    """How a domain stands between a run and its baseline: in both, only in the run (no baseline), only before."""

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
    """One domain in the comparison: present in both runs, added, or removed; with per-count deltas.

    `previous_task` is the run the domain is compared with (its previous comparable run), None without one.
    """

    domain_name: str
    change: Change
    previous_success: bool | None
    current_success: bool | None
    deltas: tuple[CountDelta, ...]
    previous_task: CompletedTask | None = None

    @property
    def judged(self) -> bool:
        """Whether the counts are compared: no failed result on either side (a failed result has no counts, so it
        is neither judged nor a baseline, as in the drops)."""
        return self.current_success is not False and self.previous_success is not False


@dataclass(frozen=True)
class RunComparison:
    """A task against its baseline(s); `previous` is the newest baseline task (None when no domain has one)."""

    task: CompletedTask
    previous: CompletedTask | None
    domains: tuple[DomainComparison, ...] = field(default=())

    @property
    def baselines(self) -> tuple[CompletedTask, ...]:
        """The distinct baseline tasks, newest first."""
        found = {row.previous_task.id: row.previous_task for row in self.domains if row.previous_task is not None}
        return tuple(sorted(found.values(), key=task_order_key, reverse=True))

    @property
    def totals(self) -> tuple[CountDelta, ...]:
        """Per-count deltas summed over the domains compared (`judged`: a failed domain's zeros are left out)."""
        totals: list[CountDelta] = []
        judged = [row for row in self.domains if row.judged]
        for position, name in enumerate(COUNT_NAMES):
            before = sum(row.deltas[position].previous or 0 for row in judged)
            after = sum(row.deltas[position].current or 0 for row in judged)
            totals.append(CountDelta(name, before, after))
        return tuple(totals)


def _deltas(old: DomainResult | None, new: DomainResult | None) -> tuple[CountDelta, ...]:
    old_counts = counts_of(old) if old else {}
    new_counts = counts_of(new) if new else {}
    return tuple(CountDelta(count, old_counts.get(count), new_counts.get(count)) for count in COUNT_NAMES)


def compare_runs(task: CompletedTask, previous: CompletedTask | None) -> RunComparison:
    """Per-domain, per-count deltas of `task` against one chosen `previous` task, matched by domain name."""
    if previous is None:
        return RunComparison(task, None)
    before = {result.domain_name: result for result in previous.domain_results}
    after = {result.domain_name: result for result in task.domain_results}
    rows: list[DomainComparison] = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        change = Change.SAME if old and new else (Change.ADDED if new else Change.REMOVED)
        success = (old.success if old else None, new.success if new else None)
        rows.append(DomainComparison(name, change, *success, _deltas(old, new), previous if old else None))
    return RunComparison(task, previous, tuple(rows))


def compare_with_previous(task: CompletedTask, tasks: Iterable[CompletedTask]) -> RunComparison:
    """Each domain of `task` against its previous comparable run among `tasks` (the drops' rule).

    A domain without one is ADDED (nothing comparable before it). A failed result is not `judged`: its deltas
    (against what the server sent, usually zeros) are kept but are no drop and stay out of the totals.
    """
    pool = list(tasks)
    rows: list[DomainComparison] = []
    for result in sorted(task.domain_results, key=lambda result: result.domain_name):
        previous = previous_comparable(task, result.domain_name, pool)
        old = baseline_result(previous, result.domain_name) if previous is not None else None
        change = Change.SAME if old is not None else Change.ADDED
        success = True if old is not None else None
        rows.append(
            DomainComparison(result.domain_name, change, success, result.success, _deltas(old, result), previous)
        )
    newest = max((row.previous_task for row in rows if row.previous_task), key=task_order_key, default=None)
    return RunComparison(task, newest, tuple(rows))


def format_delta(delta: CountDelta) -> str:
    """`+12 (+3.4 %)`, `-40 (-25.0 %)`, `0`, or `+5 (new)` when there was no baseline."""
    if delta.delta == 0:
        return "0"
    sign = "+" if delta.delta > 0 else "-"
    number = f"{sign}{abs(delta.delta):,}"
    percent = delta.percent
    return f"{number} (new)" if percent is None else f"{number} ({sign}{abs(percent):.1f} %)"
