"""The one rule for "the previous comparable run", used by the drops (and so the plot) and by "vs previous run".

For one domain of a task, its previous comparable run is the latest task before it (by time, then id: see
`task_order_key`) of the same client with the same collection kinds in which that domain was collected
successfully. Like for like: a run that does not collect AD structure reports zero users, which is no drop, and a
failed result has no counts to compare with. The event does not matter: a manual run or another schedule that
collected the domain the same way is as good a baseline as the last run of the same schedule (events are scoped
to a few domains, so "the previous run of the event" often has not collected the domain at all).
"""

from __future__ import annotations

from collections.abc import Iterable

from svctui.api.fleet_models import Run, RunResult
from svctui.api.models import CompletedTask, DomainResult, flag_marks
from svctui.triage.summary import task_order_key

Kind = tuple[str, str]


def comparable_kind(task: Run) -> Kind:
    """What two runs must share to be compared: the client and the collection kinds (`SLA·C··`)."""
    return (task.client_id.lower(), flag_marks(task))


def baseline_result(task: CompletedTask, domain_name: str) -> DomainResult | None:
    """The task's successful result for `domain_name` (the only kind that can serve as a baseline), or None."""
    return next((r for r in task.domain_results if r.domain_name == domain_name and r.success), None)


def baseline_results(task: Run) -> list[RunResult]:
    """The task's results that `baseline_result` returns, in order: the first successful result of each domain
    (one pass, for the code that walks every result of every run of a fleet)."""
    seen: set[str] = set()
    found: list[RunResult] = []
    for result in task.domain_results:
        if result.success and result.domain_name not in seen:
            seen.add(result.domain_name)
            found.append(result)
    return found


def previous_comparable(task: CompletedTask, domain_name: str, tasks: Iterable[CompletedTask]) -> CompletedTask | None:
    """The previous comparable run of `task` for `domain_name` among `tasks` (the rule above), or None."""
    kind, key = comparable_kind(task), task_order_key(task)
    earlier = [
        other
        for other in tasks
        if other.id != task.id
        and task_order_key(other) < key
        and comparable_kind(other) == kind
        and baseline_result(other, domain_name) is not None
    ]
    return max(earlier, key=task_order_key, default=None)
