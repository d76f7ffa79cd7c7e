"""Text shared by the command line, the engine and the dashboard: `a, b, c … and 44 more`, `1 row`, id ranges
(`97-150, 160`), audit times, cut cells (`Tier Zer…`, `…185501Z-3f9a`, `cannot de…selector`, `rest… → 1201`) and
column widths that fit a width."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from rich.cells import cell_len, get_character_cell_size

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


def id_runs(ids: Iterable[int]) -> list[tuple[int, int]]:
    """Ids sorted, repeats dropped, as runs of consecutive ids: (first, last) pairs, `(97, 150), (160, 160)`."""
    ordered = sorted(set(ids))
    runs: list[tuple[int, int]] = []
    index = 0
    while index < len(ordered):
        end = index
        while end + 1 < len(ordered) and ordered[end + 1] == ordered[end] + 1:
            end += 1
        runs.append((ordered[index], ordered[end]))
        index = end + 1
    return runs


def run_text(run: tuple[int, int]) -> str:
    """`97-150` for a run of ids, `160` for one id."""
    first, last = run
    return str(first) if first == last else f"{first}-{last}"


def id_ranges(ids: Iterable[int], *, sep: str = ", ") -> str:
    """Ids sorted, repeats dropped, runs of consecutive ids as ranges: `97-150, 160` (with sep " ": `12 15-20 31`);
    each range reads back as typed ids do (`svctui selectors restore RUN 97-150`)."""
    return sep.join(run_text(run) for run in id_runs(ids))


def ranges_and_more(ids: Iterable[int], shown: int, *, sep: str = ", ") -> str:
    """The first `shown` ranges of `ids` (as `id_ranges` writes them), then how many ids the rest hold:
    `4-5 12 16 … and 470 more`."""
    runs = id_runs(ids)
    left = sum(last - first + 1 for first, last in runs[shown:])
    head = sep.join(run_text(run) for run in runs[:shown])
    tail = and_more(left, 0)
    return " ".join(part for part in (head, tail) if part)


def most_that_fits(make: Callable[[int], str], most: int, width: int) -> str:
    """`make(n)` for the largest n from 0 to `most` whose text fits in `width` terminal columns (the text holds n
    items, `… and N more` the rest: the more shown, the longer), else `make(0)` (the caller cuts it)."""
    low, high = 0, max(0, most)
    while low < high:  # the largest n with cell_width(make(n)) <= width, by halves: the width grows with n
        middle = (low + high + 1) // 2
        if cell_width(make(middle)) <= width:
            low = middle
        else:
            high = middle - 1
    return make(low)


def when_text(stamp: str) -> str:
    """`2026-11-24 18:55:01Z` from an audit line's ISO UTC time (`2026-11-24T18:55:01.618Z`); '?' when unknown."""
    return stamp.replace("T", " ")[:19] + "Z" if stamp else "?"


def plural(count: int, noun: str) -> str:
    """`1 selector`, `3 selectors`, `1,000 rows`."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


# ---------------------------------------------------------------- cells: terminal columns, cut with `…`


def char_width(ch: str) -> int:
    """Terminal columns of one character, as rich (so Textual) measures it: 2 for wide ones, 0 for combining marks."""
    return get_character_cell_size(ch)


def cell_width(text: str) -> int:
    """Terminal columns `text` takes (what a table must fit, not its length in code points), as rich measures it."""
    return cell_len(text)


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


def cut_before(text: str, width: int, mark: str) -> str:
    """`text` in at most `width` terminal columns, its part from the last `mark` on kept whole and what comes before
    cut with `…` (`rest… → 1201`: the value after the arrow is the one needed). Without `mark`, as `cut_end`; when
    even the kept part does not fit, as `cut_start` (its end is kept)."""
    head, found, tail = text.rpartition(mark)
    if not found:
        return cut_end(text, width)
    kept = found + tail
    if cell_width(text) <= width:
        return text
    room = width - cell_width(kept)
    return cut_end(head, room) + kept if room >= 2 else cut_start(text, width)


def cut_middle(text: str, width: int) -> str:
    """`text` in at most `width` terminal columns, its middle left out with `…` (`cannot de…selector`): both the start
    and the end say something (a server message and its subject). Under 3 columns the text is left whole."""
    if cell_width(text) <= width or width < 3:
        return text
    tail = cut_start(text, (width - 1) // 2 + 1).removeprefix(ELLIPSIS)
    head = text
    while cell_width(head) > width - 1 - cell_width(tail):
        head = head[:-1]
    return head + ELLIPSIS + tail


# ---------------------------------------------------------------- column widths that fit a width
# The command line's tables (svctui.commands.table.fit_columns). The dashboard's tables have their own rule,
# svctui.table_fit: a screen fits its columns again on every resize and keeps its natural widths row by row; a
# command line table is printed once, every column kept that fits, shrunk by role (free text first, ids never).


def shrink_widths(
    natural: Sequence[int], minimum: Sequence[int], rank: Sequence[int], total: int, gap: int = 2
) -> list[int]:
    """Every column kept, shrunk one cell at a time until the row (with `gap` between columns) fits `total`: the
    highest `rank` first (an int per column, e.g. the command line's `Role`: free text before names before ids),
    the widest first among equal ranks, none below its minimum."""
    widths = list(natural)
    excess = sum(widths) + gap * (len(widths) - 1) - total
    while excess > 0:
        candidates = [index for index, width in enumerate(widths) if width > minimum[index]]
        if not candidates:
            break
        widest = max(candidates, key=lambda index: (rank[index], widths[index]))
        widths[widest] -= 1
        excess -= 1
    return widths
