"""A terminal that hangs up ends the dashboard as it happens, whatever signal reaches it.

A hang-up's SIGCONT (the kernel sends it after SIGHUP to the session leader) is no return from ctrl+z. Textual's
handler took it for one and started application mode again on the dead terminal: its new writer thread died at
the first write (EIO) and the exit then waited on that thread's full queue until the last resort, 5 s later (18 of
34 `tmux kill-server`s at the first data row). And with no signal at all (a shell keeps SIGHUP and stays), only the
look at the terminal every 2 s saw the hang-up.

A real pseudo-terminal is the dashboard's stdin and this process gets real signals; the SIGCONT handler found in
place stands for Textual's (the headless test driver installs none), and the last resort is put off.
"""

from __future__ import annotations

import os
import pty
import signal
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.tui import hangup
from tests.support.tui import make_app

pytestmark = pytest.mark.anyio

ENOUGH_PAUSES = 200  # a bound on waiting for the signal's handler (never reached when it works), not a timing


@pytest.fixture
def resumes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Each SIGCONT that reaches the handler in place before the dashboard's (Textual's, in a real terminal)."""
    seen: list[int] = []

    def resume(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)

    monkeypatch.setattr(hangup, "HARD_EXIT_AFTER", 24 * 3600.0)  # the last resort would end pytest itself
    before = signal.signal(signal.SIGCONT, resume)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGCONT, before)


class Terminal:
    """A real pseudo-terminal made the dashboard's stdin; `hang_up` closes its far end, as tmux's server going does."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.master, slave = pty.openpty()
        self.stdin = os.fdopen(slave, "r")
        monkeypatch.setattr(sys, "__stdin__", self.stdin)

    def hang_up(self) -> None:
        """The terminal hangs up."""
        os.close(self.master)
        self.master = -1

    def close(self) -> None:
        """Both ends closed (the far end unless it hung up already)."""
        self.stdin.close()
        if self.master >= 0:
            os.close(self.master)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Terminal]:
    """The dashboard's terminal for one test, closed after it."""
    made = Terminal(monkeypatch)
    try:
        yield made
    finally:
        made.close()


async def until(pilot: Pilot[Any], done: Callable[[], object]) -> None:
    """Let the app run until `done()` holds (or ENOUGH_PAUSES pauses went by)."""
    for _ in range(ENOUGH_PAUSES):
        if done():
            return
        await pilot.pause(0.05)


async def test_a_sigcont_after_the_terminal_hung_up_exits_without_restarting_textual(
    terminal: Terminal, resumes: list[int]
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert hangup.watch_terminal(app)
        terminal.hang_up()
        os.kill(os.getpid(), signal.SIGCONT)
        await until(pilot, lambda: app.return_code is not None)
    assert resumes == [], "application mode is not started again on a dead terminal"
    assert app.return_code == hangup.HANGUP_EXIT


async def test_a_sigcont_on_a_live_terminal_still_resumes_textual(terminal: Terminal, resumes: list[int]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert hangup.watch_terminal(app)
        os.kill(os.getpid(), signal.SIGCONT)  # fg after ctrl+z
        await until(pilot, lambda: resumes)
        assert resumes == [signal.SIGCONT]
        assert app.is_running and app.return_code is None


async def test_a_hang_up_with_no_signal_exits_before_any_look_at_the_terminal(
    monkeypatch: pytest.MonkeyPatch, terminal: Terminal, resumes: list[int]
) -> None:
    monkeypatch.setattr(hangup, "HANGUP_CHECK", 24 * 3600.0)  # no look at the terminal during this test
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert hangup.watch_terminal(app)
        terminal.hang_up()  # no SIGHUP, no SIGCONT
        await until(pilot, lambda: app.return_code is not None)
    assert app.return_code == hangup.HANGUP_EXIT
