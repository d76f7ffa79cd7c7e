"""Adversarial: the server acted, but its answer was lost or garbled; the audit log must still tell the truth.

A demo server whose app is wrapped: the request reaches it and it acts (deletes, creates), then the answer the
client gets is cut (connection aborted) or garbled. The log must not claim the selector was gone before the run,
and a restore must re-create each deleted selector exactly once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.store.audit_read import read_audit
from tests.support.cli import copy_template, demo_env, invoke

DELETE_PATH = re.compile(r"^/api/v2/asset-group-tags/\d+/selectors/(\d+)$")
CREATE_PATH = re.compile(r"^/api/v2/asset-group-tags/\d+/selectors$")
GARBAGE = b"<html><body>upstream said something odd</body></html>"


@dataclass
class AnswerSpoiler:
    """Lets the demo app act on a request, then spoils the answer: `drop` aborts the connection, `garble` sends
    a 2xx whose body is not the API's. Each spoils the first matching request only."""

    drop_delete: int | None = None  # selector id: its first DELETE is done, the answer never arrives
    gateway_delete: int | None = None  # selector id: its first DELETE is done, a proxy answers 502 (upstream timed out)
    garble_delete: int | None = None  # selector id: its first DELETE is done, answered 200 with garbage
    garble_create: bool = False  # the first POST creating a selector is done, answered 201 with garbage
    gateway_create: bool = False  # the first POST creating a selector is done, a proxy answers 502
    garble_lists: bool = False  # every GET of the tag's list is answered 200 with garbage
    spoiled: list[str] = field(default_factory=list)

    def _pick(self, scope: Scope) -> str | None:
        path, method = scope.get("path", ""), scope.get("method")
        if method == "GET" and CREATE_PATH.match(path) and self.garble_lists:
            return "garble-list"
        deleted = DELETE_PATH.match(path)
        if method == "DELETE" and deleted:
            target = int(deleted.group(1))
            if target == self.drop_delete and "drop" not in self.spoiled:
                return "drop"
            if target == self.gateway_delete and "gateway" not in self.spoiled:
                return "gateway"
            if target == self.garble_delete and "garble-delete" not in self.spoiled:
                return "garble-delete"
        if method == "POST" and CREATE_PATH.match(path) and not {"garble-create", "gateway-create"} & set(self.spoiled):
            if self.garble_create:
                return "garble-create"
            if self.gateway_create:
                return "gateway-create"
        return None

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """The ASGI app that spoils the chosen answers after `app` acted."""

        async def spoiling(scope: Scope, receive: Receive, send: Send) -> None:
            kind = self._pick(scope) if scope["type"] == "http" else None
            if kind is None:
                await app(scope, receive, send)
                return
            self.spoiled.append(kind)
            status: list[int] = []

            async def hold(message: Message) -> None:
                if message["type"] == "http.response.start":
                    status.append(int(message["status"]))

            await app(scope, receive, hold)  # the server acts; its answer is held back
            assert status and 200 <= status[0] < 300, f"the server did not act: {status}"
            if kind == "drop":
                transport: Any = getattr(getattr(send, "__self__", None), "transport", None)
                assert transport is not None, "no transport to abort"
                transport.abort()
                return
            code = {"garble-create": 201, "gateway": 502, "gateway-create": 502}.get(kind, 200)
            headers = [(b"content-type", b"text/html"), (b"content-length", str(len(GARBAGE)).encode())]
            await send({"type": "http.response.start", "status": code, "headers": headers})
            await send({"type": "http.response.body", "body": GARBAGE})

        return spoiling


@pytest.fixture
def spoiled(
    demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[AnswerSpoiler]:
    """A fresh demo server whose answers the returned spoiler may cut or garble; the CLI's profile points at it."""
    import svctui.demo.server as server_module
    from svctui.demo.app import create_app

    spoiler = AnswerSpoiler()
    monkeypatch.setattr(server_module, "create_app", lambda state: spoiler.wrap(create_app(state)))
    db_path = copy_template(demo_template_db, tmp_path_factory)
    with DemoServer(edition="enterprise", db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR) as demo:
        for name, value in demo_env(demo).items():
            monkeypatch.setenv(name, value)
        yield spoiler


def _names() -> list[str]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line)["name"] for line in result.stdout.splitlines()]


