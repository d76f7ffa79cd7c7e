"""Completed-task triage as pure functions: status breakdown, durations, per-domain series, drops, run comparison.

No Textual and no I/O here: the screen and the CLI feed lists of `CompletedTask` in and render what comes out.

Rules, in one place:
- A task's time is its execution time, else its start time, else its end time, else its creation time; tasks are
  ordered by (time, id). Tasks without any time sort first.
- "Previous comparable run" (one rule, `baseline.previous_comparable`): for one domain of a task, the latest
  earlier task (same ordering) of the same client with the same collection kinds in which that domain was
  collected successfully. Both the drops (and so the plot) and "vs previous run" use it, so they name the same
  baseline task.
- Drop rule: for each domain (by `domain_name`) and each of the 12 counts, a successful domain result is a drop
  when `(previous - current) / previous > threshold` (default 0.2 = 20 %), where `previous` is the same count
  in the domain's previous comparable run (like for like: a run that does not collect AD structure reports zero
  users, which is no drop). Failed domain results are not judged, and baselines below `min_baseline` (default
  10) are too small to judge.
"""

from __future__ import annotations

from svctui.triage.baseline import baseline_result, comparable_kind, previous_comparable
from svctui.triage.compare import (
    Change,
    CountDelta,
    DomainComparison,
    RunComparison,
    compare_runs,
    compare_with_previous,
    format_delta,
)
from svctui.triage.drops import (
    DomainPoint,
    Drop,
    detect_drops,
    domain_series,
    drops_by_task,
    is_drop,
    tasks_with_drops,
)
from svctui.triage.quick import (
    QUICK_FILTERS,
    QUICK_FILTERS_BY_NAME,
    QuickFilter,
)
from svctui.triage.summary import (
    COUNT_LABELS,
    COUNT_NAMES,
    DEFAULT_DROP_THRESHOLD,
    DEFAULT_MIN_BASELINE,
    STATUS_ORDER,
    ResultSummary,
    StatusCount,
    chronological,
    count_totals,
    counts_of,
    format_duration,
    result_summary,
    status_breakdown,
    task_duration,
    task_order_key,
    task_time,
)

__all__ = [
    "COUNT_LABELS",
    "COUNT_NAMES",
    "DEFAULT_DROP_THRESHOLD",
    "DEFAULT_MIN_BASELINE",
    "QUICK_FILTERS",
    "QUICK_FILTERS_BY_NAME",
    "STATUS_ORDER",
    "Change",
    "CountDelta",
    "DomainComparison",
    "DomainPoint",
    "Drop",
    "QuickFilter",
    "ResultSummary",
    "RunComparison",
    "StatusCount",
    "baseline_result",
    "chronological",
    "comparable_kind",
    "compare_runs",
    "compare_with_previous",
    "count_totals",
    "counts_of",
    "detect_drops",
    "domain_series",
    "drops_by_task",
    "format_delta",
    "format_duration",
    "is_drop",
    "previous_comparable",
    "result_summary",
    "status_breakdown",
    "task_duration",
    "task_order_key",
    "task_time",
    "tasks_with_drops",
]
