"""fleet-1000 (issue 29): the morning check of 1,000 clients against the server's rate floor.

The demo server runs in a child process (`DemoProcess`, as `svctui --demo` runs it) with 1,000 clients (999
generated and the one that never ran), 60,000 runs over the data's half year, at the real server's 55 requests a
second. Three rows:

- fleet-1000-health: `svctui health`'s reads (the client list, the fleet's finished runs from jobs/finished, the own
  history of the clients that need one, judging every client) timed against the rate floor of the requests they
  needed: requests ÷ 55 per second. Budget x1.5. The note gives the same check read client by client (today's reads
  on a server without jobs/finished: one request per client), once.
- fleet-1000-fill: the Clients screen's first fill (the real dashboard under Pilot, from `4` until every row is
  judged) against the rate floor of the requests it sent. Budget x1.5; the note gives the worst event-loop stall
  from the screen's mount to the last row (budget 50 ms).
- fleet-1000-tick: requests of a live round with nothing new (the client list and the runs updated since) against
  the budget of 2, and the loop's worst stall while it runs.

The database is generated once (about a minute) and kept in the temp directory for later runs (same seed, sizes
and anchor: the same rows). The health rounds run under the runtime tuning `svctui health` sets at launch, the fills
under the dashboard's (svctui.startup.tune_runtime: BATCH, DASHBOARD). The health rounds report the client's CPU:
~1.3 s a round, reading and validating 30 pages of 1,000 runs (the slim FleetRun) and judging 1,000 clients; the
demo's own ~0.85 s a round (its kept task JSON) shares the two cores (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import Comparison, Measurement, human, summarise
from bench.support import LagMonitor, launched_as, until
from svctui.api.client import ApiClient
from svctui.api.signing import SignatureAuth
from svctui.demo.config import DEFAULT_RATE_LIMIT, FIXED_ANCHOR, DemoSizes
from svctui.demo.process import DemoProcess
from svctui.fleet import HealthOptions, find_fleet, fleet_health
from svctui.fleet_runs import FleetRuns, fleet_round
from svctui.startup import BATCH, DASHBOARD
from svctui.tui.launch import demo_profile
from svctui.tui.screens.clients import ClientsScreen
from tests.support.tui import RecordingApp, make_app, settle

SIZES = DemoSizes(clients=999, events=2000, tasks=60_000, tags=2, selectors=10)
DB_PATH = Path(tempfile.gettempdir()) / "svctui-bench-fleet-1000.sqlite3"
REPEATS = 3
FILL_BUDGET = 1.5
TICK_BUDGET = 2
STALL_BUDGET = 0.050
QUIET = 1.1  # a fresh rate-limit window between measurements


def floor(requests: int) -> float:
    """The least time `requests` take at the server's rate limit."""
    return requests / DEFAULT_RATE_LIMIT


async def health_round(demo: DemoProcess) -> tuple[float, int, int, float]:
    """(seconds, requests, clients that needed their own history, the client's CPU seconds) of one `svctui health`
    read of the fleet, under the runtime tuning `svctui health` sets at launch (put back after: the fill runs in
    this process too)."""
    with launched_as(BATCH):
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
            runs = FleetRuns()
            started, cpu = time.perf_counter(), time.process_time()
            fleet = await find_fleet(client)
            await fleet_round(client, fleet, FIXED_ANCHOR, HealthOptions(), runs)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            return elapsed, client.requests_sent, runs.histories, cpu


async def one_by_one(demo: DemoProcess) -> tuple[float, int]:
    """(seconds, requests) of the same check read client by client (a server without jobs/finished)."""
    async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
        started = time.perf_counter()
        fleet = await find_fleet(client)
        await fleet_health(client, fleet.members, FIXED_ANCHOR, HealthOptions())
        return time.perf_counter() - started, client.requests_sent


async def fill_and_tick(demo: DemoProcess) -> tuple[float, int, float, int, float]:
    """The Clients screen from `4` until every row is judged, then one live round with nothing new: (fill seconds,
    its requests, its worst stall, the tick's requests, the tick's worst stall), under the dashboard's runtime
    tuning."""
    with launched_as(DASHBOARD):
        return await _fill_and_tick(make_app(profile=demo_profile(demo)))


async def _fill_and_tick(app: RecordingApp) -> tuple[float, int, float, int, float]:
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        client = await app.api_client()
        monitor = LagMonitor()
        monitor.start()
        sent = client.requests_sent
        started = time.perf_counter()
        pressing = asyncio.ensure_future(pilot.press("4"))
        await until(lambda: isinstance(app.screen, ClientsScreen) and app.screen.is_mounted)
        monitor.reset()  # from the screen's mount (its first show's import and compose are another matter)
        await until(lambda: isinstance(app.screen, ClientsScreen) and app.screen.fleet is not None)
        screen = app.screen
        assert isinstance(screen, ClientsScreen) and screen.fleet is not None
        total = len(screen.fleet.members)
        await until(lambda: len(screen.results) >= total and not screen.awaiting)
        elapsed, fill_requests, fill_stall = time.perf_counter() - started, client.requests_sent - sent, monitor.worst()
        await pressing
        await until(lambda: not screen.loads.busy())
        await asyncio.sleep(QUIET)
        sent, round_before = client.requests_sent, screen.freshness.updated_at
        monitor.reset()
        screen.live_refresh()
        # the round is over when its last row is in (updated_at moves), not when the list's load ends: the round's
        # own load starts a frame after that
        await until(lambda: screen.freshness.updated_at != round_before and not screen.loads.busy())
        tick_requests, tick_stall = client.requests_sent - sent, monitor.worst()
        await monitor.stop()
    return elapsed, fill_requests, fill_stall, tick_requests, tick_stall


