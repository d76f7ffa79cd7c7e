"""Time to the first data row of the dashboard in tmux, against a bare Textual app's first frame.

Each start is a fresh tmux server on its own socket (120x36, TERM=xterm-256color), timed from the spawn of
`tmux new-session` until `capture-pane` (polled every ~10 ms) shows the marker: the status line's `rows 1-…`
(with an en dash) for the dashboard, `READY` for the bare app (bench/bare_app.py, a Static in an App). The tmux
server is killed after each start. Baseline and subject alternate, so a busy moment on the machine hits both alike.

- `first-row`: `svctui` with an environment profile (SVCTUI_BASE_URL / TOKEN_ID / TOKEN_KEY) against a demo server
  running in this process (rate limit off), config, state and data directories isolated.
- `first-row-demo`: `svctui --demo` on a warm demo database (one untimed start creates it; the data directory is
  reused across the repeats). The subject's time includes spawning the demo server's process (svctui/demo/process.py).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from bench.harness import Comparison, Measurement
from bench.support import isolated_env
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer

REPEATS = 3  # the issue quotes medians of 3; each round is four fresh starts
SIZE = ("120", "36")
POLL = 0.01
DEADLINE = 60.0
BINARY = Path(sys.executable).with_name("svctui")
BARE = Path(__file__).with_name("bare_app.py")
FIRST_ROW = re.compile(r"rows 1\u2013\d")
READY = re.compile(r"READY")
_STARTS = itertools.count()


def _tmux(socket: str, *args: str) -> str:
    result = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=False, timeout=30)
    if result.returncode and args[0] == "new-session":
        raise RuntimeError(f"tmux {args[0]} failed: {result.stderr.strip()}")
    return result.stdout


def time_to_marker(command: str, env: Mapping[str, str], marker: re.Pattern[str], cwd: Path) -> float:
    """Seconds from spawning `command` in a fresh tmux server until `marker` shows in its pane."""
    socket = f"bench{os.getpid()}-{next(_STARTS)}"  # a fresh server each time: reusing a name races its exit
    env_args = [arg for name, value in env.items() for arg in ("-e", f"{name}={value}")]
    start = time.perf_counter()
    try:
        _tmux(socket, "new-session", "-d", "-s", "bench", "-x", SIZE[0], "-y", SIZE[1], "-c", str(cwd), *env_args,
              f"env -u COLUMNS -u LINES {command}")  # fmt: skip
        end = start + DEADLINE
        screen = ""
        while time.perf_counter() < end:
            screen = _tmux(socket, "capture-pane", "-p", "-t", "bench")
            if marker.search(screen):
                return time.perf_counter() - start
            time.sleep(POLL)
        raise RuntimeError(f"{marker.pattern!r} never showed for {command!r}; last screen:\n{screen}")
    finally:
        _tmux(socket, "kill-server")
        Path(f"/tmp/tmux-{os.getuid()}/{socket}").unlink(missing_ok=True)


def alternate(name: str, what: str, subject: tuple[str, str, Mapping[str, str]], cwd: Path, note: str) -> Comparison:
    """REPEATS starts of the bare app and of `subject` (label, command, env) in alternation; medians."""
    label, command, env = subject
    bare_env = {"TERM": "xterm-256color"}
    bare_command = f"{sys.executable} {BARE}"
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(REPEATS):
        samples[0].append(time_to_marker(bare_command, bare_env, READY, cwd))
        samples[1].append(time_to_marker(command, env, FIRST_ROW, cwd))
    base, subj = samples
    return Comparison(
        name,
        what,
        Measurement("bare Textual app: first frame (READY)", statistics.median(base), min(base)),
        Measurement(label, statistics.median(subj), min(subj)),
        f"medians of {REPEATS} starts in tmux 120x36, polled every {POLL * 1000:.0f} ms. {note}",
    )


def run() -> list[Comparison]:
    """Both rows, or none when tmux or the installed `svctui` is missing."""
    if shutil.which("tmux") is None or not BINARY.exists():
        print("  tmux or .venv/bin/svctui missing: first-row rows skipped", file=sys.stderr)
        return []
    # ignore_cleanup_errors: a `--demo` child may still be closing its SQLite files as the directory goes
    with tempfile.TemporaryDirectory(prefix="svctui-bench-", ignore_cleanup_errors=True) as tmp:
        root = Path(tmp)
        with DemoServer(db_path=root / "server.sqlite3", rate_limit=0, anchor=FIXED_ANCHOR) as demo:
            env = {
                **isolated_env(root / "env-profile"),
                "SVCTUI_BASE_URL": demo.base_url,
                "SVCTUI_TOKEN_ID": demo.token_id,
                "SVCTUI_TOKEN_KEY": demo.token_key,
            }
            served = alternate(
                "first-row",
                "fresh `svctui` (environment profile, demo server running): spawn → first data row in tmux",
                ("svctui: first data row (rows 1\u2013…)", str(BINARY), env),
                root,
                "The server runs in the bench process (rate limit off), so the subject's time is its own start, "
                "imports, first request and first frame.",
            )
        demo_env = isolated_env(root / "demo")
        time_to_marker(f"{BINARY} --demo", demo_env, FIRST_ROW, root)  # creates the demo database, not timed
        warm = alternate(
            "first-row-demo",
            "fresh `svctui --demo` on a warm demo database: spawn → first data row in tmux",
            ("svctui --demo: first data row (rows 1\u2013…)", f"{BINARY} --demo", demo_env),
            root,
            "The demo database was created by one untimed start; every timed start reuses it (no generation), "
            "but still starts the demo server (a child process).",
        )
        return [served, warm]
