"""Completed tasks as the real server emits them, built as JSON text by SQLite (its JSON functions, in C).

Building a page as Python dicts and encoding it with `json` is too slow for a fleet's pages of `jobs/finished` to come
as fast as the real server's, so each task's JSON is one `json_object(...)` of the query, with the same fields in the
same order as `repo`'s other shapes: times as Go writes them (RFC 3339, `Z`, fraction without trailing zeros), booleans,
the domain result's `{"Time", "Valid"}` `deleted_at`, domains and OUs hydrated or as objectid strings.

The unhydrated text of every task is also kept in `task_json` (filled when the database is prepared), so a page of
the fleet's runs (`jobs/finished`, a client's history: both unhydrated) is read, not built, in a few ms of the
demo's CPU for 1,000 runs. Triggers drop a task's kept text whenever anything it is built from changes (the task,
its domain results, its targets, its client's name); a task without kept text is built as before, in the same query.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence

from svctui.api.fields import COUNT_NAMES, FLAG_NAMES, SHARED_TIMES
from svctui.demo.timefmt import ZERO_TIME, ZERO_TIME_TEXT

_MICROS = 1_000_000


def go_time_sql(column: str) -> str:
    """SQL rendering the microsecond timestamp `column` as `timefmt.render_time` does (NULL stays NULL)."""
    fraction = f"(({column} % {_MICROS}) + {_MICROS}) % {_MICROS}"  # floored: right before 1970 too
    seconds = f"({column} - {fraction}) / {_MICROS}"
    return (
        f"CASE WHEN {column} IS NULL THEN NULL WHEN {column} = {ZERO_TIME} THEN '{ZERO_TIME_TEXT}' "
        f"ELSE strftime('%Y-%m-%dT%H:%M:%S', {seconds}, 'unixepoch') "
        f"|| CASE WHEN {fraction} = 0 THEN '' ELSE rtrim(printf('.%06d', {fraction}), '0') END || 'Z' END"
    )


def _bool_sql(column: str) -> str:
    """A JSON true/false from an integer column."""
    return f"json(CASE WHEN {column} THEN 'true' ELSE 'false' END)"


def _pairs(pairs: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"'{name}', {value}" for name, value in pairs)


def _columns(alias: str, names: Sequence[str]) -> list[tuple[str, str]]:
    return [(name, f"{alias}.{name}") for name in names]


def _times(alias: str, names: Sequence[str]) -> list[tuple[str, str]]:
    return [(name, go_time_sql(f"{alias}.{name}")) for name in names]


_RESULT = _pairs(
    [
        ("id", "r.id"),
        *_times("r", ("created_at", "updated_at")),
        ("deleted_at", f"json_object('Time', '{ZERO_TIME_TEXT}', 'Valid', json('false'))"),
        *_columns("r", ("job_id", "domain_name")),
        ("success", _bool_sql("r.success")),
        ("message", "r.message"),
        *_columns("r", COUNT_NAMES),
    ]
)
_RESULTS = (
    f"json((SELECT json_group_array(json_object({_RESULT})) FROM "  # noqa: S608 - fixed fragments only
    "(SELECT * FROM domain_results WHERE job_id = t.id ORDER BY id) r))"
)


def _targets(hydrated: bool, link: str, table: str, fields: Sequence[str]) -> str:
    """The task's domains or OUs in their order: objects when `hydrated`, else objectid strings."""
    if hydrated:
        item = (
            "json_object("
            + _pairs([(name, _bool_sql("x.present") if name == "exists" else f"x.{name}") for name in fields])
            + ")"
        )
    else:
        item = "x.objectid"
    return (
        f"json((SELECT json_group_array({item}) FROM (SELECT x.* FROM {link} l JOIN {table} x "  # noqa: S608
        f"ON x.objectid = l.objectid WHERE l.task_id = t.id ORDER BY l.position) x))"
    )


def task_object_sql(hydrate_domains: bool, hydrate_ous: bool) -> str:
    """The JSON text of the task `t` (its client joined as `c`)."""
    pairs = [
        *_columns("t", ("id", "client_id")),
        ("client_name", "coalesce(c.name, '')"),
        ("event_id", "t.event_id"),
        *_times("t", ("execution_time", "start_time", "end_time")),
        *_columns("t", ("status", "status_message")),
        *((flag, _bool_sql(f"t.{flag}")) for flag in FLAG_NAMES),
        *_columns("t", ("domain_controller", "log_path", "event_title")),
        *_times("t", ("last_ingest",)),
        ("ous", _targets(hydrate_ous, "task_ous", "ous", ("objectid", "name", "exists", "distinguishedname", "type"))),
        ("domains", _targets(hydrate_domains, "task_domains", "domains", ("objectid", "name", "exists", "type"))),
        ("domain_results", _RESULTS),
        *_times("t", SHARED_TIMES),
    ]
    return f"json_object({_pairs(pairs)})"


