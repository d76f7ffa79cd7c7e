"""End to end: `tmux kill-server` while the dashboard draws its first data rows ends it through its own exit, not
the last resort, and at once, not at its next look at the terminal. The hang-up's SIGCONT made Textual start
application mode again on the dead terminal, and the exit then waited until the last resort ended the process
5 s later (18 of 34 such kills); with SIGHUP kept from it, only the look every 2 s saw the hang-up."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from svctui.tui.hangup import HANGUP_EXIT, LAST_RESORT
from tests.e2e.test_tmux import _SOCKETS, BINARY, DEADLINE, Tmux, _running

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

STARTS = 5  # the hang-up lands at a different point of the drawing each time
# exec: the dashboard leads the terminal's session, so the hang-up's SIGHUP and SIGCONT come to it
LEADS = "echo $$ > {pid}; exec env -u COLUMNS -u LINES {svctui} --demo"
# a shell that keeps SIGHUP from it and stays (`make demo` does the like): no signal comes to the dashboard
KEPT_FROM_IT = "trap '' HUP; sh -c \"echo \\$\\$ > {pid}; exec env -u COLUMNS -u LINES {svctui} --demo\"; true"


@pytest.mark.parametrize("command", [LEADS, KEPT_FROM_IT], ids=["leads-the-session", "sighup-kept-from-it"])
def test_a_hang_up_while_drawing_ends_the_dashboard_by_its_own_exit(tmp_path: Path, command: str) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    for start in range(STARTS):
        session = Tmux(f"svctui-hangup-{os.getpid()}-{next(_SOCKETS)}", "dash")
        pid_file, log = tmp_path / f"pid{start}", tmp_path / f"hangup{start}.log"
        env = {name: value for name, value in os.environ.items() if name.startswith("SVCTUI_")}
        env |= {"SVCTUI_HANGUP_LOG": str(log), "TERM": "xterm-256color"}
        env_args = [arg for name, value in env.items() for arg in ("-e", f"{name}={value}")]
        shell = command.format(pid=pid_file, svctui=BINARY)
        session.run("new-session", "-d", "-s", "dash", "-x", "120", "-y", "36", "-c", str(tmp_path), *env_args, shell)
        try:
            session.wait_for("rows 1\u2013100 of 200")
            pid = int(pid_file.read_text())
        finally:
            session.run("kill-server")
        end = time.monotonic() + DEADLINE
        while _running(pid) and time.monotonic() < end:
            time.sleep(0.1)
        assert not _running(pid), "the dashboard outlived its terminal"
        lines = log.read_text().splitlines() if log.exists() else []
        assert LAST_RESORT not in lines, f"start {start}: the exit did not finish; the last resort ended it"
        assert len(lines) == 1 and lines[0].startswith("svctui: hang-up ("), lines
        assert lines[0].endswith(f"exit {HANGUP_EXIT}")
        assert "terminal gone" not in lines[0], "seen at the next look at the terminal, not as it hung up"
