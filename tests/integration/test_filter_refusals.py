"""Issue 30 item 7: the client and the demo share the filter tables, so this checks the demo, over real HTTP,
refuses every filter the client refuses (a predicate a column does not take, a column that is not filterable) with
the real server's 400 — and answers the ones the client sends."""

from __future__ import annotations

from urllib.parse import quote

import httpx
import pytest

from svctui.api.filters import ALL_PREDICATES, SPECS, EndpointSpec, Filter, FilterError, Kind
from svctui.demo.server import DemoServer
from tests.support.demo_http import client_ids, error_of, signed

VALUE = {
    Kind.INTEGER: "1",
    Kind.STRING: "x",
    Kind.BOOLEAN: "true",
    Kind.UUID: "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
    Kind.TIMESTAMP: "2026-01-15T00:00:00Z",
}


def path_of(name: str, demo: DemoServer) -> str:
    """The list endpoint a spec of `SPECS` describes, on the demo server."""
    return {
        "events": "/api/v2/events",
        "completed-tasks": f"/api/v2/clients/{client_ids(demo.db_path)[-1]}/completed-tasks",
        "selectors": "/api/v2/asset-group-tags/1/selectors",
        "tags": "/api/v2/asset-group-tags",
        "clients": "/api/v2/clients",
    }[name]


def value_for(spec: EndpointSpec, column: str) -> str:
    """A value the column takes (a coded column's first code)."""
    col = spec.columns[column]
    return str(next(iter(col.choices.values()))) if col.choices else VALUE[col.kind]


@pytest.mark.parametrize("name", list(SPECS))
def test_the_demo_refuses_each_predicate_the_client_refuses_and_takes_the_others(
    name: str, demo_server: DemoServer
) -> None:
    spec = SPECS[name]
    path = path_of(name, demo_server)
    refused = taken = 0
    with signed(demo_server) as http:
        for column, col in spec.columns.items():
            value = value_for(spec, column)
            for op in ALL_PREDICATES:
                answer = http.get(f"{path}?{column}={quote(op)}:{quote(value)}&limit=1")
                if op in col.predicates:
                    assert Filter.build(spec, column, op, value).render() == f"{op}:{value}"
                    assert answer.status_code == 200, (column, op, answer.text)
                    taken += 1
                else:
                    with pytest.raises(FilterError, match="is not allowed for a"):
                        Filter.build(spec, column, op, value)
                    message = error_of(answer, 400)
                    assert message == f"the specified filter predicate is not supported for this column: {column} {op}"
                    refused += 1
    assert taken >= len(spec.columns) * 2 and refused >= 1


@pytest.mark.parametrize("name", list(SPECS))
def test_a_column_the_client_does_not_know_is_one_the_demo_cannot_filter(name: str, demo_server: DemoServer) -> None:
    spec = SPECS[name]
    unknown = [
        column for column in ("position", "objectid", "all_trusted_domains", "kind_id") if column not in spec.columns
    ]
    with signed(demo_server) as http:
        for column in unknown:
            with pytest.raises(FilterError, match="is not a filter column of"):
                spec.column(column)
            answer = http.get(f"{path_of(name, demo_server)}?{column}=eq:1")
            assert error_of(answer, 400) == f"the specified column cannot be filtered: {column}"


def test_an_unknown_predicate_is_the_servers_generic_400(demo_server: DemoServer) -> None:
    with signed(demo_server) as http:
        answer: httpx.Response = http.get("/api/v2/asset-group-tags/1/selectors?name=like:x")
    assert error_of(answer, 400) == "there are errors in the query parameter filters specified"
