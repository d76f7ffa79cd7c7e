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
"""

from __future__ import annotations

import gc

_settled = False


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
