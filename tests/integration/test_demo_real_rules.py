"""The demo server answers what BloodHound's own code answers (issue 26, REAL-SERVER.md), over loopback.

Member counts of a disabled selector: 409. POST: the tag first (404), then the body's 400s (auto_certify, seed
types, Cypher), then a name taken (409). Selectors carry `rule_key` / `extension_id`; an extension-owned one that
is deleted comes back at the next tag list (the extension's sync), unless a plain selector holds its name. ETAC
(`restricted_user`): 403 on the selector list, one selector and member counts, while DELETE and POST go through.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from svctui.demo.handlers import cypher_problem
from svctui.demo.server import DemoServer
from tests.support.demo_http import error_of, own_server, signed

TAGS = "/api/v2/asset-group-tags"
SELECTORS = TAGS + "/{tag}/selectors"
NO_ACCESS = "user does not have access to this resource"


@pytest.fixture
def demo(demo_template_db: Path, tmp_path: Path) -> Iterator[DemoServer]:
    """A demo server of its own (these tests change data), without the rate limit."""
    with own_server(demo_template_db, tmp_path, rate_limit=0) as server:
        yield server


@pytest.fixture
def http(demo: DemoServer) -> Iterator[httpx.Client]:
    with signed(demo) as client:
        yield client


def every_selector(http: httpx.Client, tag_id: int = 1) -> list[dict[str, Any]]:
    answer = http.get(SELECTORS.format(tag=tag_id), params={"limit": "-1"})
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["data"]["selectors"]
    return found


def test_a_disabled_selectors_member_counts_are_409(http: httpx.Client) -> None:
    selectors = every_selector(http)
    disabled = next(item for item in selectors if item["disabled_at"] is not None)
    enabled = next(item for item in selectors if item["disabled_at"] is None)
    path = SELECTORS.format(tag=1) + "/{id}/members/counts"
    assert error_of(http.get(path.format(id=disabled["id"])), 409) == "selector is disabled"
    assert http.get(path.format(id=enabled["id"])).status_code == 200


def test_every_selector_says_its_owner_and_three_belong_to_an_extension(http: httpx.Client) -> None:
    owned = []
    for tag_id in (1, 2, 3):
        for item in every_selector(http, tag_id):
            assert "rule_key" in item and "extension_id" in item  # always present, null for people's own
            if item["extension_id"] is not None:
                owned.append((tag_id, item["rule_key"], item["extension_id"], item["created_by"]))
    assert owned == [
        (1, "entra-global-admins", 1, "OpenGraph Extension Management"),
        (1, "entra-privileged-auth-admins", 1, "OpenGraph Extension Management"),
        (3, "github-org-owners", 2, "OpenGraph Extension Management"),
    ]


def test_the_extension_recreates_its_deleted_selector_at_the_next_tag_list(http: httpx.Client) -> None:
    owned = next(item for item in every_selector(http) if item["rule_key"] == "entra-global-admins")
    assert http.delete(f"{SELECTORS.format(tag=1)}/{owned['id']}").status_code == 204
    assert not [item for item in every_selector(http) if item["rule_key"] == "entra-global-admins"]
    assert http.get(TAGS).status_code == 200  # the sync runs here
    again = [item for item in every_selector(http) if item["rule_key"] == "entra-global-admins"]
    assert len(again) == 1 and again[0]["id"] != owned["id"]
    assert {key: again[0][key] for key in ("name", "seeds", "extension_id")} == {
        key: owned[key] for key in ("name", "seeds", "extension_id")
    }


def test_a_plain_copy_of_an_extensions_selector_blocks_its_recreation(http: httpx.Client) -> None:
    """What a restore's copy would do: POST cannot set rule_key, and the name is then taken."""
    owned = next(item for item in every_selector(http) if item["rule_key"] == "entra-global-admins")
    assert http.delete(f"{SELECTORS.format(tag=1)}/{owned['id']}").status_code == 204
    copy = {"name": owned["name"], "description": owned["description"], "seeds": owned["seeds"]}
    created = http.post(SELECTORS.format(tag=1), json=copy)
    assert created.status_code == 201, created.text
    assert created.json()["data"]["rule_key"] is None and created.json()["data"]["extension_id"] is None
    http.get(TAGS)
    namesakes = [item for item in every_selector(http) if item["name"] == owned["name"]]
    assert [item["rule_key"] for item in namesakes] == [None]  # the extension could not re-create its own


