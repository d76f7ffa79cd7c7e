"""Bulk deletion of asset group tag selectors: bounded concurrency, one outcome per id, an audit line per attempt.

Pure async over the API client (no Textual): the `selectors delete` command and the dashboard's selector
cleanup screen both run it, so both write the same audit log.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

from svctui.api.errors import ApiConnectionError, ApiError, ApiStatusError
from svctui.api.models import Selector

MAX_CONCURRENCY = 16
# 400s that are about the credentials, not the request: the signature prefix every signing failure carries, and
# the header problems (a wrong scheme prefix, a malformed Authorization header) even when a server leaves it out.
AUTH_FAILURE_MARKERS = ("unable to validate request signature", "authorization scheme", "authorization header")


class Outcome(StrEnum):
    """What happened to one selector id."""

    DELETED = "deleted"
    ALREADY_GONE = "already gone"
    REFUSED_DEFAULT = "refused: default selector"
    NOT_IN_TAG = "not part of tag"
    AUTH_FAILED = "failed: authentication"
    FAILED = "failed"
    SKIPPED = "skipped"


class SelectorApi(Protocol):
    """The two selector calls the engine needs (`ApiClient.selectors`)."""

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        """Fetch one selector."""
        ...

    async def delete(self, tag_id: int, selector_id: int) -> None:
        """Delete one selector."""
        ...


class SelectorClient(Protocol):
    """Anything with a `selectors` namespace like `ApiClient`."""

    @property
    def selectors(self) -> SelectorApi:
        """The selector operations."""
        ...


@dataclass(frozen=True)
class DeleteResult:
    """The outcome of one delete attempt (or of not attempting it)."""

    selector_id: int
    outcome: Outcome
    status: int | None = None
    request_id: str | None = None
    message: str = ""

    @property
    def ok(self) -> bool:
        """True when the selector is gone now (deleted, or was already)."""
        return self.outcome in (Outcome.DELETED, Outcome.ALREADY_GONE)


@dataclass
class DeleteReport:
    """All results of a run, in the order the ids were given (and why the audit log stopped the run, if it did)."""

    results: list[DeleteResult] = field(default_factory=list)
    audit_error: str | None = None

    @property
    def counts(self) -> Counter[Outcome]:
        """How many ids ended in each outcome."""
        return Counter(result.outcome for result in self.results)

    def summary(self) -> str:
        """One line such as `3 deleted, 1 already gone, 1 failed`."""
        counts = self.counts
        parts = [f"{counts[outcome]} {outcome}" for outcome in Outcome if counts[outcome]]
        return ", ".join(parts) or "nothing to do"


@dataclass(frozen=True)
class AuditContext:
    """Who ran the deletion against which server: written on every audit line."""

    profile: str
    base_url: str


AuditSink = Callable[[dict[str, Any]], object]
ResultCallback = Callable[[DeleteResult], object]


def _one_line(text: str) -> str:
    return "; ".join(part.strip() for part in text.splitlines() if part.strip())


def is_auth_failure(exc: ApiError) -> bool:
    """True for errors that mean the credentials (not this selector) are the problem."""
    if not isinstance(exc, ApiStatusError):
        return False
    text = " ".join(exc.messages).lower()
    if exc.status == 401:
        return True
    if exc.status == 403:
        return "default selector" not in text
    return exc.status == 400 and any(marker in text for marker in AUTH_FAILURE_MARKERS)


def is_server_trouble(exc: ApiError) -> bool:
    """True when the server could not be reached, or failed (5xx) or kept limiting (429) after the retries."""
    if isinstance(exc, ApiConnectionError):
        return True
    return isinstance(exc, ApiStatusError) and (exc.status >= 500 or exc.status == 429)


def classify(selector_id: int, exc: ApiError) -> DeleteResult:
    """Map an API error from DELETE to the outcome a person should read."""
    status = exc.status if isinstance(exc, ApiStatusError) else None
    request_id = exc.request_id if isinstance(exc, ApiStatusError) else None
    messages = exc.messages if isinstance(exc, ApiStatusError) else []
    text = " ".join(messages).lower()
    message = "; ".join(messages) if messages else _one_line(exc.user_message())
    outcome = Outcome.FAILED
    if is_auth_failure(exc):
        outcome = Outcome.AUTH_FAILED
        message = _one_line(exc.user_message())
    elif status == 404 and "not part of" in text:
        outcome = Outcome.NOT_IN_TAG
    elif status == 404 and "resource not found" in text:
        outcome = Outcome.ALREADY_GONE
    elif status == 403 and "default selector" in text:
        outcome = Outcome.REFUSED_DEFAULT
    else:
        message = _one_line(exc.user_message())
    return DeleteResult(selector_id, outcome, status, request_id, message)


def audit_record(context: AuditContext, tag_id: int, result: DeleteResult) -> dict[str, Any]:
    """The audit log line for one attempt (never a secret: profile name and URL only)."""
    return {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "profile": context.profile,
        "base_url": context.base_url,
        "tag": tag_id,
        "selector": result.selector_id,
        "outcome": str(result.outcome),
        "status": result.status,
        "request_id": result.request_id,
        "message": result.message,
    }


def _default_sink() -> AuditSink:
    from svctui.store.audit import append_audit

    return append_audit


async def _pool(ids: Sequence[int], concurrency: int, work: Callable[[int], Any], stop: asyncio.Event) -> None:
    """Run `work` over `ids` with at most `concurrency` in flight; stop taking new ids once `stop` is set."""
    shared: Iterator[int] = iter(ids)

    async def worker() -> None:
        for selector_id in shared:
            if stop.is_set():
                return
            await work(selector_id)

    async with asyncio.TaskGroup() as group:
        for _ in range(max(1, min(concurrency, MAX_CONCURRENCY, len(ids)))):
            group.create_task(worker())


async def delete_selectors(
    client: SelectorClient,
    tag_id: int,
    selector_ids: Sequence[int],
    *,
    context: AuditContext,
    concurrency: int = 4,
    on_result: ResultCallback | None = None,
    audit: AuditSink | None = None,
) -> DeleteReport:
    """Delete each selector of `tag_id`, at most `concurrency` at once; every attempt goes to the audit log.

    404 `resource not found` is "already gone", 403 on a default selector is "refused", 404 `not part of`
    is "not part of tag". An authentication failure stops the run: ids not yet attempted are SKIPPED. So does a
    failure to write the audit log (no deletion goes unrecorded twice): `DeleteReport.audit_error` says why.
    429s are retried by the client itself. `on_result` sees each result as it arrives.
    """
    from svctui.store.errors import StoreError

    sink = audit if audit is not None else _default_sink()
    stop = asyncio.Event()
    by_id: dict[int, DeleteResult] = {}
    audit_errors: list[str] = []

    def record(result: DeleteResult, attempted: bool) -> None:
        by_id[result.selector_id] = result
        if attempted:
            try:
                sink(audit_record(context, tag_id, result))
            except (StoreError, OSError) as exc:
                audit_errors.append(str(exc))
                stop.set()
        if on_result is not None:
            on_result(result)

    async def attempt(selector_id: int) -> None:
        try:
            await client.selectors.delete(tag_id, selector_id)
        except ApiError as exc:
            result = classify(selector_id, exc)
            if result.outcome is Outcome.AUTH_FAILED:
                stop.set()
        else:
            result = DeleteResult(selector_id, Outcome.DELETED, status=204)
        record(result, attempted=True)

    await _pool(selector_ids, concurrency, attempt, stop)
    audit_error = audit_errors[0] if audit_errors else None
    why = "the audit log could not be written" if audit_error else "an authentication failure"
    for selector_id in selector_ids:
        if selector_id not in by_id:
            record(DeleteResult(selector_id, Outcome.SKIPPED, message=f"not attempted after {why}"), False)
    return DeleteReport([by_id[selector_id] for selector_id in selector_ids], audit_error=audit_error)


class Preview(StrEnum):
    """What a dry run expects DELETE to do, judged from GET selector."""

    WOULD_DELETE = "would delete"
    WOULD_REFUSE = "would be refused: default selector"
    NOT_FOUND = "not found (already gone)"
    NOT_IN_TAG = "not part of tag"
    UNKNOWN = "would try (selector lookup unavailable)"


@dataclass(frozen=True)
class PreviewResult:
    """A dry-run line: the id, the selector when the server could describe it, and the expectation."""

    selector_id: int
    preview: Preview
    selector: Selector | None = None
    message: str = ""


async def preview_selectors(
    client: SelectorClient,
    tag_id: int,
    selector_ids: Sequence[int],
    *,
    concurrency: int = 4,
    on_result: Callable[[PreviewResult], object] | None = None,
) -> list[PreviewResult]:
    """Look up each selector (GET, never DELETE) to say what a deletion would do.

    An authentication failure, an unreachable server or one that keeps failing (5xx, 429 after the client's
    retries) propagates: a dry run that could not ask must not look like one that found nothing wrong. Any other
    refusal of the lookup (e.g. a server without GET selector) gives UNKNOWN: the deletion would still be tried.
    """
    by_id: dict[int, PreviewResult] = {}
    stop = asyncio.Event()

    async def look(selector_id: int) -> None:
        try:
            selector = await client.selectors.get(tag_id, selector_id)
        except ApiError as exc:
            if is_auth_failure(exc) or is_server_trouble(exc):
                stop.set()
                raise
            found = classify(selector_id, exc)
            preview = {
                Outcome.ALREADY_GONE: Preview.NOT_FOUND,
                Outcome.NOT_IN_TAG: Preview.NOT_IN_TAG,
            }.get(found.outcome, Preview.UNKNOWN)
            result = PreviewResult(selector_id, preview, None, found.message)
        else:
            if selector.asset_group_tag_id != tag_id:
                result = PreviewResult(selector_id, Preview.NOT_IN_TAG, selector)
            elif selector.is_default:
                result = PreviewResult(selector_id, Preview.WOULD_REFUSE, selector)
            else:
                result = PreviewResult(selector_id, Preview.WOULD_DELETE, selector)
        by_id[selector_id] = result
        if on_result is not None:
            on_result(result)

    try:
        await _pool(selector_ids, concurrency, look, stop)
    except* ApiError as group:
        raise group.exceptions[0] from None
    return [by_id[selector_id] for selector_id in selector_ids]
