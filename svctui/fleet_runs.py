"""The fleet's runs in one paged query: `GET /api/v2/jobs/finished`, for `svctui health` and the Clients screen.

Where the server has it (enterprise servers of 2025 on), every client's finished runs since `now - window -
BASELINE_LOOKBACK` come from one paged query (pages of FINISHED_PAGE, by id so a run added meanwhile cannot shift
a page), instead of one request per client. The lookback holds each run's like-for-like baseline (a weekly
schedule's previous run) and the strip's last runs; a client's own history (`completed-jobs`, RECENT_RUNS newest)
is read only where that is not enough: a run in the window whose domain has no earlier comparable success in what
came, or a client with completed jobs of which none came (its last run is older than the lookback).

A later round (live refresh) keeps the runs read so far (`FleetRuns`) and asks only what changed: the runs updated
since the newest `updated_at` seen (one request when nothing did), merged in; every client is judged again from what
is kept (a verdict can change with the clock alone). So a quiet round costs this one request, plus the caller's
client list.

A server without the endpoint answers the router's 404: `read_fleet` returns None and the caller reads each client
on its own (`svctui.fleet.fleet_health`), as before; the client remembers it for the session (`jobs_finished`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from svctui.api.client import PARSE_IN_TURN
from svctui.api.errors import ApiError, NotFound, route_missing
from svctui.api.filters import COMPLETED_TASKS, Filter, SortKey
from svctui.api.fleet_models import FleetRun, Run
from svctui.api.limits import MAX_PAGE_SIZE
from svctui.api.query import ListQuery
from svctui.fleet import (
    Fleet,
    HealthOptions,
    Member,
    MemberHealth,
    client_key,
    fleet_concurrency,
    fleet_health,
    recent_runs_query,
)
from svctui.triage.baseline import baseline_results, comparable_kind
from svctui.triage.drops import detect_drops
from svctui.triage.health import ClientHealth, assess
from svctui.triage.summary import chronological, task_time

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

BASELINE_LOOKBACK = timedelta(days=7)  # a week: a weekly schedule's previous run, and a strip's 20 runs of most
FINISHED_PAGE = MAX_PAGE_SIZE
JUDGE_SLICE = 8  # clients judged per turn of the loop in turns (a few ms at most)
BY_ID = (SortKey("id"),)
MISSING_NOTE = (
    "this server has no /api/v2/jobs/finished (an older or community server): each client's runs are read on their own"
)


@dataclass
class FleetRuns:
    """What rounds of `read_fleet` keep: each client's runs by id (under its `client_key`, whichever case the
    server writes it in), the window they cover, the newest update seen, and each client's last health (a round
    reports which changed)."""

    since: datetime | None = None
    runs: dict[str, dict[int, Run]] = field(default_factory=dict)
    newest_update: datetime | None = None
    healths: dict[str, ClientHealth] = field(default_factory=dict)
    requests: int = 0  # requests the last round sent (the finished runs and the clients' own histories)
    histories: int = 0  # clients whose own history the last round read


@dataclass(frozen=True)
class Round:
    """One round's results (every member, in the members' order) and the ids whose health changed since the last."""

    results: list[MemberHealth]
    changed: frozenset[str]


def _utc(moment: datetime) -> str:
    """A filter value for `moment`: UTC to the second (floored: `gte` then takes in the whole second)."""
    return moment.astimezone(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def finished_query(column: str, since: datetime) -> ListQuery:
    """Finished runs whose `column` is at or after `since`, by id, unhydrated."""
    return ListQuery(
        filters=(Filter.build(COMPLETED_TASKS, column, "gte", _utc(since)),),
        sort=BY_ID,
        hydrate_domains=False,
        hydrate_ous=False,
    )


async def _finished(client: ApiClient, query: ListQuery) -> list[FleetRun]:
    runs: list[FleetRun] = []
    async for page in client.jobs.fleet_run_pages(query, page_size=FINISHED_PAGE):
        runs.extend(page.data)
    return runs


def lacks_baseline(runs: Iterable[Run], since: datetime, *, ordered: bool = False) -> bool:
    """True when a run at or after `since` has a successful domain result with no earlier comparable success
    among `runs` (its drop could not be judged from them); `ordered`: `runs` are chronological already."""
    seen: set[tuple[str, tuple[str, str]]] = set()
    for task in runs if ordered else chronological(runs):
        kind = comparable_kind(task)
        moment = task_time(task)
        for result in baseline_results(task):
            key = (result.domain_name, kind)
            if moment is not None and moment >= since and key not in seen:
                return True
            seen.add(key)
    return False


def needs_history(member: Member, runs: Sequence[Run] | dict[int, Run], since: datetime) -> bool:
    """Whether the client's own history must be read: it has completed jobs but none came, or a run in the window
    lacks its baseline (a client the server gives no record of: whenever either could be). `runs` by id, or as a
    chronological list."""
    done = None if member.record is None else member.record.completed_job_count
    if not runs:
        return done is None or done > 0
    if done is not None and done <= len(runs):
        return False  # every run it has came
    return lacks_baseline(runs.values(), since) if isinstance(runs, dict) else lacks_baseline(runs, since, ordered=True)


def judge(
    member: Member, runs: Iterable[Run], now: datetime, options: HealthOptions, *, ordered: bool = False
) -> ClientHealth:
    """One client's health from its runs (svctui.triage.health, as fleet.member_health judges it); `ordered`: `runs`
    are chronological already."""
    tasks = list(runs) if ordered else chronological(runs)  # once: the drops and the verdict take them in this order
    name = member.name or next((task.client_name for task in tasks if task.client_name), "")
    return assess(
        member.client_id,
        name,
        tasks,
        detect_drops(tasks, options.threshold, ordered=True),
        now,
        window=options.window,
        stale_after=options.stale_after,
        last_checkin=member.last_checkin,
        ordered=True,
    )


async def read_fleet(
    client: ApiClient,
    members: list[Member],
    now: datetime,
    options: HealthOptions,
    state: FleetRuns | None = None,
    *,
    in_turns: bool = False,
) -> Round | None:
    """Every member's health from the finished runs of the whole fleet (see the module docstring); None when the
    server has no jobs/finished (then the caller reads each client on its own). `state` carries the runs from one
    round to the next: a round with it asks only for runs updated since. With `in_turns` (the dashboard) the work
    over the runs is done on the loop in short slices (`_in_turns`), so the loop keeps drawing."""
    if client.jobs_finished is False:
        return None
    state = state if state is not None else FleetRuns()
    sent = client.requests_sent
    since = now - options.window - BASELINE_LOOKBACK
    try:
        if state.since is None or state.newest_update is None or since < state.since:
            state.runs.clear()
            arrived = await _finished(client, finished_query("execution_time", since))
            state.since = since
        else:  # a later round: what changed since the newest update seen
            arrived = await _finished(client, finished_query("updated_at", state.newest_update))
    except NotFound as error:
        if not route_missing(error):
            raise
        client.jobs_finished = False  # for this session: an upgraded server is asked again next time
        return None
    client.jobs_finished = True

    reading = _in_turns if in_turns else _at_once
    history, healths, errors = await reading(RoundInputs(client, members, state, arrived, since, now, options))
    results, changed = _settle(members, state, healths, errors)
    state.requests = client.requests_sent - sent
    state.histories = len(history)
    return Round(results, frozenset(changed))


def _judge_each(
    members: list[Member], state: FleetRuns, now: datetime, options: HealthOptions
) -> dict[str, ClientHealth]:
    """Each member's health from the runs kept, by client id."""
    return {
        member.client_id: judge(member, state.runs.get(client_key(member.client_id), {}).values(), now, options)
        for member in members
    }


