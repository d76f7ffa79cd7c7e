"""`svctui tasks list CLIENT --all -o jsonl --page-size 1000` over 4,000 tasks: records/s against a bare client.

Subject: the whole command as a fresh process (interpreter start, imports, profile from the environment, every
page fetched, validated and written as JSON lines to /dev/null), against a demo server on loopback (rate limit off)
holding one client with 4,000 completed tasks. Baseline: in this process, the same pages (same path, same query
string, same page size, hydration on as the command asks) fetched with stdlib http.client over one keep-alive
connection, each request signed with svctui.api.signing.compute_signature the way SignatureAuth signs (method +
path with query string, RequestDate, body), the body parsed with json.loads. The two alternate, run by run.
"""

from __future__ import annotations

import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from bench.harness import Comparison, Measurement
from bench.support import demo_profile_env, only_client
from svctui.api.filters import COMPLETED_TASKS
from svctui.api.query import ListQuery
from svctui.api.resources import list_params
from svctui.api.signing import compute_signature, rfc3339_now
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.server import DemoServer

TASKS = 4000
PAGE = 1000
REPEATS = 5
ENDPOINT = "completed-tasks"  # the command's default
SIZES = DemoSizes(clients=1, events=20, tasks=TASKS, tags=2, selectors=10)


def stdlib_pages(demo: DemoServer, client_id: str) -> int:
    """Every page of the client's tasks through http.client + json.loads, signed; the number of records."""
    url = urlsplit(demo.base_url)
    connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port)
    path = f"/api/v2/clients/{client_id}/{ENDPOINT}"
    query = ListQuery(hydrate_domains=True, hydrate_ous=True)
    records, skip = 0, 0
    try:
        while True:
            target = f"{path}?{urlencode(list_params(COMPLETED_TASKS, query.page(skip, PAGE)))}"
            date = rfc3339_now()
            headers = {
                "Authorization": f"bhesignature {demo.token_id}",
                "RequestDate": date,
                "Signature": compute_signature(demo.token_key, "GET", target, date, b""),
            }
            connection.request("GET", target, headers=headers)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise RuntimeError(f"baseline request answered {response.status}: {body[:200]!r}")
            page = json.loads(body)
            got = len(page["data"])
            records += got
            skip += got
            if got == 0 or skip >= page["count"]:
                return records
    finally:
        connection.close()


def command_pages(argv: list[str], env: dict[str, str]) -> None:
    """Run the command with its output to /dev/null; fail loudly if it fails."""
    result = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[1:4])} exited {result.returncode}: {result.stderr.decode()[-500:]}")


def run() -> list[Comparison]:
    """REPEATS rounds, the stdlib loop then the command; records/s of each."""
    with (
        tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp,
        DemoServer(sizes=SIZES, db_path=Path(tmp) / "demo.sqlite3", rate_limit=0, anchor=FIXED_ANCHOR) as demo,
    ):
        env = demo_profile_env(Path(tmp), demo)
        client_id = only_client(demo)
        binary = str(Path(sys.executable).with_name("svctui"))
        argv = [binary, "tasks", "list", client_id, "--all", "-o", "jsonl", "--page-size", str(PAGE)]
        base: list[float] = []
        subject: list[float] = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            records = stdlib_pages(demo, client_id)
            base.append(records / (time.perf_counter() - start))
            assert records == TASKS, f"the baseline read {records} records, expected {TASKS}"
            start = time.perf_counter()
            command_pages(argv, env)
            subject.append(TASKS / (time.perf_counter() - start))
    unit = "records/s"
    return [
        Comparison(
            "cli-throughput",
            f"records/s, HIGHER is better (ratio = command's throughput ÷ baseline's; the issue asks ≥ x0.7): "
            f"`svctui tasks list CLIENT --all -o jsonl --page-size {PAGE}` over {TASKS:,} tasks, whole process, "
            f"vs a signed stdlib http.client + json.loads loop over the same pages",
            Measurement("http.client + json.loads, signed, in-process", statistics.median(base), min(base), unit),
            Measurement(
                f"svctui tasks list --all ({TASKS:,} tasks, fresh process)",
                statistics.median(subject),
                min(subject),
                unit,
            ),
            f"medians of {REPEATS} alternating runs (the `best` of each is its lowest throughput). The subject pays "
            "the interpreter start and imports too; the baseline does not validate into models or write anything.",
        )
    ]
