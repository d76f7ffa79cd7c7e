"""The demo server: generating its data at scale, and what a real list request costs over loopback.

Generation is `prepare_database(..., reset=True)`, the entry `svctui demo-server` and `svctui --demo` use (schema,
seeded data, indexes, credentials) into a temporary file, with the fixed anchor so every run builds the same data.

Requests go through the real client (`ApiClient`, keep-alive connection) to a `DemoServer` on loopback with the rate
limit off. Each timed sample is a batch of requests; baseline and subject alternate batch by batch.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx

from bench.harness import Comparison, compare, interleaved
from svctui.api.client import ApiClient
from svctui.api.filters import EVENTS, parse_filters
from svctui.api.query import ListQuery
from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.dataset import prepare_database
from svctui.demo.server import DemoServer

BIG_TASKS = 50_000
BATCH = 20  # requests per timed sample
LIMIT = 50
FILTERS = parse_filters(EVENTS, ["rrule=~eq:WEEKLY", "session_collection=eq:true"])


def _generate(sizes: DemoSizes) -> Callable[[], object]:
    def build() -> object:
        with tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp:
            return prepare_database(Path(tmp) / "demo.sqlite3", seed=1, sizes=sizes, anchor=FIXED_ANCHOR, reset=True)

    return build


def generation() -> Comparison:
    """Default data set vs one with 50,000 completed tasks."""
    default = DemoSizes()
    big = DemoSizes(tasks=BIG_TASKS)
    return compare(
        "demo-generate",
        f"generate the demo database: default sizes ({default.tasks:,} tasks) vs {BIG_TASKS:,} tasks",
        (f"default ({default.tasks:,} tasks, {default.events} events)", _generate(default)),
        (f"{BIG_TASKS:,} tasks", _generate(big)),
        repeats=3,
        warmup=False,
        note=f"cost of scale: x{BIG_TASKS / default.tasks:.1f} the tasks. Generation is only paid on first start "
        "(the database is reused while seed and sizes match).",
    )


def _batch(call: Callable[[], Awaitable[object]]) -> Callable[[], Awaitable[None]]:
    async def run() -> None:
        for _ in range(BATCH):
            await call()

    return run


async def _requests(demo: DemoServer) -> list[Comparison]:
    signed = ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key), max_retries=0)
    bearer = ApiClient(demo.base_url, BearerAuth(demo.jwt), max_retries=0)
    async with signed, bearer, httpx.AsyncClient(base_url=demo.base_url) as bare:

        async def not_found() -> None:
            response = await bare.get("/bench-no-such-route")
            assert response.status_code == 404

        async def filtered() -> None:
            page = await signed.events.list(ListQuery(tuple(FILTERS), limit=LIMIT))
            assert page.data

        shown = (await signed.events.list(ListQuery(tuple(FILTERS), limit=LIMIT))).data
        rows = len(shown)

        async def unfiltered() -> None:
            assert len((await signed.events.list(ListQuery(limit=rows))).data) == rows

        async def filtered_bearer() -> None:
            assert (await bearer.events.list(ListQuery(tuple(FILTERS), limit=LIMIT))).data

        query = " & ".join(str(f) for f in FILTERS)
        pairs = {
            "round-trip": (("unsigned GET of an unrouted path (404)", not_found), ("signed filtered list", filtered)),
            "filters": (("signed list, no filters", unfiltered), ("signed list, 2 filters", filtered)),
            "signature": (("filtered list, Bearer JWT", filtered_bearer), ("filtered list, signed", filtered)),
        }
        timed = {}
        for key, ((base_label, base_call), (subject_label, subject_call)) in pairs.items():
            timed[key] = await interleaved(
                (base_label, _batch(base_call)), (subject_label, _batch(subject_call)), repeats=7
            )
    per_request = {key: (b.scaled(1 / BATCH), s.scaled(1 / BATCH)) for key, (b, s) in timed.items()}
    return [
        Comparison(
            "demo-request",
            f"one events request over loopback: {query}, limit {LIMIT} ({rows} rows) vs a bare round trip",
            *per_request["round-trip"],
            "what a real list request costs over the cheapest request the same server answers (routing miss, "
            "plain-text 404): client signing, server verification (token lookup in SQLite), the SQL query with "
            "domain/OU hydration, JSON out, and validation into Page[Event].",
        ),
        Comparison(
            "demo-filters",
            f"signed events request, {rows} rows either way: 2 filters vs none (limit {rows})",
            *per_request["filters"],
            "cost of filtering, same number of rows returned: the server parses, validates and compiles the "
            "filters to bound SQL and scans for matches; the client validates and renders them.",
        ),
        Comparison(
            "demo-signature",
            "filtered events request: Bearer JWT vs HMAC signature (token id + key)",
            *per_request["signature"],
            "end-to-end overhead of the signature scheme over a JWT: three HMACs on the client, the token "
            "lookup and three HMACs on the server.",
        ),
    ]


def requests() -> list[Comparison]:
    """The three request comparisons against a default-size demo server."""
    with (
        tempfile.TemporaryDirectory(prefix="svctui-bench-") as tmp,
        DemoServer(db_path=Path(tmp) / "demo.sqlite3", rate_limit=0, anchor=FIXED_ANCHOR) as demo,
    ):
        return asyncio.run(_requests(demo))


def run() -> list[Comparison]:
    """Generation at scale, then request round trips."""
    return [generation(), *requests()]
