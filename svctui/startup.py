"""Process-wide settings the svctui program makes once as it starts (never `svctui.api` used as a library)."""

from __future__ import annotations

import gc
import importlib.util
import os
import sys
from typing import NamedTuple

M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)


def skip_unused_imports() -> None:
    """Record modules svctui never needs as absent, before anything imports httpx (cli.main calls it first):

    - httpx's command-line client (`httpx._main`: pygments, rich.progress, rich.syntax, ~20 ms of the first
      frame) is imported by httpx's __init__ whenever click and rich are installed; absent, httpx defines the stub
      `main` it ships for installs without its CLI extra.
    - where `sniffio` is not installed, httpcore's `import sniffio` on every lock it makes (several per request)
      searched every sys.path entry, since a failed import is not remembered; absent, it fails at once.
    """
    if "httpx" not in sys.modules:
        sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


DASHBOARD = "dashboard"  # `svctui` without a subcommand: the long-running dashboard
BATCH = "batch"  # a one-shot command of BATCH_COMMANDS
BATCH_COMMANDS = frozenset({"health"})  # one-shot commands that hold a whole fleet's runs (tens of thousands of models)


class RuntimeTuning(NamedTuple):
    """What the program sets once as it starts: the collector's thresholds (None: CPython's own), whether the heap of
    its imports so far is frozen out of the collector, and at most how many malloc arenas (None: glibc's default)."""

    thresholds: tuple[int, int, int] | None
    freeze: bool
    malloc_arenas: int | None


TUNINGS: dict[str, RuntimeTuning] = {
    # one malloc arena: pages are validated in threads, and what one thread's arena frees the next page, allocated in
    # another, does not reuse (rss-100k). Full passes 100x rarer than CPython's (10): one walks every object alive
    # with the loop held, a fleet's runs or a 50,000-task history (fleet-1000-fill, stall-drop-detection); a page
    # turned away is freed by reference counting, so memory does not wait for them (rss-100k)
    DASHBOARD: RuntimeTuning(thresholds=(700, 10, 1000), freeze=False, malloc_arenas=1),
    # `svctui health` on 1,000 clients validates ~30,000 runs that hold no reference cycles: a young pass every 50,000
    # objects (CPython: 700), an older one every 20 of those (10), a full one every 100 older ones (10), and the
    # imports' heap frozen out of them (fleet-1000-health)
    BATCH: RuntimeTuning(thresholds=(50_000, 20, 100), freeze=True, malloc_arenas=None),
}


def runtime_for(subcommand: str | None) -> str | None:
    """The TUNINGS key for the program run with `subcommand` (None: the dashboard); None for a command that keeps
    CPython's defaults."""
    if subcommand is None:
        return DASHBOARD
    return BATCH if subcommand in BATCH_COMMANDS else None


def tune_runtime(kind: str) -> None:
    """Set the process-wide runtime tuning of `kind` (TUNINGS): the program's, once, as it starts (cli's group,
    launched by `main`), before any thread; nothing changes it afterwards. Never a library user's process."""
    tuning = TUNINGS[kind]
    if tuning.malloc_arenas is not None:
        limit_malloc_arenas(tuning.malloc_arenas)
    if tuning.freeze:
        gc.freeze()
    if tuning.thresholds is not None:
        gc.set_threshold(*tuning.thresholds)


def limit_malloc_arenas(arenas: int) -> bool:
    """On glibc, unless MALLOC_ARENA_MAX is set: at most `arenas` malloc arenas for the process; True when set."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    import ctypes  # here: `svctui --help` never needs it

    try:
        mallopt = ctypes.CDLL(None).mallopt  # glibc only (musl has no mallopt)
    except (AttributeError, OSError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))


def quiet_pydantic_plugins() -> None:
    """pydantic scans every installed distribution's entry points for plugins on the first model (~10 ms); svctui
    uses none. A value the user set (even empty) is kept."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
