"""Leave when the terminal goes away (an SSH session dropped, a tmux server killed), instead of spinning.

After a hang-up, Textual's input thread finds the terminal readable at once and reads nothing, every time, and
goes round that loop for ever (60 % of a core for an hour, seen here) unless SIGHUP ends the process. It does not
when something between the terminal and svctui keeps the signal from it (`make demo`, a shell's `trap '' HUP`,
nohup). So the dashboard handles SIGHUP itself and also asks the terminal every HANGUP_CHECK seconds whether it is
still there (`tcgetattr` fails once it hung up); either way it exits with 129, as a shell reports a SIGHUP.

The hang-up also sends SIGCONT (the kernel does, to the session leader, after SIGHUP), and Textual's handler takes
it for a return from ctrl+z: it starts application mode again on the dead terminal, with a new writer thread that
dies at its first write (EIO), so the exit's writes fill that thread's queue (30) and the exit blocks on it
(about one exit in two when the hang-up lands while a screen is drawn). So a SIGCONT on a dead terminal only
leaves, and the dead terminal's output goes to /dev/null from the hang-up on. If the exit still does not finish,
the process ends HARD_EXIT_AFTER later, saying so on the log (LAST_RESORT).
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
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

HANGUP_CHECK = 2.0  # seconds between two looks at the terminal
HANGUP_EXIT = 128 + signal.SIGHUP
HARD_EXIT_AFTER = 5.0  # seconds the dashboard's own exit may take after a hang-up
LAST_RESORT = "svctui: the exit after a hang-up did not finish; process ended"


def terminal_gone(fd: int) -> bool:
    """True when `fd` is no longer a working terminal (hung up, closed)."""
    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError):
        return True
    return False


def silence_dead_terminal(fds: tuple[int, ...]) -> None:
    """Point each of `fds` (terminals once) that is a hung-up terminal now at /dev/null: a write there (Textual's
    exit, a warning) then succeeds instead of failing with EIO and ending the thread that writes."""
    gone = [fd for fd in fds if terminal_gone(fd)]
    if not gone:
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in gone:
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
    finally:
        os.close(null)


def note(line: str) -> None:
    """Add `line` to the file SVCTUI_HANGUP_LOG names, if any: how an exit after a hang-up went (tests, benches)."""
    log = os.environ.get("SVCTUI_HANGUP_LOG")
    if log:
        with contextlib.suppress(OSError), open(log, "a", encoding="utf-8") as out:
            out.write(line + "\n")


def last_resort() -> None:
    """End the process (HANGUP_EXIT) when the exit after a hang-up did not finish; say so in the log first."""
    note(LAST_RESORT)
    os._exit(HANGUP_EXIT)


def watch_terminal(app: App[Any], first: Callable[[], None] = lambda: None) -> bool:
    """Exit `app` (code HANGUP_EXIT) on SIGHUP, on a SIGCONT after a hang-up, or once its terminal is gone, calling
    `first()` before (what must not wait for an exit that may take HARD_EXIT_AFTER); False when stdin is no
    terminal. Call it on the main thread, inside the running app (Textual's SIGCONT handler is in place)."""
    stdin = sys.__stdin__
    fd = stdin.fileno() if stdin is not None else -1
    if fd < 0 or not os.isatty(fd):
        return False
    loop = asyncio.get_running_loop()
    outputs = tuple(out for out in (1, 2) if os.isatty(out))  # the terminal's: silenced once it hangs up
    left: list[bool] = []

    def leave(how: str) -> None:
        if left:
            return
        left.append(True)
        silence_dead_terminal(outputs)
        note(f"svctui: hang-up ({how}): exit {HANGUP_EXIT}")
        first()
        # Should the exit still not finish, a last resort ends the process. A deletion in flight is then what a
        # kill leaves: each intent is in the audit log, and the run is offered for resume.
        timer = threading.Timer(HARD_EXIT_AFTER, last_resort)
        timer.daemon = True
        timer.start()
        app.exit(return_code=HANGUP_EXIT)

    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGHUP, leave, "SIGHUP")

    resume = signal.getsignal(signal.SIGCONT)  # Textual's: back from ctrl+z, application mode starts again

    def on_continue(signum: int, frame: FrameType | None) -> None:
        if terminal_gone(fd):  # a hang-up, not a return from ctrl+z: nothing to start again
            silence_dead_terminal(outputs)
            loop.call_soon_threadsafe(leave, "SIGCONT")
        elif callable(resume):
            resume(signum, frame)

    with contextlib.suppress(ValueError):  # not on the main thread: Textual's handler stays
        signal.signal(signal.SIGCONT, on_continue)

    def look() -> None:
        if terminal_gone(fd):
            leave("terminal gone")

    app.set_interval(HANGUP_CHECK, look, name="terminal hang-up")
    return True
