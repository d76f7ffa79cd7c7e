"""The deletion run: plan, then for each selector an fsynced intent, the DELETE, the outcome; then the end line.

Pure async over the API client (no Textual): the `selectors delete` and `selectors resume` commands and the
dashboard's selector cleanup screen all run it, so all write the same audit log (docs/AUDIT.md).

Guarantees: a DELETE is sent only after its intent line is on disk; once the log can't be written nothing more
is sent; no exception escapes a worker (anything unexpected is a FAILED outcome), so every line that can be
written is; a resumed run re-checks each selector with GET and never deletes anything twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from svctui.api.errors import ApiError, NotFound
from svctui.api.limits import MAX_PAGE_SIZE
from svctui.api.models import Selector, SelectorPage
from svctui.api.query import ListQuery
from svctui.api.resources import Deletion
from svctui.ops.audit_lines import (
    AuditContext,
    end_line,
    intent_line,
    outcome_line,
    owner_fields,
    plan_line,
    selector_record,
)
from svctui.ops.identity import another_selector, renamed
from svctui.ops.outcomes import DeleteReport, DeleteResult, Outcome, Stopped, classify, unexpected
from svctui.store.errors import StoreError

MAX_CONCURRENCY = 16
AuditSink = Callable[[dict[str, Any]], object]
ResultCallback = Callable[[DeleteResult], object]
SKIP_MESSAGES = {
    Stopped.CANCELLED: "not attempted: the run was cancelled",
    Stopped.AUTH_FAILED: "not attempted after an authentication failure",
    Stopped.AUDIT_NOT_WRITABLE: "not attempted: the audit log could not be written",
    Stopped.UNREACHABLE: "not attempted: the server stopped answering",
}
# This many outcomes in a row without an answer (each after the client's own retries) stop the run: the server is
# gone, and every further DELETE would only add an intent in doubt. Any answer in between starts the count again.
UNREACHABLE_STREAK = 3


class SelectorApi(Protocol):
    """The selector calls the engine needs (`ApiClient.selectors`)."""

    async def list(self, tag_id: int, query: ListQuery = ...) -> SelectorPage:
        """One page of a tag's selectors."""
        ...

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        """Fetch one selector."""
        ...

    async def delete(self, tag_id: int, selector_id: int) -> Deletion:
        """Delete one selector."""
        ...


class SelectorClient(Protocol):
    """Anything with a `selectors` namespace like `ApiClient`."""

    @property
    def selectors(self) -> SelectorApi:
        """The selector operations."""
        ...


async def fetch_selector_records(client: SelectorClient, tag_id: int) -> dict[int, Selector]:
    """Every selector of the tag by id: fetched once per run (pages of MAX_PAGE_SIZE), never one GET per selector."""
    found: dict[int, Selector] = {}
    skip = 0
    while True:
        page = await client.selectors.list(tag_id, ListQuery(skip=skip, limit=MAX_PAGE_SIZE))
        got = page.data.selectors
        fresh = [selector for selector in got if selector.id not in found]
        found.update((selector.id, selector) for selector in fresh)
        if not fresh or skip + len(got) >= page.count:  # the end, or a server that ignores skip
            return found
        skip += len(got)


def _default_sink() -> AuditSink:
    from svctui.store.audit import append_audit

    return append_audit