def _plain(count: int) -> list[dict[str, Any]]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    items = [json.loads(line) for line in result.stdout.splitlines()]
    return [item for item in items if not item["is_default"] and item["seeds"]][:count]


@pytest.mark.parametrize("spoil", ["drop", "gateway"])
def test_a_delete_whose_answer_was_lost_is_not_recorded_as_already_gone(spoiled: AnswerSpoiler, spoil: str) -> None:
    """The server deleted selector X, then the connection dropped before its 204 (or a proxy in front answered 502),
    the client sent the DELETE again and got 404 `resource not found`. The log says `already gone` (settled, "not
    deleted by the run") although this run deleted it, and `selectors restore RUN` then refuses to re-create it:
    the deletion is lost from the log."""
    target, other = _plain(2)
    setattr(spoiled, f"{spoil}_delete", target["id"])
    run = invoke(["selectors", "delete", "1", str(target["id"]), str(other["id"]), "--yes"])
    assert spoiled.spoiled == [spoil], run.stderr
    assert target["name"] not in _names(), "the server did delete it"
    first = read_audit().runs[-1]
    outcome = first.entries[target["id"]].outcome
    assert outcome != "already gone", f"run {first.run_id} deleted it, but the log says {outcome!r}"
    restore = invoke(["selectors", "restore", first.run_id, "--yes"])
    assert _names().count(target["name"]) == 1, restore.stderr


def test_a_delete_answered_with_garbage_after_the_server_acted_can_still_be_restored(spoiled: AnswerSpoiler) -> None:
    """The server deleted X and a 200 with a body not the API's came back: the run records `failed`, the resume
    finds X gone (`already gone`), and no restore of either run re-creates it: a deletion nobody can undo."""
    (target,) = _plain(1)
    spoiled.garble_delete = target["id"]
    invoke(["selectors", "delete", "1", str(target["id"]), "--yes"])
    assert spoiled.spoiled == ["garble-delete"]
    first = read_audit().runs[-1]
    assert first.entries[target["id"]].outcome != "deleted"  # nothing confirmed it: not `deleted`, rightly
    invoke(["selectors", "resume", first.run_id, "--yes"])
    resume = read_audit().runs[-1]
    for run_id in (first.run_id, resume.run_id):
        invoke(["selectors", "restore", run_id, "--yes"])
    assert _names().count(target["name"]) == 1, "the selector the server deleted is re-created exactly once"


@pytest.mark.parametrize("spoil", ["garble", "gateway"])
def test_a_restore_answered_with_garbage_after_the_server_created_is_not_recreated_twice(
    spoiled: AnswerSpoiler, spoil: str
) -> None:
    """The POST re-creating X was done by the server but answered with garbage (or a proxy's 502): the restore run
    records `failed` (not in doubt), so the next restore of the same run POSTs X again: two copies of X."""
    (target,) = _plain(1)
    deleted = invoke(["selectors", "delete", "1", str(target["id"]), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    run_id = read_audit().runs[-1].run_id
    setattr(spoiled, f"{spoil}_create", True)
    invoke(["selectors", "restore", run_id, "--yes"])
    assert spoiled.spoiled == [f"{spoil}-create"]
    assert _names().count(target["name"]) == 1, "the server created it"
    invoke(["selectors", "restore", run_id, "--yes"])
    assert _names().count(target["name"]) == 1, "re-created twice"


def test_a_tag_list_that_cannot_be_read_still_records_each_deleted_selector(spoiled: AnswerSpoiler) -> None:
    """Adversarial audit, side note: one unreadable selector in the tag's list (a lone surrogate in a name) lost the
    whole list, so every intent had `selector: null` and the run could never be restored. Each record now comes
    from a GET before its DELETE when the list fails."""
    targets = _plain(2)
    spoiled.garble_lists = True
    run = invoke(["selectors", "delete", "1", *(str(target["id"]) for target in targets), "--yes"])
    assert "garble-list" in spoiled.spoiled, run.stderr
    spoiled.garble_lists = False
    first = read_audit().runs[-1]
    assert [first.entries[target["id"]].outcome for target in targets] == ["deleted", "deleted"], run.stdout
    assert all(first.entries[target["id"]].record for target in targets), "each intent keeps the selector's record"
    restore = invoke(["selectors", "restore", first.run_id, "--yes"])
    assert restore.exit_code == 0, restore.stdout + restore.stderr
    assert all(_names().count(target["name"]) == 1 for target in targets)