def _wants_history(
    member: Member, runs: Sequence[Run] | dict[int, Run], state: FleetRuns, touched: set[str], window_start: datetime
) -> bool:
    """Whether this round must read the member's own history: its runs changed (or it was never judged) and they
    (by id, or chronological) cannot judge it alone (`needs_history`)."""
    return (client_key(member.client_id) in touched or member.client_id not in state.healths) and needs_history(
        member, runs, window_start
    )


Reading = tuple[list[Member], dict[str, ClientHealth], dict[str, ApiError]]


@dataclass(frozen=True)
class RoundInputs:
    """What a round's reading works on: the client, the fleet's members, the runs kept, the runs that arrived since
    `since`, the round's clock and options."""

    client: ApiClient
    members: list[Member]
    state: FleetRuns
    arrived: list[FleetRun]
    since: datetime
    now: datetime
    options: HealthOptions

    @property
    def window_start(self) -> datetime:
        """The start of the round's window: its clock less the options' window."""
        return self.now - self.options.window


async def _at_once(given: RoundInputs) -> Reading:
    """`svctui health`'s way: the runs merged, the clients that need their own history found, their histories read
    while the others are judged in a thread, then they are judged: (who needed a history, the healths, the
    histories' errors)."""
    touched = _merge(given.state, given.arrived, given.since)
    history = [
        member
        for member in given.members
        if _wants_history(
            member, given.state.runs.get(client_key(member.client_id), {}), given.state, touched, given.window_start
        )
    ]
    reading = {member.client_id for member in history}
    ready = asyncio.ensure_future(
        _judge_in_thread(
            [member for member in given.members if member.client_id not in reading],
            given.state,
            given.now,
            given.options,
        )
    )
    try:
        errors = await _read_histories(given.client, history, given.state, given.options)
    finally:
        healths = await ready
    healths.update(
        _judge_each(
            [member for member in history if member.client_id not in errors], given.state, given.now, given.options
        )
    )
    return history, healths, errors


