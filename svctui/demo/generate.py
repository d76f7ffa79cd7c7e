"""Generation of the whole demo data set: clients and events (`data`), tasks (`data_tasks`), tags (`data_tags`).

`generate(conn, seed, sizes, anchor)` fills an empty database; the same seed, sizes and anchor give the same rows.
This is the one module that calls the others; none of them imports it.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from datetime import UTC, datetime

from svctui.demo import data, data_tags, data_tasks, db
from svctui.demo.config import DemoSizes


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
    data.insert(conn, "clients", [(client.id, client.name) for client in clients])
    data.insert(
        conn,
        "domains",
        [
            (d.objectid, d.client_id, d.name, 1, "Domain", json.dumps({"base": d.base, "trend": d.trend}))
            for client in clients
            for d in client.domains
        ],
    )
    data.insert(conn, "ous", list(ous))
    data.insert(conn, "events", data.event_rows(rng, events, anchor))
    data.insert(
        conn,
        "event_domains",
        [(e.id, d.objectid, i) for e in events if not e.ou_ids and not e.flags[6] for i, d in enumerate(e.domains)],
    )
    data.insert(conn, "event_ous", [(e.id, ou, i) for e in events for i, ou in enumerate(e.ou_ids)])
    data_tasks.generate_tasks(conn, random.Random(seed * 7919 + 1), clients, events, sizes, anchor, span)
    data_tags.generate_tags(conn, random.Random(seed * 104729 + 2), sizes, anchor)
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
