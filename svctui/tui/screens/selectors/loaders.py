"""What the cleanup screen loads in the background (run through svctui.tui.loading.Loads, never awaited in handlers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from svctui.api.filters import Filter, SortKey
from svctui.api.models import AssetGroupTag, Page, Selector
from svctui.api.query import ListQuery
from svctui.tui.widgets.filter_chips import chip_text

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

ALL = -1  # limit=-1: the whole list in one answer


@dataclass(frozen=True)
class Matching:
    """Every selector of a tag matching a query, in the query's order (the answer to 'mark all matching')."""

    tag_id: int
    selectors: tuple[Selector, ...]
    why: str


@dataclass(frozen=True)
class TypedLookup:
    """The tag's whole selector list, to place typed ids (found, default, not part of the tag)."""

    tag_id: int
    typed: tuple[int, ...]
    selectors: tuple[Selector, ...]
    no_access: str = ""  # ETAC: the list is not this user's to read (the server's words); the ids stay unchecked


async def selector_page(client: ApiClient, tag_id: int, query: ListQuery) -> Page[Selector]:
    """One page of a tag's selectors, in the paged envelope the list screen shows."""
    page = await client.selectors.list(tag_id, query)
    return Page[Selector](count=page.count, skip=page.skip, limit=page.limit, data=page.data.selectors)


def listed_counts(tags: Sequence[AssetGroupTag]) -> dict[int, int] | None:
    """Each tag's selector count as the tag list gave it (`counts=true`), or None when any tag came without one (an
    older server: then `selector_counts` asks per tag)."""
    counts = {tag.id: tag.counts.selector_total for tag in tags if tag.counts is not None}
    if len(counts) != len(tags) or any(count is None for count in counts.values()):
        return None
    return {tag_id: count for tag_id, count in counts.items() if count is not None}


async def selector_counts(client: ApiClient, tag_ids: Sequence[int]) -> dict[int, int]:
    """How many selectors each tag has: from one tag list with `counts=true`, or where the server gives no counts
    from `limit=1` pages of each tag (only the count is read)."""
    from svctui.api.errors import ApiError

    wanted = set(tag_ids)
    try:
        listed = listed_counts([tag for tag in await client.tags.list(counts=True) if tag.id in wanted])
    except ApiError:
        listed = None  # the tag list failed now: each tag's count is still worth asking for
    if listed is not None and set(listed) == wanted:
        return listed
    counts: dict[int, int] = {}
    for tag_id in tag_ids:
        counts[tag_id] = (await client.selectors.list(tag_id, ListQuery(limit=1))).count
    return counts


def filters_text(filters: Sequence[Filter]) -> str:
    """`name ∋ old-, is_default = false` (the chips' words), or `no filter`."""
    return ", ".join(chip_text(active).removesuffix(" ✕") for active in filters) or "no filter"


def matching_why(filters: Sequence[Filter]) -> str:
    """Why `M` marked them (the review's "Why these: ..."): `matching name ∋ old-`, or every selector of the tag."""
    return f"matching {filters_text(filters)}" if filters else "every selector of the tag (no filter)"


async def all_matching(client: ApiClient, tag_id: int, filters: Sequence[Filter], sort: Sequence[SortKey]) -> Matching:
    """Every selector of the tag matching `filters`, in `sort` order (one `limit=-1` request)."""
    page = await client.selectors.list(tag_id, ListQuery(tuple(filters), tuple(sort), 0, ALL))
    return Matching(tag_id, tuple(page.data.selectors), matching_why(filters))


async def typed_lookup(client: ApiClient, tag_id: int, typed: Sequence[int]) -> TypedLookup:
    """The tag's whole selector list (default order), to check typed ids against; none where ETAC keeps it from this
    user (`no_access`)."""
    from svctui.api.errors import NoEnvironmentAccess

    try:
        page = await client.selectors.list(tag_id, ListQuery(limit=ALL))
    except NoEnvironmentAccess as exc:  # DELETE is not gated: the ids are marked unchecked, the dry run tries them
        return TypedLookup(tag_id, tuple(typed), (), exc.user_message())
    return TypedLookup(tag_id, tuple(typed), tuple(page.data.selectors))
