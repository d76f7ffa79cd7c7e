"""The morning check's reads, shared by `svctui health` and the dashboard: which clients, and each one's health.

Which clients: `GET /api/v2/clients` where the server has it (enterprise), else the clients named by the events
(also enterprise), else the ones given (`--client`, recent choices). Each client's health comes from its newest
RECENT_RUNS runs (one unhydrated request, newest first, read as judging reads them: `svctui.api.fleet_models`) and
the drop rule over them (`svctui.triage.health`).
Clients are fetched concurrently, by default as many at once as the rate limiter lets a quiet route start in one
burst (`fleet_concurrency`: 51 at the real server's 55 a second, at most MAX_CONCURRENCY); the limiter paces them per
route. A client whose fetch failed is reported with its error, never left out.

The dashboard asks for its clients to be judged `in_turns`: each page validated on its event loop, one body at a
time (svctui.api.client.PARSE_IN_TURN), and its client judged there as soon as it is in, not in worker threads. Fifty
pages validated in a few threads at once held the GIL, and the loop waited for it most of the time the round filled in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from svctui.api.client import PARSE_IN_TURN, build_parsers
from svctui.api.errors import ApiError, EnterpriseOnly, NotFound
from svctui.api.filters import RUNS_NEWEST_FIRST
from svctui.api.fleet_models import FleetRun
from svctui.api.limits import MAX_PAGE_SIZE, TaskEndpoint
from svctui.api.models import CollectionClient, Page
from svctui.api.query import ListQuery
from svctui.triage.drops import detect_drops
from svctui.triage.health import DEFAULT_STALE_AFTER, DEFAULT_WINDOW, ClientHealth, assess

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

RECENT_RUNS = 200  # enough history for the window, the strip of 20 and the drops' like-for-like baselines
CLIENT_PAGE = MAX_PAGE_SIZE  # a thousand clients in one request (a live round lists them every tick)
# Fetches at once when no rate limit is known yet (a server that sends no X-RateLimit-* headers limits nothing), and
# the most ever: each one holds a connection (httpx's pool allows 100) and a 200-run page in memory.
MAX_CONCURRENCY = 50


@dataclass(frozen=True)
class Member:
    """A client of the fleet: its id, its name, and its record when the server lists clients."""

    client_id: str
    name: str = ""
    record: CollectionClient | None = None

    @property
    def last_checkin(self) -> datetime | None:
        """When the client last checked in (None: the server does not say)."""
        return None if self.record is None else self.record.last_checkin


@dataclass(frozen=True)
class Fleet:
    """The clients found and where they came from (`clients`, `events` or `given`)."""

    members: list[Member]
    source: str


@dataclass(frozen=True)
class HealthOptions:
    """How clients are judged: the window for runs, when a check-in is stale, the drop threshold, the endpoint."""

    window: timedelta = DEFAULT_WINDOW
    stale_after: timedelta = DEFAULT_STALE_AFTER
    threshold: float = 0.2
    endpoint: TaskEndpoint | None = None  # None: the client's task_endpoint (completed-jobs unless the server lacks it)


Judge = Callable[[Callable[[], ClientHealth]], Awaitable[ClientHealth]]


@dataclass(frozen=True)
class MemberHealth:
    """One client's health, or the error that kept it from being judged (both: the dashboard kept the health of an
    earlier round because this round's fetch failed)."""

    member: Member
    health: ClientHealth | None
    error: ApiError | None = None


async def find_fleet(client: ApiClient, given: Sequence[str] = (), names: dict[str, str] | None = None) -> Fleet:
    """The clients to check: `given` ids alone when there are any (with their records where the server lists
    clients), else the server's client list, else the clients named by its events, else nothing (a community
    server: the caller must name them)."""
    names = names or {}
    records: dict[str, CollectionClient] | None
    try:
        records = {record.id: record async for record in client.clients.iter(_bare(), page_size=CLIENT_PAGE)}
    except (EnterpriseOnly, NotFound):
        records = None
    if given:
        known = records or {}
        members = [
            Member(client_id, _name(known.get(client_id)) or names.get(client_id, ""), known.get(client_id))
            for client_id in _unique(given)
        ]
        return Fleet(members, "given")
    if records is not None:
        members = [Member(record.id, record.name or names.get(record.id, ""), record) for record in records.values()]
        return Fleet(members, "clients")
    try:
        seen: dict[str, str] = {}
        async for event in client.events.iter(_bare(), page_size=CLIENT_PAGE):
            seen.setdefault(event.client_id, event.client_name or names.get(event.client_id, ""))
        return Fleet([Member(client_id, name) for client_id, name in seen.items()], "events")
    except (EnterpriseOnly, NotFound):
        return Fleet([], "none")


