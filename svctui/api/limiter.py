"""Request pacing per route, shared by every concurrent request of an ApiClient, driven by the X-RateLimit-* headers.

The real server allows `X-RateLimit-Limit` requests per window (55 a second) per client IP, **counted per route**:
a fixed window opened by the route's first request, answered past the limit with a plain-text 429 and no
Retry-After. So one pacer per route (`route_key`: the method and the path with its id segments — integers, uuids —
replaced by `{id}`): the fleet's 50 completed-jobs requests are not slowed by the clients listing before them, and a
429 or a spent window (`Remaining: 0`, read against the server's own `Date` so a skewed local clock does not
matter; after a 429: until X-RateLimit-Reset, else Retry-After, at least 1 s and at most 60 s) holds its own route
only, whose waiters then start one slot apart instead of all at once. The limit learned on one route is assumed on
the others until they say otherwise (the server has one limit).

Once the limit is known a route books its starts one `interval = WINDOW / pace(limit)` apart: slot v(k+1) ≥
v(k) + interval, and a start waits for its slot. Except in a burst: a route that has been quiet — no request
waiting or in flight, none started or answered for WINDOW + IDLE_MARGIN — begins a new *run*, and the run's first
`burst_size(limit)` (= floor(pace(limit))) starts go at once while still booking their slots; the starts after them
wait for the slots after the booked ones (slot = max(now, previous slot + interval): nothing is saved up while the
route is slow). Fifty requests to a quiet route thus start together instead of over (50 - 1) · interval seconds.

Why any span of T >= WINDOW still sees at most ceil(pace · T) starts of a route, as with plain pacing: every start
k of a run has a slot v(k), v increasing at least `interval` apart; a burst start goes at a(k) <= v(k) (it may only
be early), a waiting start at a(k) = v(k); the burst starts are the run's first ones (once a start had to wait,
none goes early again in that run). Take the starts in [t, t + T). If one of them waited, the last of them did (it
has the highest index), so its slot is < t + T; the first of them has its slot >= its start >= t; every start in
between has its slot in between: all their slots lie in [t, t + T), at most ceil(T / interval) = ceil(pace · T) of
them. If none waited, they are burst starts: at most burst_size <= pace. Runs do not mix in a span up to
WINDOW + IDLE_MARGIN, since a run begins only after that much quiet. And the server's window: every earlier request
of the route arrived before it was answered, so the window it opened closed IDLE_MARGIN before the burst, however
slow the request was. Arrivals within one server window come from starts within WINDOW + jitter; at 55 the slack
(55 / pace - 1) tolerates 64 ms of jitter between the run's first arrival and later ones, exactly as much as plain
pacing did (the burst's own spread is harmless: it is all in the window it opens, and it is at most 51 of 55).
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from svctui.api.errors import RateLimited, header_number

WINDOW = 1.0  # seconds per rate-limit window (the real server: `55-S`, per second)
SAFETY = 0.94  # pace at 94 % of the limit: arrival jitter must not push a window over it
IDLE_MARGIN = 0.1  # quiet beyond a full window before a route may burst again (>= the 64 ms of jitter tolerated)
MIN_BLOCK = 0.05  # shortest wait after a spent window
MAX_BLOCK = 60.0  # longest single wait (a Reset far away is a skewed or odd server: wait at most this)
SPENT_BLOCK = 5.0  # longest wait on `Remaining: 0` alone (a wrong clock must not stall every request a minute)
UNKNOWN_BLOCK = 1.0  # wait after a 429 that carries no usable Reset ("wait until Reset or >= 1 s")
SKEW_TOLERANCE = 2.0  # seconds the local clock may differ from the server's Date and still be trusted
FALLBACK_SPREAD = 0.05  # slot spacing after a block when the limit is unknown

Sleep = Callable[[float], Awaitable[None]]

_ID_SEGMENT = re.compile(r"\d+|[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]+)*")


class HeldTooLong(Exception):
    """A request's start would come after its deadline (a 429's block, a spent window): it is not sent."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"held for another {seconds:.1f} s")
        self.seconds = seconds


def route_key(method: str, path: str) -> str:
    """The route a request counts against: `GET /api/v2/clients/{id}/completed-jobs` (query dropped, integer and
    uuid/hex segments replaced by `{id}`)."""
    segments = path.split("?", 1)[0].split("/")
    template = "/".join("{id}" if _ID_SEGMENT.fullmatch(segment) else segment for segment in segments)
    return f"{method.upper()} {template}"


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


def burst_size(limit: float) -> int:
    """How many requests a quiet route may start at once: floor(pace(limit)), at least 1."""
    return max(math.floor(pace(limit)), 1)


@dataclass
class RouteState:
    """One route's pacing: its limit, its current run, its booked slots, blocks, and what is under way."""

    limit: int | None = None  # the route's own X-RateLimit-Limit, once seen
    run_start: float = -math.inf  # monotonic time the current run began (after quiet)
    run_starts: int = 0  # starts in the current run
    may_burst: bool = False  # the run's starts may still go before their slots (see the module docstring)
    next_slot: float = 0.0  # the earliest slot not booked yet
    blocked_until: float = 0.0  # monotonic time before which no request of this route starts
    blocks: int = 0  # how many times a spent window or a 429 stopped this route
    pending: int = 0  # requests waiting for a slot or in flight
    last_busy: float = -math.inf  # the latest start, answer, or end of a block


