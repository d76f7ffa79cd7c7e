"""Undoing a deletion run: re-create its deleted selectors from the records its intent lines kept (docs/AUDIT.md).

A restore is a run of its own (action `selectors.restore`, `restores: <old run id>`): a plan line, an fsynced intent
before each POST, an outcome (`restored` with `new_id`, or `failed` / `no answer`) after it, an end line. Never
twice: an old id already restored by an earlier restore run (of this run or of a run in its resume family) is
skipped, and one whose earlier POST got no answer is looked up in the tag first (it may have been created): a
selector with its name, description and seeds (`same_definition`) counts as that restore's. A deletion in doubt that
a resume later found still there and deleted belongs to the resume: restoring the first run leaves it to that run's
restore.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from svctui.api.errors import ApiError, NotFound
from svctui.api.models import Selector
from svctui.ops.audit_lines import (
    EXTENSION_RECREATES,
    AuditContext,
    intent_line,
    outcome_line,
    owner_words,
    plan_line,
    selector_record,
)
from svctui.ops.delete_run import AuditSink, fetch_selector_records
from svctui.ops.identity import another_selector
from svctui.ops.outcomes import Answer, Outcome, classify, one_line
from svctui.store.audit import try_lock_restores, unlock_restores
from svctui.store.audit_read import AuditLog, AuditRun, SelectorEntry, read_audit
from svctui.text import id_ranges
from svctui.visible import visible

RESTORE_ACTION = "selectors.restore"
RESTORED, FAILED, NO_ANSWER, SKIPPED = "restored", "failed", "no answer", "skipped"
LOCK_RETRY = 0.2  # seconds between tries of the restore lock while another restore holds it


class RestoreClient(Protocol):
    """Anything with a `selectors` namespace like `ApiClient` (list, get, create)."""

    @property
    def selectors(self) -> Any:
        """The selector operations (`SelectorsResource`)."""
        ...


class NothingToRestore(Exception):
    """The run has nothing (left) to restore, or can't be restored; the message says why."""


@dataclass(frozen=True)
class RestoreResult(Answer):
    """What happened to one deleted selector: re-created as `new_id`, or why not."""

    old_id: int
    outcome: str
    name: str = ""
    new_id: int | None = None

    @property
    def selector_id(self) -> int:
        """The old id, under the name the audit log's outcome lines use."""
        return self.old_id


@dataclass
class RestorePlan:
    """What a restore of `run` would do: the old ids to re-create (with records) and the ids it leaves alone."""

    run: AuditRun
    to_restore: list[SelectorEntry] = field(default_factory=list)
    already: dict[int, int | None] = field(default_factory=dict)  # old id -> new id of an earlier restore
    in_doubt: list[int] = field(default_factory=list)  # an earlier restore's POST got no answer: look by name
    not_restorable: dict[int, str] = field(default_factory=dict)  # old id -> why (not deleted, no record)
    by_resume: dict[int, str] = field(default_factory=dict)  # old id -> the later resume of the run that deleted it


def earlier_restores(log: AuditLog, family: set[str]) -> tuple[dict[int, int | None], set[int]]:
    """Old ids restored by earlier restore runs of the runs of `family` (a run and its resumes, `AuditLog.family`:
    a selector re-created from one run of a deletion is not re-created again from another) -> new id, and old ids
    whose POST is in doubt."""
    done: dict[int, int | None] = {}
    doubtful: set[int] = set()
    for other in log.runs:
        if other.action != RESTORE_ACTION or other.plan.get("restores") not in family:
            continue
        for old_id, entry in other.entries.items():
            if entry.outcome == RESTORED:
                done[old_id] = entry.new_id
            elif entry.in_doubt:
                doubtful.add(old_id)
    return done, doubtful - set(done)


def restore_runs_of(log: AuditLog, run_id: str) -> list[str]:
    """The restore runs of deletion run `run_id` or of its resume family that re-created something, oldest first
    (those `plan_restore` counts as `already`)."""
    family = {run.run_id for run in log.family(run_id)}
    return [
        other.run_id
        for other in log.runs
        if other.action == RESTORE_ACTION
        and other.plan.get("restores") in family
        and any(entry.outcome == RESTORED for entry in other.entries.values())
    ]


