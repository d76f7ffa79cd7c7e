"""Open or (re)generate the demo database: reuse a matching one so deletions persist, rebuild when asked or stale."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from svctui.demo import db
from svctui.demo.config import DemoSizes, current_anchor


@dataclass(frozen=True)
class PreparedDatabase:
    """A database ready to serve: its path, credentials, whether it was generated now and how long that took."""

    path: Path
    credentials: db.Credentials
    generated: bool
    seconds: float
    anchor: datetime | None


class ServesPrepared:
    """A demo server of a prepared database: the tokens it accepts (its `prepared` is set when it starts)."""

    prepared: PreparedDatabase | None = None

    @property
    def credentials(self) -> db.Credentials:
        """The tokens the server accepts (admin, read-only, disabled)."""
        assert self.prepared is not None, "the demo server is not started"
        return self.prepared.credentials

    @property
    def token_id(self) -> str:
        """The admin token id."""
        return self.credentials.admin.id

    @property
    def token_key(self) -> str:
        """The admin token key (a throwaway demo secret)."""
        return self.credentials.admin.key


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{path}{suffix}")


def prepare_database(
    path: Path,
    *,
    seed: int,
    sizes: DemoSizes,
    anchor: datetime | None = None,
    reset: bool = False,
    token_id: str | None = None,
    token_key: str | None = None,
) -> PreparedDatabase:
    """Reuse the database at `path` when it matches seed and sizes (and `reset` is false), else generate it."""
    sizes.validate()
    path.parent.mkdir(parents=True, exist_ok=True)
    generated = False
    seconds = 0.0
    if path.exists() and not reset:
        conn = db.connect(path)
        try:
            meta = db.read_meta(conn)
        finally:
            conn.close()
        reset = not db.matches(meta, seed, sizes)
    if reset or not path.exists():
        from svctui.demo import generate  # only to generate: a warm start never imports the generators

        _remove(path)
        conn = db.connect(path)
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = OFF")
            db.create_schema(conn)
            seconds = generate.generate(conn, seed, sizes, anchor or current_anchor())
            conn.execute("PRAGMA synchronous = NORMAL")
        finally:
            conn.close()
        generated = True
    conn = db.connect(path)
    try:
        db.add_later_indexes(conn)
        conn.execute("BEGIN IMMEDIATE")
        credentials = db.store_credentials(conn, token_id, token_key)
        conn.execute("COMMIT")
        stored = db.stored_anchor(conn)
    finally:
        conn.close()
    return PreparedDatabase(path=path, credentials=credentials, generated=generated, seconds=seconds, anchor=stored)
