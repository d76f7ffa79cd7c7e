"""End to end: the real `.venv/bin/svctui --demo` in tmux (120x36): load, filter (keys sent in one burst), detail
pane (esc closes it), quit (q, ctrl+c), live refresh (`--refresh`), and the newcomer's walk of the README through
every screen (issue 16)."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BINARY = Path(sys.executable).with_name("svctui")
DEADLINE = 60.0
_SOCKETS = itertools.count()


class Tmux:
    """One tmux session on a private socket."""

    def __init__(self, socket: str, session: str) -> None:
        self.socket = socket
        self.session = session

    def run(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False, timeout=30
        )
        return result.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.session, *keys)

    def alive(self) -> bool:
        return self.session in self.run("list-sessions", "-F", "#{session_name}")

    def wait_for(self, *texts: str) -> str:
        """Poll the pane until every one of `texts` shows in one capture (a deadline, not a timing assertion).

        One capture, all texts: a frame reaches tmux in pieces, so a capture can hold the status line of a screen
        whose tabs are not drawn yet (CI, stop 23: `tag Tier Zero` was on screen, `Tags` not yet)."""
        end = time.monotonic() + DEADLINE
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if all(text in screen for text in texts):
                return screen
            time.sleep(0.1)
        missing = [text for text in texts if text not in screen]
        raise AssertionError(f"{missing!r} never appeared; last screen:\n{screen}")

    def wait_match(self, pattern: str) -> str:
        """Poll the pane until the regular expression `pattern` matches it."""
        end = time.monotonic() + DEADLINE
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} never matched; last screen:\n{screen}")

    def wait_gone(self, text: str) -> str:
        """Poll the pane until `text` is gone (a dialog closed: the screen behind it shows through while open)."""
        end = time.monotonic() + DEADLINE
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if text not in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never went away; last screen:\n{screen}")


@pytest.fixture
def tmux(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Tmux]:
    """`svctui --demo` (plus the options a test passes with indirect parametrization) in a tmux session."""
    options = str(getattr(request, "param", ""))
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    assert BINARY.exists(), f"{BINARY} missing: run `make venv`"
    # A fresh server socket per test: reusing one name races the previous test's `kill-server` (the new session
    # can land on the server that is going away, and the pane is gone before the dashboard draws).
    session = Tmux(f"svctui-e2e-{os.getpid()}-{next(_SOCKETS)}", "dash")
    env = [f"{name}={value}" for name, value in os.environ.items() if name.startswith("SVCTUI_")]
    env.append("TERM=xterm-256color")
    env_args = [arg for pair in env for arg in ("-e", pair)]
    session.run(
        "new-session", "-d", "-s", "dash", "-x", "120", "-y", "36", "-c", str(tmp_path), *env_args,
        f"env -u COLUMNS -u LINES {BINARY} --demo {options}".rstrip(),
    )  # fmt: skip
    try:
        yield session
    finally:
        session.run("kill-server")


def _exit_status(tmux: Tmux) -> str:
    """Wait for the dashboard to end and return the exit status the pane's shell printed."""
    return tmux.wait_for("EXIT=").split("EXIT=", 1)[1].split()[0]


def test_demo_dashboard_in_tmux(tmux: Tmux) -> None:
    tmux.wait_for("rows 1\u2013100 of 200")
    tmux.wait_for("enterprise", "1 Events", "profile demo")  # the edition is asked once the first page is shown
    time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
    tmux.keys("/")
    tmux.wait_for("Filter events")
    tmux.keys("id=gt:abc", "Enter")
    tmux.wait_for("nothing was sent", "is not an integer")
    # one burst (one send-keys): each key acts in order; the backspaces went after `150` and ate it (newcomer audit)
    tmux.keys("BSpace", "BSpace", "BSpace", "150", "Enter")
    tmux.wait_for("rows 1\u201350 of 50", "id > 150", "151")
    tmux.keys("p")
    tmux.wait_for("next 5 runs", "Schedule", "client id")
    tmux.keys("Escape")  # esc closes the detail pane
    tmux.wait_gone("next 5 runs")
    time.sleep(0.5)  # a key right after Escape would arrive as alt+key
    tmux.keys("C-c")  # ctrl+c quits like q
    end = time.monotonic() + DEADLINE
    while tmux.alive() and time.monotonic() < end:
        time.sleep(0.1)
    assert not tmux.alive(), "ctrl+c quits the dashboard"


