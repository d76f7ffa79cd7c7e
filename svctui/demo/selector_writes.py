"""Selector writes of the demo server, each one transaction: delete (read inside the write lock), create, and the
deterministic member counts by object kind.

A read outside the write transaction let two concurrent DELETEs of one selector both see it and both answer 204;
here the lookup runs after `BEGIN IMMEDIATE`, so the second one finds nothing, as in a real database.
"""

from __future__ import annotations

import random
import sqlite3
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from enum import Enum

from svctui.demo import repo
from svctui.demo.timefmt import to_micros

MEMBER_KINDS = ("User", "Group", "Computer", "Domain", "OU", "GPO", "Container", "CertTemplate")


class DeleteOutcome(Enum):
    """What a delete found under the write lock."""

    DELETED = "deleted"
    MISSING = "missing"
    OTHER_TAG = "other tag"
    DEFAULT = "default"


def delete_selector(conn: sqlite3.Connection, tag_id: int, selector_id: int) -> DeleteOutcome:
    """Delete a non-default selector of `tag_id` and its seeds, checking it under the write lock."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute(
            "SELECT asset_group_tag_id, is_default FROM selectors WHERE id = ?", (selector_id,)
        ).fetchone()
        if row is None:
            outcome = DeleteOutcome.MISSING
        elif int(row["asset_group_tag_id"]) != tag_id:
            outcome = DeleteOutcome.OTHER_TAG
        elif row["is_default"]:
            outcome = DeleteOutcome.DEFAULT
        else:
            conn.execute("DELETE FROM selector_seeds WHERE selector_id = ?", (selector_id,))
            conn.execute("DELETE FROM selectors WHERE id = ?", (selector_id,))
            outcome = DeleteOutcome.DELETED
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return outcome


def seeded_member_count(seeds: Sequence[tuple[int, str]]) -> int:
    """How many objects a new selector tags: one per object-id seed, a stable 1-800 per Cypher seed."""
    return sum(1 if kind == 1 else 1 + zlib.crc32(value.encode("utf-8")) % 800 for kind, value in seeds)


def create_selector(
    conn: sqlite3.Connection,
    tag_id: int,
    name: str,
    description: str,
    auto_certify: int,
    seeds: Sequence[tuple[int, str]],
    actor: str,
    now_micros: int,
) -> dict[str, object] | None:
    """Insert a selector and its seeds; the new record, or None when the tag already has one with this name."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        taken = conn.execute(
            "SELECT 1 FROM selectors WHERE asset_group_tag_id = ? AND name = ?", (tag_id, name)
        ).fetchone()
        if taken is not None:
            conn.execute("ROLLBACK")
            return None
        cursor = conn.execute(
            "INSERT INTO selectors (asset_group_tag_id, name, description, created_at, created_by, updated_at, "
            "updated_by, disabled_at, disabled_by, auto_certify, is_default, allow_disable, member_count) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, 0, 1, ?)",
            (tag_id, name, description, now_micros, actor, now_micros, actor, auto_certify, seeded_member_count(seeds)),
        )
        selector_id = int(cursor.lastrowid or 0)
        conn.executemany(
            "INSERT INTO selector_seeds (selector_id, type, value, position) VALUES (?, ?, ?, ?)",
            [(selector_id, kind, value, index) for index, (kind, value) in enumerate(seeds)],
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    created = repo.get_selector(conn, selector_id)
    assert created is not None  # just inserted, and selectors are only deleted under the same lock
    return created


def member_counts(conn: sqlite3.Connection, selector_id: int) -> dict[str, object]:
    """`{"total_count", "counts": {kind: n}}` for a selector: its member count split over 1-4 kinds, stable per id."""
    row = conn.execute("SELECT member_count FROM selectors WHERE id = ?", (selector_id,)).fetchone()
    total = int(row["member_count"]) if row is not None else 0
    rng = random.Random(selector_id * 7_368_787 + 11)
    kinds = rng.sample(MEMBER_KINDS, rng.randint(1, 4))
    cuts = sorted(rng.randint(0, total) for _ in range(len(kinds) - 1))
    shares = [high - low for low, high in zip([0, *cuts], [*cuts, total], strict=True)]
    counts = {kind: share for kind, share in zip(kinds, shares, strict=True) if share}
    return {"total_count": total, "counts": dict(sorted(counts.items()))}


def now_micros() -> int:
    """The current time in the database's microsecond form."""
    return to_micros(datetime.now(UTC))
