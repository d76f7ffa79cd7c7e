"""Keep bulk data the dashboard holds (a client's task history) out of the cyclic garbage collector's scans.

CPython's full collection walks every container object alive, holding the GIL (so the event loop) for the whole
walk: ~11 objects per CompletedTask make a 50,000-task history about 550,000 more objects, and each full pass
over them stalls the dashboard for hundreds of milliseconds. `gc.freeze()` moves every object alive into the
permanent generation, which collections skip. Frozen objects are still freed by reference counting as soon as
nothing refers to them (the API models hold no reference cycles, so a replaced history is freed at once); only
garbage *cycles* alive at the moment of freezing stay until exit, so the young generations are collected first
(cheap) and this is called once per history page, not on every message.

`settle_once()` does the same once per process, when the dashboard has shown its first page: the modules,
widgets and caches alive by then (most of the heap, and nearly all of it long-lived) are not scanned again, so a
full collection triggered while a later page is shown walks that page's objects, not the whole program.

`pause_collections()` holds automatic collections while a page is applied to the table and drawn: applying and
drawing a new page allocate tens of thousands of objects, which used to trigger a collection pass in the middle of
the same event-loop slice (the pass then added its walk to that slice's stall). Resumed after the frame, the pass
that was due runs in a slice of its own, so the longest stall is the longer of the two, not their sum.

`hold_full_collections()` is for longer stretches (the Clients screen's round, ~1.5 s): a pause that long grew the
young generation to ~20,000 objects, whose one pass at the resume held the loop 30-50 ms. Held instead are only the
full passes (100+ ms each, set off every tenth middle pass); young passes run as usual, a few milliseconds each.
`limit_malloc_arenas()` (once, as the dashboard is built) asks glibc's malloc for a single arena. By default each
thread that allocates gets an arena of its own (up to 8 per core), and the dashboard validates and renders every
page in worker threads: the memory a page freed in one thread's arena is not reused by the next page allocated in
another, so resident memory grew by ~50 MiB over 100 pages of 1,000 tasks and the first page cost ~15 MiB more.
Python holds the GIL around nearly every allocation, so the shared arena's lock is not contended. A
MALLOC_ARENA_MAX set in the environment is left to glibc; other C libraries (musl, macOS) are left alone.
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
