"""What the cleanup screen says about marks: the count before marking every match, typed ids, the plan's why."""

from __future__ import annotations

from collections.abc import Sequence

from svctui.api.models import AssetGroupTag
from svctui.ops.audit_lines import EXTENSION_RECREATES
from svctui.ops.audit_lines import restored_enabled_words as restored_enabled_words  # the review's line
from svctui.text import plural as plural  # re-exported: the selectors' wording takes it from here
from svctui.tui.screens.selectors.loaders import Matching
from svctui.tui.screens.selectors.marks import MarkResult, Marks, TagMarks, format_ids_within
from svctui.tui.screens.selectors.plan import CleanupPlan

EXTENSION_RECREATES_THEM = "their extension re-creates them at its next sync"
MARKING_SENDS_NOTHING = "Marking sends nothing; ctrl+d shows the review before anything is deleted."
NOTHING_MARKED = "Nothing is marked in this tag: space marks a row, v a range, M every match, i typed ids."


def matching_lines(found: Matching, marks: Marks, limit: int) -> tuple[int, tuple[str, ...]]:
    """How many of the matches would be newly marked, and the lines saying it (count, pages, defaults, already)."""
    defaults = sum(1 for selector in found.selectors if selector.is_default)
    already = sum(1 for selector in found.selectors if marks.is_marked(found.tag_id, selector.id))
    owned = sum(
        1
        for selector in found.selectors
        if selector.extension_owned and not selector.is_default and not marks.is_marked(found.tag_id, selector.id)
    )
    pages = (len(found.selectors) + limit - 1) // limit
    why = f"{found.why[:1].upper()}{found.why[1:]}"
    lines = [f"{why}: {plural(len(found.selectors), 'selector')}, on {plural(pages, 'page')}."]
    if defaults == 1:
        lines.append("1 of them is a default selector: the server refuses to delete it, it stays unmarked.")
    elif defaults:
        lines.append(
            f"{defaults:,} of them are default selectors: the server refuses to delete those, they stay unmarked."
        )
    if owned:
        verb, them = ("is", "it") if owned == 1 else ("are", "them")
        recreates = EXTENSION_RECREATES_THEM if owned > 1 else EXTENSION_RECREATES
        lines.append(
            f"{owned:,} of them {verb} owned by an extension: left out, as {recreates} (space marks {them} by hand)."
        )
    if already:
        lines.append(f"{already:,} {'is' if already == 1 else 'are'} marked already.")
    return len(found.selectors) - defaults - already - owned, (*lines, MARKING_SENDS_NOTHING)


def typed_summary(result: MarkResult, unknown: Sequence[int]) -> str:
    """`Marked 7 selectors; 1 already marked; default (…): 5; not part of this tag (not marked): 900-901.`"""
    said = [f"Marked {plural(len(result.added), 'selector')}"]
    if result.already:
        said.append(f"{len(result.already):,} already marked")
    if result.refused_default:
        said.append(f"default (can't be deleted, not marked): {format_ids_within(result.refused_default, 100)}")
    if unknown:
        said.append(f"not part of this tag (not marked): {format_ids_within(unknown, 100)}")
    return "; ".join(said) + "."


def why_marked(marks: TagMarks) -> str:
    """Why the selectors of a plan are marked, typed ids aside (the plan keeps those as ids): `marked by hand;
    matching name ∋ old-`; empty when only typed ids were."""
    return "; ".join(marks.reasons) or ("" if marks.typed else "marked by hand")


def plan_from_marks(tag: AssetGroupTag, marks: TagMarks) -> CleanupPlan | None:
    """The plan of one tag's marks (records in mark order, unknown typed ids, why), or None when nothing is."""
    if not marks.records and not marks.unknown:
        return None
    records, unknown = tuple(marks.records.values()), tuple(marks.unknown)
    return CleanupPlan(tag, records, unknown, why_marked(marks), tuple(marks.typed))
