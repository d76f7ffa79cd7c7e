"""Reading the audit log back as runs: what each run planned, intended, and what the server answered (docs/AUDIT.md)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from svctui.store.audit import audit_path, open_audit_for_reading
from svctui.store.errors import StoreError

# outcomes after which a selector needs nothing more: it is gone, or the server said it never will be deleted
SETTLED_OUTCOMES = frozenset({"deleted", "already gone", "refused: default selector", "not part of tag", "restored"})
LEGACY_RUN_ID = "legacy"
# No line svctui writes comes near these (a plan of 10,000 ids is ~80 KB; an intent's record holds seeds the server
# takes in a 1 MiB body): a longer line, or a plan with more ids, is foreign and skipped like a torn one.
MAX_LINE_BYTES = 4 * 1024 * 1024
MAX_LINE_IDS = 100_000


@dataclass
class SelectorEntry:
    """One selector id of a run: its record from the intent line, and the last outcome the server gave."""

    selector_id: int
    record: dict[str, Any] | None = None
    intended: bool = False
    outcome: str | None = None
    status: int | None = None
    request_id: str | None = None
    message: str = ""
    new_id: int | None = None
    settled_by: str | None = None  # another run of the deletion (a resume, or the run resumed) that settled this id
    planned: dict[str, Any] | None = None  # the first record the deletion kept of it (the run resumed, or this one)

    @property
    def name(self) -> str:
        """The selector's name as recorded, or '' when the run never saw it."""
        return str(self.record.get("name") or "") if self.record else ""

    @property
    def settled(self) -> bool:
        """True when nothing more needs doing for this id."""
        return self.outcome in SETTLED_OUTCOMES

    @property
    def in_doubt(self) -> bool:
        """True when a request was sent (intent on disk) and no answer of the API was recorded."""
        return self.intended and (self.outcome is None or self.outcome == "no answer")


# the order a run's counts are told in: what it did, what the server refused, what went wrong, what is left
COUNTS_ORDER = (
    "deleted",
    "restored",
    "already gone",
    "refused: default selector",
    "not part of tag",
    "failed: authentication",
    "failed",
    "no answer",
    "in doubt",
    "skipped",
    "not attempted",
)


def run_counts_text(counts: Counter[str]) -> str:
    """`300 deleted, 2 refused: default selector` or `3 restored, 1 failed`: a run's counts per outcome.

    Every outcome the log holds is counted — a deletion's, a restore's, `in doubt`, `not attempted` — in
    COUNTS_ORDER (any other after them, largest first), so a run never reads `nothing yet` while it has outcomes.
    """
    known = [(outcome, counts[outcome]) for outcome in COUNTS_ORDER]
    other = [(outcome, count) for outcome, count in counts.most_common() if outcome not in COUNTS_ORDER]
    return ", ".join(f"{count:,} {outcome}" for outcome, count in known + other if count) or "nothing yet"


INTERRUPTED = "INTERRUPTED"
FINISHED = "finished"


