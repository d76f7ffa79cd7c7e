"""The marks of the cleanup screen, per tag: which selectors, in what order, on which page, and why (no Textual).

A mark keeps the selector's full record (the plan and the audit need it) and the page it was on when marked, so
"N marked on M pages" can be told without another request. Default selectors are refused: the server answers
403 to their deletion. Typed ids the tag's list does not hold are rejected, not marked (the toast lists them);
`unknown` ids are only those kept without a list to check them against.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from svctui.api.models import Selector
from svctui.text import id_ranges, id_runs, most_that_fits, run_text
from svctui.tui import status_line as status
from svctui.tui.status_line import StatusPart


@dataclass(frozen=True)
class MarkResult:
    """What one marking did: ids newly marked, ids already marked, default selectors refused."""

    added: tuple[int, ...] = ()
    already: tuple[int, ...] = ()
    refused_default: tuple[int, ...] = ()
    left_extension: tuple[int, ...] = ()  # extension-owned, left out of a "mark all" (marked only by hand or id)


@dataclass
class TagMarks:
    """The marks of one tag, in mark order."""

    records: dict[int, Selector] = field(default_factory=dict)
    pages: dict[int, int] = field(default_factory=dict)
    unknown: dict[int, None] = field(default_factory=dict)
    reasons: dict[str, None] = field(default_factory=dict)  # why, other than typed ids: `matching name ∋ old-`
    typed: dict[int, None] = field(default_factory=dict)  # every id typed with `i`, in the tag or not

    @property
    def page_count(self) -> int:
        """On how many distinct pages the marked selectors were when marked."""
        return len(set(self.pages.values()))


class Marks:
    """Marks of every tag the user visited; each tag keeps its own."""

    def __init__(self) -> None:
        self._tags: dict[int, TagMarks] = {}

    def of(self, tag_id: int) -> TagMarks:
        """The marks of `tag_id` (empty when none)."""
        return self._tags.get(tag_id) or TagMarks()

    def _tag(self, tag_id: int) -> TagMarks:
        return self._tags.setdefault(tag_id, TagMarks())

    def ids(self, tag_id: int) -> tuple[int, ...]:
        """The marked selector ids of `tag_id`, in mark order."""
        return tuple(self.of(tag_id).records)

    def is_marked(self, tag_id: int, selector_id: int) -> bool:
        """Whether the selector is marked."""
        return selector_id in self.of(tag_id).records

    def mark(
        self, tag_id: int, placed: Iterable[tuple[Selector, int]], reason: str, *, skip_extension: bool = False
    ) -> MarkResult:
        """Mark each (selector, page) pair; defaults are refused, repeats keep their first place and page; with
        `skip_extension` (mark all) extension-owned selectors are left out, as their extension re-creates them."""
        marks = self._tag(tag_id)
        added: list[int] = []
        already: list[int] = []
        refused: list[int] = []
        extension: list[int] = []
        for selector, page in placed:
            if selector.is_default:
                refused.append(selector.id)
            elif skip_extension and selector.extension_owned and selector.id not in marks.records:
                extension.append(selector.id)
            elif selector.id in marks.records:
                marks.records[selector.id] = selector  # the newest record wins; the order and page stay
                already.append(selector.id)
            else:
                marks.records[selector.id] = selector
                marks.pages[selector.id] = page
                marks.unknown.pop(selector.id, None)
                added.append(selector.id)
        if added and reason:
            marks.reasons[reason] = None
        return MarkResult(tuple(added), tuple(already), tuple(refused), tuple(extension))

    def mark_listed(
        self,
        tag_id: int,
        listing: Sequence[Selector],
        page_size: int,
        reason: str,
        only: Sequence[int] | None = None,
        *,
        skip_extension: bool = False,
    ) -> tuple[MarkResult, tuple[int, ...]]:
        """Mark a listing's selectors (page = position // page_size); with `only`, just those ids, in their order.

        Ids of `only` the listing lacks are returned with the result, not marked (rejected ids are not marks).
        `skip_extension`: as `mark`.
        """
        size = max(page_size, 1)
        placed = {selector.id: (selector, index // size) for index, selector in enumerate(listing)}
        wanted = list(placed) if only is None else list(dict.fromkeys(only))
        unknown = tuple(selector_id for selector_id in wanted if selector_id not in placed)
        chosen = (placed[selector_id] for selector_id in wanted if selector_id in placed)
        result = self.mark(tag_id, chosen, reason, skip_extension=skip_extension)
        return result, unknown

    def mark_typed(
        self, tag_id: int, listing: Sequence[Selector], page_size: int, typed: Sequence[int]
    ) -> tuple[MarkResult, tuple[int, ...]]:
        """Mark the typed ids the listing holds (as `mark_listed` with `only`) and keep the ones marked for the why
        (`typed ids 12 15-20`); the ids it rejected (not in the tag) are returned, not kept."""
        result, unknown = self.mark_listed(tag_id, listing, page_size, "", typed)
        if result.added:
            self._tag(tag_id).typed.update(dict.fromkeys(result.added))
        return result, unknown

    def keep_unchecked(self, tag_id: int, typed: Sequence[int]) -> None:
        """Typed ids that could not be checked (no list this user may read: ETAC) are kept unknown, and named as
        typed for the why: the review's dry run asks about each."""
        self.add_unknown(tag_id, typed)
        self._tag(tag_id).typed.update(dict.fromkeys(typed))

    def add_unknown(self, tag_id: int, selector_ids: Sequence[int]) -> None:
        """Keep typed ids the tag's list does not hold (the run reports them as not part of the tag)."""
        marks = self._tag(tag_id)
        for selector_id in selector_ids:
            if selector_id not in marks.records:
                marks.unknown[selector_id] = None

    def unmark(self, tag_id: int, selector_ids: Iterable[int]) -> tuple[int, ...]:
        """Unmark these ids (also unknown ones); the ids that were marked."""
        marks = self._tags.get(tag_id)
        if marks is None:
            return ()
        removed = []
        for selector_id in selector_ids:
            marks.unknown.pop(selector_id, None)
            if marks.records.pop(selector_id, None) is not None:
                marks.pages.pop(selector_id, None)
                removed.append(selector_id)
        if not marks.records and not marks.unknown:
            marks.reasons.clear()
            marks.typed.clear()
        return tuple(removed)

    def clear(self, tag_id: int) -> int:
        """Unmark everything of `tag_id`; how many were marked (unknown ids included)."""
        marks = self._tags.pop(tag_id, None)
        return 0 if marks is None else len(marks.records) + len(marks.unknown)

    def total(self) -> int:
        """Marked selectors over every tag."""
        return sum(len(marks.records) for marks in self._tags.values())

    def tags_with_marks(self) -> dict[int, int]:
        """tag id -> how many selectors are marked there (tags with none left out)."""
        return {tag_id: len(marks.records) for tag_id, marks in self._tags.items() if marks.records}

    def counter(self, tag_id: int) -> StatusPart:
        """The status bar text: `12 marked on 3 pages` (+ unknown ids, + other tags), or "" when nothing is.

        It never gives way to a narrow screen while it counts marks; typed ids or other tags alone rank as a
        screen's own part.
        """
        marks = self.of(tag_id)
        parts: list[str] = []
        if marks.records:
            pages = marks.page_count
            parts.append(f"{len(marks.records)} marked on {pages} page{'s' if pages != 1 else ''}")
        if marks.unknown:
            parts.append(f"{len(marks.unknown)} typed id{'s' if len(marks.unknown) != 1 else ''} not in this tag")
        others = {tag: count for tag, count in self.tags_with_marks().items() if tag != tag_id}
        if others:
            listed = ", ".join(f"tag {tag}: {count}" for tag, count in sorted(others.items()))
            parts.append(f"other tags {listed}")
        return StatusPart("  ·  ".join(parts), status.KEEP_ALWAYS if marks.records else status.OWN)


def format_ids(ids: Iterable[int]) -> str:
    """Ids as compact text: `12 15-20 31` (sorted, runs of consecutive ids as ranges)."""
    return id_ranges(ids, sep=" ")


def format_ids_within(ids: Iterable[int], width: int) -> str:
    """`format_ids` in at most `width` columns, cut at a whole range with how many follow: `12 15-20 … and 12 more
    ranges` (a number cut in half read like another id)."""
    runs = [run_text(run) for run in id_runs(ids)]

    def first(count: int) -> str:
        left = len(runs) - count
        more = f"… and {left:,} more range{'s' if left != 1 else ''}" if left else ""
        return " ".join(part for part in (" ".join(runs[:count]), more) if part)

    return most_that_fits(first, len(runs), width)
