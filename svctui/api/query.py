"""What one list request asks for, endpoint included: `ListQuery`, built alike by the CLI, dashboard, bench/, tests."""

from __future__ import annotations

from dataclasses import dataclass, replace

from svctui.api.filters import Filter, SortKey
from svctui.api.limits import TaskEndpoint


@dataclass(frozen=True)
class ListQuery:
    """Filters, sort keys, skip, limit, hydration and endpoint of one list request (None = the resource's default).

    `endpoint` names the path of a resource that has two (`client.tasks`: `completed-jobs`, or `completed-tasks`,
    deprecated; None reads the client's `task_endpoint`: `completed-jobs` unless the server lacks it); the other
    resources have one path and refuse a query that names one.
    """

    filters: tuple[Filter, ...] = ()
    sort: tuple[SortKey, ...] = ()
    skip: int = 0
    limit: int | None = None
    hydrate_domains: bool | None = None
    hydrate_ous: bool | None = None
    endpoint: TaskEndpoint | None = None

    def page(self, skip: int, limit: int) -> ListQuery:
        """The same query for the page of `limit` items from `skip`."""
        return replace(self, skip=skip, limit=limit)
