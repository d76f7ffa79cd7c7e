"""The one loop that reads client names (`svctui.ops.client_names`) against the demo server: every named client,
lowercase ids, the server's list replacing the cache, nothing from a community server, the cache kept and returned
when nothing new was read."""

from __future__ import annotations

import sqlite3

import pytest

from svctui.api.client import ApiClient
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from svctui.ops.client_names import fetch_client_names, read_client_names
from svctui.store.client_names import learn_names, load_names

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def client_for(demo: DemoServer) -> ApiClient:
    """A signed client of the demo server."""
    return ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key))


def named(demo: DemoServer) -> dict[str, str]:
    """Every client with a name, by lowercase id, from the demo's database."""
    with sqlite3.connect(str(demo.db_path)) as conn:
        rows = conn.execute("SELECT id, name FROM clients").fetchall()
    return {str(client_id).lower(): name for client_id, name in rows if name}


async def test_every_named_client_is_read_and_cached(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as api:
        names = await read_client_names(api)
        assert names == named(demo_server) and names
        learn_names("lab", {"00000000-0000-4000-8000-000000000001": "not on this server"})
        fresh = await fetch_client_names(api, "lab")
    assert fresh == names == load_names("lab"), "the server's list replaces the cache: no client it lacks"


async def test_a_community_server_gives_no_names_and_the_cache_stays(demo_server_community: DemoServer) -> None:
    learn_names("lab", {"00000000-0000-4000-8000-000000000001": "old one"})
    async with client_for(demo_server_community) as api:
        assert await read_client_names(api) == {}
        assert await fetch_client_names(api, "lab") == {"00000000-0000-4000-8000-000000000001": "old one"}


async def test_names_are_read_unhydrated_in_full_pages_and_stop_at_the_limit() -> None:
    """Over loopback to a server with more named clients than CLIENT_NAMES_LIMIT (and one without a name): pages of
    MAX_PAGE_SIZE without the domains and OUs, and no more names than the limit."""
    from urllib.parse import parse_qs, urlsplit

    from svctui.api.limits import MAX_PAGE_SIZE
    from svctui.api.signing import BearerAuth
    from svctui.ops.client_names import CLIENT_NAMES_LIMIT
    from tests.support.bad_server import BadServer, Misbehaviour, answer
    from tests.support.recording_server import JWT

    total = CLIENT_NAMES_LIMIT + 2 * MAX_PAGE_SIZE

    def page(line: str) -> Misbehaviour:
        query = parse_qs(urlsplit(line.split()[1]).query)
        skip, limit = int(query.get("skip", ["0"])[0]), int(query["limit"][0])
        items = [
            {"id": f"00000000-0000-4000-8000-{n:012d}".upper(), "name": f"c{n}" if n else ""}
            for n in range(skip, min(skip + limit, total))
        ]
        return answer(200, {"count": total, "skip": skip, "limit": limit, "data": items})

    with BadServer() as bad:
        bad.route = page
        async with ApiClient(bad.base_url, BearerAuth(JWT)) as api:
            names = await read_client_names(api)
    assert len(names) == CLIENT_NAMES_LIMIT and "00000000-0000-4000-8000-000000000000" not in names
    assert names["00000000-0000-4000-8000-000000000001"] == "c1"
    asked = [parse_qs(urlsplit(line.split()[1]).query) for line in bad.requests]
    assert asked  # how many pages: the client reads ahead, so that is its business, not this loop's
    assert all(q["hydrate_domains"] == ["false"] and q["hydrate_ous"] == ["false"] for q in asked)
    assert all(q["limit"] == [str(MAX_PAGE_SIZE)] for q in asked)
