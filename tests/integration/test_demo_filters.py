"""Filters, sorting and paging on the demo server, checked against the unfiltered data filtered in Python.

Every filter kind and predicate, repeated parameters, ignored values, the real character cut, the real 400s,
and the 500 for a value the column cannot hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest

from svctui.api.filters import server_reads
from svctui.demo.server import DemoServer
from tests.support.demo_http import all_items, client_ids, error_of, signed

EVENTS = "/api/v2/events"
SELECTORS = "/api/v2/asset-group-tags/1/selectors"
Item = dict[str, Any]
INTERNAL = "an internal error has occurred that is preventing the service from servicing this request"


@pytest.fixture(scope="module")
def client(demo_server: DemoServer) -> Iterator[httpx.Client]:
    with signed(demo_server) as http:
        yield http


@pytest.fixture(scope="module")
def tasks_path(demo_server: DemoServer) -> str:
    return f"/api/v2/clients/{client_ids(demo_server.db_path)[0]}/completed-tasks"


@pytest.fixture(scope="module")
def all_events(client: httpx.Client) -> list[Item]:
    return all_items(client, EVENTS)


@pytest.fixture(scope="module")
def all_tasks(client: httpx.Client, tasks_path: str) -> list[Item]:
    return all_items(client, tasks_path)


def ids(client: httpx.Client, path: str, params: list[tuple[str, str]]) -> list[int]:
    response = client.get(path, params=[*params, ("limit", "0")])
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    items = data["selectors"] if isinstance(data, dict) else data
    return [item["id"] for item in items]


def ts(text: str) -> datetime:
    return datetime.fromisoformat(text)


def expect(items: list[Item], keep: Callable[[Item], bool]) -> list[int]:
    return [item["id"] for item in items if keep(item)]


@pytest.mark.parametrize(
    ("op", "test"),
    [
        ("eq", lambda a, b: a == b),
        ("neq", lambda a, b: a != b),
        ("gt", lambda a, b: a > b),
        ("gte", lambda a, b: a >= b),
        ("lt", lambda a, b: a < b),
        ("lte", lambda a, b: a <= b),
    ],
)
def test_integer_predicates(
    client: httpx.Client, all_events: list[Item], op: str, test: Callable[[int, int], bool]
) -> None:
    got = ids(client, EVENTS, [("id", f"{op}:57")])
    assert got == expect(all_events, lambda e: test(e["id"], 57))
    assert got, "the filter must select something"


def test_string_contains_is_case_sensitive(client: httpx.Client, all_events: list[Item]) -> None:
    assert ids(client, EVENTS, [("rrule", "~eq:WEEKLY")]) == expect(all_events, lambda e: "WEEKLY" in e["rrule"])
    assert ids(client, EVENTS, [("rrule", "~eq:weekly")]) == []


def test_string_contains_underscore_is_a_wildcard(client: httpx.Client, tasks_path: str, all_tasks: list[Item]) -> None:
    titled = [t for t in all_tasks if t["event_title"]]
    word = titled[0]["event_title"].split(" ")[0]
    pattern = f"{word}_"  # `_` matches the space after the word
    got = ids(client, tasks_path, [("event_title", f"~eq:{pattern}")])
    assert got == expect(all_tasks, lambda t: bool(t["event_title"]) and f"{word} " in t["event_title"])
    assert got


def test_string_eq_and_neq(client: httpx.Client, tasks_path: str, all_tasks: list[Item]) -> None:
    controller = next(t["domain_controller"] for t in all_tasks if t["domain_controller"])
    assert ids(client, tasks_path, [("domain_controller", f"eq:{controller}")]) == expect(
        all_tasks, lambda t: t["domain_controller"] == controller
    )
    assert ids(client, tasks_path, [("domain_controller", f"neq:{controller}")]) == expect(
        all_tasks, lambda t: t["domain_controller"] != controller
    )


def test_status_by_code_as_the_product_ui_sends_it(
    client: httpx.Client, tasks_path: str, all_tasks: list[Item]
) -> None:
    assert ids(client, tasks_path, [("status", "eq:5")]) == expect(all_tasks, lambda t: t["status"] == 5)
    assert ids(client, tasks_path, [("status", "neq:2")]) == expect(all_tasks, lambda t: t["status"] != 2)


@pytest.mark.parametrize(
    ("value", "wanted"), [("true", True), ("T", True), ("True", True), ("f", False), ("FALSE", False)]
)
def test_boolean_predicates(client: httpx.Client, all_events: list[Item], value: str, wanted: bool) -> None:
    assert ids(client, EVENTS, [("session_collection", f"eq:{value}")]) == expect(
        all_events, lambda e: e["session_collection"] is wanted
    )
    assert ids(client, EVENTS, [("session_collection", f"neq:{value}")]) == expect(
        all_events, lambda e: e["session_collection"] is not wanted
    )


def test_uuid_predicates(client: httpx.Client, all_events: list[Item]) -> None:
    some = all_events[3]["client_id"]
    assert ids(client, EVENTS, [("client_id", f"eq:{some.upper()}")]) == expect(
        all_events, lambda e: e["client_id"] == some
    )
    assert ids(client, EVENTS, [("client_id", f"neq:{some}")]) == expect(all_events, lambda e: e["client_id"] != some)


def test_timestamp_range_is_and_of_repeated_parameters(
    client: httpx.Client, tasks_path: str, all_tasks: list[Item]
) -> None:
    low, high = "2026-02-20T00:00:00Z", "2026-02-25T12:30:00.5Z"
    got = ids(client, tasks_path, [("execution_time", f"gte:{low}"), ("execution_time", f"lt:{high}")])
    assert got == expect(all_tasks, lambda t: ts(low) <= ts(t["execution_time"]) < ts(high))
    assert got


def test_timestamp_eq_neq_gt_lte(client: httpx.Client, tasks_path: str, all_tasks: list[Item]) -> None:
    moment = all_tasks[10]["execution_time"]
    assert ids(client, tasks_path, [("execution_time", f"eq:{moment}")]) == [all_tasks[10]["id"]]
    assert len(ids(client, tasks_path, [("execution_time", f"neq:{moment}")])) == len(all_tasks) - 1
    assert ids(client, tasks_path, [("execution_time", f"gt:{moment}")]) == [t["id"] for t in all_tasks[11:]]
    assert ids(client, tasks_path, [("execution_time", f"lte:{moment}")]) == [t["id"] for t in all_tasks[:11]]


def test_unset_time_is_year_one_and_filterable(client: httpx.Client, tasks_path: str, all_tasks: list[Item]) -> None:
    unset = expect(all_tasks, lambda t: t["end_time"] == "0001-01-01T00:00:00Z")
    assert unset, "some tasks must have no end time"
    assert ids(client, tasks_path, [("end_time", "lt:1970-01-01T00:00:00Z")]) == unset


def test_null_value_means_is_null(client: httpx.Client, tasks_path: str, all_tasks: list[Item]) -> None:
    assert ids(client, tasks_path, [("deleted_at", "eq:null")]) == [t["id"] for t in all_tasks]
    assert ids(client, tasks_path, [("deleted_at", "neq:null")]) == []
    assert ids(client, tasks_path, [("event_id", "eq:null")]) == expect(all_tasks, lambda t: t["event_id"] is None)


@pytest.mark.parametrize("value", ["5", "", "eq:", "eq", ":5"])
def test_values_without_predicate_or_value_are_ignored(
    client: httpx.Client, all_events: list[Item], value: str
) -> None:
    assert ids(client, EVENTS, [("id", value)]) == [e["id"] for e in all_events]


def test_unknown_column_with_bare_value_is_ignored(client: httpx.Client, all_events: list[Item]) -> None:
    assert ids(client, EVENTS, [("nosuchcolumn", "whatever")]) == [e["id"] for e in all_events]


def test_value_is_cut_at_the_first_unsafe_character(
    client: httpx.Client, tasks_path: str, all_tasks: list[Item]
) -> None:
    raw = "~eq:SharpHound,Enterprise"
    op, value = server_reads(raw) or ("", "")
    assert (op, value) == ("~eq", "SharpHound")
    got = ids(client, tasks_path, [("log_path", raw)])
    assert got == expect(all_tasks, lambda t: bool(t["log_path"]) and "SharpHound" in t["log_path"])
    assert got


def test_unanchored_match_reads_a_later_pair(client: httpx.Client, all_events: list[Item]) -> None:
    """`id=2026-01-01T10:00:00Z` has no predicate, but the leftmost match finds `01T10:` -> unknown predicate."""
    assert error_of(client.get(EVENTS, params={"id": "2026-01-01T10:00:00Z"}), 400) == (
        "there are errors in the query parameter filters specified"
    )


@pytest.mark.parametrize("value", ["EQ:1", "like:1", "~:1", "eqq:1", "gt e:1"])
def test_unknown_predicate(client: httpx.Client, value: str) -> None:
    message = error_of(client.get(EVENTS, params={"id": value}), 400)
    assert message == "there are errors in the query parameter filters specified"


def test_predicate_errors_come_before_column_errors(client: httpx.Client) -> None:
    response = client.get(EVENTS, params=[("nosuch", "eq:1"), ("id", "xx:1")])
    assert error_of(response, 400) == "there are errors in the query parameter filters specified"


@pytest.mark.parametrize(
    ("path_kind", "column"),
    [("events", "nosuch"), ("events", "status"), ("tasks", "all_trusted_domains"), ("tasks", "rrule")],
)
def test_column_not_filterable(client: httpx.Client, tasks_path: str, path_kind: str, column: str) -> None:
    path = EVENTS if path_kind == "events" else tasks_path
    assert (
        error_of(client.get(path, params={column: "eq:1"}), 400) == f"the specified column cannot be filtered: {column}"
    )


@pytest.mark.parametrize(
    ("path", "column", "op"),
    [
        (EVENTS, "rrule", "gt"),
        (EVENTS, "session_collection", "lt"),
        (EVENTS, "client_id", "~eq"),
        (SELECTORS, "created_by", "~eq"),
        (SELECTORS, "auto_certify", "gt"),
    ],
)
def test_predicate_not_supported_for_column(client: httpx.Client, path: str, column: str, op: str) -> None:
    message = error_of(client.get(path, params={column: f"{op}:1"}), 400)
    assert message == f"the specified filter predicate is not supported for this column: {column} {op}"


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("id", "eq:abc"),
        ("client_id", "eq:not-a-uuid"),
        ("created_at", "gte:yesterday"),
        ("created_at", "gt:2026"),
        ("session_collection", "eq:1"),
    ],
)
def test_value_the_column_cannot_hold_is_a_500(client: httpx.Client, column: str, value: str) -> None:
    assert error_of(client.get(EVENTS, params={column: value}), 500) == INTERNAL


def test_sort_priority_and_direction(client: httpx.Client, tasks_path: str, all_tasks: list[Item]) -> None:
    got = ids(client, tasks_path, [("sort_by", "status"), ("sort_by", "-execution_time")])
    by_time = sorted(all_tasks, key=lambda t: t["execution_time"], reverse=True)
    assert got == [t["id"] for t in sorted(by_time, key=lambda t: t["status"])]


def test_sort_descending_by_id(client: httpx.Client, all_events: list[Item]) -> None:
    assert ids(client, EVENTS, [("sort_by", "-id")]) == sorted((e["id"] for e in all_events), reverse=True)
    assert ids(client, EVENTS, [("sort_by", "id")]) == sorted(e["id"] for e in all_events)


@pytest.mark.parametrize("value", ["rrule", "nosuch", "", "--id", "-", "id desc"])
def test_bad_sort_column(client: httpx.Client, value: str) -> None:
    assert error_of(client.get(EVENTS, params={"sort_by": value}), 400) == "column format does not support sorting"


def test_paging_slices_after_counting(client: httpx.Client, all_events: list[Item]) -> None:
    body = client.get(EVENTS, params={"skip": "3", "limit": "5"}).json()
    assert (body["count"], body["skip"], body["limit"]) == (len(all_events), 3, 5)
    assert [e["id"] for e in body["data"]] == [e["id"] for e in all_events[3:8]]


def test_skip_past_count_is_an_empty_page(client: httpx.Client, all_events: list[Item]) -> None:
    body = client.get(EVENTS, params={"skip": str(len(all_events) + 10)}).json()
    assert body["count"] == len(all_events) and body["data"] == []


def test_no_limit_and_limit_zero_return_all_and_echo_zero(client: httpx.Client, all_events: list[Item]) -> None:
    for params in ({}, {"limit": "0"}):
        body = client.get(EVENTS, params=params).json()
        assert body["limit"] == 0 and len(body["data"]) == body["count"] == len(all_events)


def test_count_is_taken_before_paging_with_filters(client: httpx.Client, all_events: list[Item]) -> None:
    body = client.get(EVENTS, params={"id": "gt:100", "limit": "2"}).json()
    assert body["count"] == len([e for e in all_events if e["id"] > 100]) and len(body["data"]) == 2


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"skip": "-1"}, 'query parameter "skip" is malformed: invalid skip: -1'),
        (
            {"skip": "abc"},
            'query parameter "skip" is malformed: error converting skip value abc to int: '
            'strconv.Atoi: parsing "abc": invalid syntax',
        ),
        ({"limit": "-1"}, 'query parameter "limit" is malformed: invalid limit: -1'),
        (
            {"limit": "1.5"},
            'query parameter "limit" is malformed: error converting limit value 1.5 to int: '
            'strconv.Atoi: parsing "1.5": invalid syntax',
        ),
        (
            {"hydrate_domains": "maybe"},
            'query parameter "hydrate_domains" is malformed: strconv.ParseBool: parsing "maybe": invalid syntax',
        ),
    ],
)
def test_paging_errors(client: httpx.Client, params: dict[str, str], message: str) -> None:
    assert error_of(client.get(EVENTS, params=params), 400) == message


def test_selectors_default_limit_and_all(client: httpx.Client) -> None:
    default = client.get(SELECTORS).json()
    assert default["limit"] == 50 and len(default["data"]["selectors"]) == 50 and default["count"] > 50
    everything = client.get(SELECTORS, params={"limit": "-1"}).json()
    assert everything["limit"] == 0 and len(everything["data"]["selectors"]) == default["count"]
    assert (
        error_of(client.get(SELECTORS, params={"limit": "-2"}), 400)
        == 'query parameter "limit" is malformed: invalid limit: -2'
    )


def test_selector_filters(client: httpx.Client) -> None:
    selectors = all_items(client, SELECTORS)
    assert ids(client, SELECTORS, [("is_default", "eq:true")]) == expect(selectors, lambda s: s["is_default"])
    assert ids(client, SELECTORS, [("auto_certify", "neq:0")]) == expect(selectors, lambda s: s["auto_certify"] != 0)
    assert ids(client, SELECTORS, [("created_by", "eq:SYSTEM")]) == expect(
        selectors, lambda s: s["created_by"] == "SYSTEM"
    )
    assert ids(client, SELECTORS, [("disabled_at", "neq:null")]) == expect(
        selectors, lambda s: s["disabled_at"] is not None
    )
    assert ids(client, SELECTORS, [("name", "~eq:Domain Admins")]) == expect(
        selectors, lambda s: "Domain Admins" in s["name"]
    )
    assert ids(client, SELECTORS, [("sort_by", "-name")]) == [
        s["id"] for s in sorted(selectors, key=lambda s: s["name"], reverse=True)
    ]


def test_tag_filters(client: httpx.Client) -> None:
    tags = client.get("/api/v2/asset-group-tags").json()["data"]["tags"]
    tiers = client.get("/api/v2/asset-group-tags", params={"type": "eq:1"}).json()["data"]["tags"]
    assert [t["id"] for t in tiers] == [t["id"] for t in tags if t["type"] == 1] and tiers
    assert error_of(client.get("/api/v2/asset-group-tags", params={"type": "gt:1"}), 400).endswith(": type gt")
