"""The filter columns tags and selectors gained (issue 11), sent over loopback and checked against the data.

Tags: `created_by updated_by deleted_at deleted_by require_certify analysis_enabled glyph` (not `position`: the
real server refuses it, issue 26); selectors:
`type`, the type of a selector's seeds (1 object id, 2 Cypher). Each filter's answer is compared with the
unfiltered list filtered in Python, and a predicate the real server does not allow is its 400.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from svctui.api.filters import SELECTORS, TAGS
from svctui.demo.server import DemoServer
from tests.support.cli import demo_env, invoke, jsonl_items
from tests.support.demo_http import error_of, signed

TAGS_PATH = "/api/v2/asset-group-tags"
Item = dict[str, Any]


@pytest.fixture(scope="module")
def client(demo_server: DemoServer) -> Iterator[httpx.Client]:
    with signed(demo_server) as http:
        yield http


def tags(client: httpx.Client, params: list[tuple[str, str | int | float | bool | None]]) -> list[Item]:
    response = client.get(TAGS_PATH, params=params)
    assert response.status_code == 200, response.text
    found: list[Item] = response.json()["data"]["tags"]
    return found


def selector_ids(
    client: httpx.Client, tag_id: int, params: list[tuple[str, str | int | float | bool | None]]
) -> list[int]:
    response = client.get(f"{TAGS_PATH}/{tag_id}/selectors", params=[*params, ("limit", "-1")])
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["data"]["selectors"]]


def test_the_new_columns_are_in_the_specs_with_the_real_predicates() -> None:
    for name in ("created_by", "updated_by", "deleted_by"):
        assert TAGS.columns[name].predicates == ("eq", "neq")
    assert TAGS.columns["glyph"].predicates == ("eq", "~eq", "neq")
    assert "position" not in TAGS.columns
    for name in ("require_certify", "analysis_enabled"):
        assert TAGS.columns[name].predicates == ("eq", "neq")
    assert TAGS.columns["deleted_at"].predicates == ("eq", "neq", "gt", "gte", "lt", "lte")
    assert SELECTORS.columns["type"].predicates == ("eq", "neq")


@pytest.mark.parametrize(
    ("column", "value", "keep"),
    [
        ("created_by", "SYSTEM", lambda tag: tag["created_by"] == "SYSTEM"),
        ("updated_by", "alice.admin@contoso.com", lambda tag: tag["updated_by"] == "alice.admin@contoso.com"),
        ("glyph", "skull", lambda tag: tag["glyph"] == "skull"),
        ("require_certify", "true", lambda tag: tag["require_certify"] is True),
        ("require_certify", "false", lambda tag: tag["require_certify"] is False),
        ("analysis_enabled", "true", lambda tag: tag["analysis_enabled"] is True),
        ("deleted_at", "null", lambda tag: tag["deleted_at"] is None),
        ("deleted_by", "null", lambda tag: tag["deleted_by"] is None),
    ],
)
def test_tag_filter_eq_and_neq_split_the_tags(
    client: httpx.Client, column: str, value: str, keep: Callable[[Item], bool]
) -> None:
    every = tags(client, [])
    expected = [tag["id"] for tag in every if keep(tag)]
    assert expected, f"the demo data has no tag for {column}={value}: the test would prove nothing"
    assert [tag["id"] for tag in tags(client, [(column, f"eq:{value}")])] == expected
    others = [tag["id"] for tag in tags(client, [(column, f"neq:{value}")])]
    assert not set(others) & set(expected)
    if value != "null":
        assert others == [tag["id"] for tag in every if not keep(tag) and tag[column] is not None]


def test_tag_deleted_at_takes_ordered_predicates(client: httpx.Client) -> None:
    assert tags(client, [("deleted_at", "gt:2000-01-01T00:00:00Z")]) == []
    assert len(tags(client, [("deleted_at", "neq:null")])) == 0


def test_position_cannot_be_filtered_and_glyph_takes_contains(client: httpx.Client) -> None:
    """The real server's answers (REAL-SERVER.md): `position` is no filter column; `glyph ~eq` is a contains."""
    message = error_of(client.get(TAGS_PATH, params={"position": "eq:1"}), 400)
    assert message == "the specified column cannot be filtered: position"
    every = tags(client, [])
    assert (
        [tag["id"] for tag in tags(client, [("glyph", "~eq:ul")])]
        == [tag["id"] for tag in every if tag["glyph"] and "ul" in tag["glyph"]]
        != []
    )


@pytest.mark.parametrize(("column", "op"), [("glyph", "gt"), ("created_by", "gt"), ("require_certify", "lt")])
def test_tag_filter_predicates_the_server_does_not_allow_are_400(client: httpx.Client, column: str, op: str) -> None:
    message = error_of(client.get(TAGS_PATH, params={column: f"{op}:x"}), 400)
    assert message == f"the specified filter predicate is not supported for this column: {column} {op}"


def test_selector_type_filters_on_the_seed_type(client: httpx.Client) -> None:
    response = client.get(f"{TAGS_PATH}/1/selectors", params={"limit": "-1"})
    every = response.json()["data"]["selectors"]
    cypher = [item["id"] for item in every if any(seed["type"] == 2 for seed in item["seeds"])]
    object_ids = [item["id"] for item in every if any(seed["type"] == 1 for seed in item["seeds"])]
    assert cypher and object_ids
    assert selector_ids(client, 1, [("type", "eq:2")]) == cypher
    assert selector_ids(client, 1, [("type", "eq:1")]) == object_ids
    assert selector_ids(client, 1, [("type", "neq:1")]) == cypher
    assert selector_ids(client, 1, [("type", "eq:2"), ("name", "~eq:Members")]) == [
        item["id"] for item in every if item["id"] in cypher and "Members" in item["name"]
    ]
    message = error_of(client.get(f"{TAGS_PATH}/1/selectors", params={"type": "gt:1"}), 400)
    assert message == "the specified filter predicate is not supported for this column: type gt"


def test_the_cli_filters_selectors_by_seed_type(
    demo_server: DemoServer, client: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in demo_env(demo_server).items():
        monkeypatch.setenv(name, value)
    result = invoke(["selectors", "list", "1", "--all", "-f", "type=eq:2", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    listed = jsonl_items(result.stdout)
    assert [item["id"] for item in listed] == selector_ids(client, 1, [("type", "eq:2")])
    assert listed and all(seed["type"] == 2 for item in listed for seed in item["seeds"])
    refused = invoke(["selectors", "list", "1", "-f", "type=gt:1"])
    assert refused.exit_code == 2 and "type" in refused.stderr
