"""The drop detector finds exactly the drops the demo server seeded, over real HTTP, and nothing else."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.models import CompletedTask
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth
from svctui.demo.db import seeded_drops
from svctui.triage import detect_drops

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def client_ids(db_path: Any) -> list[str]:
    """Every client of the demo database (clients without events included, which the events listing would miss)."""
    with sqlite3.connect(str(db_path)) as conn:
        return [row[0] for row in conn.execute("SELECT id FROM clients ORDER BY id")]


async def all_tasks(client: ApiClient, client_id: str) -> list[CompletedTask]:
    """Every completed task of one client, all pages, over HTTP."""
    return [
        task
        async for task in client.tasks.iter(
            client_id, ListQuery(hydrate_domains=False, hydrate_ous=False, endpoint="completed-jobs"), page_size=1000
        )
    ]


@pytest.fixture
def seeded(demo_server: Any) -> Iterator[set[tuple[int, str, str]]]:
    """The seeded drops as (task id, domain name, count field)."""
    yield {(drop.task_id, drop.domain_name, drop.field) for drop in seeded_drops(demo_server.db_path)}


async def test_detector_finds_exactly_the_seeded_drops(demo_server: Any, seeded: set[tuple[int, str, str]]) -> None:
    assert seeded, "the demo data must contain seeded drops, or this test proves nothing"
    found: set[tuple[int, str, str]] = set()
    task_total = 0
    auth = SignatureAuth(demo_server.token_id, demo_server.token_key)
    async with ApiClient(demo_server.base_url, auth) as client:
        for client_id in client_ids(demo_server.db_path):
            tasks = await all_tasks(client, client_id)
            task_total += len(tasks)
            found |= {(drop.task_id, drop.domain_name, drop.field) for drop in detect_drops(tasks)}
    missed, extra = seeded - found, found - seeded
    print(f"drop detection: {task_total} tasks, {len(seeded)} seeded drops, {len(found)} found")
    assert not missed, f"seeded drops not found: {sorted(missed)[:10]}"
    assert not extra, f"drops found that were not seeded: {sorted(extra)[:10]}"


async def test_a_stricter_threshold_finds_a_subset(demo_server: Any, seeded: set[tuple[int, str, str]]) -> None:
    """Seeded drops are 35-60 %: a 50 % threshold finds some of them and nothing outside them."""
    auth = SignatureAuth(demo_server.token_id, demo_server.token_key)
    found: set[tuple[int, str, str]] = set()
    async with ApiClient(demo_server.base_url, auth) as client:
        for client_id in client_ids(demo_server.db_path):
            tasks = await all_tasks(client, client_id)
            found |= {(d.task_id, d.domain_name, d.field) for d in detect_drops(tasks, threshold=0.5)}
    assert found < seeded
