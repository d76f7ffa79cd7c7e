"""What one list request asks for (ListQuery) and the load counters a list screen keeps (LoadStats)."""

from __future__ import annotations

from dataclasses import dataclass, field

from svctui.api.query import ListQuery

__all__ = ["ListQuery", "LoadStats"]


@dataclass
class LoadStats:
    """Counters the tests and the status line read."""

    started: int = 0
    applied: int = 0
    dropped_stale: int = 0
    last_ms: float | None = None
    history: list[ListQuery] = field(default_factory=list)
