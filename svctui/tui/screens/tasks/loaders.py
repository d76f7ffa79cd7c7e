"""The network reads behind the Completed tasks screen, as plain async functions (the screen's workers call them).

- `fetch_breakdown`: per-status counts for the current filters, one `limit=1` request per status code.
- `fetch_history`: a client's tasks newest first, unhydrated, up to HISTORY_LIMIT, their drops and per-domain
  series (both computed in a thread: tens to hundreds of ms of CPU over a big client, never on the event loop).
- `fetch_known_clients`: (client id, name) of every event (enterprise only), up to KNOWN_EVENTS_LIMIT.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from svctui.api.compact import share_repeats
from svctui.api.filters import COMPLETED_TASKS, RUNS_NEWEST_FIRST, Filter, SortKey
from svctui.api.limits import MAX_PAGE_SIZE, TaskEndpoint
from svctui.api.models import CompletedTask, status_label
from svctui.triage import STATUS_ORDER, DomainPoint, Drop, StatusCount, detect_drops, domain_series
from svctui.tui.screens.list_screen import ListQuery

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

HISTORY_LIMIT = 5000
HISTORY_PAGE = MAX_PAGE_SIZE
KNOWN_EVENTS_LIMIT = 5000
OTHER_STATUS = -99
# The one change a history shows that its newest run may not: a run updated later (a status that moved on).
LATEST_UPDATE = (SortKey("updated_at", descending=True), SortKey("id", descending=True))


# What changes when a client's history does: the server's task count and the most recently updated task (id and
# time). One `limit=1` request tells whether a history on screen is still current.
Fingerprint = tuple[int, int | None, object]


@dataclass(frozen=True)
class TasksQuery(ListQuery):
    """A page request of one client's tasks (from `endpoint`, a field of every ListQuery)."""

    client_id: str = ""


@dataclass(frozen=True)
class History:
    """A client's tasks (newest first, capped), the drops among them, the server's total, and (when computed
    with them, off the loop) each domain's series for the plot."""

    tasks: list[CompletedTask]
    drops: list[Drop]
    total: int
    series: dict[str, list[DomainPoint]] | None = None
    fingerprint: Fingerprint | None = None  # the server's state of the history when it was loaded

    @property
    def truncated(self) -> bool:
        """True when the server has more tasks than were loaded."""
        return self.total > len(self.tasks)


async def close_iterator(iterator: AsyncIterator[object]) -> None:
    """Close an async generator we stopped early (so its pending request does not linger)."""
    closer = getattr(iterator, "aclose", None)
    if closer is not None:
        await closer()


async def fetch_breakdown(client: ApiClient, query: TasksQuery, total: int) -> list[StatusCount]:
    """Per-status counts of the tasks matching `query.filters` (an `Other` entry for codes outside 2..8 etc.)."""

    async def count(code: int) -> int:
        status = Filter.build(COMPLETED_TASKS, "status", "eq", str(code))
        counting = ListQuery(
            (*query.filters, status), limit=1, hydrate_domains=False, hydrate_ous=False, endpoint=query.endpoint
        )
        page = await client.tasks.list(query.client_id, counting)
        return page.count

    counts = await asyncio.gather(*(count(code) for code in STATUS_ORDER))
    breakdown = [StatusCount(code, status_label(code), n) for code, n in zip(STATUS_ORDER, counts, strict=True)]
    other = total - sum(counts)
    if other > 0:
        breakdown.append(StatusCount(OTHER_STATUS, "Other", other))
    return breakdown


async def fetch_fingerprint(client: ApiClient, client_id: str, endpoint: TaskEndpoint | None) -> Fingerprint:
    """The client's history's fingerprint (see Fingerprint), from one `limit=1` request."""
    latest = ListQuery(sort=LATEST_UPDATE, limit=1, hydrate_domains=False, hydrate_ous=False, endpoint=endpoint)
    page = await client.tasks.list(client_id, latest)
    task = page.data[0] if page.data else None
    return (page.count, task.id if task else None, task.updated_at if task else None)


async def fetch_history(
    client: ApiClient,
    client_id: str,
    endpoint: TaskEndpoint | None,
    threshold: float,
    fingerprint: Fingerprint | None = None,
) -> History:
    """The client's newest tasks (at most HISTORY_LIMIT), the drops among them, and the history's fingerprint
    (asked first, unless a check just asked it: a run updated while the pages come in makes the next check reload,
    never miss it)."""
    if fingerprint is None:
        fingerprint = await fetch_fingerprint(client, client_id, endpoint)
    tasks: list[CompletedTask] = []
    total = 0
    newest = ListQuery(sort=RUNS_NEWEST_FIRST, hydrate_domains=False, hydrate_ous=False, endpoint=endpoint)
    pages = client.tasks.pages(client_id, newest, page_size=HISTORY_PAGE)
    try:
        async for page in pages:
            await asyncio.to_thread(share_repeats, page.data)  # kept: ~70 % smaller (svctui.api.compact)
            tasks.extend(page.data)
            total = page.count
            if len(tasks) >= HISTORY_LIMIT:
                break
    finally:
        await close_iterator(pages)
    tasks = tasks[:HISTORY_LIMIT]
    # Pure CPU over up to HISTORY_LIMIT tasks (tens to hundreds of ms): in a thread, so the loop keeps drawing.
    drops, series = await asyncio.to_thread(analyse, tasks, threshold)
    return History(tasks, drops, max(total, len(tasks)), series, fingerprint)


def analyse(tasks: list[CompletedTask], threshold: float) -> tuple[list[Drop], dict[str, list[DomainPoint]]]:
    """The drops among `tasks` and each domain's series (what the plot draws): run in a worker thread."""
    return detect_drops(tasks, threshold), domain_series(tasks)


async def fetch_known_clients(client: ApiClient) -> list[tuple[str, str]]:
    """(client id, client name) of each event; raises what the events listing raises (EnterpriseOnly on CE)."""
    pairs: list[tuple[str, str]] = []
    bare = ListQuery(hydrate_domains=False, hydrate_ous=False)
    pages = client.events.pages(bare, page_size=HISTORY_PAGE)
    try:
        async for page in pages:
            pairs.extend((event.client_id, event.client_name or "") for event in page.data)
            if len(pairs) >= KNOWN_EVENTS_LIMIT:
                break
    finally:
        await close_iterator(pages)
    return pairs
