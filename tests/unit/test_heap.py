"""svctui.tui.heap: long-lived objects frozen out of the collector's scans, still freed by reference counting."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

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


def test_a_pause_holds_collections_until_its_last_resume() -> None:
    assert gc.isenabled()
    first, second = heap.pause_collections(), heap.pause_collections()
    try:
        assert not gc.isenabled()
        first()
        first()  # a second call of the same resume changes nothing
        assert not gc.isenabled(), "another pause is still pending"
        second()
        assert gc.isenabled()
    finally:
        heap.resume_collections()


def test_collections_turned_off_elsewhere_stay_off_and_closing_resumes_every_pause() -> None:
    gc.disable()
    try:
        heap.pause_collections()()
        assert not gc.isenabled(), "a pause does not turn on what someone else turned off"
    finally:
        gc.enable()
    heap.pause_collections()
    heap.resume_collections()
    assert gc.isenabled() and heap._pauses == 0


def test_a_hold_of_full_collections_keeps_the_young_passes_until_its_last_resume() -> None:
    """The Clients screen's round: the oldest generation's threshold out of reach while held, the young ones as
    they were, collections still on; the threshold back as it was after the last resume (or the app's close)."""
    before = gc.get_threshold()
    first, second = heap.hold_full_collections(), heap.hold_full_collections()
    try:
        assert gc.isenabled()
        assert gc.get_threshold() == (before[0], before[1], heap.FULL_HELD)
        first()
        first()  # a second call of the same resume changes nothing
        assert gc.get_threshold()[2] == heap.FULL_HELD, "another hold is still pending"
        second()
        assert gc.get_threshold() == before
        heap.hold_full_collections()
        heap.resume_collections()
        assert gc.get_threshold() == before and heap._full_holds == 0
    finally:
        gc.set_threshold(*before)


def test_the_dashboard_limits_malloc_arenas_once_unless_the_environment_does() -> None:
    """In a fresh process (mallopt is process-wide): set once on glibc; MALLOC_ARENA_MAX in the environment wins."""
    probe = "from svctui.tui.heap import limit_malloc_arenas as f; print(f(), f())"
    env = {key: value for key, value in os.environ.items() if key != "MALLOC_ARENA_MAX"}
    ran = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["True", "False"]
    ran = subprocess.run(
        [sys.executable, "-c", probe], env={**env, "MALLOC_ARENA_MAX": "4"}, capture_output=True, text=True, check=True
    )
    assert ran.stdout.split() == ["False", "False"]