def task_sql(hydrate_domains: bool, hydrate_ous: bool) -> str:
    """One JSON text per task of the ids in the JSON array parameter, in that array's order: the kept text of an
    unhydrated task when there is one (coalesce builds the text only for a task without)."""
    built = task_object_sql(hydrate_domains, hydrate_ous)
    kept = not hydrate_domains and not hydrate_ous
    text, join = (f"coalesce(j.body, {built})", " LEFT JOIN task_json j ON j.task_id = t.id") if kept else (built, "")
    return (
        f"SELECT {text} FROM json_each(?) page JOIN tasks t ON t.id = page.value "  # noqa: S608
        f"LEFT JOIN clients c ON c.id = t.client_id{join} ORDER BY page.key"
    )


def tasks_json(conn: sqlite3.Connection, ids: Sequence[int], hydrate_domains: bool, hydrate_ous: bool) -> list[str]:
    """The JSON text of each task in `ids`, in that order."""
    if not ids:
        return []
    listed = "[" + ",".join(str(int(task_id)) for task_id in ids) + "]"
    return [row[0] for row in conn.execute(task_sql(hydrate_domains, hydrate_ous), (listed,))]


# What a task's unhydrated text is built from, and which tasks a change there touches: (table, the columns read
# (None: all), the tasks of a row as SQL over NEW/OLD). A trigger on each drops the kept text of those tasks.
_SOURCES = (
    ("tasks", None, "SELECT {row}.id"),
    ("domain_results", None, "SELECT {row}.job_id"),
    ("task_domains", None, "SELECT {row}.task_id"),
    ("task_ous", None, "SELECT {row}.task_id"),
    ("clients", "id, name", "SELECT id FROM tasks WHERE client_id = {row}.id"),
    ("domains", "objectid", "SELECT task_id FROM task_domains WHERE objectid = {row}.objectid"),
    ("ous", "objectid", "SELECT task_id FROM task_ous WHERE objectid = {row}.objectid"),
)


def _trigger(table: str, name: str, event: str, rows: Sequence[str], tasks: str) -> str:
    """A trigger dropping the kept text of the tasks a changed row of `table` touches (`rows`: NEW, OLD or both)."""
    drops = "".join(f"DELETE FROM task_json WHERE task_id IN ({tasks.format(row=row)}); " for row in rows)  # noqa: S608
    return f"CREATE TRIGGER IF NOT EXISTS task_json_{table}_{name} AFTER {event} ON {table} BEGIN {drops}END;\n"


KEPT_SCHEMA = "CREATE TABLE IF NOT EXISTS task_json (task_id INTEGER PRIMARY KEY, body TEXT NOT NULL);\n" + "".join(
    _trigger(table, name, event, rows, tasks)
    for table, columns, tasks in _SOURCES
    for name, event, rows in (
        ("insert", "INSERT", ("NEW",)),
        ("update", "UPDATE" if columns is None else f"UPDATE OF {columns}", ("OLD", "NEW")),
        ("delete", "DELETE", ("OLD",)),
    )
)


def kept_version() -> str:
    """A fingerprint of how the kept texts are built and kept (the SQL of both): a database whose texts were kept by
    another version of this module has them built again, never served stale."""
    built = task_object_sql(hydrate_domains=False, hydrate_ous=False)
    return hashlib.sha256(f"{built}\n{KEPT_SCHEMA}".encode()).hexdigest()[:16]


def keep_task_json(conn: sqlite3.Connection) -> None:
    """Create `task_json` and its triggers, and keep the text of every task: after a generation, on the first start
    of a database kept from before, or when its texts were kept by another version (`kept_version`). A warm start
    only reads that version: a task whose text a trigger dropped since is built when asked, as before."""
    version = kept_version()
    stored = conn.execute("SELECT value FROM meta WHERE key = 'task_json_version'").fetchone()
    there = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task_json'").fetchone()
    if stored is not None and stored[0] == version and there is not None:
        return
    built = task_object_sql(hydrate_domains=False, hydrate_ous=False)
    conn.execute("BEGIN IMMEDIATE")
    try:
        for (trigger,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'task_json_%'"
        ).fetchall():
            conn.execute(f'DROP TRIGGER "{trigger}"')  # another version's (names from this module only)
        conn.execute("DROP TABLE IF EXISTS task_json")
        for statement in KEPT_SCHEMA.split(";\n"):  # one by one: executescript would commit first
            if statement.strip():
                conn.execute(statement)
        conn.execute(
            f"INSERT INTO task_json (task_id, body) SELECT t.id, {built} FROM tasks t "  # noqa: S608
            "LEFT JOIN clients c ON c.id = t.client_id"
        )
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('task_json_version', ?)", (version,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
