"""Tiny benchmark harness: time a subject and a baseline in the same run and report their ratio."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Measurement:
    """Median and best of one callable over several repeats, in `unit` (seconds unless said otherwise)."""

    label: str
    median: float
    best: float
    unit: str = "s"

    def scaled(self, factor: float, label: str | None = None) -> Measurement:
        """The same measurement with median and best multiplied by `factor` (e.g. per 1,000 items)."""
        return replace(self, label=label or self.label, median=self.median * factor, best=self.best * factor)


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


def measure(
    label: str, func: Callable[[], object], *, repeats: int = 7, inner: int = 1, warmup: bool = True
) -> Measurement:
    """Run `func` `inner` times per repeat; return per-call median and best over `repeats` (one warm-up first)."""
    if warmup:
        func()
    samples: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            func()
        samples.append((time.perf_counter() - start) / inner)
    return Measurement(label, statistics.median(samples), min(samples))


async def measure_async(
    label: str,
    func: Callable[[], Awaitable[object]],
    *,
    repeats: int = 7,
    inner: int = 1,
    warmup: bool = True,
    setup: Callable[[], Awaitable[object]] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Measurement:
    """`measure` for a coroutine function; `setup` (not timed) runs before the warm-up and before every repeat.

    Every repeat starts after a full garbage collection (not timed), as in `interleaved`.
    `clock=time.process_time` times CPU spent by this process only: steadier on a busy machine for work that never
    waits on I/O or other processes (it would miss time spent in a server thread's wait or a subprocess).
    """
    samples: list[float] = []
    for index in range(repeats + (1 if warmup else 0)):
        if setup is not None:
            await setup()
        gc.collect()
        start = clock()
        for _ in range(inner):
            await func()
        if index or not warmup:
            samples.append((clock() - start) / inner)
    return Measurement(label, statistics.median(samples), min(samples))


async def interleaved(
    baseline: tuple[str, Callable[[], Awaitable[object]]],
    subject: tuple[str, Callable[[], Awaitable[object]]],
    *,
    repeats: int = 7,
    warmup: bool = True,
    setup: Callable[[], Awaitable[object]] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[Measurement, Measurement]:
    """Time baseline and subject in alternation, one call each per round, so a busy moment hits both alike.

    `setup` (not timed) runs before each of the two calls of a round. Every call starts after a full garbage
    collection (not timed), so one side does not pay for the garbage the other left: without it the 1,000-row
    page-turn ratio swings between x0.73 and x1.31 over identical code, with it x1.01-x1.12.
    """
    samples: tuple[list[float], list[float]] = ([], [])
    for index in range(repeats + (1 if warmup else 0)):
        for side, (_, func) in enumerate((baseline, subject)):
            if setup is not None:
                await setup()
            gc.collect()
            start = clock()
            await func()
            if index or not warmup:
                samples[side].append(clock() - start)
    return summarise(baseline[0], samples[0]), summarise(subject[0], samples[1])


def summarise(label: str, samples: list[float], unit: str = "s") -> Measurement:
    """Median and best (lowest) of `samples`."""
    return Measurement(label, statistics.median(samples), min(samples), unit)


def compare(
    name: str,
    what: str,
    baseline: tuple[str, Callable[[], object]],
    subject: tuple[str, Callable[[], object]],
    *,
    repeats: int = 7,
    inner: int = 1,
    note: str = "",
    warmup: bool = True,
) -> Comparison:
    """Measure baseline and subject in alternation (one repeat of each per round, after one warm-up call of each),
    so that a busy moment on the machine hits both alike, and pair them. Each repeat starts after a full garbage
    collection (not timed), as in `interleaved`."""
    samples: tuple[list[float], list[float]] = ([], [])
    for index in range(repeats + (1 if warmup else 0)):
        for side, (_, func) in enumerate((baseline, subject)):
            gc.collect()
            start = time.perf_counter()
            for _ in range(inner):
                func()
            if index or not warmup:
                samples[side].append((time.perf_counter() - start) / inner)
    return Comparison(name, what, summarise(baseline[0], samples[0]), summarise(subject[0], samples[1]), note)


def show(measurement: Measurement) -> str:
    """The median in its unit, readable: `1.52 ms`, `61.3 MiB`."""
    if measurement.unit == "KiB":
        return f"{measurement.median / 1024:.1f} MiB"
    if measurement.unit != "s":
        return f"{measurement.median:g} {measurement.unit}"
    return human(measurement.median)


def human(seconds: float) -> str:
    """Seconds in the most readable unit."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"
