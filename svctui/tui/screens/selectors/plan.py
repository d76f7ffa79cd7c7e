"""The cleanup plan: what the browse screen hands to the review and the run."""

from __future__ import annotations

from dataclasses import dataclass

from svctui.api.models import AssetGroupTag, Selector


@dataclass(frozen=True)
class CleanupPlan:
    """The marked selectors of one tag, in mark order, and why they are marked."""

    tag: AssetGroupTag
    selectors: tuple[Selector, ...]
    unknown_ids: tuple[int, ...]
    filters_text: str
