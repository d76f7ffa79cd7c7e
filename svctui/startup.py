"""Process-wide settings the svctui program makes once as it starts (never `svctui.api` used as a library)."""

from __future__ import annotations

import gc
import importlib.util
import os
import sys


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


BATCH_COMMANDS = frozenset({"health"})  # one-shot commands that hold a whole fleet's runs (tens of thousands of models)
# young objects between two collections 50,000 (CPython's default: 700), an older pass every 20 of those (10) and a
# full one every 100 older passes (10, and only when the old heap grew by a quarter)
BATCH_THRESHOLDS = (50_000, 20, 100)


def collect_less_for_a_batch() -> None:
    """For a one-shot command of BATCH_COMMANDS (cli's group, once, as it starts): the heap of its imports frozen
    out of the collector and collections ~70x rarer (BATCH_THRESHOLDS). `svctui health` on 1,000 clients validates
    ~30,000 runs that hold no reference cycles; the default policy's passes over that growing heap are a large
    share of the round's CPU (docs/PERFORMANCE.md, fleet-1000-health). Never the dashboard's (rss-100k)."""
    gc.freeze()
    gc.set_threshold(*BATCH_THRESHOLDS)


def quiet_pydantic_plugins() -> None:
    """pydantic scans every installed distribution's entry points for plugins on the first model (~10 ms); svctui
    uses none. A value the user set (even empty) is kept."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
