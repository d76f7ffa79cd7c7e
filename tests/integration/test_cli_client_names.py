"""`-o table` of `events list` and `tasks list` names clients: from GET /api/v2/clients, the tasks, the cache."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.demo.server import DemoServer
from svctui.store.client_names import learn_names, load_names
from tests.support.cli import demo_env, invoke
from tests.support.demo_http import client_ids, own_server

PROFILE = "env"  # the environment-only profile the commands use here


@pytest.fixture
def enterprise(demo_template_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DemoServer]:
    with own_server(demo_template_db, tmp_path, rate_limit=0) as demo:
        for name, value in demo_env(demo, COLUMNS="120").items():
            monkeypatch.setenv(name, value)
        yield demo


def names_in(db: Path) -> dict[str, str]:
    """Every registered client's name (the one that never ran included: GET /api/v2/clients lists it)."""
    with sqlite3.connect(str(db)) as conn:
        return dict(conn.execute("SELECT id, name FROM clients").fetchall())


def test_events_table_names_clients_from_the_server_and_caches_them(enterprise: DemoServer) -> None:
    names = names_in(enterprise.db_path)
    result = invoke(["events", "list", "--limit", "20", "--sort", "id"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["ID", "CLIENT"]
    cells = {line.split()[1] for line in lines[1:]}
    assert cells and cells <= set(names.values()), cells
    assert not any(client_id in result.stdout for client_id in names), "names, not uuids"
    assert load_names(PROFILE) == names
    before = enterprise.request_count
    again = invoke(["events", "list", "--limit", "20", "--sort", "id"])
    assert again.stdout == result.stdout
    assert enterprise.request_count - before == 1, "every name cached: the client list is not asked again"


def test_events_table_uses_a_cached_name(enterprise: DemoServer) -> None:
    first = client_ids(enterprise.db_path)[0]
    seeded = {client_id: f"cached-{n}" for n, client_id in enumerate(names_in(enterprise.db_path))}
    learn_names(PROFILE, seeded)
    result = invoke(["events", "list", "--all", "-f", f"client_id={first}"])
    assert result.exit_code == 0, result.stderr
    assert {line.split()[1] for line in result.stdout.splitlines()[1:]} == {seeded[first]}


def test_tasks_table_shows_the_client_name_on_a_community_server(
    demo_template_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=0, edition="community") as demo:
        for name, value in demo_env(demo, COLUMNS="160").items():
            monkeypatch.setenv(name, value)
        client_id = client_ids(demo.db_path)[0]
        name = names_in(demo.db_path)[client_id]
        result = invoke(["tasks", "list", client_id, "--limit", "3", "--endpoint", "completed-jobs"])
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        assert "CLIENT" in lines[0].split()
        at = lines[0].index("CLIENT")
        rows = [line for line in lines[1:] if line[:at].strip()]  # a long message continues on the next lines
        assert len(rows) == 3 and all(line[at:].split()[0] == name for line in rows), lines
        assert load_names(PROFILE) == {client_id: name}, "learnt from the tasks, cached for later"


def test_events_filter_a_client_by_name_as_tasks_list_takes_it(enterprise: DemoServer) -> None:
    """Newcomer walk (issue 28, item 8): `events list -f client_id=NAME` refused a name `tasks list` accepts. A name
    (any case) lists that client's events as its uuid does; `neq:` too; a name no client has is exit 2, naming
    candidates, before the events are asked for."""
    import json

    names = names_in(enterprise.db_path)
    first = client_ids(enterprise.db_path)[0]
    by_uuid = invoke(["events", "list", "--all", "-o", "json", "-f", f"client_id=eq:{first}"])
    by_name = invoke(["events", "list", "--all", "-o", "json", "-f", f"client_id={names[first].lower()}"])
    assert by_uuid.exit_code == 0 and by_name.exit_code == 0, by_name.stderr
    ids = [event["id"] for event in json.loads(by_uuid.stdout)]
    assert ids and [event["id"] for event in json.loads(by_name.stdout)] == ids
    others = invoke(["events", "list", "--all", "-o", "json", "-f", f"client_id=neq:{names[first]}"])
    assert others.exit_code == 0 and not set(ids) & {event["id"] for event in json.loads(others.stdout)}
    missing = invoke(["events", "list", "-f", "client_id=NO-SUCH-CLIENT"])
    assert missing.exit_code == 2 and "is no client's name or uuid" in missing.stderr, missing.stderr
