"""A terminal that hangs up: what must not wait for the dashboard's exit (its demo server's stop) runs first.

The dashboard runs on a real pseudo-terminal here (its stdin), and this process gets a real SIGHUP, as after
`tmux kill-server`; only the last resort (hangup.HARD_EXIT_AFTER, which ends the process) is put off.
"""

from __future__ import annotations

import os
import pty
import signal
import sys

import pytest

from svctui.tui import hangup
from tests.support.tui import make_app

pytestmark = pytest.mark.anyio

ENOUGH_PAUSES = 200  # a bound on waiting for the signal's handler (never reached when it works), not a timing


async def test_a_hang_up_calls_first_then_exits_the_dashboard_with_129(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = pty.openpty()
    terminal = os.fdopen(slave, "r")
    monkeypatch.setattr(sys, "__stdin__", terminal)
    monkeypatch.setattr(hangup, "HARD_EXIT_AFTER", 24 * 3600.0)  # the last resort would end pytest itself
    app = make_app()
    seen: list[bool] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            assert hangup.watch_terminal(app, lambda: seen.append(app.is_running))
            os.kill(os.getpid(), signal.SIGHUP)
            for _ in range(ENOUGH_PAUSES):
                if seen:
                    break
                await pilot.pause(0.05)
    finally:
        terminal.close()
        os.close(master)
    assert seen == [True], "first() runs once, while the dashboard still runs"
    assert app.return_code == hangup.HANGUP_EXIT