@dataclass
class AuditRun:
    """One run: its plan line, the selectors it touched, and its end line (None while unfinished)."""

    run_id: str
    plan: dict[str, Any] = field(default_factory=dict)
    entries: dict[int, SelectorEntry] = field(default_factory=dict)
    end: dict[str, Any] | None = None
    resolved_by: str | None = None  # a later run that resumed this one and finished

    @property
    def resumes(self) -> str | None:
        """The run this one resumed (its plan's `resumes`), None when none (or the line holds no run id)."""
        parent = self.plan.get("resumes")
        return parent if isinstance(parent, str) and parent else None

    @property
    def action(self) -> str:
        """`selectors.delete` or `selectors.restore`."""
        return str(self.plan.get("action") or "selectors.delete")

    @property
    def started(self) -> str:
        """When the run was planned (ISO time), or '' for a legacy run."""
        return str(self.plan.get("ts") or "")

    @property
    def tag_id(self) -> int | None:
        """The tag the run worked on."""
        value = self.plan.get("tag_id")
        return value if isinstance(value, int) else None

    @property
    def counts(self) -> Counter[str]:
        """Outcomes per selector: the end line's counts when the run finished, else what the lines say so far."""
        if self.end is not None and isinstance(self.end.get("counts"), dict):
            return Counter(
                {str(key): int(value) for key, value in self.end["counts"].items() if isinstance(value, int)}
            )
        counts: Counter[str] = Counter()
        for entry in self.entries.values():
            counts["in doubt" if entry.in_doubt else (entry.outcome or "not attempted")] += 1
        return counts

    @property
    def interrupted(self) -> bool:
        """A plan with no end, or an intent with no outcome — unless a later run resumed it to the end."""
        if self.run_id == LEGACY_RUN_ID or self.resolved_by is not None:
            return False
        return self.end is None or any(entry.in_doubt for entry in self.entries.values())

    @property
    def state(self) -> str:
        """`resumed by RUN`, INTERRUPTED, `stopped: why` or `finished`: the words of `svctui audit list` and the
        dashboard's Audit tab alike."""
        if self.resolved_by is not None:
            return f"resumed by {self.resolved_by}"
        stopped = self.end.get("stopped") if self.end is not None else None
        if stopped:  # an end line says why it stopped, even with ids left in doubt (they are still resumable)
            return f"stopped: {stopped}"
        return INTERRUPTED if self.interrupted else FINISHED

    @property
    def counts_text(self) -> str:
        """The run's counts in words (`run_counts_text`): what `svctui audit list` and the Audit tab both show.

        A run that ended with no outcomes says what happened (`nothing yet` is for a run that has not ended):
        stopped before any request, planned no selectors, or finished before sending any request."""
        counts = self.counts
        if counts or self.end is None:
            return run_counts_text(counts)
        stopped = self.end.get("stopped")
        if stopped:
            return f"no outcomes: stopped ({stopped}) before any request"
        if not self.plan.get("ids"):
            return "no outcomes: the run planned no selectors"
        return "no outcomes: the run finished before sending any request"

    def unsettled_ids(self) -> list[int]:
        """Planned ids that may still exist (no settled outcome here nor in another run of the deletion: the run it
        resumed, the runs that resumed it), in plan order: what a resume re-checks."""
        return [
            selector_id for selector_id, entry in self.entries.items() if not entry.settled and entry.settled_by is None
        ]


@dataclass
class AuditLog:
    """Every run in the log, in the order they started, and how many lines could not be read."""

    runs: list[AuditRun]
    unreadable_lines: int = 0

    def get(self, run_id: str) -> AuditRun:
        """The run with this id (a unique prefix is enough, or a unique end such as the `7a2f` the dashboard shows);
        StoreError when there is none or it is ambiguous."""
        exact = [run for run in self.runs if run.run_id == run_id]
        found = exact or [run for run in self.runs if run_id and run.run_id.startswith(run_id)]
        found = found or [run for run in self.runs if run_id and run.run_id.endswith(run_id)]
        if len(found) == 1:
            return found[0]
        shown = run_id if len(run_id) <= 40 else run_id[:37] + "…"
        if not found:
            raise StoreError(f"no run {shown!r} in the audit log (svctui audit list shows the runs)")
        raise StoreError(f"{shown!r} matches {len(found)} runs; give more of the run id")

    def names(self, run_id: str) -> dict[int, str]:
        """Selector names the family of `run_id` recorded (a resume's `already gone` rows have no intent of their own:
        the run it resumed kept the record)."""
        found: dict[int, str] = {}
        for run in self.family(run_id):
            for selector_id, entry in run.entries.items():
                if entry.name:
                    found.setdefault(selector_id, entry.name)
        return found

    def family(self, run_id: str) -> list[AuditRun]:
        """The deletion `run_id` belongs to, told in several runs: the run it resumed (and that one's), the runs that
        resumed it (and theirs), and itself, in the order they started. A selector is deleted once in a family."""
        parent_of = {run.run_id: run.resumes for run in self.runs}
        root, seen = run_id, {run_id}
        while (parent := parent_of.get(root)) in parent_of and parent is not None and parent not in seen:
            root = parent
            seen.add(root)
        children: dict[str, list[str]] = {}
        for child, parent in parent_of.items():
            if parent is not None:
                children.setdefault(parent, []).append(child)
        members: set[str] = set()
        todo = [root]
        while todo:
            if (current := todo.pop()) not in members:
                members.add(current)
                todo.extend(children.get(current, ()))
        return [run for run in self.runs if run.run_id in members]

    def last_interrupted(self, action: str = "selectors.delete") -> AuditRun | None:
        """The newest interrupted run of `action`, if any."""
        for run in reversed(self.runs):
            if run.action == action and run.interrupted:
                return run
        return None


