"""Leave when the terminal goes away (an SSH session dropped, a tmux server killed), instead of spinning.

After a hang-up, Textual's input thread finds the terminal readable at once and reads nothing, every time, and
goes round that loop for ever (60 % of a core for an hour, seen here) unless SIGHUP ends the process. It does not
when something between the terminal and svctui keeps the signal from it (`make demo`, a shell's `trap '' HUP`,
nohup). So the dashboard handles SIGHUP itself and also asks the terminal every HANGUP_CHECK seconds whether it is
still there (`tcgetattr` fails once it hung up); either way it exits with 129, as a shell reports a SIGHUP, and
if its exit does not finish (it may write to the dead terminal for ever) the process ends HARD_EXIT_AFTER later.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import termios
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

HANGUP_CHECK = 2.0  # seconds between two looks at the terminal
HANGUP_EXIT = 128 + signal.SIGHUP
HARD_EXIT_AFTER = 5.0  # seconds the dashboard's own exit may take after a hang-up


def terminal_gone(fd: int) -> bool:
    """True when `fd` is no longer a working terminal (hung up, closed)."""
    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError):
        return True
    return False


def watch_terminal(app: App[Any], first: Callable[[], None] = lambda: None) -> bool:
    """Exit `app` (code HANGUP_EXIT) on SIGHUP or once its terminal is gone, calling `first()` before (what must
    not wait for an exit that may take HARD_EXIT_AFTER); False when stdin is no terminal."""
    stdin = sys.__stdin__
    fd = stdin.fileno() if stdin is not None else -1
    if fd < 0 or not os.isatty(fd):
        return False

    left: list[bool] = []

    def leave() -> None:
        if left:
            return
        left.append(True)
        first()
        # Textual's own exit then writes to the dead terminal and may never finish (its input thread spins, and
        # the interpreter waits for it): a last resort ends the process. A deletion in flight is then what a kill
        # leaves: each intent is in the audit log, and the run is offered for resume.
        last_resort = threading.Timer(HARD_EXIT_AFTER, os._exit, args=(HANGUP_EXIT,))
        last_resort.daemon = True
        last_resort.start()
        app.exit(return_code=HANGUP_EXIT)

    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, leave)

    def look() -> None:
        if terminal_gone(fd):
            leave()

    app.set_interval(HANGUP_CHECK, look, name="terminal hang-up")
    return True
