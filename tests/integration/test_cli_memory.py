"""`--all` over 10,000 tasks streams in constant memory: peak RSS of the command against a same-run baseline.

The peak is the process's own high-water mark (VmHWM in /proc/self/status, read at exit). wait4's ru_maxrss
is not used: it also counts the pages of the forking test process before exec, so it would measure pytest.

Baseline 1 (`one page`): the same command capped at one page — interpreter, imports and one page of items.
Baseline 2 (`hoard`): a process that fetches the same 10,000 tasks with the same client and keeps them in a list.
Streaming every format must grow the peak by well under a quarter of what holding the items costs.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.server import DemoServer
from tests.support.cli import DemoLike, demo_env, invoke, jsonl_items

TASKS = 10_000
PAGE = 500

HIGH_WATER = """
import atexit, os, sys

def _report() -> None:
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            with open(os.environ["HWM_FILE"], "w") as out:
                out.write(line.split()[1])

atexit.register(_report)
"""

# the console script's own entry point, with the high-water report
COMMAND = (
    HIGH_WATER
    + """
from svctui.cli import main
sys.argv = ["svctui", *sys.argv[1:]]
main()
"""
)

HOARD = (
    HIGH_WATER
    + """
import asyncio
from svctui.api.query import ListQuery
from svctui.connect import open_client
from svctui.store.profiles import ProfileStore

async def main() -> None:
    async with open_client(ProfileStore().resolve(None)) as client:
        tasks = client.tasks.iter(sys.argv[1], ListQuery(endpoint="completed-jobs"), page_size=int(sys.argv[2]))
        items = [task async for task in tasks]
    print(len(items))

asyncio.run(main())
"""
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def big_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoLike]:
    """A demo server whose only client has 10,000 completed tasks."""
    sizes = DemoSizes(clients=1, events=20, tasks=TASKS, tags=2, selectors=10)
    db_path = tmp_path_factory.mktemp("cli-big") / "demo.sqlite3"
    with DemoServer(sizes=sizes, db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR) as demo:
        yield demo


@pytest.fixture(scope="module")
def big_client(big_server: DemoLike) -> str:
    result = invoke(["events", "list", "--limit", "1", "-o", "json"], env=demo_env(big_server))
    assert result.exit_code == 0, result.stderr
    client_id: str = json.loads(result.stdout)[0]["client_id"]
    return client_id


def peak_rss_kib(argv: list[str], env: dict[str, str], out: Path) -> int:
    """Run `argv` with stdout to `out`; return the process's own peak resident set size (KiB)."""
    hwm = out.with_suffix(".hwm")
    err = out.with_suffix(".err")
    with out.open("wb") as stdout, err.open("wb") as stderr:
        done = subprocess.run(argv, stdout=stdout, stderr=stderr, env={**os.environ, **env, "HWM_FILE": str(hwm)})
    assert done.returncode == 0, err.read_text()
    return int(hwm.read_text())


def test_all_streams_10000_tasks_in_flat_memory(
    big_server: DemoLike, big_client: str, tmp_path: Path, record_property: Callable[[str, object], None]
) -> None:
    env = demo_env(big_server)
    tasks_cmd = [sys.executable, "-c", COMMAND, "tasks", "list", big_client, "--endpoint", "completed-jobs", "--all"]
    tasks_cmd += ["--page-size", str(PAGE)]

    one_page = peak_rss_kib([*tasks_cmd, "--limit", str(PAGE), "-o", "jsonl"], env, tmp_path / "one.jsonl")
    hoard = peak_rss_kib([sys.executable, "-c", HOARD, big_client, str(PAGE)], env, tmp_path / "hoard.txt")
    assert (tmp_path / "hoard.txt").read_text().strip() == str(TASKS)
    hoard_growth = hoard - one_page
    assert hoard_growth > 0

    peaks: dict[str, int] = {}
    for fmt in ("jsonl", "csv", "json", "table"):
        out = tmp_path / f"all.{fmt}"
        peaks[fmt] = peak_rss_kib([*tasks_cmd, "-o", fmt], {**env, "COLUMNS": "120"}, out)
        text = out.read_text()
        if fmt == "jsonl":
            ids = [item["id"] for item in jsonl_items(text)]
        elif fmt == "json":
            ids = [item["id"] for item in json.loads(text)]
        elif fmt == "csv":
            ids = [int(row["id"]) for row in csv.DictReader(text.splitlines())]
        else:
            header, *lines = text.splitlines()
            at = header.index("MESSAGE")  # a long message continues below its row, blank up to the message
            rows = [line for line in lines if line[:at].strip()]
            ids = [int(line.split()[0]) for line in rows]
        assert len(ids) == TASKS and len(set(ids)) == TASKS, fmt

    report = {"one_page_kib": one_page, "hoard_kib": hoard, **{f"{k}_kib": v for k, v in peaks.items()}}
    record_property("memory", report)
    print("\nmemory (peak RSS, KiB):", json.dumps(report))
    for fmt, peak in peaks.items():
        growth = peak - one_page
        assert growth < hoard_growth / 4, f"{fmt}: streaming grew {growth} KiB, holding all grew {hoard_growth} KiB"
