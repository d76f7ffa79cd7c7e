"""The command line against what the real server refuses, counts and re-creates (issue 26), on the demo server.

Extension-owned selectors are deleted on request (named in the prompt), their audit lines keep `rule_key` and
`extension_id`, and a restore never re-creates one and says why; a restore's POST refused with 409 (the name is
taken) names the selector that holds it, and counts as restored when that one has the same definition; the POST's
400s reach the user verbatim; ETAC's 403 is said in words (exit 3, not "authentication failed") and deleting by
typed ids still works.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from svctui.demo.server import DemoServer
from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.cli import demo_env, invoke
from tests.support.demo_http import own_server, signed

EXTENSION_WHY = "the extension re-creates it at its next sync"


def _selectors(tag_id: int = 1) -> list[dict[str, Any]]:
    result = invoke(["selectors", "list", str(tag_id), "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def _audit() -> list[dict[str, Any]]:
    return [json.loads(line) for line in audit_path().read_text().splitlines()]


@pytest.fixture
def env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


@pytest.fixture
def restricted(demo_template_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[DemoServer]:
    """A demo server with environment access control on (`--restricted-user`), as the profile."""
    with own_server(demo_template_db, tmp_path, rate_limit=0, restricted_user=True) as demo:
        for name, value in demo_env(demo).items():
            monkeypatch.setenv(name, value)
        yield demo


def test_restore_refuses_the_extensions_selector_with_its_reason_and_brings_the_disabled_one_back(
    env: dict[str, str],
) -> None:
    """Must show (issue 26): a run deleted an extension-owned selector and a disabled one; its restore re-creates
    the disabled one and refuses the extension's, saying why; the audit lines keep rule_key and extension_id."""
    every = _selectors()
    owned = next(item for item in every if item["rule_key"] == "entra-global-admins")
    disabled = next(item for item in every if item["disabled_at"] is not None and not item["is_default"])
    dry = invoke(["selectors", "delete", "1", str(owned["id"]), str(disabled["id"]), "--dry-run"])
    assert f"owned by an extension: extension 1, rule entra-global-admins; {EXTENSION_WHY}" in dry.stdout, dry.stdout
    deleted = invoke(["selectors", "delete", "1", str(owned["id"]), str(disabled["id"]), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    run_id = read_audit().runs[-1].run_id
    lines = [line for line in _audit() if line["run"] == run_id]
    intent = next(line for line in lines if line["event"] == "intent" and line["selector_id"] == owned["id"])
    assert (intent["selector"]["rule_key"], intent["selector"]["extension_id"]) == ("entra-global-admins", 1)
    outcome = next(line for line in lines if line["event"] == "outcome" and line["selector_id"] == owned["id"])
    assert (outcome["rule_key"], outcome["extension_id"], outcome["outcome"]) == ("entra-global-admins", 1, "deleted")
    plain = next(line for line in lines if line["event"] == "outcome" and line["selector_id"] == disabled["id"])
    assert "rule_key" not in plain and "extension_id" not in plain  # only an extension's selector carries them

    restored = invoke(["selectors", "restore", run_id, "--yes"])
    assert restored.exit_code == 7, restored.stdout + restored.stderr  # the extension's one was skipped
    assert "Traceback" not in restored.stdout + restored.stderr
    assert (
        f"1 skipped, owned by an extension (extension 1, rule entra-global-admins): {EXTENSION_WHY}; a copy made by "
        f"POST would be a plain selector whose name blocks that: {owned['id']}"
    ) in restored.stderr
    assert f"{disabled['id']} {disabled['name']!r}: restored as" in restored.stdout
    assert "re-created enabled; was disabled" in restored.stdout
    restore = read_audit().runs[-1]
    assert list(restore.entries) == [disabled["id"]]  # no intent, no POST for the extension's selector
    names = [item["name"] for item in _selectors()]
    assert names.count(disabled["name"]) == 1 and names.count(owned["name"]) == 0  # the restore made no copy
    assert invoke(["tags", "list"]).exit_code == 0  # the demo's extension sync runs at the next tag list
    names = [item["name"] for item in _selectors()]
    assert names.count(owned["name"]) == 1  # re-created by its extension, as its own
    assert [item["rule_key"] for item in _selectors() if item["name"] == owned["name"]] == ["entra-global-admins"]


def test_restore_of_a_name_that_exists_with_the_same_definition_counts_as_restored(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    target = next(item for item in _selectors() if not item["is_default"] and item["rule_key"] is None)
    deleted = invoke(["selectors", "delete", "1", str(target["id"]), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    run_id = read_audit().runs[-1].run_id
    copy = {key: target[key] for key in ("name", "description", "auto_certify", "seeds")}
    with signed(fresh_demo_server) as http:  # someone re-created it by hand meanwhile
        made = http.post("/api/v2/asset-group-tags/1/selectors", json=copy)
    assert made.status_code == 201, made.text
    again = made.json()["data"]["id"]
    restored = invoke(["selectors", "restore", run_id, "--yes"])
    assert restored.exit_code == 0, restored.stdout + restored.stderr
    assert f"restored as {again} (a selector with this name and definition exists now (id {again})" in restored.stdout
    entry = read_audit().runs[-1].entries[target["id"]]
    assert (entry.outcome, entry.new_id) == ("restored", again)
    line = next(line for line in _audit() if line["event"] == "outcome" and line["run"] == read_audit().runs[-1].run_id)
    assert line["status"] == 409 and line["request_id"]
    assert [item["id"] for item in _selectors() if item["name"] == target["name"]] == [again]


def test_restore_of_a_name_held_by_another_definition_says_what_to_do(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    target = next(item for item in _selectors() if not item["is_default"] and item["rule_key"] is None)
    invoke(["selectors", "delete", "1", str(target["id"]), "--yes"])
    run_id = read_audit().runs[-1].run_id
    other = {"name": target["name"], "seeds": [{"type": 1, "value": "S-1-5-21-9-9-9-512"}]}
    with signed(fresh_demo_server) as http:
        holder = http.post("/api/v2/asset-group-tags/1/selectors", json=other).json()["data"]["id"]
    restored = invoke(["selectors", "restore", run_id, "--yes"])
    assert restored.exit_code == 5, restored.stdout + restored.stderr
    assert f"{target['id']} {target['name']!r}: failed (HTTP 409)" in restored.stdout
    assert f"exists now (id {holder}) with another definition; names are unique per tag: rename or delete " in (
        restored.stdout
    )
    assert "then restore this one again" in restored.stdout


def test_the_posts_400_reaches_the_user_verbatim(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    """A selector an older server kept with a Cypher seed the server now refuses: its restore says the server's
    words."""
    target = next(item for item in _selectors() if not item["is_default"] and item["rule_key"] is None)
    with sqlite3.connect(fresh_demo_server.db_path) as conn:
        sql = "UPDATE selector_seeds SET type = 2, value = 'MATCH (n) RETURN (n' WHERE selector_id = ?"
        conn.execute(sql, (target["id"],))
    invoke(["selectors", "delete", "1", str(target["id"]), "--yes"])
    run_id = read_audit().runs[-1].run_id
    restored = invoke(["selectors", "restore", run_id, "--yes"])
    assert restored.exit_code == 5, restored.stdout + restored.stderr
    assert "failed (HTTP 400): HTTP 400 Bad Request — cypher is invalid: missing ')'" in restored.stdout
    assert "Traceback" not in restored.stdout + restored.stderr


def test_etac_is_said_in_words_and_deleting_typed_ids_still_works(restricted: DemoServer) -> None:
    listed = invoke(["selectors", "list", "1"])
    assert listed.exit_code == 3, listed.stderr  # docs/COMMANDS.md: 3 is authentication or access
    assert "user does not have access to this resource" in listed.stderr
    assert "this user cannot browse selectors on this server" in listed.stderr and "the token works" in listed.stderr
    assert "authentication failed" not in listed.stderr.lower() and "Traceback" not in listed.stderr
    with sqlite3.connect(restricted.db_path) as conn:
        sql = "SELECT id FROM selectors WHERE asset_group_tag_id = 1 AND is_default = 0 ORDER BY id LIMIT 2"
        ids = [row[0] for row in conn.execute(sql)]
    dry = invoke(["selectors", "delete", "1", *map(str, ids), "--dry-run"])
    assert dry.exit_code == 0, dry.stderr
    assert "would try (selector lookup unavailable)" in dry.stdout and "cannot browse selectors" in dry.stdout
    deleted = invoke(["selectors", "delete", "1", *map(str, ids), "--yes"])
    assert deleted.exit_code == 0, deleted.stdout + deleted.stderr
    assert "could not list the selectors of tag 1" in deleted.stderr and "cannot browse selectors" in deleted.stderr
    run = read_audit().runs[-1]
    assert [entry.outcome for entry in run.entries.values()] == ["deleted", "deleted"]
    with sqlite3.connect(restricted.db_path) as conn:
        left = conn.execute(f"SELECT COUNT(*) FROM selectors WHERE id IN ({ids[0]}, {ids[1]})").fetchone()[0]
    assert left == 0
