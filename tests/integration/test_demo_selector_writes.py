"""The demo server's selector writes behave like a real database: one winner per DELETE, POST and member counts,
and requests it must refuse (too large, unauthenticated) are refused before their body is read."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from tests.support.demo_http import error_of, own_server, scalar, signed

SELECTORS = "/api/v2/asset-group-tags/{tag}/selectors"


@pytest.fixture
def demo(demo_template_db: Path, tmp_path: Path) -> Iterator[DemoServer]:
    """A demo server of its own (these tests change data), without the rate limit."""
    with own_server(demo_template_db, tmp_path, rate_limit=0) as server:
        yield server


def deletable(demo: DemoServer, count: int) -> list[int]:
    """Ids of non-default, enabled selectors of tag 1."""
    rows = scalar(
        demo.db_path,
        "SELECT group_concat(id) FROM (SELECT id FROM selectors "
        f"WHERE asset_group_tag_id = 1 AND is_default = 0 AND disabled_at IS NULL ORDER BY id LIMIT {count})",
    )
    return [int(part) for part in str(rows).split(",")]


def test_two_concurrent_deletes_of_one_selector_one_wins(demo: DemoServer) -> None:
    async def rounds() -> list[list[int]]:
        auth = SignatureAuth(demo.token_id, demo.token_key)
        async with httpx.AsyncClient(base_url=demo.base_url, auth=auth, timeout=30) as client:
            outcomes = []
            for selector_id in deletable(demo, 20):
                path = f"{SELECTORS.format(tag=1)}/{selector_id}"
                answers = await asyncio.gather(client.delete(path), client.delete(path))
                outcomes.append(sorted(answer.status_code for answer in answers))
            return outcomes

    assert asyncio.run(rounds()) == [[204, 404]] * 20


def test_post_creates_a_selector_the_list_and_get_then_show(demo: DemoServer) -> None:
    body: dict[str, Any] = {
        "name": "Restored: tier zero admins",
        "description": "re-created",
        "auto_certify": 2,
        "seeds": [{"type": 1, "value": "S-1-5-21-1-2-3-512"}, {"type": 1, "value": "S-1-5-21-1-2-3-519"}],
    }
    with signed(demo) as client:  # tag 1 is a tier (zone): the only kind of tag that takes a non-zero auto_certify
        before = client.get(SELECTORS.format(tag=1), params={"limit": 1}).json()["count"]
        answer = client.post(SELECTORS.format(tag=1), json=body)
        assert answer.status_code == 201, answer.text
        created = answer.json()["data"]
        assert {key: created[key] for key in body} == body
        assert created["asset_group_tag_id"] == 1 and not created["is_default"] and created["disabled_at"] is None
        assert created["rule_key"] is None and created["extension_id"] is None
        fetched = client.get(f"{SELECTORS.format(tag=1)}/{created['id']}").json()["data"]["selector"]
        assert fetched == created
        assert client.get(SELECTORS.format(tag=1), params={"limit": 1}).json()["count"] == before + 1


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"{not json", "error unmarshalling JSON payload"),
        (b"[]", "error unmarshalling JSON payload"),
        (b'{"seeds": [{"type": 1, "value": "x"}]}', "name: a non-empty name is required"),
        (b'{"name": "x"}', "seeds: at least one seed is required"),
        (b'{"name": "x", "seeds": [{"type": 3, "value": "x"}]}', "invalid seed type 3"),
        (b'{"name": "x", "seeds": [{"type": 1, "value": ""}]}', "seeds: each seed needs a non-empty value"),
        (b'{"name": "x", "auto_certify": 7, "seeds": [{"type": 1, "value": "x"}]}', "auto_certify must be an input"),
        (b'{"name": "x", "auto_certify": "1", "seeds": [{"type": 1, "value": "x"}]}', "error unmarshalling JSON"),
    ],
)
def test_post_refuses_bad_bodies_with_400(demo: DemoServer, payload: bytes, message: str) -> None:
    with signed(demo) as client:
        answer = client.post(SELECTORS.format(tag=2), content=payload)
        assert error_of(answer, 400).startswith(message)


def test_post_to_an_unknown_tag_is_404(demo: DemoServer) -> None:
    with signed(demo) as client:
        answer = client.post(SELECTORS.format(tag=999), json={"name": "x", "seeds": [{"type": 1, "value": "x"}]})
        assert error_of(answer, 404) == "resource not found"


def test_member_counts_have_the_real_shape(demo: DemoServer) -> None:
    selector_id = deletable(demo, 1)[0]
    with signed(demo) as client:
        counts = client.get(f"{SELECTORS.format(tag=1)}/{selector_id}/members/counts").json()["data"]
        assert set(counts) == {"total_count", "counts"}
        assert counts["total_count"] == sum(counts["counts"].values())
        assert error_of(client.get(f"{SELECTORS.format(tag=2)}/{selector_id}/members/counts"), 404) == (
            "selector is not part of asset group tag"
        )


def test_a_selector_id_is_never_given_twice(demo: DemoServer) -> None:
    """Issue 25: a POST after the DELETE of the newest selector got that selector's id again; the real server's ids
    never repeat, and svctui's re-checks rely on it (a resume deleted another user's newcomer under a reused id)."""
    body = {"name": "newest", "seeds": [{"type": 1, "value": "S-1-5-21-1-2-3-512"}]}
    with signed(demo) as client:
        first = client.post(SELECTORS.format(tag=2), json=body).json()["data"]["id"]
        assert client.delete(f"{SELECTORS.format(tag=2)}/{first}").status_code == 204
        second = client.post(SELECTORS.format(tag=2), json={**body, "name": "newcomer"}).json()["data"]["id"]
        assert client.delete(f"{SELECTORS.format(tag=2)}/{second}").status_code == 204
        third = client.post(SELECTORS.format(tag=2), json={**body, "name": "third"}).json()["data"]["id"]
    assert first < second < third, (first, second, third)
