"""SQL injection attempts in every filter value and sort value of every endpoint leave the data intact.

The server binds every value as a parameter and takes column names only from its allow-list: each attempt is
answered with 200 (no match), 400 or the real 500, and a digest of every table is the same afterwards.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from svctui.api.filters import CLIENTS, COMPLETED_TASKS, EVENTS, SELECTORS, TAGS, EndpointSpec
from svctui.demo.server import DemoServer
from tests.support.demo_http import client_ids, signed, table_counts

PAYLOADS = (
    "1 OR 1=1",
    "x' OR '1'='1",
    "1; DROP TABLE tasks; --",
    "0) OR (1=1",
    "1 UNION SELECT key FROM tokens --",
    "]*[; DELETE FROM selectors; --",
    "_",
    "\\",
)
SORT_PAYLOADS = ("id; DROP TABLE tasks", "id DESC, (SELECT 1)", "-id--", "name) --", "1")


def digest(db_path: Path) -> str:
    """A digest of every row of every table (tokens and meta included)."""
    hasher = hashlib.sha256()
    with sqlite3.connect(str(db_path)) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for table in tables:
            for row in conn.execute(f"SELECT * FROM {table} ORDER BY rowid"):
                hasher.update(repr(tuple(row)).encode())
    return hasher.hexdigest()


def endpoints(demo: DemoServer) -> list[tuple[str, EndpointSpec]]:
    client = client_ids(demo.db_path)[0]
    return [
        ("/api/v2/events", EVENTS),
        (f"/api/v2/clients/{client}/completed-tasks", COMPLETED_TASKS),
        ("/api/v2/asset-group-tags/1/selectors", SELECTORS),
        ("/api/v2/asset-group-tags", TAGS),
        ("/api/v2/clients", CLIENTS),
    ]


@pytest.mark.slow
def test_injection_in_every_filter_and_sort_value_changes_nothing(fresh_demo_server: DemoServer) -> None:
    before_digest, before_counts = digest(fresh_demo_server.db_path), table_counts(fresh_demo_server.db_path)
    statuses: dict[int, int] = {}
    attempts = 0
    with signed(fresh_demo_server) as client:
        for path, spec in endpoints(fresh_demo_server):
            for column in spec.columns.values():
                for op in column.predicates:
                    for payload in PAYLOADS:
                        response = client.get(path, params={column.name: f"{op}:{payload}", "limit": "1"})
                        attempts += 1
                        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
                        assert response.status_code in (200, 400, 500), (path, column.name, op, payload, response.text)
                        if response.status_code == 200:
                            assert response.json()["data"] is not None
            if spec.sortable:
                for payload in SORT_PAYLOADS:
                    response = client.get(path, params={"sort_by": payload, "limit": "1"})
                    attempts += 1
                    assert response.status_code == 400, (path, payload, response.text)
        assert client.get("/api/v2/asset-group-tags/1/selectors", params={"limit": "-1"}).status_code == 200
    assert attempts > 500
    assert statuses.get(200, 0) > 0 and statuses.get(500, 0) > 0, statuses
    assert table_counts(fresh_demo_server.db_path) == before_counts
    assert digest(fresh_demo_server.db_path) == before_digest


@pytest.mark.parametrize("payload", ["1 OR 1=1", "x' OR '1'='1", "1; SELECT 1"])
def test_text_injection_matches_nothing(demo_server: DemoServer, payload: str) -> None:
    """An always-true clause as a value is just text that no selector name contains."""
    with signed(demo_server) as client:
        body = client.get("/api/v2/asset-group-tags/1/selectors", params={"name": f"eq:{payload}"}).json()
    assert body["count"] == 0


def test_injection_in_path_ids_is_malformed(demo_server: DemoServer) -> None:
    with signed(demo_server) as client:
        response = client.get("/api/v2/asset-group-tags/1 OR 1=1/selectors")
        deleted = client.delete("/api/v2/asset-group-tags/1/selectors/1;DELETE FROM selectors")
        unknown_client = client.get("/api/v2/clients/x' OR '1'='1/completed-tasks")
    assert response.status_code == 404 and response.json()["errors"][0]["message"] == "id is malformed."
    assert deleted.status_code == 404 and deleted.json()["errors"][0]["message"] == "id is malformed."
    assert unknown_client.status_code == 404
