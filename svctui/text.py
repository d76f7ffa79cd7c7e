"""Wording shared by the command line, the engine and the dashboard: `a, b, c … and 44 more`, `1 row`, `3 rows`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def and_more(total: int, shown: int, *, word: str = "more") -> str:
    """`… and 1,234 more` when `total` exceeds `shown` (how many were left out), else the empty string."""
    left = total - shown
    return f"… and {left:,} {word}" if left > 0 else ""


def shown_and_more(items: Sequence[T], shown: int, *, show: Callable[[T], str] = str, sep: str = ", ") -> str:
    """`20, 21, 22 … and 44 more`: the first `shown` items, each through `show`, joined by `sep`; then the rest."""
    head = sep.join(show(item) for item in items[:shown])
    tail = and_more(len(items), shown)
    return " ".join(part for part in (head, tail) if part)


def plural(count: int, noun: str) -> str:
    """`1 selector`, `3 selectors`, `1,000 rows`."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
