"""Wording shared by the command line, the engine and the dashboard: `a, b, c … and 44 more`, `1 row`, `3 rows`,
and text cut to a width keeping its end (`…185501Z-3f9a`) or its start and end (`cannot de…selector`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from rich.cells import cell_len

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


def tail_cut(text: str, width: int) -> str:
    """`text` in at most `width` cells, cut from the left with `…` (`…185501Z-3f9a`)."""
    if cell_len(text) <= width or width < 2:
        return text
    kept = text[-(width - 1) :]
    while cell_len(kept) > width - 1:
        kept = kept[1:]
    return "…" + kept


def middle_cut(text: str, width: int) -> str:
    """`text` in at most `width` cells, its middle left out with `…` (`cannot de…t selector`)."""
    if cell_len(text) <= width or width < 3:
        return text
    tail = tail_cut(text, (width - 1) // 2 + 1).removeprefix("…")
    head = text
    while cell_len(head) > width - 1 - cell_len(tail):
        head = head[:-1]
    return head + "…" + tail
