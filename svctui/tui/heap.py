"""The dashboard's garbage-collector and malloc settings (the rows that need each: docs/PERFORMANCE.md).

A full collection walks every container object alive with the event loop held (hundreds of ms over a 50,000-task
history), so: `keep_out_of_collections()` freezes a history page's objects (still freed by reference counting);
`settle_once()` freezes the start-up heap once the first page is shown; `pause_collections()` keeps a collection
out of the slice that applies and draws a page; `hold_full_collections()` holds only the full passes for a longer
stretch (the Clients screen's round). `limit_malloc_arenas()` asks glibc for one arena: pages are validated in
worker threads, and memory freed in one thread's arena was not reused by the next page allocated in another.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
from collections.abc import Callable

M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
_settled = False
_pauses = 0  # pauses not resumed yet; collections are on again when it falls to 0
_arenas_limited = False
_full_holds = 0  # holds of full collections not resumed yet
_full_threshold = 10  # the oldest generation's threshold while no hold is on (CPython's default until first held)
FULL_HELD = 1 << 30  # the oldest generation's threshold while held: young passes never set off a full one


def keep_out_of_collections() -> None:
    """Collect the young generations, then freeze every object alive (see the module docstring)."""
    gc.collect(1)
    gc.freeze()


def settle_once() -> bool:
    """`keep_out_of_collections()` the first time this is called in the process; True when it did."""
    global _settled
    if _settled:
        return False
    _settled = True
    keep_out_of_collections()
    return True


def hold_full_collections() -> Callable[[], None]:
    """Hold automatic full collections until the returned function is called (once; later calls do nothing): the
    two young generations are still collected as they fill, each pass walking only what was made since the last."""
    global _full_holds, _full_threshold
    if _full_holds == 0:
        young, middle, _full_threshold = gc.get_threshold()
        gc.set_threshold(young, middle, FULL_HELD)
    _full_holds += 1
    resumed = False

    def resume() -> None:
        global _full_holds
        nonlocal resumed
        if resumed:
            return
        resumed = True
        _full_holds -= 1
        if _full_holds == 0:
            young, middle, _held = gc.get_threshold()
            gc.set_threshold(young, middle, _full_threshold)

    return resume


def pause_collections() -> Callable[[], None]:
    """Turn automatic collections off until the returned function is called (once; later calls do nothing).
    When they were already off (and not by a pause), nothing changes."""
    global _pauses
    if not gc.isenabled() and _pauses == 0:
        return lambda: None
    _pauses += 1
    gc.disable()
    resumed = False

    def resume() -> None:
        global _pauses
        nonlocal resumed
        if resumed:
            return
        resumed = True
        _pauses -= 1
        if _pauses == 0:
            gc.enable()

    return resume


def resume_collections() -> None:
    """Turn automatic collections back on, full ones too, whatever pauses and holds are pending (the app is
    closing)."""
    global _pauses, _full_holds
    if _pauses:
        _pauses = 0
        gc.enable()
    if _full_holds:
        _full_holds = 0
        young, middle, _held = gc.get_threshold()
        gc.set_threshold(young, middle, _full_threshold)


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
