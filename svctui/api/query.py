"""What one list request asks for: `ListQuery`, built alike by the CLI, the dashboard, bench/ and the tests."""

from __future__ import annotations

from dataclasses import dataclass, replace

from svctui.api.filters import Filter, SortKey


@dataclass(frozen=True)
class ListQuery:
    """Filters, sort keys, skip, limit and hydration of one list request (None = the endpoint's default)."""

    filters: tuple[Filter, ...] = ()
    sort: tuple[SortKey, ...] = ()
    skip: int = 0
    limit: int | None = None
    hydrate_domains: bool | None = None
    hydrate_ous: bool | None = None

    def page(self, skip: int, limit: int) -> ListQuery:
        """The same query for the page of `limit` items from `skip`."""
        return replace(self, skip=skip, limit=limit)