async def _in_turns(given: RoundInputs) -> Reading:
    """The dashboard's way, as `_at_once` but on the event loop in short slices (the loop keeps drawing): the
    clients are gone through JUDGE_SLICE at a time, and one that needs its own history has it asked for at once (the
    server works on it while the rest are gone through); the others are judged meanwhile, those with a history once
    it is in. The histories' pages are validated on the loop in turns (PARSE_IN_TURN)."""
    touched = await asyncio.to_thread(
        _merge, given.state, given.arrived, given.since
    )  # one pass over every run: the loop waits
    PARSE_IN_TURN.set(asyncio.Lock())  # the histories' pages, read side by side: validated on the loop in turns
    gate = asyncio.Semaphore(fleet_concurrency(given.client))
    query = replace(recent_runs_query(), endpoint=given.options.endpoint)
    errors: dict[str, ApiError] = {}
    history: list[Member] = []
    reads: list[asyncio.Future[None]] = []
    others: list[tuple[Member, list[Run]]] = []  # with their runs in order: sorted once for the check and the verdict
    healths: dict[str, ClientHealth] = {}
    try:
        for start in range(0, len(given.members), JUDGE_SLICE):
            for member in given.members[start : start + JUDGE_SLICE]:
                tasks = chronological(given.state.runs.get(client_key(member.client_id), {}).values())
                if _wants_history(member, tasks, given.state, touched, given.window_start):
                    history.append(member)
                    reads.append(
                        asyncio.ensure_future(_read_history(given.client, member, gate, query, given.state, errors))
                    )
                else:
                    others.append((member, tasks))
            await asyncio.sleep(0)
        for start in range(0, len(others), JUDGE_SLICE):
            for member, tasks in others[start : start + JUDGE_SLICE]:
                healths[member.client_id] = judge(member, tasks, given.now, given.options, ordered=True)
            await asyncio.sleep(0)
        await asyncio.gather(*reads)
    finally:
        for read in reads:
            read.cancel()  # a round that failed or was cancelled leaves no read behind (done ones ignore it)
    rest = [member for member in history if member.client_id not in errors]
    healths.update(await _judge_in_turns(rest, given.state, given.now, given.options))
    return history, healths, errors


async def _judge_in_thread(
    members: list[Member], state: FleetRuns, now: datetime, options: HealthOptions
) -> dict[str, ClientHealth]:
    """`_judge_each` in a thread (`svctui health`: its loop has nothing else to run meanwhile)."""
    return await asyncio.to_thread(_judge_each, members, state, now, options)


async def _judge_in_turns(
    members: list[Member], state: FleetRuns, now: datetime, options: HealthOptions
) -> dict[str, ClientHealth]:
    """`_judge_each` on the event loop, JUDGE_SLICE clients at a time, the loop free between slices: in a thread the
    judging would take the GIL at each of the loop's socket calls and keep it for a switch interval each."""
    healths: dict[str, ClientHealth] = {}
    for start in range(0, len(members), JUDGE_SLICE):
        healths.update(_judge_each(members[start : start + JUDGE_SLICE], state, now, options))
        await asyncio.sleep(0)
    return healths