def test_screens_one_two_three_one_in_tmux(tmux: Tmux) -> None:
    """1 → 2 → 3 → 1: each screen shows its data (2 its empty state); on 3 the tags and a tag's selectors, and a
    mark is counted."""
    tmux.wait_for("rows 1\u2013100 of 200")
    time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
    tmux.keys("2")
    tmux.wait_for("none chosen (press C)", "Press C to pick a known client")  # a fresh home has no client yet
    tmux.keys("3")
    tmux.wait_for("tag Tier Zero", "Tags", "Selectors", "Audit")
    tmux.wait_for("rows 1\u2013100 of ", "Tier One", "Members of")  # not the "loading rows" line
    tmux.keys("Space")
    tmux.wait_for("1 marked on 1 page")
    tmux.keys("1")
    tmux.wait_gone("tag Tier Zero")
    tmux.wait_for("rows 1\u2013100 of 200")
    tmux.keys("3")
    tmux.wait_for("1 marked on 1 page")  # marks are kept while the screen is away
    tmux.keys("q")
    tmux.wait_for("1 marked selector is forgotten on quit: q again to quit.")  # marks are not dropped unasked
    tmux.keys("q")
    end = time.monotonic() + DEADLINE
    while tmux.alive() and time.monotonic() < end:
        time.sleep(0.1)
    assert not tmux.alive(), "q quits the dashboard"


@pytest.mark.parametrize("tmux", ["--read-only"], indirect=True)
def test_read_only_keys_say_why_naming_the_option_in_tmux(tmux: Tmux) -> None:
    """A newcomer's walk of `svctui --demo --read-only` (SVCTUI_READ_ONLY not set): ctrl+d on marked selectors did
    nothing at all, and the Audit tab's `u` blamed SVCTUI_READ_ONLY. Both say why, naming `--read-only`."""
    assert "SVCTUI_READ_ONLY" not in os.environ
    tmux.wait_for("rows 1\u2013100 of 200")
    time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
    tmux.keys("3")
    tmux.wait_for("tag Tier Zero", "rows 1\u2013100 of ", "Members of")
    tmux.keys("Space")
    tmux.wait_for("1 marked on 1 page")
    tmux.keys("C-d")
    tmux.wait_for("Deleting is off: svctui runs with", "--read-only")
    tmux.keys("a")
    tmux.wait_for("runs in the audit log")
    tmux.keys("u")
    screen = tmux.wait_for("Restoring is off: svctui runs with")
    assert "SVCTUI_READ_ONLY" not in screen


def test_events_sorted_by_next_run_in_tmux(tmux: Tmux) -> None:
    """Issue 13 item 1: sorting by the "next run" column orders it (the demo keeps next_scheduled_at by its clock)."""
    tmux.wait_for("rows 1\u2013100 of 200")
    time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
    tmux.keys("Right", "Right", "Right", "s")
    tmux.wait_for("sorted by next scheduled at ▲")  # the status and the ▲ show at once; the sorted page after them
    end = time.monotonic() + DEADLINE
    runs: list[str] = []
    while time.monotonic() < end:
        screen = tmux.screen()
        runs = re.findall(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}Z)\s+in ", screen)
        if "loading" not in screen and len(runs) >= 15 and runs == sorted(runs):
            break
        time.sleep(0.1)
    assert len(runs) >= 15 and runs == sorted(runs), screen
    tmux.keys("q")


@pytest.mark.parametrize("tmux", ["--refresh 4"], indirect=True)
def test_refresh_option_reloads_the_screen_and_the_age_ticks_in_tmux(tmux: Tmux) -> None:
    """Issue 14: `--refresh 4` reaches the dashboard: the status line's age ticks, then a refresh resets it."""
    tmux.wait_for("live every 4 s")
    tmux.wait_for("rows 1\u2013100 of 200")  # the label shows before the first page lands
    tmux.wait_for("updated 2 s ago")
    tmux.wait_for("updated 0 s ago")
    tmux.keys("q")
    end = time.monotonic() + DEADLINE
    while tmux.alive() and time.monotonic() < end:
        time.sleep(0.1)
    assert not tmux.alive()


