"""A fixed-window rate limiter per client IP and route, like the real server's (ulule/limiter, `N-S`).

Every limited response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (unix seconds);
over the limit the answer is a plain-text 429 `Limit exceeded` with no Retry-After.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """The outcome for one request: allowed or not, and the three header values."""

    allowed: bool
    limit: int
    remaining: int
    reset: int

    def headers(self) -> dict[str, str]:
        """The X-RateLimit-* headers."""
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }


class RateLimiter:
    """Counts requests per (ip, route) in windows of `period` seconds starting at each key's first request."""

    def __init__(self, limit: int, period: float = 1.0, clock: Callable[[], float] = time.time) -> None:
        self.limit = limit
        self.period = period
        self._clock = clock
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        """False when the limit is 0 (rate limiting off)."""
        return self.limit > 0

    def hit(self, ip: str, route: str) -> Decision:
        """Count one request and decide."""
        now = self._clock()
        key = (ip, route)
        with self._lock:
            expires, count = self._windows.get(key, (0.0, 0))
            if now >= expires:
                expires, count = now + self.period, 0
            count += 1
            self._windows[key] = (expires, count)
            if len(self._windows) > 10_000:
                self._windows = {k: v for k, v in self._windows.items() if v[0] > now}
        return Decision(
            allowed=count <= self.limit,
            limit=self.limit,
            remaining=max(self.limit - count, 0),
            reset=math.ceil(expires),
        )
