"""The morning check as a pure function: one client's verdict from its recent runs and its last check-in.

Rules, in one place (the Clients screen and `svctui health` both use them):
- A run is **not OK** when its status is failed, timed out or partially complete (canceled, running and the
  analysis states are not failures). Runs count "in the window" when their time (`task_time`) is at or after
  `now - window` (default 24 h).
- **failing**: at least one not-OK run in the window. **drops**: at least one run in the window with a drop (the
  drop rule of `svctui.triage`). **stale**: the client's last check-in is older than `stale_after` (default
  24 h); unknown when the server does not say (a server without `/api/v2/clients`). **never ran**: no
  completed run at all.
- Only finished runs count: a run still ready or running (which a client's `completed-jobs` lists and the fleet's
  `jobs/finished` does not) is no last run, no strip glyph, no run in the window; so the last run and the strip are
  the same whichever read and whatever window brought them.
- The verdict is the worst that applies, in this order: failing, stale, drops, never ran, ok. `SEVERITY` ranks
  them so a table sorted by it puts the worst first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from svctui.api.fleet_models import Run
from svctui.api.models import IN_PROGRESS_STATUSES, NOT_OK_STATUSES, TaskStatus, status_label
from svctui.triage.drops import Drop
from svctui.triage.summary import task_order_key, task_time

DEFAULT_WINDOW = timedelta(hours=24)
DEFAULT_STALE_AFTER = timedelta(hours=24)
STRIP_RUNS = 20


# One character per status for the run strip, told apart without colour: `.` complete, `F` failed, ...
RUN_STRIP_GLYPHS: dict[int, str] = {
    TaskStatus.INVALID: "?",
    TaskStatus.READY: "r",
    TaskStatus.RUNNING: "R",
    TaskStatus.COMPLETE: ".",
    TaskStatus.CANCELED: "C",
    TaskStatus.TIMED_OUT: "T",
    TaskStatus.FAILED: "F",
    TaskStatus.INGESTING: "I",
    TaskStatus.ANALYZING: "A",
    TaskStatus.PARTIALLY_COMPLETE: "P",
}


def strip_text(statuses: Iterable[int]) -> str:
    """The run strip as text, oldest first: `....F..P.` (`?` for a code svctui does not know)."""
    return "".join(RUN_STRIP_GLYPHS.get(status, "?") for status in statuses)


def strip_legend(statuses: Iterable[int]) -> str:
    """What the glyphs of a strip mean, each once in the order they first appear: `. complete · F failed`."""
    seen = dict.fromkeys(statuses)
    return " · ".join(f"{RUN_STRIP_GLYPHS.get(status, '?')} {status_label(status).lower()}" for status in seen)


class Verdict(StrEnum):
    """A client's health, worst first."""

    FAILING = "failing"
    STALE = "stale"
    DROPS = "drops"
    NEVER_RAN = "never ran"
    OK = "ok"


SEVERITY: dict[Verdict, int] = {verdict: rank for rank, verdict in enumerate(reversed(Verdict))}


class Problem(StrEnum):
    """What `--fail-on` can name: each verdict but ok, by its flag."""

    NOT_OK = "not-ok"
    DROPS = "drops"
    STALE = "stale"
    NEVER_RAN = "never-ran"


def is_not_ok(task: Run) -> bool:
    """True for a failed, timed-out or partially complete run."""
    return task.status in NOT_OK_STATUSES


