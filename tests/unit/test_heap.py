"""svctui.tui.heap: long-lived objects frozen out of the collector's scans, still freed by reference counting."""

from __future__ import annotations

import gc

from svctui.tui import heap


def test_settle_once_freezes_once_and_frozen_objects_are_still_freed() -> None:
    heap._settled = False
    try:
        payload = [{"values": [index]} for index in range(2000)]  # 4,000 container objects, no cycles
        assert heap.settle_once()
        frozen = gc.get_freeze_count()
        assert frozen >= len(payload) * 2, "every object alive went to the permanent generation"
        assert not heap.settle_once(), "only once per process"
        del payload
        assert gc.get_freeze_count() <= frozen - 4000, "dropping them frees them although frozen"
    finally:
        gc.unfreeze()
        heap._settled = True
