"""The client's shared rate limiter on a fake clock: pacing per route, bursts on a quiet route, blocking on a spent
window or a 429 (its route only), spread wake-ups, and never more than pace(limit) starts of a route in a window."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections.abc import Awaitable, Callable
from email.utils import formatdate

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svctui.api.errors import RateLimited
from svctui.api.limiter import (
    IDLE_MARGIN,
    MAX_BLOCK,
    SPENT_BLOCK,
    WINDOW,
    RateLimiter,
    burst_size,
    pace,
    reset_wait,
    route_key,
)

pytestmark = pytest.mark.anyio

WALL = 1_900_000_000.0


class FakeTime:
    """A monotonic clock that moves only when someone sleeps; records every sleep."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []
        self.wakes: list[float] = []

    def monotonic(self) -> float:
        """Now."""
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Advance the clock (waiters wake in the order of their deadlines under asyncio's scheduling)."""
        self.sleeps.append(seconds)
        target = self.now + seconds
        self.wakes.append(target)
        await asyncio.sleep(0)
        self.now = max(self.now, target)


def limiter(clock: FakeTime) -> RateLimiter:
    return RateLimiter(sleep=clock.sleep, monotonic=clock.monotonic, wall_clock=lambda: WALL)


def limited(headers: dict[str, str]) -> RateLimited:
    error = RateLimited(429, ["Limit exceeded"])
    error.headers = httpx.Headers(headers)
    error.reset_at = float(headers["X-RateLimit-Reset"]) if "X-RateLimit-Reset" in headers else None
    return error


async def test_no_pacing_until_the_limit_is_known() -> None:
    clock = FakeTime()
    pacer = limiter(clock)
    for _ in range(5):
        await pacer.acquire()
    assert clock.sleeps == []


async def test_starts_past_the_burst_are_spaced_once_the_limit_is_known() -> None:
    clock = FakeTime()
    pacer = limiter(clock)
    pacer.observe(
        httpx.Headers(
            {"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "54", "X-RateLimit-Reset": str(int(WALL) + 1)}
        )
    )
    starts = []
    for _ in range(120):
        await pacer.acquire()
        starts.append(clock.wakes[-1] if clock.wakes else clock.now)
    per_second = max(sum(1 for start in starts if first <= start < first + 1.0) for first in starts)
    assert per_second <= math.ceil(pace(55)) < 55, "94 % of the limit: a window never fills"
    assert starts[: burst_size(55)] == [100.0] * burst_size(55), "a quiet route starts a burst at once"


async def test_a_429_blocks_everyone_and_the_waiters_wake_spread_out() -> None:
    clock = FakeTime()
    pacer = limiter(clock)
    error = limited({"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(WALL) + 2)})
    assert pacer.limited(error) == 2.0

    async def worker() -> None:
        await pacer.acquire()

    await asyncio.gather(*(worker() for _ in range(16)))
    wakes = sorted(clock.wakes)
    assert len(wakes) == 16 and wakes[0] == pytest.approx(102.0)
    gaps = [later - earlier for earlier, later in itertools.pairwise(wakes)]
    assert min(gaps) >= pacer.interval() - 0.001, "not bunched: one slot apart"


async def test_a_spent_window_blocks_until_the_reset_by_the_servers_clock() -> None:
    clock = FakeTime()
    pacer = limiter(clock)
    server_now = WALL - 3600  # the local wall clock is an hour ahead: the server's Date decides
    headers = {
        "X-RateLimit-Limit": "55",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": str(int(server_now) + 1),
        "Date": formatdate(server_now, usegmt=True),
    }
    pacer.observe(httpx.Headers(headers))
    assert pacer.route().blocked_until == pytest.approx(101.0)
    await pacer.acquire()
    assert clock.now == pytest.approx(101.0)


@pytest.mark.parametrize(
    ("headers", "wait"),
    [
        ({"X-RateLimit-Reset": str(int(WALL) + 4)}, 4.0),
        ({"X-RateLimit-Reset": str(int(WALL) - 30)}, 1.0),
        ({}, 1.0),
        ({"X-RateLimit-Reset": str(int(WALL) + 3600)}, MAX_BLOCK),
    ],
)
async def test_429_wait_is_between_one_second_and_a_minute(headers: dict[str, str], wait: float) -> None:
    assert limiter(FakeTime()).limited(limited(headers)) == pytest.approx(wait)


def test_reset_wait_without_reset_is_none() -> None:
    assert reset_wait({"X-RateLimit-Limit": "55"}, WALL) is None


@given(st.integers(min_value=1, max_value=100_000))
def test_pace_stays_below_the_limit(limit: int) -> None:
    rate = pace(limit)
    assert 0 < rate < limit


async def test_the_opening_burst_counts_against_the_first_window() -> None:
    clock = FakeTime()
    pacer = limiter(clock)
    for _ in range(60):  # more than a burst, before any answer said the limit
        await pacer.acquire()
    pacer.observe(httpx.Headers({"X-RateLimit-Limit": "55"}))
    await pacer.acquire()
    assert clock.wakes == [pytest.approx(100.0 + round(60 * pacer.interval(), 3))]


async def test_a_spent_window_never_stalls_everything_for_long() -> None:
    pacer = limiter(FakeTime())
    pacer.observe(httpx.Headers({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(WALL) + 3600)}))
    assert pacer.route().blocked_until == pytest.approx(100.0 + SPENT_BLOCK)


LIMIT_55 = httpx.Headers({"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "20"})
COMPLETED = route_key("GET", "/api/v2/clients/3f2504e0-4f89-41d3-9a0c-0305e82c3301/completed-jobs")
CLIENTS = route_key("GET", "/api/v2/clients")


class VirtualTime:
    """A monotonic clock for many concurrent tasks: `run` lets every runnable task go, then jumps to the earliest
    pending sleep."""

    def __init__(self) -> None:
        self.now = 100.0
        self._timers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    def monotonic(self) -> float:
        """Now."""
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Wake when the clock reaches now + seconds."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._timers, (self.now + max(seconds, 0.0), next(self._seq), future))
        await future

    async def run(self, *jobs: Awaitable[object]) -> None:
        """Run `jobs` to the end on virtual time."""
        tasks = [asyncio.ensure_future(job) for job in jobs]
        while not all(task.done() for task in tasks):
            for _ in range(20):
                await asyncio.sleep(0)
            if self._timers:
                when, _, future = heapq.heappop(self._timers)
                self.now = max(self.now, when)
                future.set_result(None)
        for task in tasks:
            task.result()


def virtual_limiter(clock: VirtualTime) -> RateLimiter:
    return RateLimiter(sleep=clock.sleep, monotonic=clock.monotonic, wall_clock=lambda: WALL)


def request(
    clock: VirtualTime, pacer: RateLimiter, route: str, at: float, duration: float, starts: list[float]
) -> Callable[[], Awaitable[None]]:
    """A request that arrives at `at` (seconds from 100), waits for its start, takes `duration`, then answers."""

    async def send() -> None:
        await clock.sleep(100.0 + at - clock.now)
        await pacer.acquire(route)
        starts.append(clock.now)
        try:
            await clock.sleep(duration)
            pacer.observe(LIMIT_55, route)
        finally:
            pacer.release(route)

    return send


def most_in_a_span(starts: list[float], span: float) -> int:
    return max((sum(1 for other in starts if start <= other < start + span) for start in starts), default=0)


def test_route_key_replaces_ids_and_keeps_the_method() -> None:
    assert COMPLETED == "GET /api/v2/clients/{id}/completed-jobs"
    assert route_key("DELETE", "/api/v2/asset-group-tags/2/selectors/51?x=1") == (
        "DELETE /api/v2/asset-group-tags/{id}/selectors/{id}"
    )
    assert route_key("GET", "/api/v2/asset-group-tags/2/selectors/51") != route_key(
        "DELETE", "/api/v2/asset-group-tags/2/selectors/51"
    )
    assert CLIENTS == "GET /api/v2/clients"


def test_a_quiet_route_bursts_then_books_the_slots_after_the_burst() -> None:
    clock = VirtualTime()
    pacer = virtual_limiter(clock)
    pacer.observe(LIMIT_55, CLIENTS)  # the limit is learned on another route
    starts: list[float] = []
    asyncio.run(clock.run(*(request(clock, pacer, COMPLETED, 0.0, 0.05, starts)() for _ in range(60))))
    burst = burst_size(55)
    assert starts[:burst] == [100.0] * burst, "fifty-one at once on a quiet route"
    interval = WINDOW / pace(55)
    assert starts[burst] == pytest.approx(100.0 + burst * interval, abs=0.001), "the next one after the booked slots"
    assert most_in_a_span(starts, WINDOW) <= math.ceil(pace(55))


def test_no_second_burst_until_the_route_was_quiet_for_a_window() -> None:
    clock = VirtualTime()
    pacer = virtual_limiter(clock)
    pacer.observe(LIMIT_55, COMPLETED)
    burst = burst_size(55)
    soon: list[float] = []
    late: list[float] = []
    interval = WINDOW / pace(55)
    last_answer = (burst + 9) * interval + 0.05  # the last of `again` below is answered then (from 100)
    first = [request(clock, pacer, COMPLETED, 0.0, 0.05, soon)() for _ in range(burst)]
    again = [request(clock, pacer, COMPLETED, 0.5, 0.05, soon)() for _ in range(10)]  # not quiet yet
    too_soon = [request(clock, pacer, COMPLETED, last_answer + WINDOW, 0.05, late)() for _ in range(2)]
    asyncio.run(clock.run(*first, *again, *too_soon))
    assert soon[burst:] == pytest.approx([100.0 + k * interval for k in range(burst, burst + 10)], abs=0.002)
    assert late[1] - late[0] == pytest.approx(interval, abs=0.002), "a window of quiet is not enough: one slot apart"
    quiet_at = late[1] + 0.05 + WINDOW + IDLE_MARGIN + 0.001 - 100.0
    after: list[float] = []
    asyncio.run(clock.run(*(request(clock, pacer, COMPLETED, quiet_at, 0.05, after)() for _ in range(10))))
    assert after == [pytest.approx(100.0 + quiet_at)] * 10, "quiet for a window and the margin: a burst again"


def test_routes_are_paced_apart() -> None:
    clock = VirtualTime()
    pacer = virtual_limiter(clock)
    pacer.observe(LIMIT_55, CLIENTS)
    listing: list[float] = []
    fleet: list[float] = []
    jobs = [request(clock, pacer, CLIENTS, 0.0, 0.01, listing)() for _ in range(80)]
    jobs += [request(clock, pacer, COMPLETED, 0.0, 0.01, fleet)() for _ in range(50)]
    asyncio.run(clock.run(*jobs))
    assert fleet == [100.0] * 50, "the completed-jobs route is not slowed by the listing's queue"
    assert max(listing) > 101.0


def test_a_429_blocks_only_its_route() -> None:
    clock = VirtualTime()
    pacer = virtual_limiter(clock)
    pacer.observe(LIMIT_55, COMPLETED)
    error = limited({"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(WALL) + 2)})
    assert pacer.limited(error, COMPLETED) == 2.0
    blocked: list[float] = []
    free: list[float] = []
    jobs = [request(clock, pacer, COMPLETED, 0.0, 0.01, blocked)() for _ in range(5)]
    jobs += [request(clock, pacer, CLIENTS, 0.0, 0.01, free)() for _ in range(5)]
    asyncio.run(clock.run(*jobs))
    assert free == [100.0] * 5
    assert min(blocked) == pytest.approx(102.0) and len(set(blocked)) == 5, "after the reset, one slot apart"


@settings(deadline=None, max_examples=60)
@given(
    st.lists(
        st.tuples(
            st.floats(0.0, 3.0),  # when a crowd of requests arrives
            st.integers(1, 80),  # how many
            st.floats(0.001, 0.4),  # how long each takes to be answered
            st.sampled_from([COMPLETED, CLIENTS]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_never_more_than_pace_starts_of_a_route_in_any_window(plan: list[tuple[float, int, float, str]]) -> None:
    clock = VirtualTime()
    pacer = virtual_limiter(clock)
    pacer.observe(LIMIT_55, CLIENTS)
    starts: dict[str, list[float]] = {COMPLETED: [], CLIENTS: []}
    jobs = [
        request(clock, pacer, route, at, duration, starts[route])()
        for at, count, duration, route in plan
        for _ in range(count)
    ]
    asyncio.run(clock.run(*jobs))
    for route_starts in starts.values():
        assert most_in_a_span(route_starts, WINDOW) <= math.ceil(pace(55))
        assert most_in_a_span(route_starts, WINDOW + 0.06) <= 55, "60 ms of arrival jitter still fits the limit"
