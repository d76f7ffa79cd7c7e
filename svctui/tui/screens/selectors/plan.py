"""What the browse screen hands to the review and the run: the tag, the marked selectors, ids it could not find."""

from __future__ import annotations

from dataclasses import dataclass

from svctui.api.models import AssetGroupTag, Selector


@dataclass(frozen=True)
class CleanupPlan:
    """The marked selectors of one tag, marked ids the tag's list does not have, and why they are marked."""

    tag: AssetGroupTag
    selectors: tuple[Selector, ...]
    unknown_ids: tuple[int, ...]
    filters_text: str