@dataclass(frozen=True)
class ClientHealth:
    """One client's morning check: the verdict and the numbers behind it."""

    client_id: str
    name: str
    verdict: Verdict
    runs_in_window: int = 0
    not_ok_in_window: int = 0
    drops_in_window: int = 0  # runs in the window with at least one drop
    last_run: Run | None = None
    last_checkin: datetime | None = None
    stale: bool | None = None  # None: the server does not say when the client last checked in
    strip: tuple[int, ...] = ()  # statuses of the last STRIP_RUNS runs, oldest first
    last_failures: tuple[Run, ...] = field(default_factory=tuple)  # not-OK runs in the window, newest first
    window_drops: tuple[Drop, ...] = field(default_factory=tuple)  # the drops of runs in the window, newest run first

    @property
    def problems(self) -> frozenset[Problem]:
        """Every flag that applies (the verdict is only the worst)."""
        flags = set()
        if self.not_ok_in_window:
            flags.add(Problem.NOT_OK)
        if self.drops_in_window:
            flags.add(Problem.DROPS)
        if self.stale:
            flags.add(Problem.STALE)
        if self.last_run is None:
            flags.add(Problem.NEVER_RAN)
        return frozenset(flags)

    @property
    def severity(self) -> int:
        """Higher is worse (for sorting worst first)."""
        return SEVERITY[self.verdict]

    @property
    def verdict_run_id(self) -> int | None:
        """The run the verdict comes from: the newest not-OK run in the window (failing), the newest run with a drop
        (drops), else the last run (stale, ok); None for a client that never ran."""
        if self.verdict is Verdict.FAILING and self.last_failures:
            return self.last_failures[0].id
        if self.verdict is Verdict.DROPS and self.window_drops:
            return self.window_drops[0].task_id
        return self.last_run.id if self.last_run is not None else None


def in_progress(task: Run) -> bool:
    """Whether the run has not finished yet (ready or running): not a run the morning check judges."""
    return task.status in IN_PROGRESS_STATUSES


def assess(
    client_id: str,
    name: str,
    tasks: Iterable[Run],
    drops: Iterable[Drop],
    now: datetime,
    *,
    window: timedelta = DEFAULT_WINDOW,
    stale_after: timedelta = DEFAULT_STALE_AFTER,
    last_checkin: datetime | None = None,
    ordered: bool = False,
) -> ClientHealth:
    """The verdict for one client from its runs (any order; `ordered`: chronological already), the drops found
    among them, and its check-in."""
    runs = [task for task in (tasks if ordered else sorted(tasks, key=task_order_key)) if not in_progress(task)]
    since = now - window
    recent = [task for task in runs if (moment := task_time(task)) is not None and moment >= since]
    drops = list(drops)
    flagged = {drop.task_id for drop in drops}
    not_ok = [task for task in recent if is_not_ok(task)]
    with_drops = [task for task in recent if task.id in flagged]
    stale = None if last_checkin is None else now - last_checkin > stale_after
    if not_ok:
        verdict = Verdict.FAILING
    elif stale:
        verdict = Verdict.STALE
    elif with_drops:
        verdict = Verdict.DROPS
    elif not runs:
        verdict = Verdict.NEVER_RAN
    else:
        verdict = Verdict.OK
    return ClientHealth(
        client_id=client_id,
        name=name,
        verdict=verdict,
        runs_in_window=len(recent),
        not_ok_in_window=len(not_ok),
        drops_in_window=len(with_drops),
        last_run=runs[-1] if runs else None,
        last_checkin=last_checkin,
        stale=stale,
        strip=tuple(task.status for task in runs[-STRIP_RUNS:]),
        last_failures=tuple(reversed(not_ok)),
        window_drops=tuple(
            drop
            for task in reversed(with_drops)
            for drop in sorted(drops, key=lambda d: d.fraction, reverse=True)
            if drop.task_id == task.id
        ),
    )


def age_text(moment: datetime | None, now: datetime) -> str:
    """How long ago: `35m ago`, `2d ago`, `now`; `-` when unknown."""
    if moment is None:
        return "-"
    seconds = max(int((now - moment).total_seconds()), 0)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return "now"


def worst_first(healths: Sequence[ClientHealth]) -> list[ClientHealth]:
    """Sorted by severity (worst first), then by name."""
    return sorted(healths, key=lambda health: (-health.severity, health.name.lower(), health.client_id))


def unhealthy(healths: Iterable[ClientHealth], fail_on: Iterable[Problem]) -> list[ClientHealth]:
    """The clients with at least one of the `fail_on` problems."""
    wanted = frozenset(fail_on)
    return [health for health in healths if health.problems & wanted]
