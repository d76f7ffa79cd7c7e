"""Resident memory of the dashboard after paging through 100,000 tasks, against the same app after one page.

Each side is a fresh process (bench/rss_probe.py) running the real dashboard headless (`run_test`) on the tasks
screen of a demo client with 100,000 completed tasks, page size 1,000 (Settings(page_size=1000)), against a demo
server in this process (rate limit off). The subject presses `]` page by page to the last page (100 pages); the
baseline stops after the first page. Both report their peak resident set (VmHWM from /proc/self/status) at exit.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.harness import Comparison, Measurement
from bench.support import demo_profile_env, only_client
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.server import DemoServer

TASKS = 100_000
PAGE = 1000
SIZES = DemoSizes(clients=1, events=20, tasks=TASKS, tags=2, selectors=10)
ROOT = Path(__file__).resolve().parent.parent


def probe(mode: str, client_id: str, env: dict[str, str]) -> dict[str, int]:
    """Run the probe in a fresh process; its JSON line."""
    result = subprocess.run(
        [sys.executable, "-m", "bench.rss_probe", mode, client_id, str(PAGE)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"rss_probe {mode} exited {result.returncode}: {result.stderr[-1500:]}")
    answer: dict[str, int] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def run() -> list[Comparison]:
    """One process per side (peak RSS barely moves between runs; the paging side takes a while)."""
    with (
        tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp,
        DemoServer(sizes=SIZES, db_path=Path(tmp) / "demo.sqlite3", rate_limit=0, anchor=FIXED_ANCHOR) as demo,
    ):
        env = demo_profile_env(Path(tmp), demo)
        client_id = only_client(demo)
        first = probe("first", client_id, env)
        every = probe("all", client_id, env)
    assert every["pages"] == TASKS // PAGE, every
    return [
        Comparison(
            "rss-100k",
            f"peak RSS of the dashboard (headless) after paging with `]` through {TASKS:,} tasks on the tasks "
            f"screen, page size {PAGE:,}, vs the same app after the first page",
            Measurement("first page only", first["VmHWM"], first["VmHWM"], "KiB"),
            Measurement(f"{every['pages']} pages of {PAGE:,}", every["VmHWM"], every["VmHWM"], "KiB"),
            f"one process each; issue budget ≤ 150 MB for the subject (here {every['VmHWM'] / 1024:.1f} MiB peak, "
            f"{every['VmRSS'] / 1024:.1f} MiB resident at the end; first page {first['VmHWM'] / 1024:.1f} MiB peak). "
            "Both include the interpreter, Textual, the client's history (the newest tasks for the plot) and the "
            "pilot harness.",
        )
    ]
