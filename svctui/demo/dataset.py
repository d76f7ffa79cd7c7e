"""Open or (re)generate the demo database: reuse a matching one so deletions persist, rebuild when asked or stale."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from svctui.demo import db
from svctui.demo.config import DemoSizes, current_anchor
from svctui.demo.dblock import DatabaseInUse, ServingLock, in_use_message, preparing
from svctui.demo.task_json import keep_task_json


@dataclass(frozen=True)
class PreparedDatabase:
    """A database ready to serve: its path, credentials, whether it was generated now and how long that took; and
    the lock a server holds while it serves it (`serving`, when prepared for a server: released when it stops)."""

    path: Path
    credentials: db.Credentials
    generated: bool
    seconds: float
    anchor: datetime | None
    serving: ServingLock | None = field(default=None, compare=False)


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
    serving: ServingLock | None = None,
) -> PreparedDatabase:
    """Reuse the database at `path` when it matches seed and sizes (and `reset` is false), else generate it.

    One start prepares at a time (`dblock.preparing`); DatabaseInUse when it would regenerate the database or change
    its admin token while another server serves it. With `serving` (a server's lock), the lock is held shared on
    return (the server releases it when it stops); without, it is let go."""
    sizes.validate()
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = serving or ServingLock(path)
    try:
        with preparing(path):
            prepared = _prepare(
                path, lock, seed=seed, sizes=sizes, anchor=anchor, reset=reset, token=(token_id, token_key)
            )
        lock.share()
    except BaseException:
        lock.release()
        raise
    if serving is None:
        lock.release()
    return replace(prepared, serving=serving)


def _token_changes(conn: sqlite3.Connection, token_id: str | None, token_key: str | None) -> bool:
    """Whether an explicit admin token id or key differs from the stored one (or none is stored)."""
    if token_id is None and token_key is None:
        return False
    row = conn.execute("SELECT id, key FROM tokens WHERE role = 'admin'").fetchone()
    if row is None:
        return True
    return bool((token_id and str(uuid.UUID(token_id)) != row["id"]) or (token_key and token_key != row["key"]))


def _prepare(
    path: Path,
    lock: ServingLock,
    *,
    seed: int,
    sizes: DemoSizes,
    anchor: datetime | None,
    reset: bool,
    token: tuple[str | None, str | None],
) -> PreparedDatabase:
    """`prepare_database`'s work, under the prepare lock."""
    generated = False
    seconds = 0.0
    if path.exists() and not reset:
        conn = db.connect(path)
        try:
            meta = db.read_meta(conn)
            retoken = db.matches(meta, seed, sizes) and _token_changes(conn, *token)
        finally:
            conn.close()
        reset = not db.matches(meta, seed, sizes)
        if retoken and not lock.exclusive_now():
            raise DatabaseInUse(in_use_message(path, "give it another admin token (--token-id/--token-key)"))
    if reset or not path.exists():
        if not lock.exclusive_now():
            why = "regenerate it (--reset, another seed, other sizes or another version of svctui)"
            raise DatabaseInUse(in_use_message(path, why))
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
        keep_task_json(conn)  # the tasks' JSON text, kept (a first start after an upgrade fills it)
        conn.execute("BEGIN IMMEDIATE")
        credentials = db.store_credentials(conn, *token)
        conn.execute("COMMIT")
        stored = db.stored_anchor(conn)
    finally:
        conn.close()
    return PreparedDatabase(path=path, credentials=credentials, generated=generated, seconds=seconds, anchor=stored)