def plan_restore(log: AuditLog, run_id: str, only: Sequence[int] = ()) -> RestorePlan:
    """Which selectors of deletion run `run_id` to re-create (`only`: these old ids); StoreError for a bad id."""
    run = log.get(run_id)
    if run.action != "selectors.delete" or run.tag_id is None:
        raise NothingToRestore(f"run {run.run_id} is not a deletion run with a plan; only those can be restored")
    family = log.family(run.run_id)
    done, doubtful = earlier_restores(log, {other.run_id for other in family})
    deleted_by = {
        selector_id: other.run_id
        for other in family
        if other is not run
        for selector_id, entry in other.entries.items()
        if entry.outcome == "deleted"
    }
    # a run and its later resumes are one deletion (issue 28): what they deleted is restored with the run
    from_resumes = _deleted_by_later_resumes(family, run)
    plan = RestorePlan(run)
    wanted = list(dict.fromkeys(only)) or list(run.entries)
    for old_id in wanted:
        entry = run.entries.get(old_id)
        resume_id, later = from_resumes.get(old_id, ("", None))
        if entry is not None and later is not None and (later.outcome == "deleted" or not entry.in_doubt):
            entry = later  # its DELETE was the resume's: restore from the resume's record
            plan.by_resume[old_id] = resume_id
        if entry is None:
            plan.not_restorable[old_id] = f"not part of run {run.run_id}"
        elif old_id in done:
            plan.already[old_id] = done[old_id]
        elif entry.outcome != "deleted" and not entry.in_doubt:
            plan.not_restorable[old_id] = f"not deleted by the run ({entry.outcome or 'not attempted'})"
        elif entry.in_doubt and old_id in deleted_by:  # its DELETE did nothing: the resume found it and deleted it
            plan.not_restorable[old_id] = f"deleted by run {deleted_by[old_id]}, not by this one: restore that run"
        elif owner := owner_words(entry.record):
            plan.not_restorable[old_id] = extension_why(owner)
        elif not entry.record or not entry.record.get("seeds"):
            plan.not_restorable[old_id] = "the run kept no record of it (name, seeds): it can't be re-created"
        else:
            plan.to_restore.append(entry)
            if old_id in doubtful:
                plan.in_doubt.append(old_id)
    return plan


def _deleted_by_later_resumes(family: list[AuditRun], run: AuditRun) -> dict[int, tuple[str, SelectorEntry]]:
    """Old id -> (resume run, its entry) for what the runs that resumed `run` (and their resumes, in turn) deleted:
    `deleted`, or sent with no answer (in doubt: the restore looks in the tag first, as for the run's own)."""
    later, deleted, in_doubt = {run.run_id}, {}, {}
    for other in family:  # in the order they started: a resume starts after the run it resumes
        if other.resumes in later and other.run_id not in later:
            later.add(other.run_id)
            for selector_id, entry in other.entries.items():
                if entry.outcome == "deleted":
                    deleted[selector_id] = (other.run_id, entry)
                elif entry.in_doubt:
                    in_doubt[selector_id] = (other.run_id, entry)
    return in_doubt | deleted  # a later resume that found it still there and deleted it is the one that did


def extension_why(owner: str) -> str:
    """Why an extension-owned selector is never restored (`owner`: `extension 1, rule x`)."""
    return (
        f"owned by an extension ({owner}): {EXTENSION_RECREATES}; a copy made by POST would be a plain selector "
        "whose name blocks that"
    )


SEED_KINDS = {1: "object id", 2: "Cypher"}


def seed_lines(record: dict[str, Any]) -> list[str]:
    """Every seed the restore will POST for one selector, in full (a Cypher seed's every line), each shown visibly
    (`visible`: a control character in the log is no terminal command): what is re-created is read before asking."""
    lines: list[str] = []
    seeds = record.get("seeds")
    for seed in seeds if isinstance(seeds, list) else []:
        kind = seed.get("type") if isinstance(seed, dict) else None
        value = str(seed.get("value") or "") if isinstance(seed, dict) else str(seed)
        label = SEED_KINDS.get(kind, f"type {kind}") if isinstance(kind, int) else "seed"
        first, *rest = visible(value, lines=True).splitlines() or [""]
        lines.append(f"      {label}: {first}")
        lines.extend(f"      {' ' * (len(label) + 2)}{line}" for line in rest)
    return lines


