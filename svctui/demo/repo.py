"""Reads and writes behind the endpoints, and the JSON shapes the real server emits for each row.

Shapes: plain values or null for most nullable fields, `{"Time": ..., "Valid": false}` for a domain result's
`deleted_at`, `0001-01-01T00:00:00Z` for unset times, objectid strings instead of objects without hydration.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from svctui.api.fields import FLAG_NAMES, SHARED_TIMES
from svctui.demo.query import ListQuery
from svctui.demo.task_json import tasks_json
from svctui.demo.timefmt import render_time

CHUNK = 900
AUDIT_FIELDS = ("created_at", "created_by", "updated_at", "updated_by")
TAG_FIELDS = ("id", "type", "kind_id", "name", "description", *AUDIT_FIELDS, "deleted_at", "deleted_by", "position")
SELECTOR_FIELDS = (
    "id",
    "asset_group_tag_id",
    "name",
    "description",
    *AUDIT_FIELDS,
    "disabled_at",
    "disabled_by",
    "auto_certify",
)
TIME_COLUMNS = frozenset(
    {
        "created_at",
        "updated_at",
        "deleted_at",
        "disabled_at",
        "execution_time",
        "start_time",
        "end_time",
        "last_ingest",
        "last_checkin",
    }
)
CLIENT_FIELDS = ("id", "name", "hostname", "ip_address", "configured_user", "version", "type", "last_checkin")
JsonObject = dict[str, Any]


def _chunks(ids: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start : start + CHUNK]


def _grouped(conn: sqlite3.Connection, sql: str, ids: Sequence[Any]) -> dict[Any, list[sqlite3.Row]]:
    """Run `sql` (with one `{marks}` placeholder list) over `ids` in chunks; rows grouped by their first column."""
    grouped: dict[Any, list[sqlite3.Row]] = defaultdict(list)
    for chunk in _chunks(ids):
        marks = ", ".join("?" * len(chunk))
        for row in conn.execute(sql.format(marks=marks), list(chunk)):
            grouped[row[0]].append(row)
    return grouped


def _fields(row: sqlite3.Row, names: Iterable[str]) -> JsonObject:
    """Columns in the order given, as the server emits them: those in TIME_COLUMNS rendered as RFC 3339."""
    return {name: render_time(row[name]) if name in TIME_COLUMNS else row[name] for name in names}


def _flags(row: sqlite3.Row) -> JsonObject:
    """The collection flags of an event or task as booleans."""
    return {flag: bool(row[flag]) for flag in FLAG_NAMES}


def _page(
    conn: sqlite3.Connection,
    table: str,
    query: ListQuery,
    base: Sequence[str],
    base_params: Sequence[Any],
    columns: str = "*",
) -> tuple[int, list[sqlite3.Row]]:
    """(count before paging, rows of the page: `columns` of them) for a list query over `table` (a fixed table
    expression)."""
    where = query.where_sql(base)
    params = [*base_params, *query.params]
    count = int(conn.execute(f"SELECT COUNT(*) FROM {table}{where}", params).fetchone()[0])  # noqa: S608
    limit = query.limit if query.limit > 0 else -1
    rows = conn.execute(
        f"SELECT {columns} FROM {table}{where}{query.order} LIMIT ? OFFSET ?",  # noqa: S608 - fixed fragments only
        [*params, limit, query.skip],
    ).fetchall()
    return count, rows


def _targets(
    conn: sqlite3.Connection, kind: str, ids: Sequence[int], hydrate_domains: bool, hydrate_ous: bool
) -> tuple[dict[int, list[Any]], dict[int, list[Any]]]:
    """Domains and OUs of events (`kind` = 'event') or tasks ('task'), hydrated or as objectid strings."""
    link_domains, link_ous = ("event_domains", "event_ous") if kind == "event" else ("task_domains", "task_ous")
    owner = f"{kind}_id"
    domain_rows = _grouped(
        conn,
        f"SELECT l.{owner}, d.objectid, d.name, d.present, d.type FROM {link_domains} l JOIN domains d "  # noqa: S608
        f"ON d.objectid = l.objectid WHERE l.{owner} IN ({{marks}}) ORDER BY l.{owner}, l.position",
        ids,
    )
    ou_rows = _grouped(
        conn,
        f"SELECT l.{owner}, o.objectid, o.name, o.present, o.distinguishedname, o.type FROM {link_ous} l "  # noqa: S608
        f"JOIN ous o ON o.objectid = l.objectid WHERE l.{owner} IN ({{marks}}) ORDER BY l.{owner}, l.position",
        ids,
    )
    domains: dict[int, list[Any]] = {}
    ous: dict[int, list[Any]] = {}
    for item_id in ids:
        domains[item_id] = [
            {"objectid": r["objectid"], "name": r["name"], "exists": bool(r["present"]), "type": r["type"]}
            if hydrate_domains
            else r["objectid"]
            for r in domain_rows.get(item_id, [])
        ]
        ous[item_id] = [
            {
                "objectid": r["objectid"],
                "name": r["name"],
                "exists": bool(r["present"]),
                "distinguishedname": r["distinguishedname"],
                "type": r["type"],
            }
            if hydrate_ous
            else r["objectid"]
            for r in ou_rows.get(item_id, [])
        ]
    return domains, ous


def _events(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row], query: ListQuery) -> list[JsonObject]:
    ids = [int(row["id"]) for row in rows]
    domains, ous = _targets(conn, "event", ids, query.hydrate_domains, query.hydrate_ous)
    events = []
    for row in rows:
        event = _fields(row, ("id", "client_id", "rrule")) | _flags(row)
        events.append(event | {"ous": ous[row["id"]], "domains": domains[row["id"]]})
    return events


def list_events(conn: sqlite3.Connection, query: ListQuery) -> tuple[int, list[JsonObject]]:
    """(count, events of the page)."""
    count, rows = _page(conn, "events e", query, ("e.deleted_at IS NULL",), ())
    return count, _events(conn, rows, query)


def _clients(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row], query: ListQuery) -> list[JsonObject]:
    """Clients as the real server emits them: identity, host, check-in, current job, counts, schedules, token."""
    event_rows = _grouped(
        conn,
        "SELECT client_id, * FROM events WHERE client_id IN ({marks}) AND deleted_at IS NULL ORDER BY client_id, id",
        [row["id"] for row in rows],
    )
    out = []
    for row in rows:
        job_id = row["current_job_id"]
        job = None if job_id is None else {"id": job_id, "client_id": row["id"], "status": 1, "status_message": ""}
        client = _fields(row, CLIENT_FIELDS) | {
            "current_job_id": job_id,
            "current_job": job,
            "current_task_id": job_id,
            "current_task": job,
            "completed_job_count": row["completed_job_count"],
            "completed_task_count": row["completed_job_count"],
            "domain_controller": row["domain_controller"],
            "user_sid": row["user_sid"],
            "provided_identifier": _provided_identifier(row),
            "events": _events(conn, event_rows.get(row["id"], []), query),
            "token": {"id": _token_id(row["id"]), "name": f"{row['name']} token", "user_id": row["id"]},
        }
        out.append(client | _fields(row, SHARED_TIMES))
    return out


def _provided_identifier(row: sqlite3.Row) -> str | None:
    """What a collector said it is (newest servers; null for most): the demo's non-SharpHound collectors give one."""
    return None if row["type"] == "sharphound" else f"{row['hostname']}/{str(row['id'])[:8]}"


