"""svctui's ApiClient against the demo server over loopback, for every endpoint, and its errors."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import uuid
import warnings
from collections.abc import AsyncGenerator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import (
    ApiStatusError,
    BadRequest,
    EnterpriseOnly,
    Forbidden,
    NotFound,
    ServerError,
    Unauthorized,
)
from svctui.api.filters import COMPLETED_TASKS, EVENTS, SELECTORS, Filter, SortKey
from svctui.api.query import ListQuery
from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from tests.support.demo_http import client_ids, own_server, scalar

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def quiet_demo(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    """A server of this module's own, so its request counter sees only this module's requests."""
    with own_server(demo_template_db, tmp_path_factory.mktemp("quiet-demo"), rate_limit=0) as demo:
        yield demo


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
        page = await client.events.list(ListQuery((weekly,), (SortKey.parse(EVENTS, "-id"),), skip=2, limit=5))
        weekly_ids = [
            e.id async for e in client.events.iter(ListQuery((weekly,), (SortKey.parse(EVENTS, "-id"),)), page_size=500)
        ]
        assert page.count == len(weekly_ids) and [e.id for e in page.data] == weekly_ids[2:7]
        assert all("WEEKLY" in event.rrule for event in page.data)
        bare = await client.events.list(ListQuery(limit=3, hydrate_domains=False, hydrate_ous=False))
        assert all(
            domain.name == "" and domain.objectid.startswith("S-1-5-21-") for e in bare.data for domain in e.domains
        )


async def test_pages_read_two_pages_ahead_and_stopping_early_cancels_them(demo_server: DemoServer) -> None:
    async with api(demo_server) as client:
        pages = client.events.pages(ListQuery(hydrate_domains=False, hydrate_ous=False), page_size=50)
        assert isinstance(pages, AsyncGenerator)
        async with contextlib.aclosing(pages):
            first = await anext(pages)
            assert [e.id for e in first.data] == list(range(1, 51))
            assert client.requests_sent == 3  # pages 2 and 3 are on their way before page 1 is handed over
            assert [e.id for e in (await anext(pages)).data] == list(range(51, 101))
            assert client.requests_sent == 4  # and page 4 before page 2
        assert client.requests_sent == 4  # closing cancelled pages 3 and 4: nothing more
        await asyncio.sleep(0.05)
        assert client.requests_sent == 4
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            every = [event.id async for event in client.events.iter(page_size=64)]
        assert every == list(range(1, 201))  # 4 pages, each once, in order: 64 + 64 + 64 + 8
        assert client.requests_sent == 8


async def test_a_read_response_is_freed_without_a_garbage_collection(demo_server: DemoServer) -> None:
    """httpx's stream refers back to its response: the client drops it after reading, so no cycle keeps the body
    alive until a full collection (rare in the dashboard: svctui.startup)."""
    async with api(demo_server) as client:
        await client.events.list(ListQuery(limit=5))  # the connection and everything else made once
        gc.collect()
        gc.disable()
        try:
            page = await client.events.list(ListQuery(limit=50))
            alive = [item for item in gc.get_objects() if isinstance(item, httpx.Response)]
        finally:
            gc.enable()
    assert len(page.data) == 50
    assert alive == [], "the response (and its body) went with its last reference"


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
        old = await client.tasks.list(client_id, ListQuery((failed, since), endpoint="completed-tasks"))
        new = await client.tasks.list(client_id, ListQuery((failed, since), endpoint="completed-jobs"))
        assert old.count == new.count == expected > 0
        assert all(task.status == 5 and task.status_label == "Failed" for task in new.data)
        assert client.deprecation_notices, "completed-tasks is deprecated"
        total = [t.id async for t in client.tasks.iter(client_id, ListQuery(endpoint="completed-jobs"), page_size=250)]
        assert total == sorted(total) and len(total) == scalar(
            demo_server.db_path, "SELECT COUNT(*) FROM tasks WHERE client_id = ?", (client_id,)
        )
        with pytest.raises(NotFound) as unknown:
            await client.tasks.list(str(uuid.uuid4()), ListQuery(endpoint="completed-jobs"))
    assert "resource not found" in unknown.value.user_message()


async def test_tags_and_selectors(demo_server: DemoServer) -> None:
    async with api(demo_server) as client:
        tags = await client.tags.list()
        names = [tag.name for tag in tags]
        assert names == sorted(names) and {"Tier Zero", "Owned"} <= set(names), "ordered by name, as the real server"
        first_tag = next(tag for tag in tags if tag.name == "Tier Zero")
        assert first_tag.id == 1
        first = await client.selectors.list(1)
        assert first.limit == 50 and len(first.data.selectors) == 50 and first.count > 50
        everything = await client.selectors.list(1, ListQuery(limit=-1))
        paged = [s.id async for s in client.selectors.iter(1, page_size=25)]
        assert [s.id for s in everything.data.selectors] == paged and len(paged) == first.count
        defaults = await client.selectors.list(
            1, ListQuery((Filter.build(SELECTORS, "is_default", "eq", "true"),), limit=-1)
        )
        assert defaults.count > 0 and all(s.is_default for s in defaults.data.selectors)
        one = await client.selectors.get(1, paged[0])
        assert one.id == paged[0] and one.asset_group_tag_id == 1


async def test_delete_through_the_client(fresh_demo_server: DemoServer) -> None:
    async with api(fresh_demo_server) as client:
        selectors = (await client.selectors.list(1, ListQuery(limit=-1))).data.selectors
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
            await community.events.list(ListQuery(limit=1))
        assert len(await community.tags.list()) == 7


async def test_bearer_jwt_client(demo_server: DemoServer) -> None:
    async with ApiClient(demo_server.base_url, BearerAuth(demo_server.jwt)) as client:
        assert len(await client.tags.list()) == 7


async def test_server_errors_surface_after_retries(demo_template_db: Path, tmp_path: Path) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    with own_server(demo_template_db, tmp_path, faults=Faults(error_rate=1.0), rate_limit=0) as demo:
        auth = SignatureAuth(demo.token_id, demo.token_key)
        async with ApiClient(demo.base_url, auth, max_retries=2, sleep=sleep) as client:
            with pytest.raises(ServerError) as info:
                await client.tags.list()
        assert demo.request_count == 3, "the first try and two retries"
    assert len(waits) == 2
    assert info.value.status == 500 and info.value.request_id is not None
    assert info.value.messages == [
        "an internal error has occurred that is preventing the service from servicing this request"
    ]


async def test_client_rides_out_the_rate_limit(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=2) as demo:
        async with api(demo, max_retries=3) as client:
            for _ in range(5):
                assert len(await client.tags.list()) == 7
        assert demo.request_count == 5, "the client's limiter paced every request under the limit: no 429"


def _auth_cases(demo: DemoServer) -> dict[str, tuple[Any, type[ApiStatusError], str]]:
    """What the client sends for each real authentication failure: (auth, error class, the server's message)."""
    token_id, key = demo.token_id, demo.token_key
    disabled = demo.credentials.disabled
    ahead = (datetime.now(UTC) + timedelta(hours=2)).isoformat(timespec="seconds")
    prefix = "unable to validate request signature for client: "
    return {
        "wrong key": (SignatureAuth(token_id, "wrong-key"), Unauthorized, prefix + "digest validation failed: "),
        "unknown token": (SignatureAuth(str(uuid.uuid4()), key), Unauthorized, prefix + "resource not found"),
        "disabled user": (SignatureAuth(disabled.id, disabled.key), Forbidden, prefix + "user disabled"),
        "token id not a uuid": (SignatureAuth("not-a-uuid", key), BadRequest, "Token ID is malformed."),
        "other scheme": (
            SignatureAuth(token_id, key, scheme_prefix="svc"),
            BadRequest,
            "Unexpected authorization scheme: svcsignature.",
        ),
        "clock two hours ahead": (
            SignatureAuth(token_id, key, clock=lambda: ahead),
            Unauthorized,
            prefix + "signature too far ahead by ",
        ),
        "naive request date": (
            SignatureAuth(token_id, key, clock=lambda: "2026-03-01T12:00:00"),
            BadRequest,
            prefix + "malformed request date: ",
        ),
        "bad JWT": (BearerAuth("not.a.jwt"), Unauthorized, "authentication is invalid"),
        "no auth": (None, Unauthorized, "not authenticated"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "wrong key",
        "unknown token",
        "disabled user",
        "token id not a uuid",
        "other scheme",
        "clock two hours ahead",
        "naive request date",
        "bad JWT",
        "no auth",
    ],
)
async def test_every_auth_failure_reaches_the_client_once_and_readably(quiet_demo: DemoServer, case: str) -> None:
    """Status, the server's message and the request id in the error; a 4xx is never retried."""
    auth, error_class, message = _auth_cases(quiet_demo)[case]
    before = quiet_demo.request_count
    async with ApiClient(quiet_demo.base_url, auth, sleep=_no_sleep) as client:
        with pytest.raises(error_class) as info:
            await client.tags.list()
    error = info.value
    assert quiet_demo.request_count == before + 1, "no retry on a 4xx"
    assert len(error.messages) == 1 and error.messages[0].startswith(message), error.messages
    assert error.request_id is not None and str(uuid.UUID(error.request_id)) == error.request_id
    assert error.user_message().startswith(f"HTTP {error.status} ")
    assert error.messages[0] in error.user_message() and f"(request id {error.request_id})" in error.user_message()


async def test_read_only_token_cannot_delete(fresh_demo_server: DemoServer) -> None:
    token = fresh_demo_server.credentials.read_only
    async with ApiClient(fresh_demo_server.base_url, SignatureAuth(token.id, token.key)) as client:
        victim = next(
            s for s in (await client.selectors.list(1, ListQuery(limit=-1))).data.selectors if not s.is_default
        )
        with pytest.raises(Forbidden) as info:
            await client.selectors.delete(1, victim.id)
        assert (await client.selectors.get(1, victim.id)).id == victim.id, "still there"
    assert info.value.messages == ["not authorized"]


@pytest.mark.parametrize(
    ("wait", "sent", "applied"),
    [
        (None, "wait=30", "wait=30.00"),
        (5, "wait=5", "wait=5.00"),
        (-1, "wait=-1", "wait=-1; bypass=enabled"),
    ],
)
async def test_prefer_wait_is_sent_and_applied(
    demo_server: DemoServer, wait: int | None, sent: str, applied: str | None
) -> None:
    """The default is wait=30; the server applies N > 0 (and -1); the client refuses wait=0."""
    auth = SignatureAuth(demo_server.token_id, demo_server.token_key)
    client = (
        ApiClient(demo_server.base_url, auth)
        if wait is None
        else ApiClient(demo_server.base_url, auth, prefer_wait=wait)
    )
    async with client:
        response = await client.request("GET", "/api/v2/asset-group-tags")
    assert response.request.headers["Prefer"] == sent
    assert response.headers.get("Preference-Applied") == applied


async def test_paging_edges_through_the_client(quiet_demo: DemoServer) -> None:
    async with api(quiet_demo) as client:
        everything = await client.events.list(ListQuery(limit=0))
        assert everything.limit == 0 and len(everything.data) == everything.count == 200
        unlimited = await client.events.list()
        assert unlimited.limit == 0 and len(unlimited.data) == 200
        past = await client.events.list(ListQuery(skip=250, limit=10))
        assert (past.count, past.skip, past.limit, past.data) == (200, 250, 10, [])
        before = quiet_demo.request_count
        pages = [page async for page in client.events.pages(ListQuery(skip=250))]
        assert [len(page.data) for page in pages] == [0] and quiet_demo.request_count == before + 1
        last = [page async for page in client.events.pages(ListQuery(skip=190), page_size=7)]
        assert [len(page.data) for page in last] == [7, 3]
        selectors = await client.selectors.list(1)
        assert selectors.limit == 50 and len(selectors.data.selectors) == 50 < selectors.count
        every_selector = await client.selectors.list(1, ListQuery(limit=-1))
        assert every_selector.limit == 0 and len(every_selector.data.selectors) == selectors.count


async def _no_sleep(seconds: float) -> None:
    """Retries (there must be none) would not wait."""