def resumes_split(plan: RestorePlan, *, name_resumes: bool = True) -> str:
    """`82 deleted by this run, 310 by its resumes R2, R3`: who deleted what the plan re-creates, in the words of the
    restore's listing and of the Audit tab's run line alike ('' when the run's resumes deleted none of it); without
    `name_resumes` the resumes' ids are left to the run's state (`resumed by R3`) said beside it."""
    if not plan.by_resume:
        return ""
    planned = [*(entry.selector_id for entry in plan.to_restore), *plan.already, *plan.not_restorable]
    own = sum(
        1
        for old_id in planned
        if old_id not in plan.by_resume
        and (entry := plan.run.entries.get(old_id)) is not None
        and (entry.outcome == "deleted" or entry.in_doubt)
    )
    resumes = ", ".join(dict.fromkeys(plan.by_resume.values())) if name_resumes else ""
    return f"{own:,} deleted by this run, {len(plan.by_resume):,} by its resumes {resumes}".rstrip()


def describe_plan(plan: RestorePlan) -> list[str]:
    """What the restore will and won't do, in words: every selector to re-create with every seed in full (nothing
    is cut: the prompt and the dialog's listing scroll), then one line per reason an id is skipped, its ids as
    ranges (`56 skipped, not deleted by the run (not part of tag): 97-150, 160`)."""
    lines: list[str] = []
    if plan.by_resume:  # the chain, said before the ids: one restore undoes the run and every resume of it
        lines.append(f"  {resumes_split(plan)}")
    for entry in plan.to_restore:
        record = entry.record or {}
        name = visible(repr(entry.name)) if entry.name else "(no name)"
        seeds = record.get("seeds")
        count = len(seeds) if isinstance(seeds, list) else 0
        lines.append(f"  {entry.selector_id} {name}: {count} seed{'' if count == 1 else 's'}")
        lines.extend(seed_lines(record))
    if plan.already:
        new_ids = [new_id for new_id in plan.already.values() if new_id is not None]
        as_new = f" (now {id_ranges(new_ids)})" if new_ids else ""
        lines.append(f"  {len(plan.already):,} already restored{as_new}, skipped: {id_ranges(plan.already)}")
    by_reason: dict[str, list[int]] = {}
    for old_id, why in plan.not_restorable.items():
        by_reason.setdefault(why, []).append(old_id)
    for why, ids in by_reason.items():
        lines.append(f"  {len(ids):,} skipped, {why}: {id_ranges(ids)}")
    if plan.in_doubt:
        lines.append(f"  {len(plan.in_doubt):,} had a restore that got no answer: looked up by name first")
    disabled = [entry for entry in plan.to_restore if (entry.record or {}).get("disabled_at")]
    if disabled:  # the API creates selectors enabled: a restore widens what the tag covers
        enabled_ids = id_ranges(entry.selector_id for entry in disabled)
        comes = "comes" if len(disabled) == 1 else "come"
        lines.append(f"  {len(disabled):,} disabled when deleted {comes} back enabled: {enabled_ids}")
    return lines


def _outcome_line(run_id: str, tag_id: int, result: RestoreResult) -> dict[str, Any]:
    """The audit line of one restore's outcome (the new id when there is one)."""
    return outcome_line(run_id, tag_id, result, new_id=result.new_id)


def same_definition(selector: Selector, record: dict[str, Any]) -> bool:
    """Whether `selector` is what a POST of `record` creates: the same name, description and seeds (names are not
    unique: a namesake with other seeds or another description was there before and is not a re-creation)."""
    mine = selector_record(selector)  # the shape the intent line kept `record` in
    return all((mine.get(name) or "") == (record.get(name) or "") for name in ("name", "description")) and list(
        mine.get("seeds") or []
    ) == list(record.get("seeds") or [])


NAME_TAKEN_STATUS = 409  # POST: `asset group tag selector name must be unique` (unique per tag among non-defaults)


def _is_name_taken(exc: ApiError) -> bool:
    return getattr(exc, "status", None) == NAME_TAKEN_STATUS  # after a lost answer too: the namesake may be ours


