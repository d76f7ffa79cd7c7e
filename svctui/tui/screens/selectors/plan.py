"""The cleanup plan: what the browse screen hands to the review and the run."""

from __future__ import annotations

from dataclasses import dataclass

from svctui.api.models import AssetGroupTag, Selector


@dataclass(frozen=True)
class CleanupPlan:
    """The marked selectors of one tag, in mark order, and why they are marked: `filters_text` says why in words
    (`marked by hand; matching name ∋ old-`, empty when only typed ids), `typed_ids` the ids typed with `i` (the
    review writes them as ranges cut to its width: `typed ids 4-5 12 … and 470 more`)."""

    tag: AssetGroupTag
    selectors: tuple[Selector, ...]
    unknown_ids: tuple[int, ...]
    filters_text: str
    typed_ids: tuple[int, ...] = ()
