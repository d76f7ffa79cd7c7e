"""Selector writes on the demo server over loopback: POST with the real shapes and 400/404/409s, member counts by
kind, DELETE lowering the tag's count, and two concurrent DELETEs of one selector giving exactly one 204."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from svctui.api.models import CreatedSelector, MemberCountsResponse, Seed, SelectorCreate, parse_json
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from tests.integration.demo_http import error_of, signed

TAGS = "/api/v2/asset-group-tags"
SELECTOR_FIELDS = {
    "id",
    "asset_group_tag_id",
    "name",
    "description",
    "created_at",
    "created_by",
    "updated_at",
    "updated_by",
    "disabled_at",
    "disabled_by",
    "auto_certify",
    "is_default",
    "allow_disable",
    "seeds",
}
NEW = {
    "name": "Members of Tier 0 jump hosts (restored)",
    "description": "Jump hosts of the admin forest",
    "auto_certify": 2,
    "seeds": [{"type": 1, "value": "S-1-5-21-1004336348-1177238915-682003330-512"}],
}


@pytest.fixture
def client(fresh_demo_server: DemoServer) -> Iterator[httpx.Client]:
    with signed(fresh_demo_server) as http:
        yield http


def selectors(client: httpx.Client, tag_id: int) -> list[dict[str, Any]]:
    response = client.get(f"{TAGS}/{tag_id}/selectors", params={"limit": "-1"})
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["data"]["selectors"]
    return found


def selector_count(client: httpx.Client, tag_id: int) -> int:
    tags = client.get(TAGS, params={"counts": "true"}).json()["data"]["tags"]
    return int(next(tag for tag in tags if tag["id"] == tag_id)["counts"]["selectors"])


def test_post_creates_a_selector_with_the_real_answer(client: httpx.Client) -> None:
    before = selector_count(client, 1)
    response = client.post(f"{TAGS}/1/selectors", json={**NEW, "is_default": True})
    assert response.status_code == 201, response.text
    created = response.json()["data"]
    assert set(response.json()) == {"data"} and set(created) == SELECTOR_FIELDS
    assert {key: created[key] for key in NEW} == NEW
    assert created["asset_group_tag_id"] == 1 and created["is_default"] is False and created["allow_disable"] is True
    assert created["disabled_at"] is None and created["created_by"] == created["updated_by"] != ""
    assert created["id"] > max(item["id"] for item in selectors(client, 2))
    fetched = client.get(f"{TAGS}/1/selectors/{created['id']}").json()["data"]["selector"]
    assert fetched == created
    assert selector_count(client, 1) == before + 1
    assert client.delete(f"{TAGS}/1/selectors/{created['id']}").status_code == 204


def test_post_defaults_and_a_cypher_seed(client: httpx.Client) -> None:
    body = {"name": "Kerberoastable users", "seeds": [{"type": 2, "value": "MATCH (n:User) RETURN n"}]}
    created = client.post(f"{TAGS}/2/selectors", json=body).json()["data"]
    assert created["description"] == "" and created["auto_certify"] == 0 and created["seeds"] == body["seeds"]


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("x/selectors", NEW, 404, "id is malformed."),
        ("9999/selectors", NEW, 404, "resource not found"),
        ("1/selectors", b"{not json", 400, "error unmarshalling JSON payload"),
        ("1/selectors", b"", 400, "error unmarshalling JSON payload"),
        ("1/selectors", [NEW], 400, "error unmarshalling JSON payload"),
        ("1/selectors", {**NEW, "auto_certify": "1"}, 400, "error unmarshalling JSON payload"),
        ("1/selectors", {**NEW, "seeds": [{"type": 1, "value": 5}]}, 400, "error unmarshalling JSON payload"),
        ("1/selectors", {**NEW, "name": ""}, 400, "name is required"),
        ("1/selectors", {**NEW, "seeds": []}, 400, "seeds are required"),
        ("1/selectors", {**NEW, "seeds": [{"type": 3, "value": "x"}]}, 400, "invalid seed type 3"),
        (
            "1/selectors",
            {**NEW, "seeds": [{"type": 1, "value": "S-1-5-21-1-2-3-512"}, {"type": 2, "value": "MATCH (n) RETURN n"}]},
            400,
            "all seeds must be of the same type",
        ),
        ("1/selectors", {**NEW, "auto_certify": 3}, 400, "auto_certify must be an input value of 0 to 2"),
        (
            "3/selectors",
            NEW,
            400,
            "auto_certify is only available for asset group tags of tag_type = 1 (zones)",
        ),
    ],
)
def test_post_refusals_are_the_real_ones(client: httpx.Client, path: str, body: Any, status: int, message: str) -> None:
    before = len(selectors(client, 1))
    if isinstance(body, bytes):
        response = client.post(f"{TAGS}/{path}", content=body, headers={"Content-Type": "application/json"})
    else:
        response = client.post(f"{TAGS}/{path}", json=body)
    assert error_of(response, status) == message
    assert len(selectors(client, 1)) == before


def test_post_refuses_a_name_the_tag_already_has(client: httpx.Client) -> None:
    taken = selectors(client, 1)[0]["name"]
    assert error_of(client.post(f"{TAGS}/1/selectors", json={**NEW, "name": taken}), 409) == (
        "asset group tag selector name must be unique"
    )
    assert client.post(f"{TAGS}/2/selectors", json={**NEW, "name": taken, "auto_certify": 0}).status_code == 201


def test_post_needs_an_admin_token(fresh_demo_server: DemoServer) -> None:
    read_only = fresh_demo_server.credentials.read_only
    auth = SignatureAuth(read_only.id, read_only.key)
    with httpx.Client(base_url=fresh_demo_server.base_url, auth=auth, timeout=30) as http:
        assert error_of(http.post(f"{TAGS}/1/selectors", json=NEW), 403) == "not authorized"


def test_member_counts_by_kind_add_up_and_are_stable(client: httpx.Client) -> None:
    listed = client.get(f"{TAGS}/1/selectors", params={"limit": "20", "counts": "true"}).json()["data"]["selectors"]
    kinds: set[str] = set()
    for item in listed:
        response = client.get(f"{TAGS}/1/selectors/{item['id']}/members/counts")
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        assert set(response.json()) == {"data"} and set(data) == {"total_count", "counts"}
        assert data["total_count"] == item["counts"]["members"] == sum(data["counts"].values())
        assert all(count > 0 for count in data["counts"].values())
        kinds |= set(data["counts"])
        assert client.get(f"{TAGS}/1/selectors/{item['id']}/members/counts").json()["data"] == data
    assert len(kinds) >= 3
    other_tag = selectors(client, 2)[0]["id"]
    message = error_of(client.get(f"{TAGS}/1/selectors/{other_tag}/members/counts"), 404)
    assert message == "selector is not part of asset group tag"
    assert error_of(client.get(f"{TAGS}/1/selectors/99999/members/counts"), 404) == "resource not found"


def test_delete_lowers_the_count_in_the_tags_list(client: httpx.Client) -> None:
    before = selector_count(client, 1)
    victim = next(item for item in selectors(client, 1) if not item["is_default"])
    assert client.delete(f"{TAGS}/1/selectors/{victim['id']}").status_code == 204
    assert selector_count(client, 1) == before - 1
    default = next(item for item in selectors(client, 1) if item["is_default"])
    assert error_of(client.delete(f"{TAGS}/1/selectors/{default['id']}"), 403) == "cannot delete a default selector"


def test_two_concurrent_deletes_of_one_selector_give_one_204_and_one_404(fresh_demo_server: DemoServer) -> None:
    with signed(fresh_demo_server) as http:
        victims = [item["id"] for item in selectors(http, 1) if not item["is_default"]][:20]

    async def rounds() -> list[list[int]]:
        auth = SignatureAuth(fresh_demo_server.token_id, fresh_demo_server.token_key)
        limits = httpx.Limits(max_connections=4)
        async with httpx.AsyncClient(base_url=fresh_demo_server.base_url, auth=auth, limits=limits) as http:
            outcomes = []
            for selector_id in victims:
                path = f"{TAGS}/1/selectors/{selector_id}"
                answers = await asyncio.gather(http.delete(path), http.delete(path))
                outcomes.append(sorted(answer.status_code for answer in answers))
            return outcomes

    assert asyncio.run(rounds()) == [[204, 404]] * len(victims)


def test_the_api_models_read_the_demo_answers(client: httpx.Client) -> None:
    body = SelectorCreate(name="From the model", seeds=[Seed(type=1, value="S-1-5-21-1-2-3-519")])
    response = client.post(f"{TAGS}/4/selectors", content=body.model_dump_json())
    created = parse_json(CreatedSelector, response.content).data
    assert (created.name, created.description, created.auto_certify, created.seeds) == (
        body.name,
        "",
        0,
        body.seeds,
    )
    counts = parse_json(MemberCountsResponse, client.get(f"{TAGS}/4/selectors/{created.id}/members/counts").content)
    assert counts.data.total_count == sum(counts.data.counts.values()) == 1