@dataclass
class _Run:
    """The state one run shares between its workers."""

    run_id: str
    tag_id: int
    sink: AuditSink
    records: Mapping[int, Selector]
    on_result: ResultCallback | None
    cancel: asyncio.Event
    results: dict[int, DeleteResult] = field(default_factory=dict)
    stopped: Stopped | None = None
    audit_error: str | None = None
    callback_error: Exception | None = None
    unanswered_streak: int = 0
    unlogged: set[int] = field(default_factory=set)  # ids whose outcome line could not be written
    owners: dict[int, dict[str, Any]] = field(default_factory=dict)  # extension-owned: rule_key, extension_id

    @property
    def halted(self) -> bool:
        """No new selector is started: cancelled, or stopped (authentication, audit log, server unreachable)."""
        return self.stopped is not None or self.cancel.is_set()

    async def write(self, line: dict[str, Any]) -> bool:
        """Append one line (write + fsync in a thread); on failure stop the run and say why. True when on disk."""
        try:
            await asyncio.to_thread(self.sink, line)
        except (StoreError, OSError, ValueError) as exc:
            self.audit_error = self.audit_error or str(exc)
            self.stopped = Stopped.AUDIT_NOT_WRITABLE
            return False
        return True

    def name(self, selector_id: int) -> str:
        """The selector's name from the tag's list, or ''."""
        selector = self.records.get(selector_id)
        return selector.name if selector is not None else ""

    async def settle(self, result: DeleteResult, *, answered: bool = True) -> None:
        """Record a result: the outcome line (when something was asked of the server), then the callback."""
        result = replace(result, name=result.name or self.name(result.selector_id))
        self.results[result.selector_id] = result
        if result.outcome is Outcome.AUTH_FAILED:
            self.stopped = self.stopped or Stopped.AUTH_FAILED
        if answered:
            unanswered = result.outcome is Outcome.NO_ANSWER and not result.answered
            self.unanswered_streak = self.unanswered_streak + 1 if unanswered else 0
            if self.unanswered_streak >= UNREACHABLE_STREAK:
                self.stopped = self.stopped or Stopped.UNREACHABLE
            owner = self.owners.get(result.selector_id, {})
            if not await self.write(outcome_line(self.run_id, self.tag_id, result, **owner)):
                self.unlogged.add(result.selector_id)
        if self.on_result is not None:
            try:
                self.on_result(result)
            except Exception as exc:  # the caller's bug must not cost an audit line: raised after the end line
                self.callback_error = self.callback_error or exc


async def _recheck(
    run: _Run, client: SelectorClient, selector_id: int, kept: dict[str, Any] | None = None
) -> dict[str, Any] | DeleteResult | None:
    """Resume: GET the selector. Its record when it still exists here, or the result that settles it without DELETE.
    `kept`: the record the deletion planned with; a selector that is not that one (another name or creation time
    under the same id) is never deleted: the planned one is gone."""
    try:
        selector = await client.selectors.get(run.tag_id, selector_id)
    except NotFound as exc:
        found = classify(selector_id, exc)
        if found.outcome in (Outcome.ALREADY_GONE, Outcome.NOT_IN_TAG):
            return replace(found, message=f"re-checked with GET: {found.message}")
        return None  # a 404 that says nothing about the selector (no GET on this server): DELETE decides
    except ApiError as exc:
        failed = classify(selector_id, exc)
        return replace(failed, message=f"could not re-check with GET: {failed.message}")
    if selector.asset_group_tag_id != run.tag_id:
        return _settled_by_get(selector_id, Outcome.NOT_IN_TAG, "under another tag")
    if (other := another_selector(selector, kept)) is not None:
        return _settled_by_get(
            selector_id, Outcome.ALREADY_GONE, f"the selector planned is gone; {other}, which is not deleted"
        )
    if (change := renamed(selector, kept)) is not None:
        return _settled_by_get(
            selector_id, Outcome.FAILED, f"{change} since the run planned it; not deleted: delete it anew if meant"
        )
    return selector_record(selector)


def _settled_by_get(selector_id: int, outcome: Outcome, message: str) -> DeleteResult:
    """The result of a resume's GET (200) that settles the selector without a DELETE."""
    return DeleteResult(selector_id, outcome, status=200, request_id=None, message=f"re-checked with GET: {message}")


async def _delete_one(
    run: _Run, client: SelectorClient, selector_id: int, recheck: bool, look_up: bool = False
) -> None:
    """One selector, start to end; nothing raised here but cancellation. `recheck` (a resume): a GET first, and no
    DELETE unless it is still there. `look_up` (the tag's list failed): a GET first for its record; gone or under
    another tag settles it, a failed GET leaves the intent without a record as before."""
    try:
        known = run.records.get(selector_id)
        record = selector_record(known) if known is not None else None
        if recheck or (look_up and known is None):
            checked = await _recheck(run, client, selector_id, record if recheck else None)
            if isinstance(checked, DeleteResult) and (
                recheck or checked.outcome in (Outcome.ALREADY_GONE, Outcome.NOT_IN_TAG)
            ):
                await run.settle(checked)
                return
            record = checked if isinstance(checked, dict) else record
        if owner := owner_fields(record):
            run.owners[selector_id] = owner
        if not await run.write(intent_line(run.run_id, run.tag_id, selector_id, record)):
            return  # not sent: the intent is not on disk
        if run.stopped is Stopped.AUDIT_NOT_WRITABLE:
            return  # another worker found the log unwritable: nothing more is sent (this intent stays in doubt)
        try:
            answer = await client.selectors.delete(run.tag_id, selector_id)
            result = DeleteResult(selector_id, Outcome.DELETED, status=answer.status, request_id=answer.request_id)
        except ApiError as exc:
            result = classify(selector_id, exc)
        except Exception as exc:
            result = unexpected(selector_id, exc)
        await run.settle(result)
    except Exception as exc:  # a bug in the engine itself: still one outcome, never a crashed run
        await run.settle(unexpected(selector_id, exc))


