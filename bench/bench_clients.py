"""The Clients screen (key 4) with 50 clients: time until every row is filled, and the worst event-loop stall.

Issue 14's budget: the screen fills in within 2x the time of the slowest single client's fetch, and never stalls
the event loop more than 50 ms. The subject is the real dashboard (Pilot, frozen clock) on a demo server with 50
clients at the demo's default rate limit (55 requests a second, shared by the client's one limiter), from `4`
until every row is judged. The baseline is the slowest of the 50 clients fetched and judged one at a time
(`svctui.fleet.member_health`, the same request and the same drop detection) with an ApiClient alone. The stall
is bench.support.LagMonitor's worst lateness of a 5 ms timer on the app's loop while the screen fills in.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.harness import Comparison, Measurement, human
from bench.support import LagMonitor, until
from svctui.api.client import ApiClient
from svctui.api.signing import SignatureAuth
from svctui.demo.config import DEFAULT_RATE_LIMIT, FIXED_ANCHOR, DemoSizes  # the server's default rate limit
from svctui.demo.server import DemoServer
from svctui.fleet import find_fleet, member_health
from svctui.tui.screens.clients import ClientsScreen
from tests.support.tui import make_app, settle

SIZES = DemoSizes(clients=50, events=200, tasks=10_000, tags=2, selectors=10)
REPEATS = 3
BUDGET = 0.050


async def slowest_single(demo: DemoServer) -> float:
    """The longest time one client takes to be fetched and judged on its own."""
    async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
        fleet = await find_fleet(client)
        times = []
        for member in fleet.members:
            started = time.perf_counter()
            await member_health(client, member, FIXED_ANCHOR)
            times.append(time.perf_counter() - started)
    return max(times)


async def fill_in(demo: DemoServer) -> tuple[float, float]:
    """(seconds from `4` until every client's row is judged, worst loop lateness meanwhile)."""
    app = make_app(demo)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        monitor = LagMonitor()
        monitor.start()
        monitor.reset()
        started = time.perf_counter()
        await pilot.press("4")
        await until(lambda: isinstance(app.screen, ClientsScreen) and app.screen.fleet is not None)
        screen = app.screen
        assert isinstance(screen, ClientsScreen) and screen.fleet is not None
        total = len(screen.fleet.members)
        await until(lambda: len(screen.results) >= total)
        elapsed = time.perf_counter() - started
        worst = monitor.worst()
        await monitor.stop()
    return elapsed, worst


async def _run() -> list[Comparison]:
    singles: list[float] = []
    fills: list[float] = []
    stalls: list[float] = []
    with (
        tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp,
        DemoServer(sizes=SIZES, db_path=Path(tmp) / "clients.sqlite3", anchor=FIXED_ANCHOR) as demo,
    ):
        for _ in range(REPEATS):
            singles.append(await slowest_single(demo))
            await asyncio.sleep(1.1)  # a fresh rate-limit window for each side
            elapsed, worst = await fill_in(demo)
            fills.append(elapsed)
            stalls.append(worst)
            await asyncio.sleep(1.1)
    baseline = Measurement("slowest single client, alone", statistics.median(singles), min(singles))
    subject = Measurement("Clients screen, 50 clients filled in", statistics.median(fills), min(fills))
    verdict = "within" if subject.median <= 2 * baseline.median else "over"
    stall = Measurement("worst loop lateness while filling", statistics.median(stalls), min(stalls))
    return [
        Comparison(
            "clients-fill",
            f"Clients screen with 50 clients at {DEFAULT_RATE_LIMIT} req/s: all rows filled vs the slowest single "
            "client's fetch (budget x2)",
            baseline,
            subject,
            f"{verdict} the x2 budget; worst event-loop stall while filling {human(max(stalls))} "
            f"(median {human(stall.median)}; budget {human(BUDGET)})",
        )
    ]


def run() -> list[Comparison]:
    """One row: clients-fill."""
    return asyncio.run(_run())
