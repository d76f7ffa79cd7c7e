"""The demo server's writes: each runs its checks and its change in one write transaction, as a real database does.

Reading a selector outside the transaction that deletes it let two concurrent DELETEs both answer 204; here the
second one waits for the first (BEGIN IMMEDIATE) and then finds nothing: 404, exactly as the real server.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from svctui.demo import repo
from svctui.demo.data import next_run
from svctui.demo.timefmt import from_micros, to_micros

MEMBER_KINDS = ("User", "Computer", "Group", "Container", "OU", "GPO", "Domain", "CertTemplate")
CREATED_BY = "admin@svctui-demo"
EXTENSION_ACTOR = "OpenGraph Extension Management"


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back when the block raises (a refused request changes nothing)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def delete_selector(conn: sqlite3.Connection, selector_id: int) -> bool:
    """Delete a selector and its seeds (inside the caller's transaction); False when it was already gone."""
    conn.execute("DELETE FROM selector_seeds WHERE selector_id = ?", (selector_id,))
    return conn.execute("DELETE FROM selectors WHERE id = ?", (selector_id,)).rowcount == 1


def create_selector(
    conn: sqlite3.Connection,
    tag_id: int,
    name: str,
    description: str,
    auto_certify: int,
    seeds: Sequence[tuple[int, str]],
    now: datetime | None = None,
) -> dict[str, Any]:
    """Insert a new selector of `tag_id` (inside the caller's transaction) and return it as the API shows it."""
    moment = to_micros(now or datetime.now(UTC))
    # AUTOINCREMENT: a new id is above every id the table ever held, so an id is never given twice (with MAX(id) + 1
    # a deleted selector's id would go to the next POST, and a re-check by id would take the newcomer for it)
    inserted = conn.execute(
        "INSERT INTO selectors VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, 0, 1, 0, NULL, NULL)",
        (tag_id, name, description, moment, CREATED_BY, moment, CREATED_BY, auto_certify),
    )
    selector_id = int(inserted.lastrowid or 0)
    members = random.Random(selector_id * 7907 + len(name)).randint(0, 5000)
    conn.execute("UPDATE selectors SET member_count = ? WHERE id = ?", (members, selector_id))
    conn.executemany(
        "INSERT INTO selector_seeds VALUES (?, ?, ?, ?)",
        [(selector_id, seed_type, value, position) for position, (seed_type, value) in enumerate(seeds)],
    )
    created = repo.get_selector(conn, selector_id)
    assert created is not None  # just inserted, in this transaction
    return created


def name_taken(conn: sqlite3.Connection, tag_id: int, name: str) -> bool:
    """True when a non-default selector of the tag has this name (the real server's unique-name rule, since 8.3.0)."""
    sql = "SELECT 1 FROM selectors WHERE asset_group_tag_id = ? AND name = ? AND is_default = 0"
    return conn.execute(sql, (tag_id, name)).fetchone() is not None


MISSING_RULES_SQL = (
    "SELECT r.* FROM extension_rules r WHERE NOT EXISTS (SELECT 1 FROM selectors s "
    "WHERE s.asset_group_tag_id = r.tag_id AND s.rule_key = r.rule_key AND s.extension_id = r.extension_id)"
)


def sync_extensions(conn: sqlite3.Connection, now: datetime | None = None) -> int:
    """The extensions' sync: re-create each extension-owned selector that was deleted, as its extension does on a
    real server (here at the next tag list); blocked, like the real one, while another selector has its name.
    Returns how many were re-created (no write when none is missing)."""
    if conn.execute(MISSING_RULES_SQL + " LIMIT 1").fetchone() is None:
        return 0
    made = 0
    with write_transaction(conn):
        for rule in conn.execute(MISSING_RULES_SQL).fetchall():
            if name_taken(conn, int(rule["tag_id"]), str(rule["name"])):
                continue  # a plain copy (a restore's) holds the name: the extension cannot re-create its own
            seeds = [(int(rule["seed_type"]), str(rule["seed_value"]))]
            created = create_selector(conn, rule["tag_id"], rule["name"], rule["description"], 0, seeds, now)
            conn.execute(
                "UPDATE selectors SET rule_key = ?, extension_id = ?, created_by = ?, updated_by = ? WHERE id = ?",
                (rule["rule_key"], rule["extension_id"], EXTENSION_ACTOR, EXTENSION_ACTOR, created["id"]),
            )
            made += 1
    return made


def member_counts(conn: sqlite3.Connection, selector_id: int) -> dict[str, Any] | None:
    """How many objects the selector tags, by kind (a deterministic split of its member count); None if absent."""
    row = conn.execute("SELECT member_count FROM selectors WHERE id = ?", (selector_id,)).fetchone()
    if row is None:
        return None
    total = int(row["member_count"])
    rng = random.Random(selector_id)
    kinds = rng.sample(MEMBER_KINDS, rng.randint(1, 4))
    weights = [rng.random() + 0.1 for _ in kinds]
    counts = {kind: int(total * weight / sum(weights)) for kind, weight in zip(kinds, weights, strict=True)}
    counts[kinds[0]] += total - sum(counts.values())
    return {"total_count": total, "counts": {kind: count for kind, count in counts.items() if count}}


def keep_next_runs(conn: sqlite3.Connection, now: datetime) -> int:
    """Move every next_scheduled_at that is not after `now` to the rule's next run, as the real server's scheduler
    does once a run is due; returns how many events moved (no write when none is due)."""
    moment = to_micros(now)
    due_sql = "SELECT id, rrule, created_at FROM events WHERE deleted_at IS NULL AND next_scheduled_at <= ?"
    if conn.execute(due_sql + " LIMIT 1", (moment,)).fetchone() is None:
        return 0
    with write_transaction(conn):
        due = conn.execute(due_sql, (moment,)).fetchall()
        for row in due:
            following = next_run(str(row["rrule"]), from_micros(int(row["created_at"])), now)
            conn.execute(
                "UPDATE events SET next_scheduled_at = ? WHERE id = ?",
                (to_micros(following) if following is not None else None, row["id"]),
            )
    return len(due)
