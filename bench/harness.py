"""Tiny benchmark harness: time a subject and a baseline in the same run and report their ratio."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Measurement:
    """Median and best seconds of one callable over several repeats."""

    label: str
    median: float
    best: float


@dataclass(frozen=True)
class Comparison:
    """A subject measured against a baseline in the same run; ratio = subject / baseline (medians)."""

    name: str
    what: str
    baseline: Measurement
    subject: Measurement
    note: str = ""

    @property
    def ratio(self) -> float:
        """Subject median divided by baseline median."""
        return self.subject.median / self.baseline.median if self.baseline.median else float("inf")


def measure(label: str, func: Callable[[], object], *, repeats: int = 7, inner: int = 1) -> Measurement:
    """Run `func` `inner` times per repeat; return per-call median and best over `repeats` (one warm-up first)."""
    func()
    samples: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            func()
        samples.append((time.perf_counter() - start) / inner)
    return Measurement(label, statistics.median(samples), min(samples))


def compare(
    name: str,
    what: str,
    baseline: tuple[str, Callable[[], object]],
    subject: tuple[str, Callable[[], object]],
    *,
    repeats: int = 7,
    inner: int = 1,
    note: str = "",
) -> Comparison:
    """Measure baseline and subject alternately-fair (baseline first, then subject) and pair them."""
    base = measure(baseline[0], baseline[1], repeats=repeats, inner=inner)
    subj = measure(subject[0], subject[1], repeats=repeats, inner=inner)
    return Comparison(name, what, base, subj, note)


def human(seconds: float) -> str:
    """Seconds in the most readable unit."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"
