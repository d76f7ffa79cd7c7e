"""`GET /api/v2/clients` and `/clients/{id}` on the demo server: the real shape, filters, sort, and the editions."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import EnterpriseOnly, NotFound
from svctui.api.filters import CLIENTS as CLIENTS_SPEC
from svctui.api.filters import Filter, FilterError, SortKey
from svctui.api.models import ClientResponse, CollectionClient, Page, parse_json
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth
from svctui.demo.data_health import FLEET_NEW_CLIENT
from svctui.demo.server import DemoServer
from tests.support.demo_http import all_items, client_ids, error_of, raw, scalar, signed

CLIENTS = "/api/v2/clients"
SHAPE = {
    "id",
    "provided_identifier",
    "name",
    "hostname",
    "ip_address",
    "configured_user",
    "version",
    "type",
    "last_checkin",
    "current_job_id",
    "current_job",
    "current_task_id",
    "current_task",
    "completed_job_count",
    "completed_task_count",
    "domain_controller",
    "user_sid",
    "events",
    "token",
    "created_at",
    "updated_at",
    "deleted_at",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def client(demo_server: DemoServer) -> Any:
    with signed(demo_server) as http:
        yield http


def test_clients_shape_names_and_counts_agree_with_the_tasks(client: httpx.Client, demo_server: DemoServer) -> None:
    response = client.get(CLIENTS)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"count", "skip", "limit", "data"} and body["limit"] == 0
    assert all(set(item) == SHAPE for item in body["data"])
    identifiers = {item["type"]: item["provided_identifier"] for item in body["data"]}
    assert identifiers["sharphound"] is None and isinstance(identifiers["azurehound"], str)  # nullable, as newest
    page = parse_json(Page[CollectionClient], response.content)
    assert page.count == len(page.data) == scalar(demo_server.db_path, "SELECT COUNT(*) FROM clients")
    by_id = {item.id: item for item in page.data}
    never_ran = {item.id for item in page.data if item.name == FLEET_NEW_CLIENT}
    assert set(by_id) == set(client_ids(demo_server.db_path)) | never_ran and len(never_ran) == 1
    for client_id, item in by_id.items():
        tasks = all_items(client, f"{CLIENTS}/{client_id}/completed-tasks")
        expected = set() if client_id in never_ran else {item.name}
        assert {task["client_name"] for task in tasks} == expected, "the names the tasks carry"
        assert item.completed_job_count == len(tasks)
        assert item.type == ("azurehound" if client_id in never_ran else "sharphound")
        assert item.version.startswith("v2.") and item.hostname
        assert item.last_checkin is not None
        assert {event.client_id for event in item.events} <= {client_id}
    events = all_items(client, "/api/v2/events")
    for client_id, item in by_id.items():
        assert sorted(event.id for event in item.events) == sorted(
            e["id"] for e in events if e["client_id"] == client_id
        )
    assert sum(1 for item in page.data if item.current_job_id is not None) == 1
    assert "token" not in page.data[0].model_dump(), "the token is never dumped"


def test_clients_filters_and_sort(client: httpx.Client) -> None:
    everyone = all_items(client, CLIENTS)
    names = sorted(item["name"] for item in everyone)
    assert [item["name"] for item in all_items(client, CLIENTS, [("sort_by", "name")])] == names
    assert [item["name"] for item in all_items(client, CLIENTS, [("sort_by", "-name")])] == names[::-1]
    wanted = everyone[0]["name"]
    assert [item["name"] for item in all_items(client, CLIENTS, [("name", f"eq:{wanted}")])] == [wanted]
    part = wanted.split("-")[1]
    assert wanted in [item["name"] for item in all_items(client, CLIENTS, [("name", f"~eq:{part}")])]
    assert all_items(client, CLIENTS, [("name", f"~eq:{part.lower()}")]) == [], "~eq is case-sensitive"
    busy = all_items(client, CLIENTS, [("completed_job_count", "gt:0"), ("sort_by", "-completed_job_count")])
    counts = [item["completed_job_count"] for item in busy]
    assert counts == sorted(counts, reverse=True) and counts
    page = client.get(CLIENTS, params={"limit": "2", "skip": "1", "sort_by": "name"}).json()
    assert [item["name"] for item in page["data"]] == names[1:3] and page["count"] == len(names)
    assert error_of(client.get(CLIENTS, params={"type": "eq:sharphound"}), 400).endswith(": type")
    assert error_of(client.get(CLIENTS, params={"sort_by": "version"}), 400) == "column format does not support sorting"
    assert error_of(client.get(CLIENTS, params={"name": "gt:a"}), 400).endswith("name gt")


def test_one_client_by_id(client: httpx.Client, demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server.db_path)[0]
    response = client.get(f"{CLIENTS}/{client_id}")
    assert response.status_code == 200, response.text
    one = parse_json(ClientResponse, response.content).data
    assert one.id == client_id and one.name == scalar(
        demo_server.db_path, "SELECT name FROM clients WHERE id = ?", (client_id,)
    )
    assert error_of(client.get(f"{CLIENTS}/{uuid.uuid4()}"), 404) == "resource not found"
    assert error_of(client.get(f"{CLIENTS}/not-a-uuid"), 404) == "id is malformed."


def test_clients_on_community_edition_is_a_plain_404_before_auth(demo_server_community: DemoServer) -> None:
    client_id = client_ids(demo_server_community.db_path)[0]
    with raw(demo_server_community) as anonymous, signed(demo_server_community) as signed_client:
        for response in (
            anonymous.get(CLIENTS),
            signed_client.get(CLIENTS),
            signed_client.get(f"{CLIENTS}/{client_id}"),
        ):
            assert response.status_code == 404
            assert response.headers["content-type"] == "text/plain; charset=utf-8"
            assert response.text == "404 page not found\n"
        tasks = signed_client.get(f"{CLIENTS}/{client_id}/completed-tasks", params={"limit": "1"})
        assert tasks.status_code == 200 and tasks.json()["data"][0]["client_name"], "names come from the tasks there"


# ---------------------------------------------------------------- the resource: client.clients


def api(demo: DemoServer) -> ApiClient:
    return ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key), max_retries=0)


@pytest.mark.anyio
async def test_clients_resource_lists_pages_and_gets(demo_server: DemoServer) -> None:
    async with api(demo_server) as api_client:
        first = await api_client.clients.list(ListQuery(sort=(SortKey("name"),), limit=2))
        assert first.count >= 3 and len(first.data) == 2
        walked = [item async for item in api_client.clients.iter(ListQuery(sort=(SortKey("name"),)), page_size=2)]
        assert [item.name for item in walked] == sorted(item.name for item in walked)
        assert len(walked) == first.count and [item.id for item in walked[:2]] == [item.id for item in first.data]
        named = walked[-1].name
        found = await api_client.clients.list(ListQuery((Filter.build(CLIENTS_SPEC, "name", "~eq", named[2:]),)))
        assert [item.name for item in found.data] == [named]
        one = await api_client.clients.get(walked[0].id.upper())
        assert one.id == walked[0].id and one.name == walked[0].name and "token" not in repr(one)
        with pytest.raises(FilterError, match="cannot sort clients by 'version'"):
            await api_client.clients.list(ListQuery(sort=(SortKey("version"),)))
        with pytest.raises(ValueError, match="client_id must be a uuid"):
            await api_client.clients.get("SHARPHOUND-LAB")
        with pytest.raises(NotFound):
            await api_client.clients.get(str(uuid.uuid4()))


@pytest.mark.anyio
async def test_clients_resource_on_community_says_enterprise_only(demo_server_community: DemoServer) -> None:
    async with api(demo_server_community) as api_client:
        with pytest.raises(EnterpriseOnly) as listing:
            await api_client.clients.list()
        assert "clients listing is an enterprise feature" in listing.value.user_message()
        with pytest.raises(EnterpriseOnly):
            await api_client.clients.get(client_ids(demo_server_community.db_path)[0])
