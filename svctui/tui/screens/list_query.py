"""What one list request asks for (ListQuery) and the load counters a list screen keeps (LoadStats)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from svctui.api.filters import Filter, SortKey


class PageArgs(TypedDict):
    """The paging and hydration keywords every list method of the client takes."""

    skip: int
    limit: int
    hydrate_domains: bool
    hydrate_ous: bool


@dataclass(frozen=True)
class ListQuery:
    """Everything one page request depends on."""

    filters: tuple[Filter, ...] = ()
    sort: tuple[SortKey, ...] = ()
    skip: int = 0
    limit: int = 100
    hydrate_domains: bool = True
    hydrate_ous: bool = True

    def page_args(self) -> PageArgs:
        """`skip`, `limit` and the hydration flags, as keywords for `client.<resource>.list(...)`."""
        return PageArgs(
            skip=self.skip, limit=self.limit, hydrate_domains=self.hydrate_domains, hydrate_ous=self.hydrate_ous
        )


@dataclass
class LoadStats:
    """Counters the tests and the status line read."""

    started: int = 0
    applied: int = 0
    dropped_stale: int = 0
    last_ms: float | None = None
    history: list[ListQuery] = field(default_factory=list)