def _as_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _apply(run: AuditRun, line: dict[str, Any]) -> None:
    event = line.get("event")
    if event == "plan":
        run.plan = line
        for selector_id in line.get("ids") or []:
            if _as_int(selector_id) is not None:
                run.entries.setdefault(selector_id, SelectorEntry(selector_id))
        return
    if event == "end":
        run.end = line
        return
    selector_id = _as_int(line.get("selector_id"))
    if selector_id is None:
        return
    entry = run.entries.setdefault(selector_id, SelectorEntry(selector_id))
    if event == "intent":
        entry.intended = True
        record = line.get("selector")
        entry.record = record if isinstance(record, dict) else entry.record
        entry.outcome = None  # a new attempt: the earlier outcome (if any) is superseded
    elif event == "outcome":
        entry.outcome = str(line.get("outcome") or "")
        entry.status = _as_int(line.get("status"))
        entry.request_id = line.get("request_id") if isinstance(line.get("request_id"), str) else None
        entry.message = str(line.get("message") or "")
        entry.new_id = _as_int(line.get("new_id"))


def _legacy(run: AuditRun, line: dict[str, Any]) -> None:
    """A line from before run ids: one outcome per line (keys `selector`, `outcome`, `tag`)."""
    selector_id = _as_int(line.get("selector"))
    if selector_id is None:
        return
    entry = run.entries.setdefault(selector_id, SelectorEntry(selector_id, intended=True))
    entry.outcome = str(line.get("outcome") or "")
    entry.status = _as_int(line.get("status"))
    entry.message = str(line.get("message") or "")
    run.plan.setdefault("ts", line.get("time") or line.get("ts"))
    run.plan.setdefault("profile", line.get("profile"))
    run.plan.setdefault("server", line.get("base_url"))
    run.plan.setdefault("tag_id", _as_int(line.get("tag")))


def _foreign(line: dict[str, Any]) -> bool:
    """A line svctui never writes, though it is a JSON object: a plan whose ids are not a list or more than a run
    may hold (a million ids would take minutes to show), fields of the wrong type where the readers index them."""
    if line.get("event") == "plan":
        ids = line.get("ids")
        if ids is not None and (not isinstance(ids, list) or len(ids) > MAX_LINE_IDS):
            return True
    record = line.get("selector")
    return line.get("event") == "intent" and record is not None and not isinstance(record, dict)


def parse_audit(lines: Iterable[bytes | None]) -> AuditLog:
    """Group audit lines into runs; torn, oversized (None) or foreign lines are counted and skipped, never fatal."""
    runs: dict[str, AuditRun] = {}
    unreadable = 0
    for raw in lines:
        if raw is not None and not raw.strip():
            continue
        try:
            line = json.loads(raw) if raw is not None else None
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: a deeply nested foreign line
            line = None
        if not isinstance(line, dict) or _foreign(line):
            unreadable += 1
            continue
        run_id = line.get("run")
        try:
            if isinstance(run_id, str) and run_id:
                _apply(runs.setdefault(run_id, AuditRun(run_id)), line)
            elif "selector" in line and "outcome" in line:
                _legacy(runs.setdefault(LEGACY_RUN_ID, AuditRun(LEGACY_RUN_ID)), line)
            else:
                unreadable += 1
        except (TypeError, ValueError, AttributeError, RecursionError):  # a field of a shape no writer gives
            unreadable += 1
    ordered = sorted(runs.values(), key=lambda run: (run.run_id != LEGACY_RUN_ID, run.started, run.run_id))
    _link_resumes(ordered)
    return AuditLog(ordered, unreadable)


