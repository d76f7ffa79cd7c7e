"""Live refresh: every N seconds the list on screen reloads itself, as k9s does.

The app owns one `LiveRefresh` (interval from `--refresh`, else `refresh_seconds` in the settings; the palette
toggles it). Once a second its timer calls `tick()`, which acts on the screen on show only (the base screen of
the current mode) and never while a modal is open, a deletion or restore runs, or that screen still has a load in
flight; so there is never more than one refresh in flight per screen. A screen that takes part implements
`Refreshable`; what it shows about it (`updated 12 s ago`, `stale: … · r to retry`) comes from its `Freshness`.

`NotOkWatch` remembers, per client, the not-OK runs already seen, so a refresh can say "new failure" once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from svctui.text import and_more
from svctui.tui import status_line as status
from svctui.tui.status_line import StatusPart

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.timer import Timer

    from svctui.api.fleet_models import Run
    from svctui.tui.app import SvcTuiApp

DEFAULT_SECONDS = 30  # what the palette turns on when neither --refresh nor the settings gave an interval
TICK_SECONDS = 1.0  # how often the status line's age ticks and the due check runs
FLASH_SECONDS = 2.0  # how long rows that changed in a refresh stay highlighted


class Tick(StrEnum):
    """What one tick did (tests and the log read it)."""

    OFF = "off"
    NOT_A_LIST = "not a list screen"
    MODAL = "a modal is open"
    DELETION = "a deletion runs"
    BUSY = "a load is in flight"
    NOT_DUE = "not due"
    REFRESHED = "refreshed"


@runtime_checkable
class Refreshable(Protocol):
    """A screen that live refresh can reload."""

    @property
    def freshness(self) -> Freshness:
        """When its rows last arrived, when its last load started, whether they are stale."""

    def refresh_busy(self) -> bool:
        """True while one of its loads is in flight."""

    def live_refresh(self) -> None:
        """Reload what is on screen (the same query), keeping cursor, marks, scroll and detail."""

    def show_freshness(self) -> None:
        """Redraw the status line (the age ticks)."""


def age_label(seconds: float) -> str:
    """`12 s`, `3 min`, `2 h` (whole units, rounded down)."""
    whole = max(int(seconds), 0)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min"
    return f"{whole // 3600} h"


@dataclass
class Freshness:
    """A screen's refresh state: when its rows arrived, when its last load started, the live load's number and
    why its rows are stale ("" when they are not)."""

    updated_at: float | None = None
    started_at: float | None = None
    live_seq: int | None = None
    stale: str = ""

    def stale_parts(self) -> list[str]:
        """`stale: <why>`, `r to retry` while the rows on screen are stale (the status line starts with them); a
        stopped demo server is not offered `r` (nothing answers on its port any more)."""
        from svctui.tui.widgets.state_panel import DEMO_STOPPED

        if not self.stale:
            return []
        stale: list[str] = [StatusPart(f"stale: {self.stale}", status.KEEP_ALWAYS)]
        return stale if self.stale == DEMO_STOPPED else [*stale, StatusPart("r to retry", status.RETRY)]

    def age_parts(self, now: float, seconds: int) -> list[str]:
        """`updated 12 s ago`, `live every 30 s` while live refresh is on (the age alone while stale)."""
        parts: list[str] = []
        if self.updated_at is not None and (seconds > 0 or self.stale):
            parts.append(StatusPart(f"updated {age_label(now - self.updated_at)} ago", status.AGE))
        if seconds > 0:
            parts.append(StatusPart(f"live every {age_label(seconds)}", status.LIVE))
        return parts

    def mark(self, reason: str, *shown: DOMNode) -> None:
        """Rows stale for `reason` ("" when fresh again): the widgets `shown` (table, status line) dim with it."""
        self.stale = reason
        for widget in shown:
            widget.set_class(bool(reason), "-stale")


@dataclass
class NotOkWatch:
    """The not-OK runs seen so far, per scope (a client): a refresh announces only those it has not seen.

    The first look at a scope is the baseline (nothing is new); a run counts as new when it is not OK and its id
    was not seen not OK before (a run that turned failed counts too).
    """

    seen: dict[str, set[int]] = field(default_factory=dict)

    def new_failures(self, scope: str, tasks: Iterable[Run], *, announce: bool = True) -> list[Run]:
        """Remember the not-OK runs among `tasks`; those not seen before (none on the first look, or unless
        `announce`)."""
        from svctui.triage.health import is_not_ok  # pydantic: not before the first frame (the app imports this)

        baseline = scope not in self.seen
        known = self.seen.setdefault(scope, set())
        fresh = [task for task in tasks if is_not_ok(task) and task.id not in known]
        known.update(task.id for task in fresh)
        return [] if baseline or not announce else fresh

    def clear(self) -> None:
        """Forget everything (another profile)."""
        self.seen.clear()


def failure_message(client: str, tasks: Sequence[Run]) -> str:
    """`New not-OK run of DC01: task 812 Failed — ldap bind failed` (one line per run, at most 3)."""
    from svctui.api.models import status_label

    lines = []
    for task in tasks[:3]:
        line = f"task {task.id} {status_label(task.status)}"
        if task.status_message:
            line += f" — {task.status_message}"
        lines.append(line)
    if len(tasks) > 3:
        lines.append(and_more(len(tasks), 3))
    head = "New not-OK run" if len(tasks) == 1 else f"{len(tasks)} new not-OK runs"
    return f"{head} of {client}:\n" + "\n".join(lines)


def announce_failures(app: SvcTuiApp, client: str, tasks: Sequence[Run]) -> None:
    """One notification for the new not-OK runs of `client` (and the bell when the settings ask for it)."""
    if not tasks:
        return
    app.notify(failure_message(client, tasks), title="Live refresh", severity="error", timeout=10, markup=False)
    if app.settings is not None and app.settings.bell_on_failure:
        app.bell()


class LiveRefresh:
    """The app's refresh timer: `seconds` (0 = off), a tick per second, the screen on show refreshed when due."""

    def __init__(self, app: SvcTuiApp, seconds: int, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.seconds = seconds
        self.chosen = seconds or DEFAULT_SECONDS  # what the palette's toggle turns back on
        self.monotonic = monotonic
        self.failures = NotOkWatch()  # shared by the screens: a run announced on one is not announced again
        self._timer: Timer | None = None

    def now(self) -> float:
        """The monotonic clock live refresh measures with (tests replace it)."""
        return self.monotonic()

    @property
    def on(self) -> bool:
        """True while live refresh is on."""
        return self.seconds > 0

    def start(self) -> None:
        """Run the tick timer while live refresh is on (call on mount)."""
        if self.on and self._timer is None:
            self._timer = self.app.set_interval(TICK_SECONDS, self.tick, name="live-refresh")

    def set_seconds(self, seconds: int) -> None:
        """Refresh every `seconds` from now on (0 stops it); the status line says so at once."""
        self.seconds = max(seconds, 0)
        if seconds > 0:
            self.chosen = seconds
            self.start()
        elif self._timer is not None:
            self._timer.stop()
            self._timer = None
        screen = self.current()
        if screen is not None:
            screen.show_freshness()

    def toggle(self) -> None:
        """Turn live refresh off, or back on at the interval chosen last (DEFAULT_SECONDS at first); say which."""
        self.set_seconds(0 if self.on else self.chosen)
        state = f"on: every {age_label(self.seconds)}" if self.on else "off"
        self.app.notify(f"Live refresh {state}.", timeout=3)

    def current(self) -> Refreshable | None:
        """The screen on show (the base of the current mode's stack, even under a modal) when it takes part and
        is built: a screen opened for the first time is on the stack before its widgets are mounted."""
        stack = self.app.screen_stack
        base = stack[0] if stack else None
        return base if isinstance(base, Refreshable) and base.is_mounted else None

    def modal_open(self) -> bool:
        """True while anything is pushed over the base screen of the current mode (a modal, a picker, help)."""
        return len(self.app.screen_stack) > 1

    def tick(self) -> Tick:
        """Tick the age on screen; refresh the screen on show when it is due and nothing stands in the way."""
        screen = self.current()
        if screen is None:
            return Tick.NOT_A_LIST
        screen.show_freshness()
        if not self.on:
            return Tick.OFF
        if self.modal_open():
            return Tick.MODAL
        if self.app.quit_refusals:
            return Tick.DELETION
        if screen.refresh_busy():
            return Tick.BUSY
        started = screen.freshness.started_at
        if started is not None and self.now() - started < self.seconds:
            return Tick.NOT_DUE
        screen.live_refresh()
        return Tick.REFRESHED