def _settle(
    members: list[Member], state: FleetRuns, healths: dict[str, ClientHealth], errors: dict[str, ApiError]
) -> tuple[list[MemberHealth], set[str]]:
    """Every member's result in the members' order (its health, or its history's error), kept for the next round;
    the ids whose health changed since the last."""
    results: list[MemberHealth] = []
    changed: set[str] = set()
    for member in members:
        failed = errors.get(member.client_id)
        if failed is not None:
            results.append(MemberHealth(member, None, failed))
            changed.add(member.client_id)
            state.healths.pop(member.client_id, None)
            continue
        health = healths[member.client_id]
        if state.healths.get(member.client_id) != health:
            changed.add(member.client_id)
        state.healths[member.client_id] = health
        results.append(MemberHealth(member, health))
    wanted = {member.client_id for member in members}
    for gone in set(state.healths) - wanted:
        del state.healths[gone]
    return results, changed


def _merge(state: FleetRuns, arrived: list[FleetRun], since: datetime) -> set[str]:
    """Put the runs that arrived in `state` (replacing those with the same id) and advance the newest update seen;
    the ids of the clients whose runs changed. Older runs stay until the next full read (a client's own history,
    read for a baseline, is not read again every round)."""
    touched: set[str] = set()
    for task in arrived:
        key = client_key(task.client_id)
        kept = state.runs.setdefault(key, {})
        if kept.get(task.id) != task:
            kept[task.id] = task
            touched.add(key)
        if task.updated_at is not None and (state.newest_update is None or task.updated_at > state.newest_update):
            state.newest_update = task.updated_at
    if state.newest_update is None:
        state.newest_update = since  # nothing finished yet: from the window's start on
    return touched


async def _read_histories(
    client: ApiClient, members: list[Member], state: FleetRuns, options: HealthOptions
) -> dict[str, ApiError]:
    """Each member's own newest runs merged into `state` (a few at once, as fleet_health paces them); the errors."""
    gate = asyncio.Semaphore(fleet_concurrency(client))
    errors: dict[str, ApiError] = {}
    query = replace(recent_runs_query(), endpoint=options.endpoint)
    await asyncio.gather(*(_read_history(client, member, gate, query, state, errors) for member in members))
    return errors


async def _read_history(
    client: ApiClient,
    member: Member,
    gate: asyncio.Semaphore,
    query: ListQuery,
    state: FleetRuns,
    errors: dict[str, ApiError],
) -> None:
    """The member's own newest runs merged into `state` (through `gate`), or its error in `errors`."""
    async with gate:
        try:
            page = await client.tasks.fleet_runs(member.client_id, query)
        except ApiError as error:
            errors[member.client_id] = error
            return
    kept = state.runs.setdefault(client_key(member.client_id), {})
    for task in page.data:
        kept.setdefault(task.id, task)


async def fleet_round(
    client: ApiClient,
    fleet: Fleet,
    now: datetime,
    options: HealthOptions,
    state: FleetRuns | None = None,
    *,
    on_result: Callable[[MemberHealth], object] | None = None,
    on_missing: Callable[[str], object] | None = None,
    in_turns: bool = False,
) -> Round:
    """Every member's health: from jobs/finished where the server has it and the fleet is the server's own (its
    client list or its events; clients named one by one are read each on its own), else each client's own runs
    (`fleet_health`, `on_result` as each lands; a round read at once comes whole, in the Round only). `on_missing`
    hears MISSING_NOTE once a session, when the server turns out to have no jobs/finished. A round of
    `fleet_health` reports every member as changed."""
    if fleet.source != "given":
        asked_before = client.jobs_finished is not None
        at_once = await read_fleet(client, fleet.members, now, options, state, in_turns=in_turns)
        if at_once is not None:
            return at_once
        if not asked_before and on_missing is not None:
            on_missing(MISSING_NOTE)
    results = await fleet_health(client, fleet.members, now, options, on_result=on_result, in_turns=in_turns)
    return Round(results, frozenset(result.member.client_id for result in results))