def test_readme_walk_through_every_screen_in_tmux(tmp_path: Path, isolated_dirs: Path) -> None:
    """Issue 16: events → filter → detail → tasks (a client chosen by part of its name) → domain results → plot →
    cleanup dry run, cancelled → clients → quit with status 0; on the way issue 13 item 2 (`j` after choosing a
    client moves the task list's cursor) and item 11 (esc closes the detail pane)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    tmux = Tmux(f"svctui-e2e-walk-{os.getpid()}-{next(_SOCKETS)}", "walk")
    env = [f"{name}={value}" for name, value in os.environ.items() if name.startswith("SVCTUI_")]
    env_args = [arg for pair in [*env, "TERM=xterm-256color"] for arg in ("-e", pair)]
    tmux.run(
        "new-session", "-d", "-s", "walk", "-x", "120", "-y", "36", "-c", str(tmp_path), *env_args,
        f"env -u COLUMNS -u LINES {BINARY} --demo; echo EXIT=$?; sleep 60",
    )  # fmt: skip
    try:
        tmux.wait_for("rows 1\u2013100 of 200")
        tmux.wait_match(r"SHARPHOUND-(.|\n)*(Daily at|Weekly on)|(Daily at|Weekly on)(.|\n)*SHARPHOUND-")
        time.sleep(0.5)  # keys sent in the first instant after start-up can be lost
        # filter: the editor, a filter applied, its chip above the table
        tmux.keys("/")
        tmux.wait_for("Filter events")
        tmux.keys("id=gt:190", "Enter")
        tmux.wait_for("rows 1\u201310 of 10", "id > 190 \u2715", "x clears all", "191")
        # detail of the event under the cursor; esc closes it
        tmux.keys("Enter")
        tmux.wait_for("next 5 runs", "Schedule", "client id")
        tmux.wait_match("[\u2502\u258c] id            191")
        tmux.keys("Escape")
        tmux.wait_gone("next 5 runs")
        time.sleep(0.5)  # a key right after Escape would arrive as alt+key
        # tasks: choose a client by typing part of its name
        tmux.keys("2")
        tmux.wait_for("none chosen (press C)")
        tmux.keys("C")
        tmux.wait_for("Type to filter by name or id")
        tmux.keys("lab")
        tmux.wait_gone("SHARPHOUND-DC01")
        tmux.wait_for("SHARPHOUND-LAB")
        tmux.keys("Enter")
        screen = tmux.wait_for("Client SHARPHOUND-LAB (", "Domain results [R]", " Task ")
        first = re.search(r" Task (\d+) ", screen)
        assert first is not None, screen
        tmux.wait_for("rows 1\u2013100 of ")
        # issue 13 item 2: j moves the task list's cursor (the detail pane follows it), not the lower pane
        tmux.keys("j")
        end = time.monotonic() + DEADLINE
        while (now := re.search(r" Task (\d+) ", tmux.screen())) and now.group(1) == first.group(1):
            assert time.monotonic() < end, "j never moved the task list's cursor"
            time.sleep(0.1)
        # domain results, then the plot
        tmux.keys("R")
        tmux.wait_for("Total ", "Users", "Groups", "\u2713")
        tmux.keys("P")
        tmux.wait_for("successful runs with kinds", "n/N: next/previous count")
        # selector cleanup: two marked, the review's dry run, cancelled
        tmux.keys("3")
        tmux.wait_for("tag Tier Zero")
        tmux.wait_for("rows 1\u2013100 of ")
        tmux.keys("Space", "j", "Space")
        tmux.wait_for("2 marked on 1 page")
        tmux.keys("C-d")
        tmux.wait_for("Dry run: 2 would delete", "Delete 2 selectors from tag", "Cancel")
        tmux.wait_match("(would delete(.|\n)*){3}")
        tmux.keys("Escape")
        tmux.wait_gone("Dry run: 2 would delete")
        tmux.wait_for("2 marked on 1 page")  # nothing deleted: the marks stay
        audit = isolated_dirs / "state" / "audit.jsonl"
        assert not audit.exists() or '"outcome"' not in audit.read_text(), "a cancelled review deletes nothing"
        time.sleep(0.5)  # a key right after Escape would arrive as alt+key
        # the morning check
        tmux.keys("4")
        tmux.wait_for("clients checked")
        screen = tmux.wait_gone("checking\u2026")  # every client's row filled in
        tmux.wait_for("\u2713 ok")  # the legend of the verdicts
        tmux.wait_match(r"\u2717 failing +SHARPHOUND-")  # a client's verdict, glyph and word
        tmux.keys("q")
        tmux.wait_for("2 marked selectors are forgotten on quit")  # the cleanup screen's marks, asked from Clients
        tmux.keys("q")
        assert _exit_status(tmux) == "0"
    finally:
        tmux.run("kill-server")


def _running(pid: int) -> bool:
    """True while `pid` runs (a zombie left for its new parent to reap counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def test_a_terminal_that_hangs_up_ends_the_dashboard_even_when_sighup_is_kept_from_it(tmp_path: Path) -> None:
    """Found this session: after `tmux kill-server` a `make demo` dashboard kept running for an hour at 60 % of a
    core (make kept SIGHUP from it; Textual's input thread spun on the dead terminal). Here the shell ignores
    SIGHUP for it (`trap '' HUP`, inherited through exec), so only the dashboard's own look at its terminal can end
    it."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    session = Tmux(f"svctui-hup-{os.getpid()}", "dash")
    pid_file = tmp_path / "pid"
    env = [arg for name, value in os.environ.items() if name.startswith("SVCTUI_") for arg in ("-e", f"{name}={value}")]
    command = f"echo $$ > {pid_file}; trap '' HUP; exec env -u COLUMNS -u LINES {BINARY} --demo"
    session.run("new-session", "-d", "-s", "dash", "-x", "100", "-y", "30", "-c", str(tmp_path), *env, command)
    try:
        session.wait_for("rows 1\u2013100 of 200")
        pid = int(pid_file.read_text())
        assert _running(pid)
    finally:
        session.run("kill-server")
    end = time.monotonic() + DEADLINE
    while _running(pid) and time.monotonic() < end:
        time.sleep(0.2)
    if _running(pid):  # what it was doing, for the report
        threads = sorted(Path(f"/proc/{pid}/task").glob("*"))
        doing = [f"{(t / 'comm').read_text().strip()} {(t / 'wchan').read_text()}" for t in threads]
        raise AssertionError(f"the dashboard outlived its terminal: {doing}")
