"""Process-wide state a library must leave alone, read in a fresh interpreter (`STATE_PROBE` defines `state()`)."""

from __future__ import annotations

import subprocess
import sys

# Python source: `state()` returns every process-wide setting svctui.api could change, named, comparable with ==.
STATE_PROBE = """
import atexit, faulthandler, gc, logging, os, signal, sys, threading, types, warnings
import typing  # it puts typing.io and typing.re in sys.modules itself

def _loggers():
    known = logging.root.manager.loggerDict.items()
    return sorted(
        (name, [type(h).__name__ for h in logger.handlers if not isinstance(h, logging.NullHandler)], logger.level,
         logger.disabled)
        for name, logger in known if isinstance(logger, logging.Logger) and (logger.handlers or logger.level)
    )

def _put_by_hand(name, module):
    # an entry no import made: None (an import refused), not a module, or a module under another name than its own
    spec = getattr(module, "__spec__", None)
    return not isinstance(module, types.ModuleType) or (spec is not None and spec.name != name)

def state():
    return {
        "gc": (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count(), len(gc.callbacks), gc.get_debug()),
        "modules": sorted(name for name, module in sys.modules.items() if _put_by_hand(name, module)),
        "signals": {int(s): repr(signal.getsignal(s)) for s in signal.valid_signals()},
        "logging": (logging.root.level, [repr(h) for h in logging.root.handlers], _loggers(),
                    logging.root.manager.disable, logging.getLoggerClass(), logging.getLogRecordFactory(),
                    logging.lastResort, logging.raiseExceptions),
        "switch interval": sys.getswitchinterval(),
        "recursion limit": sys.getrecursionlimit(),
        "hooks": (sys.excepthook, sys.unraisablehook, threading.excepthook, sys.displayhook, sys.breakpointhook),
        "streams": (id(sys.stdin), id(sys.stdout), id(sys.stderr)),
        "atexit": atexit._ncallbacks(),
        "faulthandler": faulthandler.is_enabled(),
        "warnings": [repr(f) for f in warnings.filters],
        "environment": dict(os.environ),
        "cwd": os.getcwd(),
        "umask": os.umask(os.umask(0o22)),
    }

def changed(before, after):
    return {key: (before[key], after[key]) for key in before if before[key] != after[key]}
"""


def run_probe(code: str, env: dict[str, str] | None = None) -> str:
    """Run `STATE_PROBE` then `code` in a fresh interpreter; the last line it printed."""
    result = subprocess.run(
        [sys.executable, "-c", STATE_PROBE + code], capture_output=True, text=True, check=False, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip().splitlines()[-1]
