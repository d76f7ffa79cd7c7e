"""The status line under a table: parts that carry their rank, and how a line too wide gives some of them up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from svctui.visible import visible

STATUS_SEPARATOR = "  ·  "

# How much each part of the status line matters when it is wider than the screen (at 80 columns the marks were cut
# off its end): the lowest give way first (the rightmost of equals), until the line fits; what they say is also
# elsewhere (the headers show the sort, the chips the filters, the footer `r`). Stale and marks never give way.
KEEP_ALWAYS = 9  # `stale: …`, `12 marked`
ROWS = 8  # `rows 1-100 of 400`, `loading rows 101-200…`
TAG = 7  # the selectors' `tag Tier Zero (tier, position 1)`
RETRY = 7  # `r to retry`: says how to recover, above a screen's own counts
OWN = 6  # a screen's own parts (the tasks screen's counts, the selectors' typed ids), and any plain string
AGE = 5  # `updated 12 s ago`
ORDER = 4  # Clients' `sorted: …`: the order is named nowhere else
LIVE = 3  # `live every 30 s`
LEFT_OUT = 3  # `+3 columns (p): kinds, domains, OUs`: columns a narrow table leaves out
FILTERS = 2  # `2 filters`
NAMES = 2  # `no names (H): …`
PAGE = 1  # `page 1/4`
SORT = 1  # `sort -id` (the headers show it too)
KEY_HINT = 0  # Clients' `enter: runs`, `r: refresh` (the footer shows them too)
TIMING = 0  # `52 ms`


class StatusPart(str):
    """A piece of the status line that knows how much it matters (`rank`, see the constants above)."""

    rank: int

    def __new__(cls, text: str, rank: int = OWN) -> Self:
        """The part `text` ranked `rank`."""
        part = super().__new__(cls, text)
        part.rank = rank
        return part


def rank_of(part: str) -> int:
    """A part's rank: its own for a `StatusPart`, `OWN` for a plain string."""
    return part.rank if isinstance(part, StatusPart) else OWN


def fit_status(parts: Sequence[str], width: int) -> str:
    """The parts joined by `  ·  `, leaving out the lowest-ranked ones (rightmost first) until the line fits; control
    characters (a server's message or request id) shown (`visible`)."""
    kept = [StatusPart(visible(part), rank_of(part)) for part in parts]
    while len(STATUS_SEPARATOR.join(kept)) > width:
        ranks = [rank_of(part) for part in kept]
        lowest = min(ranks, default=KEEP_ALWAYS)
        if lowest >= KEEP_ALWAYS:
            break
        del kept[len(ranks) - 1 - ranks[::-1].index(lowest)]
    return STATUS_SEPARATOR.join(kept)