def recent_runs_query() -> ListQuery:
    """The one request of a client's health: its newest RECENT_RUNS runs, unhydrated (the bench fetches it too)."""
    return ListQuery(sort=RUNS_NEWEST_FIRST, limit=RECENT_RUNS, hydrate_domains=False, hydrate_ous=False)


async def member_health(
    client: ApiClient,
    member: Member,
    now: datetime,
    options: HealthOptions = HealthOptions(),
    detect: Judge | None = None,
) -> ClientHealth:
    """One client's health from its newest RECENT_RUNS runs; `detect` may run the judging elsewhere (a thread)."""
    page = await client.tasks.fleet_runs(member.client_id, replace(recent_runs_query(), endpoint=options.endpoint))
    name = member.name or next((task.client_name for task in page.data if task.client_name), "")

    def judge() -> ClientHealth:
        drops = detect_drops(page.data, options.threshold)
        return assess(
            member.client_id,
            name,
            page.data,
            drops,
            now,
            window=options.window,
            stale_after=options.stale_after,
            last_checkin=member.last_checkin,
        )

    return await detect(judge) if detect is not None else judge()


async def fleet_health(
    client: ApiClient,
    members: Iterable[Member],
    now: datetime,
    options: HealthOptions = HealthOptions(),
    *,
    concurrency: int | None = None,
    on_result: Callable[[MemberHealth], object] | None = None,
    detect: Judge | None = None,
    in_turns: bool = False,
) -> list[MemberHealth]:
    """Every member's health, at most `concurrency` fetches at once (default `fleet_concurrency`), in the members'
    order; `on_result` as each one lands (a failed fetch is a result with its error). With `in_turns` (instead of
    `detect`) each page is validated on the event loop one body at a time (svctui.api.client.PARSE_IN_TURN) and its
    client judged there at once."""
    gate = asyncio.Semaphore(concurrency or fleet_concurrency(client))
    turn = asyncio.Lock() if in_turns else None
    # in turns, a client is judged on the loop as soon as its page is in (one step of ~2 ms): queued for the turn
    # behind the pages still to validate, no client was judged before the last page was (rows filled at the end)
    judge_with = None if in_turns else detect

    async def one(member: Member) -> MemberHealth:
        if turn is not None:
            PARSE_IN_TURN.set(turn)  # this task's own context (gather runs each in a copy)
        async with gate:
            try:
                result = MemberHealth(member, await member_health(client, member, now, options, judge_with))
            except ApiError as exc:
                result = MemberHealth(member, None, exc)
        if on_result is not None:
            on_result(result)
        return result

    return list(await asyncio.gather(*(one(member) for member in members)))


def build_judging() -> None:
    """Build the validators a round needs (a page of runs, and its items for `in_turns`): ~50 ms once per process,
    best done in a thread before the round (the first answers would otherwise wait for it)."""
    build_parsers(Page[FleetRun], items=True)


def fleet_concurrency(client: ApiClient) -> int:
    """How many clients to fetch at once: what the limiter lets a quiet route start in one burst under the limit
    learned so far (finding the fleet's members taught it: 51 at 55 a second), at most MAX_CONCURRENCY. More would
    only wait in the limiter holding a connection; fewer would leave the burst unused (a fleet's clients asked a
    few at a time are that many round trips one after another)."""
    room = client.limiter.burst_room()
    return max(1, min(MAX_CONCURRENCY, room if room is not None else MAX_CONCURRENCY))


def _name(record: CollectionClient | None) -> str:
    return "" if record is None else record.name


def _bare() -> ListQuery:
    return ListQuery(hydrate_domains=False, hydrate_ous=False)


def client_key(client_id: str) -> str:
    """A client id as the fleet's code compares and keys it (ids given, runs kept): trimmed, lower case (a UUID's
    text in either case names one client)."""
    return client_id.strip().lower()


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(client_key(client_id) for client_id in ids))
