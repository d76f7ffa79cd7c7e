"""`svctui tasks list CLIENT --all`: peak memory streaming 10,000 tasks vs holding them, and time per 1,000 streamed.

Memory reuses the integration test's probe (tests/integration/test_cli_memory.py): each run is a fresh process whose
own high-water mark (VmHWM in /proc/self/status) is written at exit. `one page` is the same command capped at one
page (interpreter, imports, one page of items); `hoard` fetches the same tasks with the same client into a list.

Time runs the command in-process (click's CliRunner, output captured) against a demo server on loopback, so the
interpreter start does not blur it; streaming and one page alternate.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from bench.harness import Comparison, Measurement, interleaved, summarise
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.server import DemoServer
from tests.integration.test_cli_memory import COMMAND, HOARD, PAGE, TASKS, peak_rss_kib
from tests.support.cli import demo_env, invoke

TIME_PAGE = 1000
MEMORY_REPEATS = 2  # peak RSS barely moves between runs; each round is ~8 s of subprocesses
TIME_REPEATS = 3


def memory(env: dict[str, str], client_id: str, tmp: Path) -> list[Comparison]:
    """Peak RSS of one page, of `--all -o jsonl`, and of holding every task, in alternation."""
    command = [sys.executable, "-c", COMMAND, "tasks", "list", client_id, "--endpoint", "completed-jobs", "--all"]
    command += ["--page-size", str(PAGE), "-o", "jsonl"]
    runs = {
        "one page": [*command, "--limit", str(PAGE)],
        "stream": command,
        "hoard": [sys.executable, "-c", HOARD, client_id, str(PAGE)],
    }
    peaks: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(MEMORY_REPEATS):
        for name, argv in runs.items():
            peaks[name].append(peak_rss_kib(argv, env, tmp / f"{name.replace(' ', '-')}.out"))
    lines = (tmp / "stream.out").read_text().count("\n")
    assert lines == TASKS, f"streamed {lines} lines, expected {TASKS}"
    one_page = summarise(f"one page of {PAGE}", peaks["one page"], "KiB")
    stream = summarise(f"--all -o jsonl ({TASKS:,} tasks)", peaks["stream"], "KiB")
    hoard = summarise(f"{TASKS:,} tasks held in a list", peaks["hoard"], "KiB")

    def growth(measurement: Measurement) -> Measurement:
        return Measurement(
            f"{measurement.label}, above one page",
            measurement.median - one_page.median,
            measurement.best - one_page.best,
            "KiB",
        )

    return [
        Comparison(
            "cli-memory",
            f"peak RSS of `svctui tasks list CLIENT --all -o jsonl` over {TASKS:,} tasks (page size {PAGE})",
            hoard,
            stream,
            "streaming's whole-process peak ÷ a process that fetches the same tasks with the same client and keeps "
            "them in a list. Both include the interpreter and imports; the next row takes those out.",
        ),
        Comparison(
            "cli-memory-growth",
            f"peak RSS above a one-page run ({one_page.median / 1024:.1f} MiB): streaming vs holding",
            growth(hoard),
            growth(stream),
            "what the items themselves cost: streaming keeps one page (plus the writer) at a time, so this "
            "stays small as the task count grows while holding grows with it. The integration test asserts < x0.25.",
        ),
    ]


async def per_thousand(env: dict[str, str], client_id: str) -> Comparison:
    """Time per 1,000 items: `--all` over every task vs one page of 1,000 (same page size), in-process."""
    base = ["tasks", "list", client_id, "--endpoint", "completed-jobs", "-o", "jsonl"]

    def run(args: list[str], expected: int) -> None:
        result = invoke(args, env=env)
        assert result.exit_code == 0, result.stderr
        assert result.stdout.count("\n") == expected

    async def one_page() -> None:
        await asyncio.to_thread(run, [*base, "--limit", str(TIME_PAGE)], TIME_PAGE)

    async def stream() -> None:
        await asyncio.to_thread(run, [*base, "--all", "--page-size", str(TIME_PAGE)], TASKS)

    baseline, subject = await interleaved(
        (f"one page of {TIME_PAGE:,}", one_page),
        (f"--all over {TASKS:,}, per {TIME_PAGE:,}", stream),
        repeats=TIME_REPEATS,
        warmup=False,
    )
    return Comparison(
        "cli-stream-time",
        f"`tasks list --all -o jsonl`: time per {TIME_PAGE:,} tasks streamed vs one page of {TIME_PAGE:,}",
        baseline,
        subject.scaled(TIME_PAGE / TASKS),
        f"{TASKS // TIME_PAGE} pages of {TIME_PAGE:,} (fetch, validate, write JSON lines) ÷ one such page, "
        "in-process (no interpreter start). ~x1 = streaming costs no more per item than a single page; the "
        "one-page run also pays the command's fixed set-up (profile, client) that streaming spreads over 10 pages.",
    )


def run() -> list[Comparison]:
    """Memory and time of streaming against a demo server holding one client with 10,000 tasks."""
    sizes = DemoSizes(clients=1, events=20, tasks=TASKS, tags=2, selectors=10)
    with (
        tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp,
        DemoServer(sizes=sizes, db_path=Path(tmp) / "demo.sqlite3", rate_limit=0, anchor=FIXED_ANCHOR) as demo,
    ):
        isolated = {f"SVCTUI_{name}_DIR": str(Path(tmp) / name.lower()) for name in ("CONFIG", "DATA", "STATE")}
        env = demo_env(demo, **isolated)  # the demo is the profile; no user config is read
        listed = invoke(["events", "list", "--limit", "1", "-o", "json"], env=env)
        client_id: str = json.loads(listed.stdout)[0]["client_id"]
        return [*memory(env, client_id, Path(tmp)), asyncio.run(per_thousand(env, client_id))]
