"""The impact of a deletion: how many objects each selector tags, by kind (`GET …/selectors/{id}/members/counts`).

Real servers without the endpoint answer 404 to it: then the impact is "not available on this server" and nothing
more is asked; so with the ETAC 403 (this user may not read member counts: the impact cannot be shown) and an
authentication failure. A selector of another tag (404 `selector is not part of asset group tag`) is skipped: it is
not part of the impact. A disabled selector answers 409 `selector is disabled`: it tags nothing, its impact is 0
(said as "disabled"). Any other failure leaves that selector uncounted (named, with why) and the others are still
counted; UNCOUNTED_STREAK server failures in a row stop the asking. Runs in a worker (the review's), never in a
handler.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from svctui.api.client import ApiClient
from svctui.api.errors import ApiError, ApiStatusError, NotFound
from svctui.ops.outcomes import Outcome, classify, is_auth_failure, is_no_access, is_server_trouble, one_line
from svctui.text import cell_width, most_that_fits, shown_and_more

IMPACT_CONCURRENCY = 4
NOT_AVAILABLE = "not available on this server"
NO_ACCESS = "cannot be shown: this user cannot read selectors on this server (environment access control)"
DISABLED_STATUS = 409  # `selector is disabled`: it tags nothing
UNCOUNTED_STREAK = 3  # server failures (5xx, 429, no answer) in a row that stop the counting
SKIPPED_SHOWN = 5  # ids of skipped selectors named in the impact line, then `… and N more`


@dataclass(frozen=True)
class Impact:
    """Per selector, its member counts by kind (a disabled one: none), the total by kind, and what is missing: why
    nothing more could be counted (`problem`), the selectors not counted with why (`uncounted`)."""

    per_selector: dict[int, dict[str, int]] = field(default_factory=dict)
    problem: str = ""
    not_in_tag: tuple[int, ...] = ()  # selectors the server says are not part of the tag: skipped, no impact
    disabled: tuple[int, ...] = ()  # 409: disabled, tags nothing (in per_selector with no counts)
    uncounted: dict[int, str] = field(default_factory=dict)  # not counted: why (the first failure's words)

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
    """Member counts for each selector, at most IMPACT_CONCURRENCY at once (see the module's docstring)."""
    found: dict[int, dict[str, int]] = {}
    problems: list[str] = []
    elsewhere: set[int] = set()
    disabled: set[int] = set()
    uncounted: dict[int, str] = {}
    streak = [0]
    gate = asyncio.Semaphore(IMPACT_CONCURRENCY)

    async def one(selector_id: int) -> None:
        async with gate:
            if problems:
                return
            if streak[0] >= UNCOUNTED_STREAK:
                uncounted[selector_id] = f"not asked after {UNCOUNTED_STREAK} server failures"
                return
            try:
                found[selector_id] = dict((await client.selectors.member_counts(tag_id, selector_id)).counts)
                streak[0] = 0
            except NotFound as exc:
                outcome = classify(selector_id, exc).outcome
                if outcome is Outcome.ALREADY_GONE:
                    return  # this selector is gone: no impact
                if outcome is Outcome.NOT_IN_TAG:
                    elsewhere.add(selector_id)  # another tag's: not part of this deletion's impact
                    return
                problems.append(NOT_AVAILABLE)
            except ApiError as exc:
                if isinstance(exc, ApiStatusError) and exc.status == DISABLED_STATUS:
                    disabled.add(selector_id)  # a disabled selector tags nothing: impact 0
                    found[selector_id] = {}
                elif is_no_access(exc):
                    problems.append(NO_ACCESS)
                elif is_auth_failure(exc):
                    problems.append(exc.user_message())
                else:
                    uncounted[selector_id] = one_line(exc.user_message())
                    streak[0] = streak[0] + 1 if is_server_trouble(exc) else 0

    await asyncio.gather(*(one(selector_id) for selector_id in selector_ids))
    order = {selector_id: index for index, selector_id in enumerate(selector_ids)}
    return Impact(
        found,
        problems[0] if problems else "",
        tuple(sorted(elsewhere)),
        tuple(sorted(disabled, key=order.__getitem__)),
        dict(sorted(uncounted.items(), key=lambda item: order[item[0]])),
    )


def kinds_text(counts: dict[str, int], shown: int | None = None) -> str:
    """`User 3, Computer 1` (largest first; with `shown`, that many, then `… and N more`), or '0'."""
    parts = [f"{kind} {count:,}" for kind, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    return (shown_and_more(parts, shown) if shown is not None else ", ".join(parts)) or "0"


def impact_text(impact: Impact, shown: int = SKIPPED_SHOWN, kinds: int | None = None) -> str:
    """The review's impact line: the objects the selectors of the tag tag (by kind: with `kinds`, the largest that
    many), how many are disabled (tagging nothing), the ones not part of the tag said to be skipped and those that
    could not be counted named (the first `shown` ids, then `… and N more`), or why the count is missing or
    incomplete. `kinds=0` leaves the kinds out."""
    skipped = ""
    if impact.not_in_tag:
        count = len(impact.not_in_tag)
        ids = f" ({shown_and_more(impact.not_in_tag, shown)})" if shown > 0 else ""
        skipped = f"; {count:,} not part of the tag, skipped{ids}"
    off = len(impact.disabled)
    disabled = f"; {off:,} disabled (tag nothing)" if off else ""
    if impact.problem and not impact.per_selector:
        return (
            f"Impact: member counts {impact.problem}"
            if impact.problem in (NOT_AVAILABLE, NO_ACCESS)
            else (f"Impact: {impact.problem}")
        )
    if impact.problem:
        return f"Impact: incomplete ({impact.problem}); so far {impact.total:,} objects{disabled}{skipped}"
    if impact.uncounted:
        missing = len(impact.uncounted)
        ids = f" ({shown_and_more(list(impact.uncounted), shown)})" if shown > 0 else ""
        why = next(iter(impact.uncounted.values())).split(" — ")[0]  # the status; each row's cell says it all
        counted = len(impact.per_selector)
        return (
            f"Impact: incomplete: {missing:,} not counted{ids}: {why}; the other {counted:,}: "
            f"{impact.total:,} tagged objects{disabled}{skipped}"
        )
    if impact.not_in_tag and not impact.per_selector:
        return f"Impact: 0 tagged objects{skipped}"
    by_kind = f" ({kinds_text(dict(impact.by_kind), kinds)})" if kinds != 0 and impact.by_kind else ""
    return f"Impact: {impact.total:,} tagged objects{by_kind}{disabled}{skipped}"


def impact_line(impact: Impact, width: int) -> str:
    """The impact line in `width` columns: fewer skipped ids first (down to their count alone), then fewer kinds
    (`… and N more`); what still does not fit is cut by the line's widget."""
    text = most_that_fits(lambda shown: impact_text(impact, shown), SKIPPED_SHOWN, width)
    if cell_width(text) <= width:
        return text
    return most_that_fits(lambda kinds: impact_text(impact, 0, kinds), len(impact.by_kind), width)