def _token_id(client_id: str) -> str:
    """A stable token id for a client (the real token object carries its id; never a key)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"svctui-demo-client-token:{client_id}"))


def list_clients(conn: sqlite3.Connection, query: ListQuery) -> tuple[int, list[JsonObject]]:
    """(count, clients of the page)."""
    count, rows = _page(conn, "clients c", query, ("c.deleted_at IS NULL",), ())
    return count, _clients(conn, rows, query)


def get_client(conn: sqlite3.Connection, client_id: str, query: ListQuery) -> JsonObject | None:
    """One client by id, or None."""
    row = conn.execute("SELECT * FROM clients WHERE id = ? AND deleted_at IS NULL", (client_id,)).fetchone()
    return None if row is None else _clients(conn, [row], query)[0]


def client_name(conn: sqlite3.Connection, client_id: str) -> str | None:
    """The client's name, or None when there is no such client."""
    row = conn.execute("SELECT name FROM clients WHERE id = ?", (client_id,)).fetchone()
    return None if row is None else str(row["name"])


def list_tasks(conn: sqlite3.Connection, client_id: str, query: ListQuery) -> tuple[int, list[str]]:
    """(count, completed tasks of one client for the page, each as JSON text)."""
    count, rows = _page(conn, "tasks t", query, ("t.client_id = ?",), (client_id,), "t.id")
    return count, tasks_json(conn, [int(row["id"]) for row in rows], query.hydrate_domains, query.hydrate_ous)


