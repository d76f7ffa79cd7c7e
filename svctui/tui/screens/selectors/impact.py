"""The impact of a deletion: how many objects each selector tags, by kind (`GET …/selectors/{id}/members/counts`).

Real servers without the endpoint answer 404 to it: then the impact is "not available on this server" and nothing
more is asked. Runs in a worker (the review's), never in a handler.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from svctui.api.client import ApiClient
from svctui.api.errors import ApiError, NotFound

IMPACT_CONCURRENCY = 4
NOT_AVAILABLE = "not available on this server"


@dataclass(frozen=True)
class Impact:
    """Per selector, its member counts by kind (absent when unknown), the total by kind, and why it is missing."""

    per_selector: dict[int, dict[str, int]] = field(default_factory=dict)
    problem: str = ""

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
    gate = asyncio.Semaphore(IMPACT_CONCURRENCY)

    async def one(selector_id: int) -> None:
        async with gate:
            if problems:
                return
            try:
                found[selector_id] = dict((await client.selectors.member_counts(tag_id, selector_id)).counts)
            except NotFound as exc:
                if "resource not found" in " ".join(exc.messages).lower():
                    return  # this selector is gone: no impact
                problems.append(NOT_AVAILABLE)
            except ApiError as exc:
                problems.append(exc.user_message())

    await asyncio.gather(*(one(selector_id) for selector_id in selector_ids))
    return Impact(found, problems[0] if problems else "")
