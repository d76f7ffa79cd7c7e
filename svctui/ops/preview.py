"""The dry run: look each selector up with GET (never DELETE) and say what a deletion would do.

A lookup that got no real answer of the API (malformed, a redirect, cut short, 5xx, unreachable) is UNCHECKED:
a dry run that could not ask must not look like one that found nothing wrong.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from svctui.api.errors import ApiError, ApiStatusError
from svctui.api.models import Selector
from svctui.ops.outcomes import Outcome, classify, is_auth_failure, is_no_access, is_server_trouble, one_line

MAX_CONCURRENCY = 16


class Preview(StrEnum):
    """What a dry run expects DELETE to do, judged from GET selector."""

    WOULD_DELETE = "would delete"
    WOULD_REFUSE = "would be refused: default selector"
    GONE = "already gone"  # listed (so it existed) and 404 now: deleted since, by a run or by someone
    NOT_FOUND = "not found"  # never listed here: nobody we know of deleted it
    NOT_IN_TAG = "not part of tag"
    UNKNOWN = "would try (selector lookup unavailable)"
    UNCHECKED = "could not be checked"


@dataclass(frozen=True)
class PreviewResult:
    """A dry-run line: the id, the selector when the server could describe it, and the expectation."""

    selector_id: int
    preview: Preview
    selector: Selector | None = None
    message: str = ""


class SelectorLookup(Protocol):
    """The one call a dry run needs (`ApiClient.selectors.get`)."""

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        """Fetch one selector."""
        ...


class LookupClient(Protocol):
    """Anything with a `selectors` namespace like `ApiClient`."""

    @property
    def selectors(self) -> SelectorLookup:
        """The selector operations."""
        ...


def judge(tag_id: int, selector_id: int, selector: Selector) -> PreviewResult:
    """What DELETE would do to a selector GET returned."""
    if selector.asset_group_tag_id != tag_id:
        return PreviewResult(selector_id, Preview.NOT_IN_TAG, selector)
    if selector.is_default:
        return PreviewResult(selector_id, Preview.WOULD_REFUSE, selector)
    return PreviewResult(selector_id, Preview.WOULD_DELETE, selector)


# The API's own refusals of a lookup (its error envelope) that say nothing about the selector: DELETE would be tried.
LOOKUP_REFUSALS = frozenset({400, 404, 405})


def judge_error(selector_id: int, exc: ApiError, *, listed: bool = False) -> PreviewResult:
    """A lookup's error: gone (`listed`: it existed when listed) or not found, elsewhere, refused by the API itself
    (UNKNOWN: DELETE would be tried), or UNCHECKED — which is also every answer that is not the API's (the router's
    plain `404 page not found`, a 418, an error envelope cut off): nothing was learnt about the selector."""
    found = classify(selector_id, exc)
    if found.outcome is Outcome.ALREADY_GONE:
        return PreviewResult(selector_id, Preview.GONE if listed else Preview.NOT_FOUND, None, found.message)
    if found.outcome is Outcome.NOT_IN_TAG:
        return PreviewResult(selector_id, Preview.NOT_IN_TAG, None, found.message)
    if isinstance(exc, ApiStatusError) and exc.from_api and exc.status in LOOKUP_REFUSALS:
        return PreviewResult(selector_id, Preview.UNKNOWN, None, found.message)
    # ETAC: reads are not this user's, while DELETE is not gated: it would be tried
    if isinstance(exc, ApiStatusError) and exc.from_api and is_no_access(exc):
        return PreviewResult(selector_id, Preview.UNKNOWN, None, found.message)
    message = found.message
    if isinstance(exc, ApiStatusError) and not exc.from_api:
        message = f"not an answer of the API ({message or exc})"
    return PreviewResult(selector_id, Preview.UNCHECKED, None, message)


async def preview_selectors(
    client: LookupClient,
    tag_id: int,
    selector_ids: Sequence[int],
    *,
    concurrency: int = 4,  # pragma: no mutate (equivalent: how many look-ups run at once, never what they find)
    on_result: Callable[[PreviewResult], object] | None = None,
    listed: Collection[int] = (),
) -> list[PreviewResult]:
    """Look up each selector (GET, never DELETE) to say what a deletion would do, in the order of `selector_ids`.

    A 404 reads "already gone" for an id in `listed` (the caller saw it in the tag's list), else "not found".

    An authentication failure raises. A lookup without a real answer is UNCHECKED with the reason; once the server
    proves unreachable or failing (5xx, 429 after the client's retries) the remaining ids are UNCHECKED unasked.
    Any other refusal of the lookup (e.g. a server without GET selector) gives UNKNOWN: the deletion would be tried;
    after an ETAC 403 (this user may not read selectors) the remaining ids are UNKNOWN unasked.
    """
    ids = list(dict.fromkeys(selector_ids))
    by_id: dict[int, PreviewResult] = {}
    trouble: list[str] = []
    auth_errors: list[ApiError] = []
    no_access: list[str] = []  # ETAC: this user may not read selectors; DELETE would still be tried

    async def look(selector_id: int) -> None:
        try:
            result = judge(tag_id, selector_id, await client.selectors.get(tag_id, selector_id))
        except ApiError as exc:
            if is_auth_failure(exc):
                auth_errors.append(exc)
                return
            result = judge_error(selector_id, exc, listed=selector_id in listed)
            if is_server_trouble(exc):
                trouble.append(result.message)
            if is_no_access(exc):
                no_access.append(result.message)
        except Exception as exc:  # never a crashed dry run: the id is unchecked, with what went wrong
            result = PreviewResult(selector_id, Preview.UNCHECKED, None, one_line(f"{type(exc).__name__}: {exc}"))
        by_id[selector_id] = result
        if on_result is not None:
            on_result(result)

    shared: Iterator[int] = iter(ids)

    async def worker() -> None:
        for selector_id in shared:
            if trouble or auth_errors:
                return
            if no_access:  # the same 403 for every selector: not asked again, the deletion would still be tried
                result = PreviewResult(selector_id, Preview.UNKNOWN, None, f"not looked up: {no_access[0]}")
                by_id[selector_id] = result
                if on_result is not None:
                    on_result(result)
                continue
            await look(selector_id)

    async with asyncio.TaskGroup() as group:
        for _ in range(max(1, min(concurrency, MAX_CONCURRENCY, len(ids)))):
            group.create_task(worker())
    if auth_errors:
        raise auth_errors[0]
    for selector_id in ids:
        if selector_id not in by_id:
            result = PreviewResult(selector_id, Preview.UNCHECKED, None, f"not checked after: {trouble[0]}")
            by_id[selector_id] = result
            if on_result is not None:
                on_result(result)
    return [by_id[selector_id] for selector_id in ids]
