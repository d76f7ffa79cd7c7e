"""Completed tasks of the demo data: runs of the scheduled events plus manual runs, their statuses, times,
per-domain results with slowly drifting counts, and a few deliberately seeded drops.

A run's successful results count what it collected: AD structure and certificate services objects when it asked
for them, else the computers it visited (`count_computers`), so its log's `objects finished` agree with them.

Drift model: a domain's count is `base * (1 + trend * t) * (1 ± 1 %)` with t = 0..1 over the history and a trend
between -10 % and +15 %, so two like-for-like results of a domain never differ by more than ~12 %. Counts below
100 do not move. A seeded drop cuts one count of one successful result by 35-60 % against the previous
successful result of the same domain with the same collection kinds; each is recorded in `seeded_drops`.
"""

from __future__ import annotations

import math
import random
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from svctui.api.fields import AD_STRUCTURE_COUNTS, CERT_SERVICES_COUNTS, COUNT_NAMES
from svctui.demo import data_health, names
from svctui.demo.config import DemoSizes
from svctui.demo.data import Client, Domain, Event
from svctui.demo.db import insert
from svctui.demo.timefmt import ZERO_TIME, to_micros

BASE_SPAN_DAYS = 182
MAX_SPAN_DAYS = 730  # beyond what the schedules can hold, the rest become manual runs
MANUAL_SHARE = 0.05
STEP_SECONDS = {"HOURLY": 3600, "DAILY": 86400, "WEEKLY": 7 * 86400}
FINISHED_WEIGHTS = {2: 0.82, 8: 0.06, 5: 0.05, 4: 0.03, 3: 0.035, -1: 0.005}
RECENT_STATUSES = (0, 1, 1, 6, 7)  # newest first: waiting, two running, ingesting, analyzing
STATED_DURATION = re.compile(r"after (\d+) (seconds?|minutes?|hours?)", re.IGNORECASE)
UNIT_SECONDS = {"second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600}
DROP_FLOOR = 100
MICRO = 1_000_000


@dataclass
class Run:
    """One task before it is written: who ran it, when, what it targeted."""

    client: Client
    event: Event | None
    flags: tuple[int, ...]
    domains: list[Domain]
    ou_ids: list[str]
    execution: int
    id: int = 0
    status: int = 2
    results: list[list[object]] = field(default_factory=list)


def history_span(sizes: DemoSizes) -> timedelta:
    """How far back the tasks go: 182 days, up to two years when the schedules cannot hold the requested tasks."""
    per_day = max(sizes.events, 1) * (0.08 * 24 + 0.6 + 0.32 / 7)
    needed_days = sizes.tasks * (1 - MANUAL_SHARE) / per_day * 1.25
    return timedelta(days=min(MAX_SPAN_DAYS, max(BASE_SPAN_DAYS, math.ceil(needed_days))))


def slot_range(event: Event, start: int, end: int) -> tuple[int, int]:
    """Index range [first, last] of the event's slots (first_run + k*step) that fall in [start, end] seconds."""
    step = STEP_SECONDS[event.frequency]
    origin = int(event.first_run.timestamp())
    first = max(0, math.ceil((start - origin) / step))
    last = (end - origin) // step
    return first, last


def fill_quotas(capacities: list[int], weights: list[float], total: int) -> list[int]:
    """Water-filling: split `total` by weight without exceeding any capacity; surplus goes to the others."""
    quotas = [0] * len(capacities)
    open_ = [i for i, cap in enumerate(capacities) if cap > 0]
    remaining = total
    while remaining > 0 and open_:
        weight_sum = sum(weights[i] for i in open_)
        share = {i: remaining * weights[i] / weight_sum for i in open_}
        capped = [i for i in open_ if quotas[i] + share[i] >= capacities[i]]
        if capped:
            for i in capped:
                remaining -= capacities[i] - quotas[i]
                quotas[i] = capacities[i]
            open_ = [i for i in open_ if i not in capped]
            continue
        given = 0
        for i in open_:
            amount = math.floor(share[i])
            quotas[i] += amount
            given += amount
        remaining -= given
        for i in open_[:remaining]:
            quotas[i] += 1
        remaining = 0
    return quotas


def plan_runs(
    rng: random.Random, clients: list[Client], events: list[Event], sizes: DemoSizes, anchor: datetime, span: timedelta
) -> list[Run]:
    """Pick the recent slots of every event (with ~10 % missed runs) and add manual runs; oldest first."""
    end = int(anchor.timestamp()) - 1800
    start = int((anchor - span).timestamp())
    wanted = sizes.tasks if sizes.tasks < 20 else round(sizes.tasks * (1 - MANUAL_SHARE))
    ranges = [slot_range(event, start, end) for event in events]
    capacities = [max(0, last - first + 1) for first, last in ranges]
    group_size = {freq: sum(1 for e in events if e.frequency == freq) for freq in STEP_SECONDS}
    share = {"HOURLY": 0.35, "DAILY": 0.5, "WEEKLY": 0.15}
    weights = [share[e.frequency] / group_size[e.frequency] for e in events]
    quotas = fill_quotas(capacities, weights, wanted)
    runs: list[Run] = []
    for event, (first, last), quota in zip(events, ranges, quotas, strict=True):
        if quota <= 0:
            continue
        taken = min(last - first + 1, math.ceil(quota / 0.9))
        indexes = sorted(rng.sample(range(last - taken + 1, last + 1), quota))
        origin = int(event.first_run.timestamp())
        step = STEP_SECONDS[event.frequency]
        for index in indexes:
            moment = (origin + index * step + rng.randint(0, 50)) * MICRO + rng.randint(0, 999_999)
            runs.append(Run(event.client, event, event.flags, event.domains, event.ou_ids, moment))
    manual_start = max(start, end - 90 * 86400)
    for _ in range(sizes.tasks - len(runs)):
        client = rng.choice(clients)
        flags = (*rng.choice(names.EVENT_PLANS)[2], 0)
        domains = rng.sample(client.domains, rng.randint(1, min(2, len(client.domains))))
        moment = rng.randint(manual_start, end) * MICRO + rng.randint(0, 999_999)
        runs.append(Run(client, None, flags, domains, [], moment))
    runs.sort(key=lambda run: run.execution)
    for number, run in enumerate(runs, start=1):
        run.id = number
    return runs


def assign_statuses(rng: random.Random, runs: list[Run]) -> None:
    """Mostly complete; the newest few waiting/running/ingesting/analyzing; every finished status at least once;
    each client's newest run after those still ingesting (6) or analyzing (7), as recent runs are."""
    codes = list(FINISHED_WEIGHTS)
    weights = list(FINISHED_WEIGHTS.values())
    for run in runs:
        run.status = rng.choices(codes, weights)[0]
    if len(runs) >= 50:
        for run, status in zip(reversed(runs), RECENT_STATUSES, strict=False):
            run.status = status
        finished = runs[: -len(RECENT_STATUSES)]
        seen: set[str] = set()
        for run in reversed(finished[-len(runs) // 10 :]):
            if run.client.id not in seen:
                seen.add(run.client.id)
                run.status = 6 if len(seen) % 2 else 7
        present = {run.status for run in finished}
        for code in codes:
            if code not in present:
                rng.choice(finished).status = code


def count_value(domain: Domain, name: str, fraction: float, rng: random.Random) -> int:
    """A domain's count at `fraction` (0..1) of the history: trend plus ±1 % noise; small counts stay fixed."""
    base = domain.base[name]
    if base < DROP_FLOOR:
        return base
    return round(base * (1 + domain.trend[name] * fraction) * rng.uniform(0.99, 1.01))


def build_results(rng: random.Random, run: Run, fraction: float) -> None:
    """Per-domain results of a run according to its status, flags and the drift model (finished at 0 until
    `task_times` says when the run ended)."""
    status = run.status
    if status in (-1, 0, 1, 3) or (status == 5 and rng.random() < 0.5):
        return
    collected = (AD_STRUCTURE_COUNTS if run.flags[2] else ()) + (CERT_SERVICES_COUNTS if run.flags[3] else ())
    failed_index = rng.randrange(len(run.domains)) if status == 8 and len(run.domains) > 1 else -1
    for position, domain in enumerate(run.domains):
        success = status in (2, 6, 7) or (status == 8 and position != failed_index)
        counts = dict.fromkeys(COUNT_NAMES, 0)
        message = ""
        if success:
            for name in collected:
                counts[name] = count_value(domain, name, fraction, rng)
            if status == 8 and failed_index < 0:
                message = f"Session enumeration incomplete: {rng.randint(5, 400)} hosts timed out"
        elif status == 4:
            message = "Timed out after 43200 seconds waiting for collection to finish"
        else:
            message = rng.choice(names.DOMAIN_FAILURES)
        run.results.append([domain.name, int(success), message, *(counts[c] for c in COUNT_NAMES), 0])


def count_computers(run: Run, fraction: float) -> None:
    """The successful results of a run that collected neither AD structure nor certificate services count the
    computers it visited (sessions, local groups and registries are read from computers), as its log's `objects
    finished` do; they counted nothing, so an Analyzing run's log said 41,446 objects beside zero counts (issue 28).
    Each count's noise comes from a generator of its own (the run and the domain): the main stream, and so every
    other value and the seeded drops (chosen before), stay as they were."""
    if run.flags[2] or run.flags[3]:
        return
    domains = {domain.name: domain for domain in run.domains}
    position = 3 + COUNT_NAMES.index("computer_count")
    for result in run.results:
        domain = domains.get(str(result[0]))
        if result[1] and domain is not None:
            noise = random.Random(f"computers:{run.id}:{domain.objectid}")
            result[position] = count_value(domain, "computer_count", fraction, noise)


def stated_seconds(text: str) -> int:
    """The longest duration a message states ("timed out after 3600 seconds", "after 12 hours"), else 0."""
    return max((int(number) * UNIT_SECONDS[unit.lower()] for number, unit in STATED_DURATION.findall(text)), default=0)


def task_times(rng: random.Random, run: Run, message: str, now: int) -> tuple[int, int, int]:
    """(start, end, last_ingest) in microseconds, all before `now`; unset ones are ZERO_TIME.

    A run lasts at least as long as its messages and its domains' messages say it waited; one that could not
    have ended by `now` is still running (status 1, no end, no results).
    """
    if run.status in (-1, 0):
        return ZERO_TIME, ZERO_TIME, ZERO_TIME
    start = run.execution + rng.randint(5, 55) * MICRO
    if run.status == 3 and rng.random() < 0.4:
        return ZERO_TIME, ZERO_TIME, ZERO_TIME
    if run.status == 1:
        return start, ZERO_TIME, ZERO_TIME
    heavy = run.flags[2] or run.flags[3]
    minutes = rng.randint(10, 240) if heavy else rng.randint(2, 25)
    if run.status in (5, 3):
        minutes = rng.randint(1, 30)
    stated = max([stated_seconds(message), *(stated_seconds(str(result[2])) for result in run.results)])
    least = math.ceil(stated / 60) + (1 if stated else 0)  # the wait it reports, and a minute to report it
    ingest_gap = rng.randint(60, 600) * MICRO
    room = (now - start - ingest_gap) // (60 * MICRO) - 1  # whole minutes left before `now`
    minutes = min(max(minutes, least), room)
    if minutes < max(least, 1):
        run.status = 1
        run.results = []
        return start, ZERO_TIME, ZERO_TIME
    end = start + minutes * 60 * MICRO + rng.randint(0, 999_999)
    ingest = end + ingest_gap if run.status in (2, 7, 8) else ZERO_TIME
    return start, end, ingest


def choose_drops(
    rng: random.Random, runs: list[Run], count: int, until: int | None = None
) -> list[tuple[Run, int, str, int]]:
    """Pick successful results with a like-for-like predecessor and a count >= 100 on both sides to cut.

    Each pick is (run, result index, count name, the predecessor's value of that count); runs from `until` on
    are not picked (the last day's drop belongs to one client only: `data_health`).
    """
    if count <= 0:
        return []
    last_success: dict[tuple[str, str, tuple[int, ...]], list[object]] = {}
    candidates: list[tuple[Run, int, str, int]] = []
    for run in runs:
        for index, result in enumerate(run.results):
            if not result[1]:
                continue
            key = (run.client.id, str(result[0]), run.flags)
            before = last_success.get(key)
            if before is not None and run.status in (2, 8) and (until is None or run.execution < until):
                for offset, name in enumerate(COUNT_NAMES):
                    previous, current = before[3 + offset], result[3 + offset]
                    if isinstance(previous, int) and isinstance(current, int) and min(previous, current) >= DROP_FLOOR:
                        candidates.append((run, index, name, previous))
            last_success[key] = result
    recent = candidates[len(candidates) // 2 :] or candidates
    rng.shuffle(recent)
    chosen: list[tuple[Run, int, str, int]] = []
    used: set[tuple[str, str]] = set()
    for run, index, name, previous in recent:
        domain_field = (str(run.results[index][0]), name)
        if domain_field in used:
            continue
        used.add(domain_field)
        chosen.append((run, index, name, previous))
        if len(chosen) == count:
            break
    return chosen


def generate_tasks(
    conn: sqlite3.Connection,
    rng: random.Random,
    clients: list[Client],
    events: list[Event],
    sizes: DemoSizes,
    anchor: datetime,
    span: timedelta,
) -> None:
    """Write tasks, their targets, their domain results and the seeded drops."""
    runs = plan_runs(rng, clients, events, sizes, anchor, span)
    assign_statuses(rng, runs)
    fleet = data_health.shapes_fleet(clients, sizes)
    if fleet:
        runs = data_health.shape_fleet(runs, [client.id for client in clients], to_micros(anchor))
    start = to_micros(anchor - span)
    length = max(to_micros(anchor) - start, 1)
    dc_names = {
        d.objectid: [f"{h}.{d.name}" for h in rng.sample(names.DC_HOSTS, 2)] for c in clients for d in c.domains
    }
    task_rows: list[tuple[object, ...]] = []
    for run in runs:
        build_results(rng, run, (run.execution - start) / length)
        message = rng.choice(names.TASK_MESSAGES[run.status])
        begin, end, ingest = task_times(rng, run, message, to_micros(anchor))
        if run.status == 1 and message not in names.TASK_MESSAGES[1]:  # it could not have ended yet
            message = rng.choice(names.TASK_MESSAGES[1])
        finished = end if end != ZERO_TIME else run.execution
        for result in run.results:
            result[-1] = finished
        stamp = f"{run.execution // MICRO}"
        log_path = (
            None
            if run.status in (-1, 0)
            else f"C:\\ProgramData\\SharpHound Enterprise\\logs\\task-{run.id}-{stamp}.log"
        )
        domain_controller = rng.choice(dc_names[run.domains[0].objectid]) if run.status not in (-1, 0) else ""
        updated = max(run.execution, begin, end, ingest)
        task_rows.append(
            (
                run.id,
                run.client.id,
                run.event.id if run.event else None,
                run.execution,
                begin,
                end,
                run.status,
                message,
                *run.flags,
                domain_controller,
                log_path,
                run.event.title if run.event else None,
                ingest,
                run.execution - rng.randint(1, 5) * MICRO,
                updated,
                None,
            )
        )
    drop_count = 0 if sizes.tasks < 50 else min(8, max(3, sizes.tasks // 700))
    last_day = to_micros(anchor) - data_health.HOUR * 24
    drops = choose_drops(rng, runs, drop_count, until=last_day if fleet else None)
    if fleet and drop_count:
        recent = data_health.drop_in_window(runs, clients[data_health.DROPS].id, last_day, DROP_FLOOR)
        if recent is not None:
            drops.append(recent)
    for run, index, name, previous in drops:
        run.results[index][3 + COUNT_NAMES.index(name)] = int(previous * (1 - rng.uniform(0.35, 0.6)))
    for run in runs:
        count_computers(run, (run.execution - start) / length)
    insert(conn, "tasks", task_rows)
    insert(conn, "task_domains", [(r.id, d.objectid, i) for r in runs for i, d in enumerate(r.domains)])
    insert(conn, "task_ous", [(r.id, ou, i) for r in runs for i, ou in enumerate(r.ou_ids)])
    result_rows: list[tuple[object, ...]] = []
    for run in runs:
        for result in run.results:
            finished_at = result[-1]
            result_rows.append((len(result_rows) + 1, run.id, *result[:-1], finished_at, finished_at))
    insert(conn, "domain_results", result_rows)
    insert(conn, "seeded_drops", [(run.id, str(run.results[index][0]), name) for run, index, name, _ in drops])
