"""One request pacer per ApiClient, shared by every concurrent request, driven by the X-RateLimit-* headers.

The real server allows `X-RateLimit-Limit` requests per window (55 a second per IP and route) and answers the
next ones with a plain-text 429 and no Retry-After. Once it has seen the limit, the pacer spaces request starts
`window / pace(limit)` apart, so a bulk delete mostly stays under it. When a response says the window is spent
(`Remaining: 0`, read against the server's own `Date` so a skewed local clock does not matter) or a 429 arrives
(then: until X-RateLimit-Reset, else Retry-After, at least 1 s and at most 60 s), every request waits, and the
waiters then start one slot apart instead of all at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from email.utils import parsedate_to_datetime

from svctui.api.errors import RateLimited, header_number

WINDOW = 1.0  # seconds per rate-limit window (the real server: `55-S`, per second)
SAFETY = 0.94  # pace at 94 % of the limit: arrival jitter must not push a window over it
MIN_BLOCK = 0.05  # shortest wait after a spent window
MAX_BLOCK = 60.0  # longest single wait (a Reset far away is a skewed or odd server: wait at most this)
SPENT_BLOCK = 5.0  # longest wait on `Remaining: 0` alone (a wrong clock must not stall every request a minute)
UNKNOWN_BLOCK = 1.0  # wait after a 429 that carries no usable Reset ("wait until Reset or >= 1 s")
SKEW_TOLERANCE = 2.0  # seconds the local clock may differ from the server's Date and still be trusted
FALLBACK_SPREAD = 0.05  # slot spacing after a block when the limit is unknown

Sleep = Callable[[float], Awaitable[None]]


def _server_now(headers: Mapping[str, str], wall_clock: float) -> float:
    """The server's unix time: the local wall clock when it agrees with the `Date` header (which has only
    second resolution) within SKEW_TOLERANCE, else that header; the local clock when there is no Date."""
    try:
        date = parsedate_to_datetime(headers.get("date", "")).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return wall_clock
    return wall_clock if abs(wall_clock - date) <= SKEW_TOLERANCE else date


def reset_wait(headers: Mapping[str, str], wall_clock: float) -> float | None:
    """Seconds until X-RateLimit-Reset by the server's clock, clamped to [MIN_BLOCK, MAX_BLOCK]; None if absent."""
    reset = header_number(headers.get("x-ratelimit-reset"))
    if reset is None:
        return None
    return min(max(reset - _server_now(headers, wall_clock), MIN_BLOCK), MAX_BLOCK)


def rate_limit_delay(error: RateLimited, now: float) -> float:
    """Seconds to wait after a 429: until X-RateLimit-Reset, else Retry-After; at least 1 s, at most 60 s."""
    if error.reset_at is not None:
        wait = error.reset_at - now
    elif error.retry_after is not None:
        wait = error.retry_after
    elif error.retry_at is not None:
        wait = error.retry_at - now
    else:
        wait = UNKNOWN_BLOCK
    return min(max(wait, UNKNOWN_BLOCK), MAX_BLOCK)


def pace(limit: float) -> float:
    """Requests per window to aim for: 94 % of the limit, and at least one below it so a window never fills."""
    return max(min(limit * SAFETY, limit - 1.5), limit / 2)


class RateLimiter:
    """Paces request starts for one client; `acquire()` before each send, `observe()` each response's headers."""

    def __init__(
        self,
        sleep: Sleep = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self._sleep = sleep
        self._monotonic = monotonic
        self._wall_clock = wall_clock
        self.limit: int | None = None
        self.interval = 0.0  # seconds between request starts; 0 until a limit is known
        self.blocked_until = 0.0  # monotonic time before which no request starts
        self.blocks = 0  # how many times a spent window or a 429 stopped every request
        self._next_slot = 0.0
        self._first_start: float | None = None
        self._started = 0  # request starts before the limit was known (they used up part of the window)

    async def acquire(self) -> None:
        """Wait for this request's start slot: after any block, and one interval after the previous start."""
        while True:
            now = self._monotonic()
            slot = max(now, self._next_slot, self.blocked_until)
            spacing = self.interval or (FALLBACK_SPREAD if slot == self.blocked_until > now else 0.0)
            self._next_slot = slot + spacing
            blocks = self.blocks
            if self.limit is None:
                self._started += 1
                self._first_start = now if self._first_start is None else self._first_start
            if slot > now:
                await self._sleep(round(slot - now, 3))  # to the millisecond: no finer pacing is meaningful
            if self.blocks == blocks or self.blocked_until <= slot:
                return  # no newer block began while this request slept

    def observe(self, headers: Mapping[str, str]) -> None:
        """Learn the limit from a response; block until the reset when the window is spent."""
        self._learn(headers)
        remaining = header_number(headers.get("x-ratelimit-remaining"))
        if remaining is not None and remaining <= 0:  # a longer window than SPENT_BLOCK shows itself with a 429
            self._block(min(reset_wait(headers, self._wall_clock()) or UNKNOWN_BLOCK, SPENT_BLOCK))

    def limited(self, error: RateLimited) -> float:
        """A 429 arrived: block every request for `rate_limit_delay`; the seconds this client will now wait."""
        self._learn(error.headers or {})
        self._block(rate_limit_delay(error, self._wall_clock()))
        return max(self.blocked_until - self._monotonic(), 0.0)

    def _learn(self, headers: Mapping[str, str]) -> None:
        """Take the limit from X-RateLimit-Limit and set the spacing of request starts from it."""
        limit = header_number(headers.get("x-ratelimit-limit"))
        if limit is not None and limit >= 1:
            first = self.limit is None
            self.limit = int(limit)
            self.interval = WINDOW / pace(limit)
            if first and self._first_start is not None:  # the opening burst took its share of the first window
                self._next_slot = max(self._next_slot, self._first_start + self._started * self.interval)

    def _block(self, wait: float) -> None:
        """Hold every request start until `wait` seconds from now (a later block wins over an earlier one)."""
        until = self._monotonic() + wait
        if until > self.blocked_until:
            self.blocked_until = until
            self.blocks += 1
            self._next_slot = until
