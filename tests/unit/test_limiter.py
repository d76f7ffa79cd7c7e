"""The client's shared rate limiter on a fake clock: pacing, blocking on a spent window or a 429, spread wake-ups."""

from __future__ import annotations

import asyncio
import itertools
from email.utils import formatdate

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from svctui.api.errors import RateLimited
from svctui.api.limiter import MAX_BLOCK, SPENT_BLOCK, RateLimiter, pace, reset_wait

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


async def test_starts_are_spaced_once_the_limit_is_known() -> None:
    clock = FakeTime()
    pacer = limiter(clock)
    pacer.observe(
        httpx.Headers(
            {"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "54", "X-RateLimit-Reset": str(int(WALL) + 1)}
        )
    )
    starts = []
    for _ in range(50):
        await pacer.acquire()
        starts.append(clock.wakes[-1] if clock.wakes else clock.now)
    per_second = sum(1 for start in starts if start < starts[0] + 1.0)
    assert per_second <= 50 < 55, "90 % of the limit: a window never fills"


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
    assert min(gaps) >= pacer.interval - 0.001, "not bunched: one slot apart"


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
    assert pacer.blocked_until == pytest.approx(101.0)
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
    for _ in range(16):
        await pacer.acquire()
    pacer.observe(httpx.Headers({"X-RateLimit-Limit": "55", "X-RateLimit-Remaining": "39"}))
    await pacer.acquire()
    assert clock.wakes == [pytest.approx(100.0 + round(16 * pacer.interval, 3))]


async def test_a_spent_window_never_stalls_everything_for_long() -> None:
    pacer = limiter(FakeTime())
    pacer.observe(httpx.Headers({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(WALL) + 3600)}))
    assert pacer.blocked_until == pytest.approx(100.0 + SPENT_BLOCK)