def test_a_name_taken_in_the_tag_is_409_and_free_in_another_tag(http: httpx.Client) -> None:
    taken = next(item for item in every_selector(http) if not item["is_default"])
    body = {"name": taken["name"], "seeds": [{"type": 1, "value": "S-1-5-21-1-2-3-512"}]}
    assert error_of(http.post(SELECTORS.format(tag=1), json=body), 409) == (
        "asset group tag selector name must be unique"
    )
    assert http.post(SELECTORS.format(tag=2), json=body).status_code == 201  # unique per tag
    default = next(item for item in every_selector(http) if item["is_default"])
    reused = {"name": default["name"], "seeds": body["seeds"]}  # unique among non-default selectors only
    assert http.post(SELECTORS.format(tag=1), json=reused).status_code == 201


CYPHER = "MATCH (n:User) RETURN n"


@pytest.mark.parametrize(
    ("tag_id", "body", "message"),
    [
        (2, {"auto_certify": 1}, "auto_certify is only available for asset group tags of tag_type = 1 (zones)"),
        (3, {"auto_certify": 2}, "auto_certify is only available for asset group tags of tag_type = 1 (zones)"),
        (1, {"auto_certify": 3}, "auto_certify must be an input value of 0 to 2"),
        (2, {"auto_certify": -1}, "auto_certify must be an input value of 0 to 2"),
        (1, {"seeds": [{"type": 1, "value": "S-1-5-21-1-2-3-512"}, {"type": 2, "value": CYPHER}]}, "all seeds must"),
        (1, {"seeds": [{"type": 4, "value": "x"}]}, "invalid seed type 4"),
        (1, {"seeds": [{"type": 0, "value": "x"}]}, "invalid seed type 0"),
        (1, {"seeds": [{"type": 2, "value": "RETURN 1"}]}, "cypher is invalid: no MATCH clause"),
        (1, {"seeds": [{"type": 2, "value": "MATCH (n:User"}]}, "cypher is invalid: no RETURN clause"),
        (1, {"seeds": [{"type": 2, "value": "MATCH (n:User RETURN n"}]}, "cypher is invalid: missing ')'"),
        (1, {"seeds": [{"type": 2, "value": "MATCH (n) WHERE n.name = 'x RETURN n"}]}, "cypher is invalid: unterm"),
        (1, {"seeds": [{"type": 2, "value": "MATCH (n)] RETURN n"}]}, "cypher is invalid: unexpected ']'"),
    ],
)
def test_post_refuses_what_the_real_server_refuses(
    http: httpx.Client, tag_id: int, body: dict[str, Any], message: str
) -> None:
    full = {"name": "a new one", "seeds": [{"type": 2, "value": CYPHER}]} | body
    assert error_of(http.post(SELECTORS.format(tag=tag_id), json=full), 400).startswith(message)


def test_post_looks_at_the_tag_before_the_body(http: httpx.Client) -> None:
    bad = {"name": "x", "auto_certify": 9, "seeds": [{"type": 7, "value": ""}]}
    assert error_of(http.post(SELECTORS.format(tag=999), json=bad), 404) == "resource not found"
    assert error_of(http.post(SELECTORS.format(tag="x1"), json=bad), 404) == "id is malformed."


def test_a_tier_takes_auto_certify_and_valid_cypher() -> None:
    for query in (CYPHER, "MATCH (n:Group) WHERE n.objectid ENDS WITH '-512' RETURN n", "match (n) return n"):
        assert cypher_problem(query) is None, query


def test_restricted_user_cannot_read_selectors_but_may_delete_and_create(
    demo_template_db: Path, tmp_path: Path
) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=0, restricted_user=True) as demo, signed(demo) as http:
        assert http.get(TAGS).status_code == 200  # the tag list is not gated
        assert error_of(http.get(SELECTORS.format(tag=1)), 403) == NO_ACCESS
        assert error_of(http.get(SELECTORS.format(tag=1) + "/5"), 403) == NO_ACCESS
        assert error_of(http.get(SELECTORS.format(tag=1) + "/5/members/counts"), 403) == NO_ACCESS
        created = http.post(SELECTORS.format(tag=1), json={"name": "etac", "seeds": [{"type": 2, "value": CYPHER}]})
        assert created.status_code == 201, created.text
        assert http.delete(SELECTORS.format(tag=1) + f"/{created.json()['data']['id']}").status_code == 204


def test_clients_carry_a_nullable_provided_identifier(http: httpx.Client) -> None:
    clients = http.get("/api/v2/clients").json()["data"]
    assert all("provided_identifier" in item for item in clients)
    assert {item["provided_identifier"] is None for item in clients} == {True, False}
