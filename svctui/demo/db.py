"""SQLite schema of the demo server, connections, stored metadata and credentials, and `seeded_drops`."""

from __future__ import annotations

import base64
import secrets
import sqlite3
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from svctui.api.fields import COUNT_NAMES, FLAG_NAMES
from svctui.demo.config import DemoSizes

SCHEMA_VERSION = "10"  # also bumped when the generated data changes (a cached database is rebuilt)

_FLAGS_SQL = ", ".join(f"{name} INTEGER NOT NULL" for name in FLAG_NAMES)
_COUNTS_SQL = ", ".join(f"{name} INTEGER NOT NULL" for name in COUNT_NAMES)

SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tokens (id TEXT PRIMARY KEY, key TEXT NOT NULL, role TEXT NOT NULL, disabled INTEGER NOT NULL);
CREATE TABLE clients (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, hostname TEXT NOT NULL, ip_address TEXT NOT NULL,
    configured_user TEXT NOT NULL, version TEXT NOT NULL, type TEXT NOT NULL, last_checkin INTEGER,
    current_job_id INTEGER, completed_job_count INTEGER NOT NULL, domain_controller TEXT, user_sid TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER);
CREATE TABLE domains (
    objectid TEXT PRIMARY KEY, client_id TEXT NOT NULL, name TEXT NOT NULL, present INTEGER NOT NULL,
    type TEXT NOT NULL, base_json TEXT NOT NULL);
CREATE TABLE ous (
    objectid TEXT PRIMARY KEY, domain_objectid TEXT NOT NULL, name TEXT NOT NULL, present INTEGER NOT NULL,
    distinguishedname TEXT NOT NULL, type TEXT NOT NULL);
CREATE TABLE events (
    id INTEGER PRIMARY KEY, client_id TEXT NOT NULL, title TEXT NOT NULL, rrule TEXT NOT NULL, {_FLAGS_SQL},
    next_scheduled_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER);
