"""Helpers for the demo-server tests: signed httpx clients, hand-built auth headers, envelope checks."""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from svctui.api.signing import SignatureAuth, compute_signature
from svctui.demo.server import DemoServer

TIMESTAMP_9 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$")
SIGNATURE_PREFIX = "unable to validate request signature for client: "


def signed(demo: DemoServer) -> httpx.Client:
    """An httpx client that signs every request exactly as sent (SignatureAuth)."""
    return httpx.Client(base_url=demo.base_url, auth=SignatureAuth(demo.token_id, demo.token_key), timeout=30)


def raw(demo: DemoServer) -> httpx.Client:
    """An httpx client without auth, for hand-built headers."""
    return httpx.Client(base_url=demo.base_url, timeout=30)


def sign_headers(
    token_id: str,
    token_key: str,
    method: str,
    target: str,
    body: bytes = b"",
    *,
    date: str | None = None,
    scheme: str = "bhesignature",
) -> dict[str, str]:
    """Authorization, RequestDate and Signature for `method target` signed over `body`."""
    request_date = date or datetime.now(UTC).isoformat(timespec="seconds")
    return {
        "Authorization": f"{scheme} {token_id}",
        "RequestDate": request_date,
        "Signature": compute_signature(token_key, method, target, request_date, body),
    }


def error_of(response: httpx.Response, status: int, *, request_id: bool = True) -> str:
    """Assert the real error envelope with `status` and return its single message.

    The request id is a uuid, the same in the body and the `RequestID` header; only errors raised before the
    request got one (an invalid `Prefer`) have an empty id and no header: pass `request_id=False` for those.
    """
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"http_status", "timestamp", "request_id", "errors"}
    assert body["http_status"] == status
    assert TIMESTAMP_9.match(body["timestamp"]), body["timestamp"]
    if request_id:
        assert str(uuid.UUID(body["request_id"])) == body["request_id"], body
        assert response.headers["RequestID"] == body["request_id"]
    else:
        assert body["request_id"] == "" and "RequestID" not in response.headers
    assert len(body["errors"]) == 1 and body["errors"][0]["context"] == ""
    message: str = body["errors"][0]["message"]
    return message


def client_ids(db_path: Path) -> list[str]:
    """Client ids of a demo database, most tasks first."""
    with sqlite3.connect(str(db_path)) as conn:
        rows = conn.execute("SELECT client_id, COUNT(*) FROM tasks GROUP BY client_id ORDER BY 2 DESC, 1").fetchall()
    return [row[0] for row in rows]


def scalar(db_path: Path, sql: str, params: tuple[Any, ...] = ()) -> Any:
    """One value from the demo database (a read-only oracle independent of the HTTP layer)."""
    with sqlite3.connect(str(db_path)) as conn:
        return conn.execute(sql, params).fetchone()[0]


def table_counts(db_path: Path) -> Mapping[str, int]:
    """Row count of every data table."""
    tables = ("clients", "domains", "ous", "events", "tasks", "domain_results", "tags", "selectors", "selector_seeds")
    with sqlite3.connect(str(db_path)) as conn:
        return {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables}


def all_items(client: httpx.Client, path: str, params: list[tuple[str, str]] | None = None) -> list[dict[str, Any]]:
    """Every item of a list endpoint in one request (limit=0 means no limit)."""
    response = client.get(path, params=[*(params or []), ("limit", "0")])
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    items: list[dict[str, Any]] = data["selectors"] if isinstance(data, dict) else data
    return items


def own_server(template: Path, directory: Path, **options: Any) -> DemoServer:
    """A DemoServer (not started) on a copy of the session's template database, fast to start."""
    import shutil

    from svctui.demo.config import FIXED_ANCHOR

    target = directory / f"demo-{uuid.uuid4().hex[:8]}.sqlite3"
    shutil.copyfile(template, target)
    options.setdefault("anchor", FIXED_ANCHOR)
    return DemoServer(db_path=target, **options)