def _link_resumes(ordered: list[AuditRun]) -> None:
    """Read a deletion and its resumes as one: each id settled by any of its runs is settled for all of them (a
    resume of a killed resume must not take up again what the chain finished), each entry knows the first record
    the deletion kept, and a run is resolved by the run that finished what it left."""
    by_id = {run.run_id: run for run in ordered}
    deletions = [run for run in ordered if run.action == "selectors.delete" and run.run_id != LEGACY_RUN_ID]
    settler: dict[tuple[str, int], str] = {}  # (root run, selector id) -> the run that settled it
    first_record: dict[tuple[str, int], dict[str, Any]] = {}
    root_of = {run.run_id: _root(run, by_id) for run in deletions}
    for run in deletions:  # in the order they started
        root = root_of[run.run_id]
        for selector_id, entry in run.entries.items():
            if entry.settled:
                settler.setdefault((root, selector_id), run.run_id)
            if entry.record is not None:
                first_record.setdefault((root, selector_id), entry.record)
    for run in deletions:
        root = root_of[run.run_id]
        for selector_id, entry in run.entries.items():
            entry.planned = first_record.get((root, selector_id))
            if not entry.settled:
                entry.settled_by = settler.get((root, selector_id))
    for run in deletions:  # a run resumed by a run that finished (its own unsettled ids may remain: resume that one)
        parent = by_id.get(run.resumes or "")
        if parent is not None and run.end is not None and not run.interrupted:
            parent.resolved_by = run.run_id
    for run in deletions:  # everything it left was settled by later runs of the deletion (a killed run, resumed)
        left = [entry for entry in run.entries.values() if not entry.settled]
        if run.resolved_by is None and left and all(entry.settled_by for entry in left):
            run.resolved_by = max((entry.settled_by or "" for entry in left), key=lambda name: by_id[name].started)
    for run in reversed(deletions):  # resumed by a run that was resolved in turn: resolved by the one that finished
        child = next((other for other in deletions if other.resumes == run.run_id and other.resolved_by), None)
        if run.resolved_by is None and child is not None:
            run.resolved_by = child.resolved_by


def _root(run: AuditRun, by_id: dict[str, AuditRun]) -> str:
    """The first run of the deletion `run` belongs to (following `resumes` back; a loop stops where it closes)."""
    seen = {run.run_id}
    while (parent := by_id.get(run.resumes or "")) is not None and parent.run_id not in seen:
        seen.add(parent.run_id)
        run = parent
    return run.run_id


def bounded_lines(handle: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
    """The lines of `handle`, each read up to `limit` bytes: a longer line is skipped to its end, unread, and
    given as None (counted as unreadable), so no line of any size costs more than `limit` of memory."""
    while line := handle.readline(limit + 1):
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        while (rest := handle.readline(limit)) and not rest.endswith(b"\n"):
            pass
        yield None


def read_audit(path: Path | None = None) -> AuditLog:
    """Read the audit log (an absent log has no runs); StoreError when it exists but can't be read, or when its
    folder or the log itself may be changed by someone else (`check_state_dir`)."""
    path = path or audit_path()
    try:
        with open_audit_for_reading(path) as handle:  # a regular file of this user's alone, or a StoreError
            return parse_audit(bounded_lines(handle))
    except FileNotFoundError:
        return AuditLog([])
    except OSError as exc:
        raise StoreError(f"cannot read the audit log '{path}': {exc.strerror or exc}") from None