async def _name_taken(
    client: RestoreClient, tag_id: int, old_id: int, record: dict[str, Any], exc: ApiError
) -> RestoreResult:
    """A 409 to the POST: a selector of that name exists now. Same definition: restored already (as it); another
    one: failed, saying what to do; the look-up failed: failed, saying so."""
    name = str(record.get("name") or "")
    status, request_id = getattr(exc, "status", None), getattr(exc, "request_id", None)
    try:
        existing = await fetch_selector_records(client, tag_id)
    except ApiError as lookup:
        message = one_line(
            f"a selector named {name!r} exists now (HTTP 409); which one could not be looked up "
            f"({lookup.user_message()}): find it in tag {tag_id}, then rename or delete it and restore again"
        )
        return RestoreResult(old_id, FAILED, name, status=status, request_id=request_id, message=message)
    namesake = next(
        (selector for selector in existing.values() if selector.name == name and not selector.is_default), None
    )
    if namesake is not None and same_definition(namesake, record):
        message = f"a selector with this name and definition exists now (id {namesake.id}): counted as restored"
        return RestoreResult(old_id, RESTORED, name, namesake.id, status=status, request_id=request_id, message=message)
    where = f" (id {namesake.id})" if namesake is not None else ""
    message = one_line(
        f"a selector named {name!r} exists now{where} with another definition; names are unique per tag: rename "
        f"or delete selector{where or ' of that name'}, then restore this one again"
    )
    return RestoreResult(old_id, FAILED, name, status=status, request_id=request_id, message=message)


async def _still_there(client: RestoreClient, tag_id: int, entry: SelectorEntry) -> bool | str | None:
    """For a deletion in doubt: True when the old selector still exists (nothing to restore), None if unknown,
    False when it is gone — or the words saying that another selector now holds its id (`identity.another_selector`:
    not the deleted one, so it is gone too)."""
    try:
        found = await client.selectors.get(tag_id, entry.selector_id)
    except NotFound:
        return False
    except ApiError:
        return None
    if isinstance(found, Selector) and found.asset_group_tag_id != tag_id:
        return f"id {entry.selector_id} is now a selector of tag {found.asset_group_tag_id}, not of tag {tag_id}"
    other = another_selector(found, entry.planned or entry.record) if isinstance(found, Selector) else None
    return other if other is not None else True


async def restore_run(
    client: RestoreClient,
    plan: RestorePlan,
    *,
    context: AuditContext,
    run_id: str,
    audit: AuditSink,
    on_result: Callable[[RestoreResult], object] | None = None,
    cancel: asyncio.Event | None = None,
    read_log: Callable[[], AuditLog] = read_audit,
    on_wait: Callable[[], object] | None = None,
) -> list[RestoreResult]:
    """Re-create each selector of `plan.to_restore` with POST, one at a time, every step in the audit log first.
    The run holds the restore lock (store.audit.try_lock_restores) and plans again under it from the log as it is
    now (`read_log`): of the selectors asked for, those another restore re-created since `plan` was made are
    skipped. While another restore holds the lock, `on_wait` is called once (the waiting is said, not silent)."""
    # another restore runs: wait for it, polling (the lock is another process's flock: nothing here could be awaited;
    # a sleep stays cancellable, where a thread blocked in flock would take the lock after a cancel and keep it)
    waited = False
    while (fd := try_lock_restores()) is None:
        if cancel is not None and cancel.is_set():
            return []  # cancelled while waiting: nothing was sent nor written
        if not waited and on_wait is not None:
            on_wait()
        waited = True
        await asyncio.sleep(LOCK_RETRY)
    try:
        asked = {entry.selector_id for entry in plan.to_restore}
        fresh = plan_restore(await asyncio.to_thread(read_log), plan.run.run_id, sorted(asked))
        results = await _restore_planned(client, fresh, context, run_id, audit, on_result, cancel)
    finally:
        unlock_restores(fd)
    left = asked - {entry.selector_id for entry in fresh.to_restore}
    for entry in plan.to_restore:
        if entry.selector_id in left:
            done = fresh.already.get(entry.selector_id)
            why = f"restored meanwhile by another restore (as {done})" if done else "no longer to restore"
            result = RestoreResult(entry.selector_id, SKIPPED, entry.name, done, message=why)
            results.append(result)
            if on_result is not None:
                on_result(result)
    return results


