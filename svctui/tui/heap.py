"""The dashboard's collector policy: the app installs it once as it mounts; no screen or widget calls it. Unlike the
rest of the runtime tuning (svctui/startup.py, set once at launch), it changes the collector while the app runs:
no setting made once at launch keeps both rss-100k and the stall rows within budget (docs/PERFORMANCE.md).

A full collection walks every container object alive with the event loop held, long over a large history or Clients
round. So automatic full passes are held while a round of the Clients screen or a history loads (HELD_GROUPS); once it
and a log read are done, what they left is frozen out of later scans (still freed by reference counting): a history or a
log each time, the Clients round the first time, the start-up heap once with the first page. Not after every load: a
frozen cycle that dies is never freed (a live round's), and a hold over back-to-back pages would keep every page's
cycles (each page leaves some: rss-100k needs full passes between pages).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.timer import Timer
from textual.worker import Worker

if TYPE_CHECKING:
    from textual.app import App

FULL_HELD = 1 << 30  # the oldest generation's threshold while held: young passes never set off a full one
HELD_GROUPS = ("load:fleet", "load:judge", "load:history")  # worker groups (svctui.tui.loading): no full pass meanwhile
KEPT_GROUPS = ("load:history", "log-read")  # loads whose result stays on screen (a history, a log): frozen after
FIRST_KEPT_GROUPS = ("load:judge",)  # frozen after the first only: the fleet's runs, kept by later live rounds
RELEASE_AFTER = 0.25  # seconds between two looks of the watch: it ends at the second in a row with no such load


def loads_running(workers: Iterable[Worker[Any]], groups: tuple[str, ...]) -> bool:
    """True when one of `workers` of one of `groups` (name prefixes) is still running."""
    return any(worker.is_running and worker.group.startswith(groups) for worker in workers)


class HeapPolicy:
    """Full collections held while a big load runs, what it left frozen once done (see the module docstring).

    The collector reports each pass of its middle generation (gc.callbacks, in any thread); the app's loop then
    looks at its workers, and a RELEASE_AFTER watch runs until none of HELD_GROUPS or KEPT_GROUPS runs."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._loop: asyncio.AbstractEventLoop | None = None
        self._full_threshold: int | None = None  # the oldest generation's threshold before the hold
        self._looking = False  # a look is scheduled on the loop
        self._watch: Timer | None = None  # resumed while a load of HELD_GROUPS or KEPT_GROUPS was seen
        self._busy = False  # such a load was running at the last look or check
        self._keep = False  # a KEPT_GROUPS load was seen: freeze when the watch ends
        self._settled = False  # the start-up heap was frozen
        self._kept_once: set[str] = set()  # the FIRST_KEPT_GROUPS whose first load was seen

    @property
    def holding(self) -> bool:
        """True while automatic full collections are held."""
        return self._full_threshold is not None

    @property
    def installed(self) -> bool:
        """True from the app's launch to its exit."""
        return self._observe in gc.callbacks

    def install(self) -> None:
        """Start observing the collector (the app, once, as it mounts: on its loop)."""
        self._loop = asyncio.get_running_loop()
        # made here, paused, in the app's context: a look runs in whatever context the collector reported from
        self._watch = self._app.set_interval(RELEASE_AFTER, self._check, name="heap-policy", pause=True)
        if self._observe not in gc.callbacks:
            gc.callbacks.append(self._observe)

    def uninstall(self) -> None:
        """Stop observing, full collections on again (the app is closing)."""
        if self._observe in gc.callbacks:
            gc.callbacks.remove(self._observe)
        if self._watch is not None:
            self._watch.stop()
            self._watch = None
        self._end(freeze=False)

    def settle(self) -> None:
        """The first page is on screen (the app's first_page_settled): the start-up heap frozen, once."""
        if not self._settled:
            self._freeze()

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        """gc.callbacks: after a pass over the middle generation (the step that leads to a full one), look."""
        if phase == "stop" and info["generation"] >= 1 and not self._looking and self._loop:
            self._looking = True
            try:
                self._loop.call_soon_threadsafe(self.look)
            except RuntimeError:  # the loop is closed
                self._looking = False

    def look(self) -> None:
        """On the loop: note a big load running (a held one holds full passes) and watch for its end."""
        self._looking = False
        if not self.installed:
            return
        workers = list(self._app.workers)
        held, kept = loads_running(workers, HELD_GROUPS), self._kept(workers)
        if held and not self.holding:
            young, middle, self._full_threshold = gc.get_threshold()
            gc.set_threshold(young, middle, FULL_HELD)
        if held or kept:
            self._busy = True
            if self._watch is not None:
                self._watch.resume()

    def _check(self) -> None:
        """Every RELEASE_AFTER while watching: done at the second check in a row that sees no big load running."""
        workers = list(self._app.workers)
        was_busy, self._busy = self._busy, loads_running(workers, HELD_GROUPS + KEPT_GROUPS)
        self._kept(workers)
        if not was_busy and not self._busy:
            self._end(freeze=True)
            if self._watch is not None:
                self._watch.pause()

    def _kept(self, workers: list[Worker[Any]]) -> bool:
        """Note a load to freeze after (KEPT_GROUPS, or the first of a FIRST_KEPT_GROUPS); True when one runs."""
        first = {group for group in FIRST_KEPT_GROUPS if loads_running(workers, (group,))} - self._kept_once
        self._kept_once |= first
        kept = bool(first) or loads_running(workers, KEPT_GROUPS)
        self._keep = self._keep or kept
        return kept

    def _end(self, freeze: bool) -> None:
        """The big loads are done: with `freeze`, what a kept one left frozen; full passes on again."""
        if freeze and self._keep:
            self._freeze()
        self._keep = False
        if self._full_threshold is not None:
            young, middle, _held = gc.get_threshold()
            gc.set_threshold(young, middle, self._full_threshold)
            self._full_threshold = None

    def _freeze(self) -> None:
        self._keep, self._settled = False, True
        gc.collect(1)
        gc.freeze()
