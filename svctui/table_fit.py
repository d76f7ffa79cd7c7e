"""Fitting a table's columns to a width: one column description and one rule for every table of the dashboard.

A table describes its columns once (`Column`, in display order) and gives each column's natural width (its widest
cell or label, see `NaturalWidths`); `fit_columns` says which columns show and how wide, and which are left out (the
table names those: `left_out_hint`). Pure: no Textual, no terminal.

The rule, in order:
1. Which columns show: by rank (the lowest first, ties in display order), each at its least width; the first one
   that does not fit is left out with every one ranked after it (a later, smaller column never takes the room an
   earlier one needs). A column that may not be dropped always shows (and the best-ranked column does when none is
   marked so); when the first left out may be cut (`cut_to`), every column that may be is cut to that width
   instead, and the columns are chosen again; those ranked after it that came in go again, the last first, while a
   name column is cut short of its width.
2. The free room goes to the name columns first (`names`), then to the `whole` ones by rank (each to its natural
   width when the room has it all, else it stays at its least: a next run's countdown is never half shown), then to
   the others, the widest cut first: each grows to its natural width (or its `most`) up to one cap, the largest that
   fits; the cells that leaves (fewer than the columns still growing) go by rank.
3. Room still left goes past the `most` widths, names first, then by rank: no cell of room stays empty while a
   column is cut.
4. A column read whole before the later ones (`whole_first`: a run's tag and counts) that came out cut leaves no
   room to a column ranked after it: those (not `whole_first`, droppable) are left out, the last ranked first, and
   the columns fitted again, until none is cut or none is left to go.
5. A wrapping column (`wraps`: its cells wrap onto more lines of their row, never cut; the cells given as `texts`)
   takes cells from the other name columns (down to their least, the last ranked first) while that saves lines, the
   fewest cells that do; then a `whole` column still short of its width takes its cells from the wrapping column
   when that costs it no line and leaves it its least.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from rich.cells import cell_len


@dataclass(frozen=True)
class Column:
    """One column of a fitted table: its key, its title, how narrow it may get and how it gives way."""

    key: str
    title: str
    least: int = 0  # never narrower than this (0: its natural width; a column never cut); at most its natural width
    cut_to: int | None = None  # rather than left out, cut to this (then the columns ranked after it may show)
    most: int = 0  # its width before the free room is shared out (0: its natural width); wider only with room left
    rank: int = 0  # the lowest shows first (equal ranks: in display order); the highest is left out first
    droppable: bool = True  # False: always shown, however narrow the table
    names: bool = False  # takes the free room before the other columns (names, messages: what is read whole)
    whole: bool = False  # grows from its least width straight to its natural one or not at all (never half a word)
    whole_first: bool = False  # while it is cut, no column ranked after it shows (rule 4: what a row is chosen by)
    wraps: bool = False  # its cells wrap onto lines of their row, never cut (`wrapped`); fitted by their lines


@dataclass(frozen=True)
class Fitted:
    """The columns that show, with their widths, in display order, and the keys of those left out (display order)."""

    widths: dict[str, int]
    left_out: tuple[str, ...] = ()
    titles: dict[str, str] = field(default_factory=dict)  # key -> title of every column

    def left_out_titles(self) -> list[str]:
        """The titles of the columns left out, in display order."""
        return [self.titles.get(key, key) for key in self.left_out]


def fit_columns(
    columns: Sequence[Column],
    natural: Mapping[str, int],
    room: int,
    padding: int = 2,
    texts: Mapping[str, Sequence[str]] | None = None,
) -> Fitted:
    """The columns fitted to `room` cells, each column also taking `padding` (see the module docstring); a column
    missing from `natural` is as wide as its title; `texts` holds the cells of the wrapping columns (`wraps`). With
    `room` 0 or less (a table not laid out yet) every column shows at its natural width (its `most` where set)."""
    if room <= 0:
        return _fit(columns, natural, room, padding)
    full = _full(columns, natural)
    kept = list(columns)
    while True:
        fitted = _fit(kept, natural, room, padding)
        cut = [c.rank for c in kept if c.whole_first and fitted.widths.get(c.key, full[c.key]) < full[c.key]]
        later = [c for c in kept if cut and c.key in fitted.widths and c.rank > min(cut) and not c.whole_first]
        later = [column for column in later if column.droppable]
        if not later:
            break
        last = max(later, key=lambda column: column.rank)
        kept = [column for column in kept if column.key != last.key]
    widths = _wrapping(kept, fitted.widths, full, texts) if texts else fitted.widths
    return Fitted(
        widths,
        tuple(column.key for column in columns if column.key not in widths),
        {column.key: column.title for column in columns},
    )


def _full(columns: Sequence[Column], natural: Mapping[str, int]) -> dict[str, int]:
    """Each column's natural width (its title's where `natural` has none), a cell at least."""
    return {column.key: max(1, natural.get(column.key, cell_len(column.title))) for column in columns}


def _fit(columns: Sequence[Column], natural: Mapping[str, int], room: int, padding: int) -> Fitted:
    """Rules 1 to 3 of the module docstring."""
    titles = {column.key: column.title for column in columns}
    full = _full(columns, natural)
    base = {column.key: min(column.most, full[column.key]) if column.most else full[column.key] for column in columns}
    if room <= 0:
        return Fitted(dict(base), (), titles)
    ranked = [column for _, column in sorted(enumerate(columns), key=lambda pair: (pair[1].rank, pair[0]))]
    least = {column.key: min(column.least or base[column.key], base[column.key]) for column in columns}
    shown = _choose(ranked, least, room, padding)
    first_out = next((column for column in ranked if column.key not in shown), None)
    if first_out is not None and first_out.cut_to is not None:
        least = {
            column.key: least[column.key] if column.cut_to is None else max(1, min(column.cut_to, least[column.key]))
            for column in columns
        }
        shown = _choose(ranked, least, room, padding)
        _names_before_later(ranked, ranked.index(first_out), shown, least, base, room, padding)
    widths = {key: least[key] for key in shown}
    spare = room - sum(width + padding for width in widths.values())
    spare = _grow([c.key for c in ranked if c.key in shown and c.names], widths, base, spare)
    for column in ranked:  # a `whole` column, by rank: its natural width if the room left has it all
        short = base[column.key] - widths.get(column.key, base[column.key])
        if column.whole and not column.names and 0 < short <= spare:
            spare -= short
            widths[column.key] = base[column.key]
    spare = _grow([c.key for c in ranked if c.key in shown and not c.names and not c.whole], widths, base, spare)
    for column in sorted(ranked, key=lambda column: not column.names):  # past `most` widths: names first, by rank
        if column.whole and widths.get(column.key, full[column.key]) < full[column.key]:
            continue  # never half of it
        grown = min(spare, full[column.key] - widths.get(column.key, full[column.key]))
        if grown > 0:
            widths[column.key] += grown
            spare -= grown
    return Fitted(
        {column.key: widths[column.key] for column in columns if column.key in widths},
        tuple(column.key for column in columns if column.key not in widths),
        titles,
    )


def filled(rows: Iterable[Sequence[str]], count: int) -> list[int]:
    """The indexes of the `count` columns with a value in some row; all of them when none has one (the header
    alone is better than no table)."""
    rows = list(rows)
    kept = [index for index in range(count) if any(row[index] for row in rows)]
    return kept or list(range(count))


def ranked(columns: Sequence[Column], order: Sequence[str]) -> list[Column]:
    """`columns` (display order) ranked by `order` (the one that matters most first; a column not in it after those,
    in display order), the first of `order` never left out."""
    place = {key: index for index, key in enumerate(order)}
    after = len(order)
    return [
        replace(
            column,
            rank=place.get(column.key, after + index),
            droppable=column.droppable and (not order or column.key != order[0]),
        )
        for index, column in enumerate(columns)
    ]


def _choose(ranked: Sequence[Column], least: Mapping[str, int], room: int, padding: int) -> set[str]:
    """The keys of the columns that show at their `least` widths: those that may not be dropped (else the first
    ranked), then by rank while they fit."""
    kept = [column for column in ranked if not column.droppable] or list(ranked[:1])
    shown = {column.key for column in kept}
    used = sum(least[key] + padding for key in shown)
    for column in ranked:
        if column.key in shown:
            continue
        if used + least[column.key] + padding > room:
            break
        shown.add(column.key)
        used += least[column.key] + padding
    return shown


def _names_before_later(
    ranked: Sequence[Column],
    cut_at: int,
    shown: set[str],
    least: Mapping[str, int],
    base: Mapping[str, int],
    room: int,
    padding: int,
) -> None:
    """After a cut let more columns in: those ranked after the one cut in (`cut_at`) go again, the last first, while
    a name column is cut short of its width (a name is read whole before a later column shows). A name cut in keeps
    the column right after it (its `cut_to` is there for that one: a selector's flags beside its name)."""
    start = cut_at + 1 + (1 if ranked[cut_at].names else 0)
    for column in reversed(ranked[start:]):
        if column.key not in shown or not column.droppable:
            continue
        spare = room - sum(least[key] + padding for key in shown)
        short = sum(base[c.key] - least[c.key] for c in ranked if c.names and c.key in shown)
        if short <= spare:
            return
        shown.discard(column.key)


def _grow(keys: Sequence[str], widths: dict[str, int], base: Mapping[str, int], spare: int) -> int:
    """Grow the columns `keys` (in rank order) towards their `base` widths in `spare` cells under one cap, the
    largest that fits (the widest are the ones cut), what is left then by rank; the cells left."""
    least = {key: widths[key] for key in keys}
    cap = 0
    while spare > 0:
        growing = [key for key in keys if max(least[key], min(base[key], cap)) < base[key]]
        if not growing:
            break
        cap += 1
        grown = sum(1 for key in growing if cap > least[key])
        if grown > spare:
            cap -= 1
            break
        spare -= grown
    for key in keys:
        widths[key] = max(least[key], min(base[key], cap))
    for key in keys:  # less than one cell for each column still growing: by rank
        grown = min(spare, base[key] - widths[key])
        if grown > 0:
            widths[key] += grown
            spare -= grown
    return spare


def _wrapping(
    columns: Sequence[Column], widths: dict[str, int], full: Mapping[str, int], texts: Mapping[str, Sequence[str]]
) -> dict[str, int]:
    """Rule 5 of the module docstring: the widths with the wrapping columns' room settled by their lines."""
    widths = dict(widths)
    ranked = sorted(columns, key=lambda column: column.rank)
    base = {column.key: min(column.most, full[column.key]) if column.most else full[column.key] for column in columns}
    least = {c.key: min(c.least or base[c.key], base[c.key]) for c in columns}
    for column in ranked:
        cells = texts.get(column.key)
        if not column.wraps or column.key not in widths or not cells:
            continue

        def lines(width: int, cells: Sequence[str] = cells) -> int:
            return sum(len(wrapped(text, width)) for text in cells)

        donors = [c.key for c in reversed(ranked) if c.names and not c.wraps and c.key in widths]
        spare = sum(max(0, widths[key] - least[key]) for key in donors)
        counted = [lines(widths[column.key] + moved) for moved in range(spare + 1)]
        moved = counted.index(min(counted))
        widths[column.key] += moved
        for key in donors:
            given = min(moved, max(0, widths[key] - least[key]))
            widths[key] -= given
            moved -= given
        for whole in ranked:
            short = full[whole.key] - widths.get(whole.key, full[whole.key])
            if not whole.whole or short <= 0 or widths[column.key] - short < least[column.key]:
                continue
            if lines(widths[column.key] - short) <= lines(widths[column.key]):
                widths[whole.key] += short
                widths[column.key] -= short
    return widths


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` cells, broken after a `, ` where it can (`161 deleted,` / `4 in doubt,` /
    `227 not attempted`), else at a space: a wrapping column's cell (`Column.wraps`) whole in a narrow column."""
    if cell_len(text) <= width:
        return [text]
    parts = text.split(", ")
    lines: list[str] = []
    for index, part in enumerate(parts):
        part += "," if index < len(parts) - 1 else ""
        if lines and cell_len(f"{lines[-1]} {part}") <= width:
            lines[-1] = f"{lines[-1]} {part}"
        else:
            lines.extend(textwrap.wrap(part, max(1, width)) or [part])
    return lines


def left_out_hint(titles: Sequence[str], key: str | None = None, *, every: bool = False, counted: bool = False) -> str:
    """`+3 columns (p): kinds, domains, OUs`: the columns a table leaves out at this width and the key that shows
    them (none: `+2 columns: who, server`); only the count when more than three unless `every` (a table no key
    widens: its hint is the only place they are named), or when `counted` (the short form); "" when none is."""
    if not titles:
        return ""
    names = f": {', '.join(titles)}" if not counted and (every or len(titles) <= 3) else ""
    shows = f" ({key})" if key else ""
    return f"+{len(titles)} column{'s' if len(titles) > 1 else ''}{shows}{names}"


class NaturalWidths:
    """Each column's widest cell (its title at least), kept as rows are added, changed and removed: an update of k
    rows costs O(k) cells measured; a column is measured again over every row only when the row that held its
    widest cell narrows or goes (rare: the widest is usually held by more than one row, counted here)."""

    def __init__(self, titles: Mapping[str, str]) -> None:
        self.titles = dict(titles)
        self.rows: dict[str, dict[str, int]] = {}  # row key -> column key -> cell width
        self.widest = {key: cell_len(title) for key, title in self.titles.items()}
        self._holders = {key: 0 for key in self.titles}  # how many rows have a cell as wide as `widest`
        self.full_passes = 0  # columns measured again over every row (for tests)

    def set_row(self, row_key: str, cells: Mapping[str, int]) -> None:
        """The row's cell widths (column key -> width); a column not given is kept as it was (or 0)."""
        before = self.rows.get(row_key, {})
        after = {key: cells.get(key, before.get(key, 0)) for key in self.titles}
        self.rows[row_key] = after
        for key in self.titles:
            self._changed(key, before.get(key, 0), after[key])

    def set_rows(self, rows: Iterable[tuple[str, Mapping[str, int]]]) -> None:
        """`set_row` for each (row key, cell widths)."""
        for row_key, cells in rows:
            self.set_row(row_key, cells)

    def remove_row(self, row_key: str) -> None:
        """Forget a row."""
        before = self.rows.pop(row_key, None)
        if before is not None:
            for key in self.titles:
                self._changed(key, before.get(key, 0), 0)

    def clear(self) -> None:
        """Forget every row."""
        self.rows.clear()
        self.widest = {key: cell_len(title) for key, title in self.titles.items()}
        self._holders = {key: 0 for key in self.titles}

    def _changed(self, key: str, before: int, after: int) -> None:
        widest = self.widest[key]
        if before == after:
            return
        if after > widest:
            self.widest[key], self._holders[key] = after, 1
            return
        if after == widest:
            self._holders[key] += 1
        if before == widest:
            self._holders[key] -= 1
            if self._holders[key] <= 0 and widest > cell_len(self.titles[key]):  # the title holds it otherwise
                self._measure(key)

    def _measure(self, key: str) -> None:
        """The column's widest cell again, over every row (its widest row narrowed or went)."""
        self.full_passes += 1
        widest = cell_len(self.titles[key])
        holders = 0
        for cells in self.rows.values():
            width = cells.get(key, 0)
            if width > widest:
                widest, holders = width, 1
            elif width == widest:
                holders += 1
        self.widest[key], self._holders[key] = widest, holders
