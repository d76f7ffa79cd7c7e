"""The morning check's reads against a demo server at the real limit (55 a second per route): every client's runs
are requested at once, in the completed-jobs route's burst, and not one answer is a 429."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from svctui.api.client import ApiClient
from svctui.api.limiter import burst_size, route_key
from svctui.api.signing import SignatureAuth
from svctui.demo.config import FIXED_ANCHOR, Faults
from svctui.demo.server import DemoServer
from svctui.fleet import MAX_CONCURRENCY, find_fleet, fleet_concurrency, fleet_health

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_every_client_is_fetched_at_once_without_a_429(demo_template_db: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "demo.sqlite3"
    shutil.copyfile(demo_template_db, db_path)
    slow = Faults(latency_ms=300)  # every answer takes 300 ms: the fetches overlap however slow the machine
    with DemoServer(db_path=db_path, rate_limit=55, anchor=FIXED_ANCHOR, faults=slow) as demo:
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
            assert fleet_concurrency(client) == MAX_CONCURRENCY, "no limit seen yet"
            fleet = await find_fleet(client)
            assert client.limiter.limit == 55
            assert fleet_concurrency(client) == min(MAX_CONCURRENCY, burst_size(55)) > len(fleet.members) > 4
            route = route_key("GET", f"/api/v2/clients/{fleet.members[0].client_id}/completed-jobs")
            started: list[int] = []
            acquire = client.limiter.acquire

            async def counted(key: str = "", deadline_at: float | None = None) -> None:
                await acquire(key, deadline_at)
                if key == route:
                    started.append(client.limiter.route(route).pending)

            client.limiter.acquire = counted  # type: ignore[method-assign,assignment]
            before = demo.request_count
            results = await fleet_health(client, fleet.members, FIXED_ANCHOR)
    assert [result.error for result in results] == [None] * len(fleet.members)
    assert demo.request_count - before == len(fleet.members), "one request a client: no 429 to wait out"
    assert max(started) == len(fleet.members), "all in flight together (the old 4 at a time kept it at 4)"
