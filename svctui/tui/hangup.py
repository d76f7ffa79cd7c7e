"""Leave when the terminal goes away (an SSH session dropped, a tmux server killed), instead of spinning.

After a hang-up, Textual's input thread finds the terminal readable at once and reads nothing, every time, and
goes round that loop for ever (60 % of a core for an hour, seen here) unless SIGHUP ends the process. It does not
when something between the terminal and svctui keeps the signal from it (`make demo`, a shell's `trap '' HUP`,
nohup). So a thread waits for the terminal's hang-up (poll's POLLHUP), the dashboard handles SIGHUP itself, and
it asks the terminal every HANGUP_CHECK seconds whether it is still there (`tcgetattr` fails once it hung up);
whichever sees it first makes it exit with 129, as a shell reports a SIGHUP.

The hang-up also sends SIGCONT (the kernel does, to the session leader, after SIGHUP), and Textual's handler takes
it for a return from ctrl+z: it starts application mode again on the dead terminal, with a new writer thread that
dies at its first write (EIO), so the exit's writes fill that thread's queue (30) and the exit blocks on it
(about one exit in two when the hang-up lands while a screen is drawn). So a SIGCONT on a dead terminal only
leaves, and the dead terminal's output goes to /dev/null from the hang-up on. If the exit still does not finish,
the process ends HARD_EXIT_AFTER later (started off the loop, which may be the part stuck), noting LAST_RESORT.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
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


def wait_for_hangup(fd: int, on_hangup: Callable[[], None]) -> None:
    """Block until terminal `fd` hangs up, then call `on_hangup()`; return without it once `fd` is closed. Asks for
    no event, so input waiting to be read (Textual's to read) does not wake it: only POLLHUP and POLLERR do."""
    poller = select.poll()
    poller.register(fd, 0)
    while True:
        for _fd, happened in poller.poll():
            if happened & select.POLLNVAL:
                return
            if happened & (select.POLLHUP | select.POLLERR):
                on_hangup()
                return


def watch_terminal(app: App[Any], first: Callable[[], None] = lambda: None) -> bool:
    """Exit `app` (code HANGUP_EXIT) once its terminal hangs up, calling `first()` before (what must not wait for
    an exit that may take HARD_EXIT_AFTER); False when stdin is no terminal. Call it on the main thread, inside
    the running app (Textual's SIGCONT handler is in place)."""
    stdin = sys.__stdin__
    fd = stdin.fileno() if stdin is not None else -1
    if fd < 0 or not os.isatty(fd):
        return False
    loop = asyncio.get_running_loop()
    outputs = tuple(out for out in (1, 2) if os.isatty(out))  # the terminal's: silenced once it hangs up
    left: list[bool] = []
    timed: list[threading.Timer] = []
    timing = threading.Lock()

    def start_last_resort() -> None:
        # Should the exit not finish, a last resort ends the process. A deletion in flight is then what a kill
        # leaves: each intent is in the audit log, and the run is offered for resume.
        with timing:
            if not timed:
                timed.append(threading.Timer(HARD_EXIT_AFTER, last_resort))
                timed[0].daemon = True
                timed[0].start()

    def leave(how: str) -> None:
        if left:
            return
        left.append(True)
        silence_dead_terminal(outputs)
        note(f"svctui: hang-up ({how}): exit {HANGUP_EXIT}")
        first()
        start_last_resort()
        app.exit(return_code=HANGUP_EXIT)

    def hung_up_seen_by_thread() -> None:
        # off the loop: the last resort starts even when the loop is stuck writing to the dead terminal
        if not app.is_running:  # an app already gone (a test's): nothing to leave
            return
        silence_dead_terminal(outputs)
        start_last_resort()
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(leave, "POLLHUP")

    threading.Thread(target=wait_for_hangup, args=(fd, hung_up_seen_by_thread), name="hang-up", daemon=True).start()

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

    def look() -> None:  # where poll() does not see a hang-up
        if terminal_gone(fd):
            leave("terminal gone")

    app.set_interval(HANGUP_CHECK, look, name="terminal hang-up")
    return True