async def _restore_planned(
    client: RestoreClient,
    plan: RestorePlan,
    context: AuditContext,
    run_id: str,
    audit: AuditSink,
    on_result: Callable[[RestoreResult], object] | None,
    cancel: asyncio.Event | None,
) -> list[RestoreResult]:
    old_run, tag_id = plan.run, plan.run.tag_id or 0
    ids = [entry.selector_id for entry in plan.to_restore]
    tag_name = str(old_run.plan.get("tag_name") or "")
    audit(plan_line(run_id, context, tag_id, tag_name, ids, 1, action=RESTORE_ACTION, restores=old_run.run_id))
    existing: dict[int, Selector] = {}
    if plan.in_doubt:
        existing = await fetch_selector_records(client, tag_id)
    results: list[RestoreResult] = []
    cancelled = False  # not every `skipped` is: one still there after a deletion in doubt is skipped too
    for entry in plan.to_restore:
        if cancel is not None and cancel.is_set():
            cancelled = True
            results.append(RestoreResult(entry.selector_id, SKIPPED, entry.name, message="cancelled"))
            continue
        result = await _restore_one(client, tag_id, entry, plan, existing, run_id, audit)
        results.append(result)
        if on_result is not None:
            on_result(result)
    counts = Counter(result.outcome for result in results)
    stopped = "cancelled" if cancelled else None
    audit({"run": run_id, "event": "end", "counts": dict(counts), "stopped": stopped})
    return results


async def _restore_one(
    client: RestoreClient,
    tag_id: int,
    entry: SelectorEntry,
    plan: RestorePlan,
    existing: dict[int, Selector],
    run_id: str,
    audit: AuditSink,
) -> RestoreResult:
    """One old selector: checks that it is really gone and not already re-created, then intent, POST, outcome."""
    record = entry.record or {}
    old_id, name = entry.selector_id, str(record.get("name") or "")
    newcomer = ""  # another selector found under the old id: said in the outcome line
    if entry.in_doubt:
        there = await _still_there(client, tag_id, entry)
        if there is True or there is None:
            return RestoreResult(old_id, SKIPPED, name, message="its deletion is in doubt and it was not found gone")
        newcomer = there or ""
    if old_id in plan.in_doubt:
        twin = next((selector for selector in existing.values() if same_definition(selector, record)), None)
        if twin is not None:
            result = RestoreResult(old_id, RESTORED, name, twin.id, message="found: an earlier restore created it")
            audit(_outcome_line(run_id, tag_id, result))
            return result
    audit(intent_line(run_id, tag_id, old_id, record))
    try:
        created = await client.selectors.create(
            tag_id,
            name,
            record.get("seeds") or [],
            str(record.get("description") or ""),
            int(record.get("auto_certify") or 0),
        )
        was_disabled = record.get("disabled_at")
        by = record.get("disabled_by")
        note = ("re-created enabled; was disabled" + (f" by {by}" if by else "")) if was_disabled else ""
        if newcomer:
            note = "; ".join(part for part in (note, f"the deleted one is gone: {newcomer}, not ours") if part)
        result = RestoreResult(
            old_id,
            RESTORED,
            name,
            created.selector.id,
            status=created.status,
            request_id=created.request_id,
            message=note,
        )
    except ApiError as exc:  # sent and never answered is `no answer`: the selector may have been created
        taken = await _name_taken(client, tag_id, old_id, record, exc) if _is_name_taken(exc) else None
        if taken is not None:
            audit(_outcome_line(run_id, tag_id, taken))
            return taken
        judged = classify(old_id, exc)
        outcome = NO_ANSWER if judged.outcome is Outcome.NO_ANSWER else FAILED
        result = RestoreResult(
            old_id, outcome, name, None, status=judged.status, request_id=judged.request_id, message=judged.message
        )
    except Exception as exc:  # never a crashed run: the outcome says what happened
        result = RestoreResult(old_id, FAILED, name, message=one_line(f"{type(exc).__name__}: {exc}"))
    audit(_outcome_line(run_id, tag_id, result))
    return result