async def _pool(ids: Sequence[int], concurrency: int, run: _Run, work: Callable[[int], Any]) -> None:
    """Run `work` over `ids` with at most `concurrency` in flight; no new id once the run is halted."""
    shared: Iterator[int] = iter(ids)

    async def worker() -> None:
        for selector_id in shared:
            if run.halted:
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
    cancel: asyncio.Event | None = None,
    records: Mapping[int, Selector] | None = None,
    list_failed: bool = False,
    tag_name: str = "",
    resumes: str | None = None,
    audit: AuditSink | None = None,
    run_id: str | None = None,
) -> DeleteReport:
    """Delete each selector of `tag_id`, at most `concurrency` at once, every step in the audit log.

    `records`: the tag's selectors by id (`fetch_selector_records`); fetched here when None (an authentication
    failure then raises before anything is written). When the list can't be had (here, or `list_failed`: the
    caller's own list failed), each selector's record comes from a GET just before its DELETE.
    `on_result` sees each result as it lands. Setting `cancel` sends nothing more: requests in flight finish,
    the rest is SKIPPED. `resumes` names an earlier run: each selector is first re-checked with GET and deleted only
    if it still exists. `audit` replaces the log writer (tests); `run_id` the generated id.
    Returns the report (results in the order of `selector_ids`, the run id, why it stopped). An exception
    raised by `on_result` is re-raised after the end line is written.
    """
    from svctui.store.audit import new_run_id

    ids = list(dict.fromkeys(selector_ids))
    look_up_each = list_failed  # the caller's list of the tag failed: not asked again
    if records is None and not list_failed:
        listed = await _records_or_none(client, tag_id)
        look_up_each = listed is None  # the list failed: each selector's record comes from a GET before its DELETE
        records = listed
    run = _Run(
        run_id or new_run_id(), tag_id, audit or _default_sink(), records or {}, on_result, cancel or asyncio.Event()
    )
    concurrency = max(1, min(concurrency, MAX_CONCURRENCY))
    planned = await run.write(plan_line(run.run_id, context, tag_id, tag_name, ids, concurrency, resumes=resumes))
    if planned:
        await _pool(
            ids,
            concurrency,
            run,
            lambda selector_id: _delete_one(run, client, selector_id, resumes is not None, look_up_each),
        )
    if run.stopped is None and run.cancel.is_set() and len(run.results) < len(ids):
        run.stopped = Stopped.CANCELLED
    for selector_id in ids:
        if selector_id not in run.results:
            message = SKIP_MESSAGES[run.stopped or Stopped.CANCELLED]
            await run.settle(DeleteResult(selector_id, Outcome.SKIPPED, message=message), answered=False)
    results = [run.results[selector_id] for selector_id in ids]
    stopped = run.stopped
    await run.write(end_line(run.run_id, results, stopped))
    if run.callback_error is not None:
        raise run.callback_error
    return DeleteReport(run.run_id, results, stopped, run.audit_error, frozenset(run.unlogged), planned)


async def _records_or_none(client: SelectorClient, tag_id: int) -> dict[int, Selector] | None:
    """The tag's selectors; None when the list can't be had (one unreadable selector in it is enough: each record
    is then looked up with a GET before its DELETE). Auth failures raise."""
    from svctui.ops.outcomes import is_auth_failure

    try:
        return await fetch_selector_records(client, tag_id)
    except ApiError as exc:
        if is_auth_failure(exc):
            raise
        return None
