"""The impact of a deletion: how many objects each selector tags, by kind (`GET …/selectors/{id}/members/counts`).

Real servers without the endpoint answer 404 to it: then the impact is "not available on this server" and nothing
more is asked. A selector of another tag (404 `selector is not part of asset group tag`) is skipped: it is not
part of the impact and the others are still counted. Runs in a worker (the review's), never in a handler.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from svctui.api.client import ApiClient
from svctui.api.errors import ApiError, NotFound
from svctui.ops.outcomes import Outcome, classify
from svctui.text import cell_width, most_that_fits, shown_and_more

IMPACT_CONCURRENCY = 4
NOT_AVAILABLE = "not available on this server"
SKIPPED_SHOWN = 5  # ids of skipped selectors named in the impact line, then `… and N more`


@dataclass(frozen=True)
class Impact:
    """Per selector, its member counts by kind (absent when unknown), the total by kind, and why it is missing."""

    per_selector: dict[int, dict[str, int]] = field(default_factory=dict)
    problem: str = ""
    not_in_tag: tuple[int, ...] = ()  # selectors the server says are not part of the tag: skipped, no impact

    @property
    def by_kind(self) -> Counter[str]:
        """Objects tagged, summed over the selectors, by kind."""
        total: Counter[str] = Counter()
        for counts in self.per_selector.values():
            total.update(counts)
        return total

    @property
    def total(self) -> int:
        """Objects tagged by all the selectors (an object tagged by two counts twice)."""
        return sum(self.by_kind.values())


async def load_impact(client: ApiClient, tag_id: int, selector_ids: Sequence[int]) -> Impact:
    """Member counts for each selector, at most IMPACT_CONCURRENCY at once; stops at the first failure (says why)."""
    found: dict[int, dict[str, int]] = {}
    problems: list[str] = []
    elsewhere: set[int] = set()
    gate = asyncio.Semaphore(IMPACT_CONCURRENCY)

    async def one(selector_id: int) -> None:
        async with gate:
            if problems:
                return
            try:
                found[selector_id] = dict((await client.selectors.member_counts(tag_id, selector_id)).counts)
            except NotFound as exc:
                outcome = classify(selector_id, exc).outcome
                if outcome is Outcome.ALREADY_GONE:
                    return  # this selector is gone: no impact
                if outcome is Outcome.NOT_IN_TAG:
                    elsewhere.add(selector_id)  # another tag's: not part of this deletion's impact
                    return
                problems.append(NOT_AVAILABLE)
            except ApiError as exc:
                problems.append(exc.user_message())

    await asyncio.gather(*(one(selector_id) for selector_id in selector_ids))
    return Impact(found, problems[0] if problems else "", tuple(sorted(elsewhere)))


def kinds_text(counts: dict[str, int], shown: int | None = None) -> str:
    """`User 3, Computer 1` (largest first; with `shown`, that many, then `… and N more`), or '0'."""
    parts = [f"{kind} {count:,}" for kind, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    return (shown_and_more(parts, shown) if shown is not None else ", ".join(parts)) or "0"


def impact_text(impact: Impact, shown: int = SKIPPED_SHOWN, kinds: int | None = None) -> str:
    """The review's impact line: the objects the selectors of the tag tag (by kind: with `kinds`, the largest that
    many), the ones not part of the tag said to be skipped (the first `shown` ids, then `… and N more`), or why the
    count is missing or incomplete. `kinds=0` leaves the kinds out."""
    skipped = ""
    if impact.not_in_tag:
        count = len(impact.not_in_tag)
        ids = f" ({shown_and_more(impact.not_in_tag, shown)})" if shown > 0 else ""
        skipped = f"; {count:,} not part of the tag, skipped{ids}"
    if impact.problem == NOT_AVAILABLE and not impact.per_selector:
        return f"Impact: member counts {NOT_AVAILABLE}"
    if impact.problem:
        return f"Impact: incomplete ({impact.problem}); so far {impact.total:,} objects{skipped}"
    if impact.not_in_tag and not impact.per_selector:
        return f"Impact: 0 tagged objects{skipped}"
    by_kind = f" ({kinds_text(dict(impact.by_kind), kinds)})" if kinds != 0 else ""
    return f"Impact: {impact.total:,} tagged objects{by_kind}{skipped}"


def impact_line(impact: Impact, width: int) -> str:
    """The impact line in `width` columns: fewer skipped ids first (down to their count alone), then fewer kinds
    (`… and N more`); what still does not fit is cut by the line's widget."""
    text = most_that_fits(lambda shown: impact_text(impact, shown), SKIPPED_SHOWN, width)
    if cell_width(text) <= width:
        return text
    return most_that_fits(lambda kinds: impact_text(impact, 0, kinds), len(impact.by_kind), width)