class RateLimiter:
    """Paces request starts per route; `acquire(route)` before each send and `release(route)` after it (answer or
    not), `observe(headers, route)` each answer's headers, `limited(error, route)` on a 429."""

    def __init__(
        self,
        sleep: Sleep = asyncio.sleep,
        monotonic: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self._sleep = sleep
        self._monotonic = monotonic
        self._wall_clock = wall_clock
        self.limit: int | None = None  # the last limit any route announced (assumed where a route has said none)
        self.routes: dict[str, RouteState] = {}

    def route(self, route: str = "") -> RouteState:
        """The state of `route` (a `route_key`), created quiet on first use."""
        state = self.routes.get(route)
        if state is None:
            state = self.routes[route] = RouteState()
        return state

    def limit_of(self, route: str = "") -> int | None:
        """The limit `route` is paced by: its own, else the one learned elsewhere, else None (no pacing yet)."""
        state = self.routes.get(route)
        return state.limit if state is not None and state.limit is not None else self.limit

    def interval(self, route: str = "") -> float:
        """Seconds between booked slots of `route`; 0 while no limit is known."""
        limit = self.limit_of(route)
        return WINDOW / pace(limit) if limit is not None else 0.0

    def burst_room(self) -> int | None:
        """How many requests a quiet route may start at once under the limit known so far (None: no limit seen)."""
        return burst_size(self.limit) if self.limit is not None else None

    async def acquire(self, route: str = "", deadline: float | None = None) -> None:
        """Wait for this request's start: at once in a quiet route's burst, else at its slot after any block.
        HeldTooLong, without waiting, when that slot is past `deadline` (monotonic time)."""
        state = self.route(route)
        state.pending += 1
        try:
            while True:
                now = self._monotonic()
                slot = self._book(state, route, now)
                if deadline is not None and slot > now and slot >= deadline:
                    raise HeldTooLong(slot - now)
                blocks = state.blocks
                if slot > now:
                    await self._sleep(round(slot - now, 3))  # to the millisecond: no finer pacing is meaningful
                if state.blocks == blocks or state.blocked_until <= slot:
                    state.last_busy = max(state.last_busy, self._monotonic())
                    return  # no newer block began while this request slept
        except BaseException:
            state.pending -= 1
            state.last_busy = max(state.last_busy, self._monotonic())
            raise

    def release(self, route: str = "") -> None:
        """The request that `acquire` let start has ended (answered, failed or cancelled)."""
        state = self.route(route)
        state.pending = max(state.pending - 1, 0)
        state.last_busy = max(state.last_busy, self._monotonic())

    def _book(self, state: RouteState, route: str, now: float) -> float:
        """Book the next start of `route` and return when it may go (`now` in a burst)."""
        quiet = state.pending == 1 and now - state.last_busy >= WINDOW + IDLE_MARGIN  # `pending` counts this one
        if quiet and now >= state.blocked_until:
            state.run_start, state.run_starts, state.may_burst, state.next_slot = now, 0, True, now
        limit = self.limit_of(route)
        interval = self.interval(route)
        state.run_starts += 1
        if state.may_burst and now >= state.blocked_until and (limit is None or state.run_starts <= burst_size(limit)):
            state.next_slot = max(state.next_slot, now) + interval  # goes now, books its slot
            return now
        state.may_burst = False  # once one start waits, the run's burst is over
        slot = max(now, state.next_slot, state.blocked_until)
        spacing = interval or (FALLBACK_SPREAD if slot == state.blocked_until > now else 0.0)
        state.next_slot = slot + spacing
        return slot

    def observe(self, headers: Mapping[str, str], route: str = "") -> None:
        """Learn the limit from an answer; block the route until the reset when its window is spent."""
        self._learn(headers, route)
        remaining = header_number(headers.get("x-ratelimit-remaining"))
        if remaining is not None and remaining <= 0:  # a longer window than SPENT_BLOCK shows itself with a 429
            self._block(route, min(reset_wait(headers, self._wall_clock()) or UNKNOWN_BLOCK, SPENT_BLOCK))

    def limited(self, error: RateLimited, route: str = "") -> float:
        """A 429 arrived: block the route for `rate_limit_delay`; the seconds its requests will now wait."""
        self._learn(error.headers or {}, route)
        self._block(route, rate_limit_delay(error, self._wall_clock()))
        return max(self.route(route).blocked_until - self._monotonic(), 0.0)

    def hold(self, route: str, seconds: float) -> None:
        """Hold `route` for `seconds` (a 429 asked for a wait nobody will make: its requests are refused meanwhile)."""
        self._block(route, seconds)

    def _learn(self, headers: Mapping[str, str], route: str) -> None:
        """Take the limit from X-RateLimit-Limit; a run that started before it was known books the slots its
        starts took (they used up part of the window)."""
        limit = header_number(headers.get("x-ratelimit-limit"))
        if limit is None or limit < 1:
            return
        state = self.route(route)
        state.limit = int(limit)
        if self.limit is None:
            self.limit = int(limit)
            for other in self.routes.values():  # every run begun without a limit now counts its starts
                self._rebook(other, other.limit or self.limit)
        else:
            self.limit = int(limit)
            self._rebook(state, state.limit)

    @staticmethod
    def _rebook(state: RouteState, limit: int) -> None:
        if state.run_start > -math.inf:
            state.next_slot = max(state.next_slot, state.run_start + state.run_starts * WINDOW / pace(limit))

    def _block(self, route: str, wait: float) -> None:
        """Hold the route's starts until `wait` seconds from now (a later block wins over an earlier one); its
        run's burst is over, and the next one comes only after quiet from the block's end."""
        state = self.route(route)
        until = self._monotonic() + wait
        if until > state.blocked_until:
            state.blocked_until = until
            state.blocks += 1
            state.next_slot = until
            state.may_burst = False
            state.last_busy = max(state.last_busy, until)
