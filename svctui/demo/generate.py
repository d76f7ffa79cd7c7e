"""Generating the whole demo data set: clients, forests and events, then tasks, then tags and selectors.

`generate(conn, seed, sizes, anchor)` fills an empty database; the same seed, sizes and anchor give the same rows.
Each part has its own random stream, so growing one part (say, more selectors) leaves the others unchanged.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from datetime import UTC, datetime

from svctui.demo import data, data_health, data_tags, data_tasks, db
from svctui.demo.config import DemoSizes
from svctui.demo.timefmt import to_micros


def generate(conn: sqlite3.Connection, seed: int, sizes: DemoSizes, anchor: datetime) -> float:
    """Fill an empty schema with the data set for `seed` and `sizes`, ending at `anchor`; returns seconds taken."""
    started = time.perf_counter()
    anchor = anchor.astimezone(UTC).replace(microsecond=0)
    rng = random.Random(seed)
    clients = data.make_clients(rng, sizes.clients)
    ous = data.ou_rows(rng, clients)
    span = data_tasks.history_span(sizes)
    events = data.make_events(rng, clients, sizes.events, anchor - span)
    conn.execute("BEGIN")
    fleet = [*clients, *_never_ran(seed, clients, sizes)]
    db.insert(conn, "clients", data.client_rows(random.Random(seed * 6151 + 3), fleet, anchor))
    db.insert(
        conn,
        "domains",
        [
            (d.objectid, d.client_id, d.name, 1, "Domain", json.dumps({"base": d.base, "trend": d.trend}))
            for client in clients
            for d in client.domains
        ],
    )
    db.insert(conn, "ous", list(ous))
    db.insert(conn, "events", data.event_rows(rng, events, anchor))
    db.insert(
        conn,
        "event_domains",
        [(e.id, d.objectid, i) for e in events if not e.ou_ids and not e.flags[6] for i, d in enumerate(e.domains)],
    )
    db.insert(conn, "event_ous", [(e.id, ou, i) for e in events for i, ou in enumerate(e.ou_ids)])
    data_tasks.generate_tasks(conn, random.Random(seed * 7919 + 1), clients, events, sizes, anchor, span)
    data_tags.generate_tags(conn, random.Random(seed * 104729 + 2), sizes, anchor)
    _client_activity(conn, anchor)
    db.write_meta(
        conn,
        {
            "schema_version": db.SCHEMA_VERSION,
            "seed": str(seed),
            "sizes": sizes.key(),
            "anchor": anchor.isoformat(),
            "complete": "1",
        },
    )
    conn.execute("COMMIT")
    db.create_indexes(conn)
    return time.perf_counter() - started


def _never_ran(seed: int, clients: list[data.Client], sizes: DemoSizes) -> list[data.Client]:
    """The registered client that never ran, an AzureHound collector beside the SharpHound ones (its own random
    stream: the rest of the data is unchanged)."""
    if not data_health.shapes_fleet(clients, sizes):
        return []
    rng = random.Random(seed * 31337 + 4)
    client = data.Client(id=data.new_uuid(rng), name=data_health.FLEET_NEW_CLIENT, collector="azurehound")
    client.domains.append(data.make_domain(rng, "branch.fabrikam.local", client.id))
    return [client]


CHECKIN_AFTER_RUN = 4 * 60 * 1_000_000  # a client checks in a few minutes after its last run ended (micros)
RUNNING_CLIENT = 1  # the second client is collecting right now: it has a current job


def _client_activity(conn: sqlite3.Connection, anchor: datetime) -> None:
    """Each client's completed-job count and last check-in from its tasks; one client has a job in progress."""
    conn.execute(
        "UPDATE clients SET completed_job_count = (SELECT COUNT(*) FROM tasks t WHERE t.client_id = clients.id), "
        "last_checkin = (SELECT MIN(MAX(t.end_time) + ?, ?) FROM tasks t WHERE t.client_id = clients.id)",
        (CHECKIN_AFTER_RUN, to_micros(anchor)),
    )
    # a client that never ran still checks in (every few minutes, like the others)
    conn.execute(
        "UPDATE clients SET last_checkin = ? WHERE last_checkin IS NULL", (to_micros(anchor) - CHECKIN_AFTER_RUN,)
    )
    running = conn.execute("SELECT id FROM clients ORDER BY rowid LIMIT 1 OFFSET ?", (RUNNING_CLIENT,)).fetchone()
    if running is not None:
        next_id = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM tasks").fetchone()[0])
        conn.execute(
            "UPDATE clients SET current_job_id = ?, last_checkin = ? WHERE id = ?",
            (next_id, to_micros(anchor), running[0]),
        )
