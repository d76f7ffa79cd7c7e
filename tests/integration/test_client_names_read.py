"""The one loop that reads client names (`svctui.ops.client_names`) against the demo server: every named client,
lowercase ids, nothing from a community server, the cache kept and returned when nothing new was read."""

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
        learn_names("lab", {"00000000-0000-4000-8000-000000000001": "old one"})
        merged = await fetch_client_names(api, "lab")
    assert merged == {"00000000-0000-4000-8000-000000000001": "old one", **names} == load_names("lab")


async def test_a_community_server_gives_no_names_and_the_cache_stays(demo_server_community: DemoServer) -> None:
    learn_names("lab", {"00000000-0000-4000-8000-000000000001": "old one"})
    async with client_for(demo_server_community) as api:
        assert await read_client_names(api) == {}
        assert await fetch_client_names(api, "lab") == {"00000000-0000-4000-8000-000000000001": "old one"}
