"""The demo keeps each task's unhydrated JSON text (`task_json`): pages answer byte for byte as when built per
request, also after the data a task's text is built from changed (the triggers drop what went stale)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest

from svctui.demo import db
from svctui.demo.server import DemoServer
from svctui.demo.task_json import keep_task_json, task_object_sql
from tests.support.demo_http import client_ids, signed
from tests.support.live import insert_failed_run

UNHYDRATED: list[tuple[str, str | int | float | bool | None]] = [
    ("hydrate_domains", "false"),
    ("hydrate_ous", "false"),
    ("sort_by", "id"),
    ("limit", "0"),
]


def _built(db_path: Path) -> dict[int, str]:
    """Every task's unhydrated text built now, from the tables (the oracle: no kept text involved)."""
    built = task_object_sql(hydrate_domains=False, hydrate_ous=False)
    with sqlite3.connect(str(db_path)) as conn:
        rows = conn.execute(f"SELECT t.id, {built} FROM tasks t LEFT JOIN clients c ON c.id = t.client_id")
        return {int(task_id): text for task_id, text in rows}


def _kept(db_path: Path) -> dict[int, str]:
    with sqlite3.connect(str(db_path)) as conn:
        return {int(task_id): text for task_id, text in conn.execute("SELECT task_id, body FROM task_json")}


def _pages(client: httpx.Client, clients: list[str]) -> list[bytes]:
    """The raw bodies of jobs/finished and of a few clients' histories, from both task endpoints."""
    bodies = [client.get("/api/v2/jobs/finished", params=UNHYDRATED).content]
    for client_id in clients:
        for endpoint in ("completed-jobs", "completed_jobs"):
            bodies.append(client.get(f"/api/v2/clients/{client_id}/{endpoint}", params=UNHYDRATED).content)
    return bodies


def test_every_task_is_kept_as_it_is_built(demo_template_db: Path) -> None:
    """A prepared database keeps the text of every task, equal to the text built from its rows."""
    kept = _kept(demo_template_db)
    assert kept == _built(demo_template_db)
    assert len(kept) > 1000


def test_pages_answer_as_built_after_every_kind_of_change(fresh_demo_server: DemoServer) -> None:
    """Rename a client, change a domain result, drop a task's domain, add a run: every page still answers byte for
    byte as a server that keeps nothing (the same database with `task_json` emptied)."""
    path = fresh_demo_server.db_path
    assert path is not None
    first, second, third = client_ids(path)[:3]
    with sqlite3.connect(str(path)) as conn:
        conn.execute("UPDATE clients SET name = 'RENAMED-<&>' WHERE id = ?", (first,))
        conn.execute(
            "UPDATE domain_results SET user_count = user_count + 7, message = 'changed' WHERE job_id = "
            "(SELECT max(id) FROM tasks WHERE client_id = ?)",
            (second,),
        )
        conn.execute(
            "DELETE FROM task_domains WHERE task_id = (SELECT max(id) FROM tasks WHERE client_id = ?)", (third,)
        )
    added = insert_failed_run(fresh_demo_server, third)
    built = _built(path)
    stale = {task_id for task_id, text in _kept(path).items() if built[task_id] != text}
    assert not stale, f"kept text that no longer matches its rows: {sorted(stale)[:5]}"
    assert added not in _kept(path)
    with signed(fresh_demo_server) as client:
        kept_answers = _pages(client, [first, second, third])
        with sqlite3.connect(str(path)) as conn:
            conn.execute("DELETE FROM task_json")
        built_answers = _pages(client, [first, second, third])
    assert kept_answers == built_answers
    assert b"RENAMED-\\u003c\\u0026\\u003e" in kept_answers[0] and f'"id":{added},'.encode() in kept_answers[0]


def test_a_database_kept_from_before_gets_its_texts_on_the_next_start(demo_template_db: Path, tmp_path: Path) -> None:
    """A database of the same version without `task_json` (kept from before it existed) has it filled when a server
    prepares it; a warm start after that writes nothing."""
    from svctui.demo.config import FIXED_ANCHOR, DemoSizes
    from svctui.demo.dataset import prepare_database

    path = tmp_path / "demo.sqlite3"
    path.write_bytes(demo_template_db.read_bytes())
    with sqlite3.connect(str(path)) as conn:
        for (trigger,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {trigger}")
        conn.execute("DROP TABLE task_json")
    prepared = prepare_database(path, seed=1, sizes=DemoSizes(), anchor=FIXED_ANCHOR)
    assert not prepared.generated
    assert _kept(path) == _built(path)
    conn = db.connect(path)
    try:
        changes = conn.total_changes
        keep_task_json(conn)
        assert conn.total_changes == changes
    finally:
        conn.close()


def test_texts_kept_by_another_version_are_built_again(demo_template_db: Path, tmp_path: Path) -> None:
    """Texts kept by another version of the demo (another build of the text) are never served: the next start
    builds them all again."""
    path = tmp_path / "demo.sqlite3"
    path.write_bytes(demo_template_db.read_bytes())
    with sqlite3.connect(str(path)) as conn:
        conn.execute("UPDATE task_json SET body = '{\"old\":true}'")
        conn.execute("UPDATE meta SET value = 'another' WHERE key = 'task_json_version'")
    conn = db.connect(path)
    try:
        keep_task_json(conn)
    finally:
        conn.close()
    assert _kept(path) == _built(path)


@pytest.mark.parametrize("hydrated", [("true", "false"), ("false", "true"), ("true", "true")])
def test_hydrated_pages_are_built_not_kept(demo_server: DemoServer, hydrated: tuple[str, str]) -> None:
    """A hydrated page is built per request (its objects are not kept): its ids and order are the unhydrated one's."""
    params: list[tuple[str, str | int | float | bool | None]] = [
        ("hydrate_domains", hydrated[0]),
        ("hydrate_ous", hydrated[1]),
        ("sort_by", "id"),
        ("limit", "50"),
    ]
    with signed(demo_server) as client:
        plain = client.get("/api/v2/jobs/finished", params=[*UNHYDRATED[:3], ("limit", "50")]).json()["data"]
        full = client.get("/api/v2/jobs/finished", params=params).json()["data"]
    assert [task["id"] for task in full] == [task["id"] for task in plain]
    if hydrated[0] == "true":
        assert any(isinstance(domain, dict) for task in full for domain in task["domains"])
