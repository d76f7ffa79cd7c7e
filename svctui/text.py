"""Text shared by the command line, the engine and the dashboard: `a, b, c … and 44 more`, `1 row`, and cut cells."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
ELLIPSIS = "…"


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


# ---------------------------------------------------------------- cells: terminal columns, cut with `…`


def char_width(ch: str) -> int:
    """Terminal columns of one character: 2 for wide East Asian ones, 0 for combining marks, else 1."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cell_width(text: str) -> int:
    """Terminal columns `text` takes (what a table must fit, not its length in code points)."""
    if text.isascii():
        return len(text)
    return sum(char_width(ch) for ch in text)


def cut_end(text: str, width: int) -> str:
    """`text` in at most `width` terminal columns, its end cut off and marked with `…` (`Tier Zer…`)."""
    if cell_width(text) <= width:
        return text
    if width <= 0:
        return ""
    kept: list[str] = []
    used = 0
    for ch in text:
        used += char_width(ch)
        if used > width - 1:
            break
        kept.append(ch)
    return "".join(kept) + ELLIPSIS


def cut_start(text: str, width: int) -> str:
    """`text` in at most `width` terminal columns, its start cut off and marked with `…` (`…185501Z-3f9a`); the
    end is what tells apart texts that start alike (run ids). Under 2 columns the text is left whole."""
    if cell_width(text) <= width or width < 2:
        return text
    kept = text[-(width - 1) :]
    while cell_width(kept) > width - 1:
        kept = kept[1:]
    return ELLIPSIS + kept