async def _run() -> list[Comparison]:
    healths: list[float] = []
    cpus: list[float] = []
    health_floors: list[float] = []
    fills: list[float] = []
    fill_floors: list[float] = []
    stalls: list[float] = []
    ticks: list[float] = []
    tick_stalls: list[float] = []
    histories = 0
    generated = not DB_PATH.exists()
    with DemoProcess(sizes=SIZES, db_path=DB_PATH, anchor=FIXED_ANCHOR) as demo:
        for _ in range(REPEATS):
            seconds, requests, histories, cpu = await health_round(demo)
            healths.append(seconds)
            cpus.append(cpu)
            health_floors.append(floor(requests))
            await asyncio.sleep(QUIET)
            filled, fill_requests, stall, tick_requests, tick_stall = await fill_and_tick(demo)
            fills.append(filled)
            fill_floors.append(floor(fill_requests))
            stalls.append(stall)
            ticks.append(tick_requests)
            tick_stalls.append(tick_stall)
            print(
                f"  run: health {human(seconds)} ({human(cpu)} of CPU) for {requests} requests (floor "
                f"{human(floor(requests))}, "
                f"{histories} own histories); fill {human(filled)} for {fill_requests} requests (floor "
                f"{human(floor(fill_requests))}), worst stall {human(stall)}; quiet tick {tick_requests} requests, "
                f"worst stall {human(tick_stall)}",
                file=sys.stderr,
            )
            await asyncio.sleep(QUIET)
        old_seconds, old_requests = await one_by_one(demo)
    health = summarise("svctui health's reads", healths)
    health_floor = summarise("rate floor of its requests", health_floors)
    fill = summarise("Clients screen's first fill", fills)
    fill_floor = summarise("rate floor of its requests", fill_floors)
    tick = Measurement("requests of a quiet live round", statistics.median(ticks), min(ticks), "requests")
    made = "generated for this run" if generated else "reused from an earlier run"
    return [
        Comparison(
            "fleet-1000-health",
            f"svctui health on 1,000 clients at {DEFAULT_RATE_LIMIT} req/s vs the rate floor of the requests it "
            f"needed (budget x{FILL_BUDGET})",
            health_floor,
            health,
            f"{_within(health, health_floor, FILL_BUDGET)}: {round(health_floor.median * DEFAULT_RATE_LIMIT)} "
            f"requests (the client list, the finished runs of the last 8 days in pages of 1,000, {histories} "
            f"clients' own history); read client by client instead (a server without jobs/finished): "
            f"{old_requests} requests, {human(old_seconds)} (floor {human(floor(old_requests))}). The client's CPU per "
            f"round (validating 30 pages, judging 1,000 clients): {', '.join(human(cpu) for cpu in cpus)}; "
            f"database {made}",
        ),
        Comparison(
            "fleet-1000-fill",
            f"Clients screen's first fill with 1,000 clients vs the rate floor of its requests (budget "
            f"x{FILL_BUDGET}, stall {human(STALL_BUDGET)})",
            fill_floor,
            fill,
            f"{_within(fill, fill_floor, FILL_BUDGET)}; worst event-loop stall from the screen's mount to the last "
            f"row, per run: {', '.join(human(stall) for stall in stalls)} "
            f"({'within' if max(stalls) <= STALL_BUDGET else 'over'} the {human(STALL_BUDGET)} budget)",
        ),
        Comparison(
            "fleet-1000-tick",
            f"Requests of a live round of the Clients screen with nothing new vs the budget of {TICK_BUDGET}",
            Measurement("budget", TICK_BUDGET, TICK_BUDGET, "requests"),
            tick,
            f"{'within' if max(ticks) <= TICK_BUDGET else 'over'} the budget: the client list (one page of "
            f"1,000) and the runs updated since the last round; worst stall while it ran, per run: "
            f"{', '.join(human(stall) for stall in tick_stalls)}",
        ),
    ]


def _within(subject: Measurement, baseline: Measurement, budget: float) -> str:
    """`within x1.5 (x1.23)` or `over x1.5 (x4.10)`: the subject's median against `budget` times the baseline's."""
    ratio = subject.median / baseline.median if baseline.median else float("inf")
    return f"{'within' if ratio <= budget else 'over'} x{budget} (x{ratio:.2f})"


def run() -> list[Comparison]:
    """Three rows: fleet-1000-health, fleet-1000-fill, fleet-1000-tick."""
    return asyncio.run(_run())
