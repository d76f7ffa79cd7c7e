"""End to end: the newcomer's crash, in tmux. The run's log wrapped (ctrl+w) in 80x24, the terminal grown to 160x45,
shrunk, zoomed (`z`), grown again: the dashboard stays up and wraps the lines for each width (it exited with an
IndexError in `render_line`)."""

from __future__ import annotations

import time

import pytest

from svctui.tui.widgets.log_view import PREFIX
from tests.e2e.test_tmux import Tmux, tmux  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
CONTINUATION = rf"(?m)^ {{{PREFIX}}}\S"  # a wrapped line's second part, under its message (after time and level)
WIDE = r"(?m)^.{100,}$"  # drawn at 160 columns
WHOLE_STATUS = r"INFO Status: \d+ objects finished .* -- Using \d+ MB RAM"  # one line only when ~90 columns fit


def resize(tmux: Tmux, width: int, height: int) -> None:  # noqa: F811
    tmux.run("resize-window", "-t", "dash", "-x", str(width), "-y", str(height))


def test_wrapped_log_survives_resizes_and_zoom(tmux: Tmux) -> None:  # noqa: F811
    tmux.wait_for("rows 1\u2013100 of 200")
    time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
    resize(tmux, 80, 24)
    tmux.keys("4")
    tmux.wait_for("SHARPHOUND-DC01", "failing")
    time.sleep(0.5)  # the list's rows are drawn before it takes keys
    tmux.keys("Enter")
    tmux.wait_for("Client SHARPHOUND-DC01", "executed (UTC) ▼")  # at 80 the status line has no room for the sort
    time.sleep(0.5)
    tmux.keys("j", "j", "j")
    tmux.wait_for("3979")
    tmux.keys("L")
    tmux.wait_match(r"\d+ lines, ")
    tmux.keys("C-w")
    tmux.keys("z")  # zoomed at 80x24: room for the wrapped lines
    screen = tmux.wait_match(CONTINUATION)
    resize(tmux, 160, 45)
    tmux.wait_match(WIDE)
    screen = tmux.wait_match(WHOLE_STATUS)  # whole at 160 columns (at 80 it wraps under its message)
    assert tmux.alive() and "Error" not in screen
    resize(tmux, 80, 24)
    screen = tmux.wait_match(CONTINUATION)
    assert all(len(line) <= 80 for line in screen.splitlines())
    tmux.keys("z")
    resize(tmux, 160, 45)
    tmux.keys("z")
    tmux.wait_match(WIDE)
    tmux.wait_match(WHOLE_STATUS)
    assert tmux.alive(), "the dashboard is still up"
