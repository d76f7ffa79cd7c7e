"""The dashboard's collector and malloc policy: the app installs it once at launch; no screen or widget calls it.

A full collection walks every container object alive with the event loop held (hundreds of ms over a 50,000-task
history or a 1,000-client round), so while a load runs (a worker of a `load:` group, or the log read) automatic
full passes are held, and on again once none has run for RELEASE_AFTER seconds. Then, the first time and after a
load whose result stays on screen (KEPT_GROUPS: a history, a log), the young generations are collected and every
object alive is frozen out of later scans (still freed by reference counting; not after every load: a frozen
cycle that dies is never freed, rss-100k). One malloc arena: pages are validated in worker threads, and memory
freed in one thread's arena was not reused by the next page allocated in another. The rows: docs/PERFORMANCE.md.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual.timer import Timer
from textual.worker import Worker

if TYPE_CHECKING:
    from textual.app import App

M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
FULL_HELD = 1 << 30  # the oldest generation's threshold while held: young passes never set off a full one
LOAD_GROUPS = ("load:", "log-read")  # the worker groups whose results are big: svctui.tui.loading, the log tab
KEPT_GROUPS = ("load:history", "log-read")  # loads whose result stays on screen: the tasks screen's history, a log
RELEASE_AFTER = 0.25  # seconds between two looks of the hold's watch: it ends at the second in a row with no load
_arenas_limited = False


def loads_running(workers: Iterable[Worker[Any]], groups: tuple[str, ...] = LOAD_GROUPS) -> bool:
    """True when one of `workers` of one of `groups` (name prefixes) is still running."""
    return any(worker.is_running and worker.group.startswith(groups) for worker in workers)


class HeapPolicy:
    """Full collections held while loads run, what they left frozen once they are done (see the module docstring).

    The collector reports each pass of its middle generation (gc.callbacks, in any thread); the app's loop then
    looks at its workers: one loading holds full passes, and a RELEASE_AFTER timer lets go once none runs."""

    def __init__(self, app: App[Any]) -> None:
        self._app = app
        self._loop: asyncio.AbstractEventLoop | None = None
        self._full_threshold: int | None = None  # the oldest generation's threshold before the hold
        self._looking = False  # a look is scheduled on the loop
        self._watch: Timer | None = None
        self._busy = False  # a load was running at the last look or check
        self._keep = True  # freeze at the next release: the first one, or a KEPT_GROUPS load was seen

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
        if self._observe not in gc.callbacks:
            gc.callbacks.append(self._observe)

    def uninstall(self) -> None:
        """Stop observing, full collections on again (the app is closing)."""
        if self._observe in gc.callbacks:
            gc.callbacks.remove(self._observe)
        if self._watch is not None:
            self._watch.stop()
            self._watch = None
        self._release(settle=False)

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        """gc.callbacks: after a pass over the middle generation (the step that leads to a full one), look."""
        if phase == "stop" and info["generation"] >= 1 and not self._looking and self._loop:
            self._looking = True
            try:
                self._loop.call_soon_threadsafe(self.look)
            except RuntimeError:  # the loop is closed
                self._looking = False

    def look(self) -> None:
        """On the loop: a load running holds full passes (and watches for the end of the loads)."""
        self._looking = False
        workers = list(self._app.workers)
        self._keep = self._keep or loads_running(workers, KEPT_GROUPS)
        if self.holding or not self.installed or not loads_running(workers):
            return
        young, middle, self._full_threshold = gc.get_threshold()
        gc.set_threshold(young, middle, FULL_HELD)
        self._busy = True
        if self._watch is None:
            self._watch = self._app.set_interval(RELEASE_AFTER, self._check, name="heap-policy")
        else:
            self._watch.resume()

    def _check(self) -> None:
        """While held, every RELEASE_AFTER: let go at the second check in a row that sees no load running."""
        workers = list(self._app.workers)
        running, self._busy = self._busy, loads_running(workers)
        self._keep = self._keep or loads_running(workers, KEPT_GROUPS)
        if not running and not self._busy:
            self._release(settle=True)
            if self._watch is not None:
                self._watch.pause()

    def _release(self, settle: bool) -> None:
        if self._full_threshold is None:
            return
        if settle and self._keep:  # the start-up heap, a history, a log: out of later full passes
            self._keep = False
            gc.collect(1)
            gc.freeze()
        young, middle, _held = gc.get_threshold()
        gc.set_threshold(young, middle, self._full_threshold)
        self._full_threshold = None


def limit_malloc_arenas(arenas: int = 1) -> bool:
    """Once per process, on glibc: at most `arenas` malloc arenas (see the module docstring); True when set."""
    global _arenas_limited
    if _arenas_limited or not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    _arenas_limited = True
    try:
        mallopt = ctypes.CDLL(None).mallopt  # glibc only (musl has no mallopt)
    except (AttributeError, OSError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))
