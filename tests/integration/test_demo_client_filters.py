"""Every filter column and predicate of every endpoint, sent by the ApiClient to the demo server over loopback.

For one value per column, the counts the server reports must partition the rows the way SQL does: `eq` and `neq`
split the non-null rows, `gt`/`lte` and `gte`/`lt` split them again, `gte - gt == eq`, `~eq` holds at least what
`eq` holds (and `~eq` of a fragment of the value at least as much again), and `eq:true` plus `eq:false` is every
row. A predicate the server ignored or misread breaks one of these sums.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.filters import (
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    TAGS,
    Column,
    EndpointSpec,
    Filter,
    FilterError,
    Kind,
)
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from tests.support.demo_http import client_ids

pytestmark = pytest.mark.anyio

Counter = Callable[[Sequence[Filter]], Awaitable[int]]
FALLBACK_TIME = "2026-01-15T00:00:00Z"  # for event times the listing does not carry


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def candidates(items: Sequence[Any], column: Column) -> list[tuple[str, bool]]:
    """(value, taken whole from a row) pairs to try, middle rows first; a fixed time or a text fragment last."""
    middle = len(items) // 2
    values: list[tuple[str, bool]] = []
    for item in [*items[middle:], *items[:middle]]:
        value = getattr(item, column.name, None)
        if value is None or isinstance(value, list):
            continue
        if isinstance(value, bool):
            values.append(("true" if value else "false", True))
        elif isinstance(value, datetime):
            values.append((value.isoformat(), True))
        else:
            values.append((str(value), True))
        if isinstance(value, str) and ":" in value:
            values.append((value.rsplit(":", 1)[1], False))  # e.g. an rrule: the text after `RRULE:`
    if column.kind is Kind.TIMESTAMP:
        values.append((FALLBACK_TIME, False))
    return values


def pick(spec: EndpointSpec, column: Column, items: Sequence[Any]) -> tuple[str, bool]:
    """The first candidate value every predicate of the column accepts."""
    for value, whole in candidates(items, column):
        try:
            for op in column.predicates:
                Filter.build(spec, column.name, op, value)
        except FilterError:
            continue
        return value, whole
    raise AssertionError(f"no usable value for {spec.name}.{column.name}")


async def check_partitions(spec: EndpointSpec, items: Sequence[Any], count: Counter, skip: Sequence[str] = ()) -> int:
    """Check every column of `spec` (but `skip`: not a field of the rows); the number of filtered requests made."""
    total = await count([])
    assert total == len(items) > 0
    requests = 0
    for column in spec.columns.values():
        if column.name in skip:
            continue
        value, whole = pick(spec, column, items)
        counts = {op: await count([Filter.build(spec, column.name, op, value)]) for op in column.predicates}
        requests += len(counts)
        where = f"{spec.name}.{column.name} = {value!r}: {counts}"
        non_null = counts["eq"] + counts["neq"]
        assert 0 <= non_null <= total, where
        if whole:
            assert counts["eq"] >= 1, where
        if column.kind in (Kind.BOOLEAN, Kind.UUID, Kind.INTEGER) and column.name != "event_id":
            assert non_null == total, where  # never null
        if "gt" in counts:
            assert counts["gt"] + counts["lte"] == non_null, where
            assert counts["gte"] + counts["lt"] == non_null, where
            assert counts["gte"] - counts["gt"] == counts["eq"], where
        if "~eq" in counts:
            assert counts["~eq"] >= counts["eq"], where
            if whole and len(value) > 2 and not column.choices:
                inner = await count([Filter.build(spec, column.name, "~eq", value[1:-1])])
                assert inner >= counts["~eq"], f"{where}; ~eq {value[1:-1]!r} (contains) gave {inner}"
                requests += 1
        if column.kind is Kind.BOOLEAN:
            other = "false" if Filter.build(spec, column.name, "eq", value).value == "true" else "true"
            assert counts["eq"] + await count([Filter.build(spec, column.name, "eq", other)]) == total, where
    return requests


def client_for(demo: DemoServer) -> ApiClient:
    return ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key), max_retries=0)


async def test_every_event_column_and_predicate(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as client:
        items = (await client.events.list()).data

        async def count(filters: Sequence[Filter]) -> int:
            return (await client.events.list(ListQuery(tuple(filters), limit=1))).count

        assert await check_partitions(EVENTS, items, count) == 47


async def test_every_completed_task_column_and_predicate(demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server.db_path)[-1]
    async with client_for(demo_server) as client:
        items = (await client.tasks.list(client_id, ListQuery(endpoint="completed-jobs"))).data

        async def count(filters: Sequence[Filter]) -> int:
            return (
                await client.tasks.list(client_id, ListQuery(tuple(filters), limit=1, endpoint="completed-jobs"))
            ).count

        assert await check_partitions(COMPLETED_TASKS, items, count) == 82


async def test_every_selector_column_and_predicate(demo_server: DemoServer) -> None:
    async with client_for(demo_server) as client:
        items = (await client.selectors.list(1, ListQuery(limit=-1))).data.selectors

        async def count(filters: Sequence[Filter]) -> int:
            return (await client.selectors.list(1, ListQuery(tuple(filters), limit=1))).count

        assert await check_partitions(SELECTORS, items, count, skip=("type",)) == 36
        by_seed_type = {kind: await count([Filter.build(SELECTORS, "type", "eq", str(kind))]) for kind in (1, 2)}
        not_cypher = await count([Filter.build(SELECTORS, "type", "neq", "2")])
        assert by_seed_type == {
            kind: sum(any(seed.type == kind for seed in item.seeds) for item in items) for kind in (1, 2)
        }
        assert by_seed_type[2] + not_cypher == len(items) and by_seed_type[1] > 0 and by_seed_type[2] > 0


def tag_value(tag: Any, column: str) -> str:
    """A tag's field as a filter value (`null` when unset)."""
    value = getattr(tag, column)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.isoformat().replace("+00:00", "Z") if isinstance(value, datetime) else str(value)


async def test_every_tag_column_selects_exactly_the_tags_with_that_value(demo_server: DemoServer) -> None:
    """Tag filters (the server neither pages nor sorts tags): `eq` keeps exactly the tags with the value, `neq`
    the other non-null ones, for every column, including the ones the real server has beyond the document."""
    async with client_for(demo_server) as client:
        tags = await client.tags.list()
        assert len(tags) == 7
        for column in TAGS.columns.values():
            values = {tag_value(tag, column.name) for tag in tags}
            value = sorted(values - {"null"})[0] if values - {"null"} else "null"
            if column.kind is Kind.TIMESTAMP and value == "null":
                value = FALLBACK_TIME
            found = await client.tags.list(ListQuery((Filter.build(TAGS, column.name, "eq", value),)))
            expected = {tag.id for tag in tags if tag_value(tag, column.name) == value}
            assert {tag.id for tag in found} == expected, (column.name, value)
            others = await client.tags.list(ListQuery((Filter.build(TAGS, column.name, "neq", value),)))
            non_null = {tag.id for tag in tags if tag_value(tag, column.name) != "null"}
            assert {tag.id for tag in others} == non_null - expected, (column.name, value)