CREATE TABLE event_domains (event_id INTEGER NOT NULL, objectid TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE event_ous (event_id INTEGER NOT NULL, objectid TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY, client_id TEXT NOT NULL, event_id INTEGER, execution_time INTEGER NOT NULL,
    start_time INTEGER NOT NULL, end_time INTEGER NOT NULL, status INTEGER NOT NULL, status_message TEXT NOT NULL,
    {_FLAGS_SQL}, domain_controller TEXT NOT NULL, log_path TEXT, event_title TEXT, last_ingest INTEGER NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER);
CREATE TABLE task_domains (task_id INTEGER NOT NULL, objectid TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE task_ous (task_id INTEGER NOT NULL, objectid TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE domain_results (
    id INTEGER PRIMARY KEY, job_id INTEGER NOT NULL, domain_name TEXT NOT NULL, success INTEGER NOT NULL,
    message TEXT NOT NULL, {_COUNTS_SQL}, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE seeded_drops (task_id INTEGER NOT NULL, domain_name TEXT NOT NULL, field TEXT NOT NULL);
CREATE TABLE tags (
    id INTEGER PRIMARY KEY, type INTEGER NOT NULL, kind_id INTEGER NOT NULL, name TEXT NOT NULL,
    description TEXT NOT NULL, created_at INTEGER NOT NULL, created_by TEXT NOT NULL, updated_at INTEGER NOT NULL,
    updated_by TEXT NOT NULL, deleted_at INTEGER, deleted_by TEXT, position INTEGER, require_certify INTEGER,
    analysis_enabled INTEGER, glyph TEXT);
CREATE TABLE selectors (
    id INTEGER PRIMARY KEY AUTOINCREMENT, asset_group_tag_id INTEGER NOT NULL, name TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at INTEGER NOT NULL, created_by TEXT NOT NULL, updated_at INTEGER NOT NULL, updated_by TEXT NOT NULL,
    disabled_at INTEGER, disabled_by TEXT, auto_certify INTEGER NOT NULL, is_default INTEGER NOT NULL,
    allow_disable INTEGER NOT NULL, member_count INTEGER NOT NULL, rule_key TEXT, extension_id INTEGER);
CREATE TABLE extension_rules (extension_id INTEGER NOT NULL, rule_key TEXT NOT NULL, tag_id INTEGER NOT NULL,
    name TEXT NOT NULL, description TEXT NOT NULL, seed_type INTEGER NOT NULL, seed_value TEXT NOT NULL);
CREATE TABLE selector_seeds (selector_id INTEGER NOT NULL, type INTEGER NOT NULL, value TEXT NOT NULL,
    position INTEGER NOT NULL);
"""

INDEXES = """
CREATE INDEX tasks_client ON tasks (client_id, id);
CREATE INDEX tasks_client_time ON tasks (client_id, execution_time);
CREATE INDEX tasks_time_status ON tasks (execution_time, status);
CREATE INDEX task_domains_task ON task_domains (task_id);
CREATE INDEX task_ous_task ON task_ous (task_id);
CREATE INDEX results_job ON domain_results (job_id);
CREATE INDEX event_domains_event ON event_domains (event_id);
CREATE INDEX event_ous_event ON event_ous (event_id);
CREATE INDEX selectors_tag ON selectors (asset_group_tag_id, id);
CREATE INDEX seeds_selector ON selector_seeds (selector_id);
"""


@dataclass(frozen=True)
class Token:
    """An API token of the demo: id (uuid), key (the secret), role (`admin` or `read-only`) and disabled flag."""

    id: str
    key: str = ""
    role: str = "admin"
    disabled: bool = False

    def __repr__(self) -> str:
        return f"Token(id={self.id!r}, key='**********', role={self.role!r}, disabled={self.disabled})"


@dataclass(frozen=True)
class Credentials:
    """The tokens a demo database accepts and the secret that signs its JWTs."""

    admin: Token
    read_only: Token
    disabled: Token
    jwt_secret: str = field(repr=False)


@dataclass(frozen=True)
class SeededDrop:
    """A count deliberately dropped (by 35-60 %) in one domain result: what the triage drop detector must find."""

    task_id: int
    domain_name: str
    field: str


def connect(path: Path | str) -> sqlite3.Connection:
    """Open the demo database with rows addressable by column name."""
    conn = sqlite3.connect(str(path), timeout=30.0, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute("PRAGMA busy_timeout = 30000")
    return conn


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """All metadata rows, or {} when the database has no schema yet."""
    try:
        return {row["key"]: row["value"] for row in conn.execute("SELECT key, value FROM meta")}
    except sqlite3.DatabaseError:
        return {}


def write_meta(conn: sqlite3.Connection, values: dict[str, str]) -> None:
    """Insert or replace metadata rows."""
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", sorted(values.items()))


def matches(meta: dict[str, str], seed: int, sizes: DemoSizes) -> bool:
    """True when a stored database was generated from this seed, these sizes and this schema version."""
    return (
        meta.get("schema_version") == SCHEMA_VERSION
        and meta.get("seed") == str(seed)
        and meta.get("sizes") == sizes.key()
        and meta.get("complete") == "1"
    )


def create_schema(conn: sqlite3.Connection) -> None:
    """Create every table (the database must be empty)."""
    conn.executescript(SCHEMA)


def create_indexes(conn: sqlite3.Connection) -> None:
    """Create the indexes (after the bulk insert, which is faster)."""
    conn.executescript(INDEXES)


# Indexes added after a schema version: created in a database kept from before (instead of a new version, which would
# regenerate every cached database for an index).
# jobs/finished's count; its pages, by id: a narrow index scanned in id order instead of every task's whole row (a
# page of 1,000 of 60,000 runs: ~5-7 → ~1.5-2.5 ms of the demo's CPU; fleet-1000-fill, fleet-1000-health)
LATER_INDEXES = (
    "CREATE INDEX IF NOT EXISTS tasks_time_status ON tasks (execution_time, status);"
    "CREATE INDEX IF NOT EXISTS tasks_id_status_time ON tasks (id, status, execution_time);"
)


def add_later_indexes(conn: sqlite3.Connection) -> None:
    """Create the LATER_INDEXES a kept database lacks (nothing is written when it has them)."""
    conn.executescript(LATER_INDEXES)


def new_token_key() -> str:
    """A random token key that looks like the real ones (base64 of 48 random bytes)."""
    return base64.b64encode(secrets.token_bytes(48)).decode("ascii")


def store_credentials(conn: sqlite3.Connection, admin_id: str | None, admin_key: str | None) -> Credentials:
    """Keep or replace the stored tokens: an explicit id/key wins, else the stored one, else a new random one."""
    rows = {row["role"]: row for row in conn.execute("SELECT id, key, role, disabled FROM tokens")}

    def kept(role: str, token_id: str | None = None, key: str | None = None) -> Token:
        """The token of `role`: an explicit id/key wins, else the stored one, else a new random one."""
        row = rows.get(role)
        return Token(
            id=str(uuid.UUID(token_id)) if token_id else (row["id"] if row else str(uuid.uuid4())),
            key=key if key else (row["key"] if row else new_token_key()),
            role=role,
            disabled=role == "disabled",
        )

    admin, read_only, disabled = kept("admin", admin_id, admin_key), kept("read-only"), kept("disabled")
    tokens = [admin, read_only, disabled]
    if len({token.id for token in tokens}) != len(tokens):
        raise ValueError("--token-id must differ from the demo's read-only and disabled token ids")
    meta = read_meta(conn)
    stored = {role: (row["id"], row["key"], bool(row["disabled"])) for role, row in rows.items()}
    if meta.get("jwt_secret") and stored == {t.role: (t.id, t.key, t.disabled) for t in tokens}:
        # what a warm `svctui --demo` finds: nothing to write, so no commit waits for the disk
        return Credentials(admin=admin, read_only=read_only, disabled=disabled, jwt_secret=meta["jwt_secret"])
    conn.execute("DELETE FROM tokens")
    conn.executemany(
        "INSERT INTO tokens (id, key, role, disabled) VALUES (?, ?, ?, ?)",
        [(t.id, t.key, t.role, int(t.disabled)) for t in tokens],
    )
    jwt_secret = meta.get("jwt_secret") or secrets.token_urlsafe(32)
    write_meta(conn, {"jwt_secret": jwt_secret})
    return Credentials(admin=admin, read_only=read_only, disabled=disabled, jwt_secret=jwt_secret)


def find_token(conn: sqlite3.Connection, token_id: str) -> Token | None:
    """The token with this id, or None."""
    row = conn.execute("SELECT id, key, role, disabled FROM tokens WHERE id = ?", (token_id,)).fetchone()
    if row is None:
        return None
    return Token(id=row["id"], key=row["key"], role=row["role"], disabled=bool(row["disabled"]))


def stored_anchor(conn: sqlite3.Connection) -> datetime | None:
    """The time the stored data was generated to end at."""
    value = read_meta(conn).get("anchor")
    return datetime.fromisoformat(value) if value else None


def seeded_drops(db_path: Path | str) -> list[SeededDrop]:
    """The drops deliberately seeded in a demo database, ordered by task id, domain and field."""
    conn = connect(db_path)
    try:
        rows = conn.execute(
            "SELECT task_id, domain_name, field FROM seeded_drops ORDER BY task_id, domain_name, field"
        ).fetchall()
    finally:
        conn.close()
    return [SeededDrop(int(row["task_id"]), str(row["domain_name"]), str(row["field"])) for row in rows]


def insert(conn: sqlite3.Connection, table: str, rows: list[tuple[object, ...]]) -> None:
    """executemany INSERT of full rows into `table` (a name from this module, never from input)."""
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)  # noqa: S608 - fixed table names only