FINISHED_SQL = "t.status BETWEEN 2 AND 8"  # complete, canceled, timed out, failed, ingesting, analyzing, partial


def list_finished(conn: sqlite3.Connection, query: ListQuery) -> tuple[int, list[str]]:
    """(count, finished runs of every client for the page, each as JSON text): `GET /api/v2/jobs/finished`."""
    count, rows = _page(conn, "tasks t", query, (FINISHED_SQL,), (), "t.id")  # the ids: tasks_json builds the rest
    return count, tasks_json(conn, [int(row["id"]) for row in rows], query.hydrate_domains, query.hydrate_ous)


def _nullable_bool(value: int | None) -> bool | None:
    return None if value is None else bool(value)


def _tag(row: sqlite3.Row) -> JsonObject:
    return _fields(row, TAG_FIELDS) | {
        "require_certify": _nullable_bool(row["require_certify"]),
        "analysis_enabled": _nullable_bool(row["analysis_enabled"]),
        "glyph": row["glyph"],
    }


TAG_ORDER = " ORDER BY g.name ASC, g.id ASC"  # the real server's tag list is ordered by name
TAG_COUNTS_SQL = (
    "SELECT asset_group_tag_id, COUNT(*), SUM(is_default), SUM(disabled_at IS NOT NULL), "
    "SUM(CASE WHEN disabled_at IS NULL THEN member_count ELSE 0 END) FROM selectors GROUP BY asset_group_tag_id"
)


def list_tags(conn: sqlite3.Connection, query: ListQuery, counts: bool) -> list[JsonObject]:
    """Every tag that is not deleted and matches the filters (no paging), by name, with the five counts when asked."""
    where = query.where_sql(("g.deleted_at IS NULL",))
    rows = conn.execute(f"SELECT * FROM tags g{where}{TAG_ORDER}", query.params).fetchall()  # noqa: S608
    tags = [_tag(row) for row in rows]
    if counts:
        totals = {row[0]: tuple(int(value or 0) for value in row[1:]) for row in conn.execute(TAG_COUNTS_SQL)}
        for tag in tags:
            selectors, defaults, disabled, members = totals.get(tag["id"], (0, 0, 0, 0))
            tag["counts"] = {
                "members": members,
                "selectors": selectors,
                "custom_selectors": selectors - defaults,
                "default_selectors": defaults,
                "disabled_selectors": disabled,
            }
    return tags


def tag_type(conn: sqlite3.Connection, tag_id: int) -> int | None:
    """The type of a tag that exists (1 tier, 2 label, 3 owned), or None."""
    row = conn.execute("SELECT type FROM tags WHERE id = ? AND deleted_at IS NULL", (tag_id,)).fetchone()
    return None if row is None else int(row["type"])


def tag_exists(conn: sqlite3.Connection, tag_id: int) -> bool:
    """True when the tag exists."""
    return conn.execute("SELECT 1 FROM tags WHERE id = ? AND deleted_at IS NULL", (tag_id,)).fetchone() is not None


def _selectors(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row], counts: bool) -> list[JsonObject]:
    ids = [int(row["id"]) for row in rows]
    seeds = _grouped(
        conn,
        "SELECT selector_id, type, value FROM selector_seeds WHERE selector_id IN ({marks}) "
        "ORDER BY selector_id, position",
        ids,
    )
    out = []
    for row in rows:
        selector = _fields(row, SELECTOR_FIELDS) | {
            "is_default": bool(row["is_default"]),
            "allow_disable": bool(row["allow_disable"]),
            "seeds": [{"type": seed["type"], "value": seed["value"]} for seed in seeds.get(row["id"], [])],
            "rule_key": row["rule_key"],
            "extension_id": row["extension_id"],
        }
        if counts:
            selector["counts"] = {"members": row["member_count"]}
        out.append(selector)
    return out


def list_selectors(
    conn: sqlite3.Connection, tag_id: int, query: ListQuery, counts: bool
) -> tuple[int, list[JsonObject]]:
    """(count, selectors of one tag for the page)."""
    count, rows = _page(conn, "selectors s", query, ("s.asset_group_tag_id = ?",), (tag_id,))
    return count, _selectors(conn, rows, counts)


def get_selector(conn: sqlite3.Connection, selector_id: int) -> JsonObject | None:
    """One selector by id (any tag), or None."""
    row = conn.execute("SELECT * FROM selectors WHERE id = ?", (selector_id,)).fetchone()
    return None if row is None else _selectors(conn, [row], False)[0]
