"""Reads and writes behind the endpoints, and the JSON shapes the real server emits for each row.

Shapes: plain values or null for most nullable fields, `{"Time": ..., "Valid": false}` for a domain result's
`deleted_at`, `0001-01-01T00:00:00Z` for unset times, objectid strings instead of objects without hydration.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from svctui.demo.db import COUNT_COLUMNS, FLAG_COLUMNS
from svctui.demo.query import ListQuery
from svctui.demo.timefmt import ZERO_TIME_TEXT, render_time

CHUNK = 900
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


def _page(
    conn: sqlite3.Connection, table: str, query: ListQuery, base: Sequence[str], base_params: Sequence[Any]
) -> tuple[int, list[sqlite3.Row]]:
    """(count before paging, rows of the page) for a list query over `table` (a fixed table expression)."""
    where = query.where_sql(base)
    params = [*base_params, *query.params]
    count = int(conn.execute(f"SELECT COUNT(*) FROM {table}{where}", params).fetchone()[0])  # noqa: S608
    limit = query.limit if query.limit > 0 else -1
    rows = conn.execute(
        f"SELECT * FROM {table}{where}{query.order} LIMIT ? OFFSET ?",  # noqa: S608 - fixed fragments only
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


def list_events(conn: sqlite3.Connection, query: ListQuery) -> tuple[int, list[JsonObject]]:
    """(count, events of the page)."""
    count, rows = _page(conn, "events e", query, ("e.deleted_at IS NULL",), ())
    ids = [int(row["id"]) for row in rows]
    domains, ous = _targets(conn, "event", ids, query.hydrate_domains, query.hydrate_ous)
    events = []
    for row in rows:
        event: JsonObject = {"id": row["id"], "client_id": row["client_id"], "rrule": row["rrule"]}
        event.update({flag: bool(row[flag]) for flag in FLAG_COLUMNS})
        event["ous"] = ous[row["id"]]
        event["domains"] = domains[row["id"]]
        events.append(event)
    return count, events


def client_name(conn: sqlite3.Connection, client_id: str) -> str | None:
    """The client's name, or None when there is no such client."""
    row = conn.execute("SELECT name FROM clients WHERE id = ?", (client_id,)).fetchone()
    return None if row is None else str(row["name"])


def _domain_result(row: sqlite3.Row) -> JsonObject:
    result: JsonObject = {
        "id": row["id"],
        "created_at": render_time(row["created_at"]),
        "updated_at": render_time(row["updated_at"]),
        "deleted_at": {"Time": ZERO_TIME_TEXT, "Valid": False},
        "job_id": row["job_id"],
        "domain_name": row["domain_name"],
        "success": bool(row["success"]),
        "message": row["message"],
    }
    result.update({name: row[name] for name in COUNT_COLUMNS})
    return result


def list_tasks(conn: sqlite3.Connection, client_id: str, name: str, query: ListQuery) -> tuple[int, list[JsonObject]]:
    """(count, completed tasks of one client for the page)."""
    count, rows = _page(conn, "tasks t", query, ("t.client_id = ?",), (client_id,))
    ids = [int(row["id"]) for row in rows]
    domains, ous = _targets(conn, "task", ids, query.hydrate_domains, query.hydrate_ous)
    results = _grouped(conn, "SELECT job_id, * FROM domain_results WHERE job_id IN ({marks}) ORDER BY job_id, id", ids)
    tasks = []
    for row in rows:
        task: JsonObject = {
            "id": row["id"],
            "client_id": row["client_id"],
            "client_name": name,
            "event_id": row["event_id"],
            "execution_time": render_time(row["execution_time"]),
            "start_time": render_time(row["start_time"]),
            "end_time": render_time(row["end_time"]),
            "status": row["status"],
            "status_message": row["status_message"],
        }
        task.update({flag: bool(row[flag]) for flag in FLAG_COLUMNS})
        task.update(
            {
                "domain_controller": row["domain_controller"],
                "log_path": row["log_path"],
                "event_title": row["event_title"],
                "last_ingest": render_time(row["last_ingest"]),
                "ous": ous[row["id"]],
                "domains": domains[row["id"]],
                "domain_results": [_domain_result(r) for r in results.get(row["id"], [])],
                "created_at": render_time(row["created_at"]),
                "updated_at": render_time(row["updated_at"]),
                "deleted_at": render_time(row["deleted_at"]),
            }
        )
        tasks.append(task)
    return count, tasks


def _tag(row: sqlite3.Row) -> JsonObject:
    require_certify, analysis_enabled = row["require_certify"], row["analysis_enabled"]
    return {
        "id": row["id"],
        "type": row["type"],
        "kind_id": row["kind_id"],
        "name": row["name"],
        "description": row["description"],
        "created_at": render_time(row["created_at"]),
        "created_by": row["created_by"],
        "updated_at": render_time(row["updated_at"]),
        "updated_by": row["updated_by"],
        "deleted_at": render_time(row["deleted_at"]),
        "deleted_by": row["deleted_by"],
        "position": row["position"],
        "require_certify": None if require_certify is None else bool(require_certify),
        "analysis_enabled": None if analysis_enabled is None else bool(analysis_enabled),
        "glyph": row["glyph"],
    }


def list_tags(conn: sqlite3.Connection, query: ListQuery, counts: bool) -> list[JsonObject]:
    """Every tag matching the filters (no paging), with selector/member counts when asked."""
    rows = conn.execute(f"SELECT * FROM tags g{query.where_sql()}{query.order}", query.params).fetchall()  # noqa: S608
    tags = [_tag(row) for row in rows]
    if counts:
        totals = {
            row[0]: (row[1], row[2])
            for row in conn.execute(
                "SELECT asset_group_tag_id, COUNT(*), SUM(member_count) FROM selectors GROUP BY asset_group_tag_id"
            )
        }
        for tag in tags:
            selectors, members = totals.get(tag["id"], (0, 0))
            tag["counts"] = {"selectors": selectors, "members": members or 0}
    return tags


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
        selector: JsonObject = {
            "id": row["id"],
            "asset_group_tag_id": row["asset_group_tag_id"],
            "name": row["name"],
            "description": row["description"],
            "created_at": render_time(row["created_at"]),
            "created_by": row["created_by"],
            "updated_at": render_time(row["updated_at"]),
            "updated_by": row["updated_by"],
            "disabled_at": render_time(row["disabled_at"]),
            "disabled_by": row["disabled_by"],
            "auto_certify": row["auto_certify"],
            "is_default": bool(row["is_default"]),
            "allow_disable": bool(row["allow_disable"]),
            "seeds": [{"type": seed["type"], "value": seed["value"]} for seed in seeds.get(row["id"], [])],
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


def delete_selector(conn: sqlite3.Connection, selector_id: int) -> None:
    """Delete a selector and its seeds (committed at once)."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("DELETE FROM selector_seeds WHERE selector_id = ?", (selector_id,))
    conn.execute("DELETE FROM selectors WHERE id = ?", (selector_id,))
    conn.execute("COMMIT")
