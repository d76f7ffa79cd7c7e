"""svctui's ApiClient against the demo server over loopback, for every endpoint, and its errors."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import EnterpriseOnly, Forbidden, NotFound, ServerError, Unauthorized
from svctui.api.filters import COMPLETED_TASKS, EVENTS, SELECTORS, Filter, SortKey
from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from tests.integration.demo_http import client_ids, own_server, scalar

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def api(demo: DemoServer, max_retries: int = 2) -> ApiClient:
    notices: list[str] = []
    auth = SignatureAuth(demo.token_id, demo.token_key)
    return ApiClient(demo.base_url, auth, max_retries=max_retries, on_deprecation=notices.append)


async def test_probe_tells_the_edition(demo_server: DemoServer, demo_server_community: DemoServer) -> None:
    async with api(demo_server) as enterprise, api(demo_server_community) as community:
        assert (await enterprise.probe()).edition == "enterprise"
        assert (await community.probe()).edition == "community"


async def test_events_filters_sort_and_pages(demo_server: DemoServer) -> None:
    weekly = Filter.build(EVENTS, "rrule", "~eq", "WEEKLY")
    async with api(demo_server) as client:
        every = [event.id async for event in client.events.iter(page_size=37)]
        assert every == list(range(1, 201))
        page = await client.events.list([weekly], [SortKey.parse(EVENTS, "-id")], limit=5, skip=2)
        weekly_ids = [e.id async for e in client.events.iter([weekly], [SortKey.parse(EVENTS, "-id")], page_size=500)]
        assert page.count == len(weekly_ids) and [e.id for e in page.data] == weekly_ids[2:7]
        assert all("WEEKLY" in event.rrule for event in page.data)
        bare = await client.events.list(limit=3, hydrate_domains=False, hydrate_ous=False)
        assert all(
            domain.name == "" and domain.objectid.startswith("S-1-5-21-") for e in bare.data for domain in e.domains
        )


async def test_completed_tasks_and_jobs(demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server.db_path)[0]
    failed = Filter.build(COMPLETED_TASKS, "status", "eq", "failed")
    since = Filter.build(COMPLETED_TASKS, "execution_time", "gte", "2026-02-01T00:00:00Z")
    expected = scalar(
        demo_server.db_path,
        "SELECT COUNT(*) FROM tasks WHERE client_id = ? AND status = 5 AND execution_time >= ?",
        (client_id, 1769904000 * 1_000_000),
    )
    async with api(demo_server) as client:
        old = await client.tasks.list(client_id, [failed, since], endpoint="completed-tasks")
        new = await client.tasks.list(client_id, [failed, since], endpoint="completed-jobs")
        assert old.count == new.count == expected > 0
        assert all(task.status == 5 and task.status_label == "Failed" for task in new.data)
        assert client.deprecation_notices, "completed-tasks is deprecated"
        total = [t.id async for t in client.tasks.iter(client_id, page_size=250, endpoint="completed-jobs")]
        assert total == sorted(total) and len(total) == scalar(
            demo_server.db_path, "SELECT COUNT(*) FROM tasks WHERE client_id = ?", (client_id,)
        )
        with pytest.raises(NotFound) as unknown:
            await client.tasks.list(str(uuid.uuid4()), endpoint="completed-jobs")
    assert "resource not found" in unknown.value.user_message()


async def test_tags_and_selectors(demo_server: DemoServer) -> None:
    async with api(demo_server) as client:
        tags = await client.tags.list()
        assert [tag.name for tag in tags][:2] == ["Tier Zero", "Owned"]
        first = await client.selectors.list(1)
        assert first.limit == 50 and len(first.data.selectors) == 50 and first.count > 50
        everything = await client.selectors.list(1, limit=-1)
        paged = [s.id async for s in client.selectors.iter(1, page_size=25)]
        assert [s.id for s in everything.data.selectors] == paged and len(paged) == first.count
        defaults = await client.selectors.list(1, [Filter.build(SELECTORS, "is_default", "eq", "true")], limit=-1)
        assert defaults.count > 0 and all(s.is_default for s in defaults.data.selectors)
        one = await client.selectors.get(1, paged[0])
        assert one.id == paged[0] and one.asset_group_tag_id == 1


async def test_delete_through_the_client(fresh_demo_server: DemoServer) -> None:
    async with api(fresh_demo_server) as client:
        selectors = (await client.selectors.list(1, limit=-1)).data.selectors
        victim = next(s for s in selectors if not s.is_default)
        default = next(s for s in selectors if s.is_default)
        await client.selectors.delete(1, victim.id)
        with pytest.raises(NotFound):
            await client.selectors.delete(1, victim.id)
        with pytest.raises(NotFound):
            await client.selectors.get(1, victim.id)
        with pytest.raises(Forbidden) as refused:
            await client.selectors.delete(1, default.id)
    assert "cannot delete a default selector" in refused.value.user_message()


async def test_client_errors_from_the_demo(demo_server: DemoServer, demo_server_community: DemoServer) -> None:
    wrong = ApiClient(demo_server.base_url, SignatureAuth(demo_server.token_id, "wrong-key"))
    async with wrong:
        with pytest.raises(Unauthorized) as denied:
            await wrong.tags.list()
    assert "digest validation failed" in denied.value.user_message()
    async with api(demo_server_community) as community:
        with pytest.raises(EnterpriseOnly):
            await community.events.list(limit=1)
        assert len(await community.tags.list()) == 7


async def test_bearer_jwt_client(demo_server: DemoServer) -> None:
    async with ApiClient(demo_server.base_url, BearerAuth(demo_server.jwt)) as client:
        assert len(await client.tags.list()) == 7


async def test_server_errors_surface_after_retries(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, faults=Faults(error_rate=1.0), rate_limit=0) as demo:
        async with api(demo, max_retries=0) as client:
            with pytest.raises(ServerError):
                await client.tags.list()


async def test_client_rides_out_the_rate_limit(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=2) as demo:
        async with api(demo, max_retries=3) as client:
            for _ in range(5):
                assert len(await client.tags.list()) == 7
        assert demo.request_count > 5, "some requests were answered 429 and retried"
