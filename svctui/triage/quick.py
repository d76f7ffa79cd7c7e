"""Quick filters of the Completed tasks screen: failed in the last 24 h, partially complete, not OK, runs with drops.

The server's filters are AND-only and `status` takes eq, ~eq and neq: "status is one of Timed out, Failed,
Partially complete" cannot be sent as an IN list. It is sent as `status=neq:<code>` for every *other* known code
(ANDed), which is exactly those three among the codes the API defines; a code the server added later would pass
too, and the notice on screen says so.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from svctui.api.filters import COMPLETED_TASKS, Filter
from svctui.api.models import NOT_OK_STATUSES, TaskStatus


def _failed_last_24h(now: datetime) -> list[Filter]:
    return [
        Filter.build(COMPLETED_TASKS, "status", "eq", str(int(TaskStatus.FAILED))),
        Filter.build(COMPLETED_TASKS, "execution_time", "gte", "-24h", now),
    ]


def _partially_complete(now: datetime) -> list[Filter]:
    return [Filter.build(COMPLETED_TASKS, "status", "eq", str(int(TaskStatus.PARTIALLY_COMPLETE)))]


def _not_ok(now: datetime) -> list[Filter]:
    return [
        Filter.build(COMPLETED_TASKS, "status", "neq", str(int(code)))
        for code in TaskStatus
        if code not in NOT_OK_STATUSES
    ]


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
        "not-ok",
        "o",
        "Not OK",
        "Timed out, Failed or Partially complete (server-side: status ≠ each other code; filters only AND)",
        server_side=True,
        build=_not_ok,
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
