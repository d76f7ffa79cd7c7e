"""The status line under a table: parts that carry their rank, and how a line too wide gives some of them up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from svctui.visible import visible

STATUS_SEPARATOR = "  ·  "

# How much each part of the status line matters when it is wider than the screen (at 80 columns the marks were cut
# off its end): the lowest give way first (the rightmost of equals), until the line fits; what they say is also
# elsewhere (the headers show the sort, the chips the filters, the footer `r`). Stale and marks never give way.
KEEP_ALWAYS = 11  # `stale: …`, `12 marked`
ROWS = 10  # `rows 1-100 of 400`, `loading rows 101-200…`
# the selectors' `tag Tier Zero (tier, position 1)`: the tags pane beside the table shows it too, so it gives way
# before the `+N columns` hint does (issue 28: at 60 columns the flags went with no `+N columns` hint)
TAG = 4
RETRY = 9  # `r to retry`: says how to recover, above a screen's own counts
OWN = 8  # a screen's own parts (the tasks screen's counts, the selectors' typed ids), and any plain string
AGE = 7  # `updated 12 s ago`
ORDER = 7  # Clients' `sorted: …`: named nowhere else; beside the age it stays (the rightmost of equals goes)
LIVE = 5  # `live every 30 s`
LEFT_OUT = 5  # `+3 columns (p): kinds, domains, OUs`: columns a narrow table leaves out
FILTERS = 4  # `2 filters`
NAMES = 6  # `no names (H): …`: it changes the rows shown, so it stays before the columns left out
PAGE = 3  # `page 1/4`
# a screen's remark on the rows (events' `2 without DTSTART: placed by the server`): it shortens, and then goes,
# before the page does (a walker at 80 columns saw the page go and the remark stay); the left-out columns' names
# give way at this rank too (`+3 columns (p)`), so that the remark and the page both fit at 80 columns
NOTE = 2
SORT = 1  # `sort -id` (the headers show it too)
KEY_HINT = 0  # Clients' `enter: runs`, `r: refresh` (the footer shows them too)
TIMING = 0  # `52 ms`


class StatusPart(str):
    """A piece of the status line that knows how much it matters (`rank`, see the constants above), with a shorter
    form (`short`) it takes before any part ranked `short_rank` or more gives way (`7/7 checked` for `7/7 clients
    checked`, so that Clients' sort stays named at 80 columns)."""

    rank: int
    short: str | None
    short_rank: int

    def __new__(cls, text: str, rank: int = OWN, *, short: str | None = None, short_rank: int | None = None) -> Self:
        """The part `text` ranked `rank`, shortened to `short` at `short_rank` (default: its own rank)."""
        part = super().__new__(cls, text)
        part.rank = rank
        part.short = short
        part.short_rank = rank if short_rank is None else short_rank
        return part


def rank_of(part: str) -> int:
    """A part's rank: its own for a `StatusPart`, `OWN` for a plain string."""
    return part.rank if isinstance(part, StatusPart) else OWN


def fit_status(parts: Sequence[str], width: int) -> str:
    """The parts joined by `  ·  `, shortening or leaving out the lowest-ranked ones (a part's short form before
    anything of its `short_rank` or more gives way; among equals, shortening first, the rightmost first) until the
    line fits; control characters (a server's message or request id) shown (`visible`)."""
    kept = [_visible_part(part) for part in parts]
    while len(STATUS_SEPARATOR.join(kept)) > width:
        steps = [(rank_of(part), 1, -index) for index, part in enumerate(kept)]
        steps += [
            (part.short_rank, 0, -index)
            for index, part in enumerate(kept)
            if isinstance(part, StatusPart) and part.short is not None
        ]
        rank, drop, index = min(steps)
        if drop and rank >= KEEP_ALWAYS:
            break
        if drop:
            del kept[-index]
        else:
            part = kept[-index]
            kept[-index] = _Shortened(part.short or "", part)
    for index, part in enumerate(kept):  # a short form that a later drop made needless is whole again
        if isinstance(part, _Shortened):
            whole = [*kept[:index], part.whole, *kept[index + 1 :]]
            if len(STATUS_SEPARATOR.join(whole)) <= width:
                kept = whole
    return STATUS_SEPARATOR.join(kept)


class _Shortened(StatusPart):
    """A part in its short form, remembering its whole one."""

    whole: StatusPart

    def __new__(cls, text: str, whole: StatusPart) -> Self:
        """`whole` shortened to `text` (ranked as it was)."""
        part = super().__new__(cls, text, whole.rank)
        part.whole = whole
        return part


def _visible_part(part: str) -> StatusPart:
    """`part` with its control characters shown, its rank and short form kept."""
    if isinstance(part, StatusPart) and part.short is not None:
        return StatusPart(visible(part), part.rank, short=visible(part.short), short_rank=part.short_rank)
    return StatusPart(visible(part), rank_of(part))
