"""`svctui selectors resume` and read-only mode on the command line, against a fresh demo server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.cli import add_profile, demo_env, invoke, run_binary, run_on_pty
from tests.support.tasks import deletable_selector


def _audit() -> list[dict[str, Any]]:
    path = audit_path()
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _listed(tag_id: int) -> set[int]:
    result = invoke(["selectors", "list", str(tag_id), "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return {json.loads(line)["id"] for line in result.stdout.splitlines()}


@pytest.fixture
def env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _deletable(tag_id: int = 1, count: int = 3) -> list[int]:
    result = invoke(["selectors", "list", str(tag_id), "--all", "-o", "jsonl"])
    return [item["id"] for item in map(json.loads, result.stdout.splitlines()) if not item["is_default"]][:count]


def test_nothing_to_resume_says_so_and_sends_nothing(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    result = invoke(["selectors", "resume", "--yes"])
    assert result.exit_code == 0, result.stderr
    assert "nothing to resume: no interrupted deletion run in the audit log" in result.stderr
    assert fresh_demo_server.request_count == 0
    done = invoke(["selectors", "delete", "1", str(_deletable()[0]), "--yes"])
    assert done.exit_code == 0, done.stderr
    again = invoke(["selectors", "resume", "--yes"])
    assert again.exit_code == 0 and "nothing to resume" in again.stderr
    run_id = _audit()[0]["run"]
    settled = invoke(["selectors", "resume", run_id, "--yes"])
    assert settled.exit_code == 0 and f"every selector of run {run_id} is settled" in settled.stderr


def test_resume_refuses_an_unknown_run_and_one_made_on_another_server(env: dict[str, str]) -> None:
    unknown = invoke(["selectors", "resume", "20990101T000000Z-beef", "--yes"])
    assert unknown.exit_code == 2 and "no run '20990101T000000Z-beef' in the audit log" in unknown.stderr
    audit_path().parent.mkdir(parents=True, exist_ok=True)
    plan: dict[str, Any] = {"ts": "2026-11-24T00:00:00.000Z", "run": "20261124T000000Z-abcd", "event": "plan"}
    plan |= {"action": "selectors.delete", "server": "https://elsewhere.example.com", "tag_id": 1, "ids": [5]}
    audit_path().write_text(json.dumps(plan) + "\n")
    other = invoke(["selectors", "resume", "--yes"])
    assert other.exit_code == 2, other.stderr
    assert "deleted on https://elsewhere.example.com, not on" in other.stderr
    assert "; resume it with the profile for that server" in other.stderr
    assert len(_audit()) == 1


def test_resume_off_a_terminal_needs_yes(env: dict[str, str]) -> None:
    result = run_binary(["selectors", "resume"], env=env, input="y\n")
    assert result.code == 2 and "refusing to delete without --yes when not on a terminal" in result.stderr


def test_failed_deletions_are_resumed_on_a_terminal_after_confirmation(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    ids = _deletable(count=4)
    fresh_demo_server.faults = Faults(error_rate=1.0)
    failed = invoke(["selectors", "delete", "1", *map(str, ids), "--yes"])
    assert failed.exit_code == 5, failed.stderr
    run_id = _audit()[0]["run"]
    assert f"hint: `svctui selectors resume {run_id}`" in failed.stderr
    fresh_demo_server.faults = Faults()
    not_interrupted = invoke(["selectors", "resume", "--yes"])  # finished, so not offered by default: named instead
    assert not_interrupted.exit_code == 0, not_interrupted.stderr
    assert f"run {run_id} finished with 4 selectors not deleted" in not_interrupted.stderr
    assert f"`svctui selectors resume {run_id}`" in not_interrupted.stderr
    code, screen = run_on_pty(["selectors", "resume", run_id], env, answer="n")
    assert code == 1 and "aborted: nothing was deleted" in screen
    assert f"Run {run_id} (started " in screen and "left 4 selectors of tag 1" in screen
    code, screen = run_on_pty(["selectors", "resume", run_id], env, answer="y")
    assert code == 0, screen
    assert all(f"selector {i}: deleted" in screen for i in ids)
    assert not set(ids) & _listed(1)
    log = read_audit()
    assert log.runs[-1].plan["resumes"] == run_id and log.runs[-1].counts == {"deleted": 4}
    assert log.last_interrupted() is None


def test_audit_list_at_80_columns_keeps_the_resuming_runs_id_whole(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    """Newcomer audit: at COLUMNS=80 `audit list` showed `resumed by 2…`: the run id the user types next was cut.
    The state stays whole (lower-value columns give way first: the server, the profile, the start, then the tag)."""
    ids = _deletable(count=2)
    fresh_demo_server.faults = Faults(error_rate=1.0)
    assert invoke(["selectors", "delete", "1", *map(str, ids), "--yes"]).exit_code == 5
    fresh_demo_server.faults = Faults()
    run_id = _audit()[0]["run"]
    assert invoke(["selectors", "resume", run_id, "--yes"]).exit_code == 0
    resumed_by = read_audit().runs[-1].run_id
    listed = invoke(["audit", "list"], env={"COLUMNS": "80"})
    assert listed.exit_code == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    old = next(line for line in lines if line.startswith(run_id))
    assert old.endswith(f"resumed by {resumed_by}"), old


def test_above_20_a_resume_on_a_terminal_asks_for_the_count_typed_as_delete_does(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    """Newcomer audit: `selectors resume` asked `[y/N]` whatever the count, where the dashboard's review of a fresh
    deletion has the count typed above 20; delete, resume and restore now ask through one helper (`agreed`)."""
    ids = _deletable(count=22)
    code, screen = run_on_pty(["selectors", "delete", "1", *map(str, ids)], env, asked="Type 22 to delete", answer="y")
    assert code == 1 and "Type 22 to delete 22 selectors" in screen and "aborted: nothing was deleted" in screen
    assert _audit() == [], "a `y` is not the count: nothing was planned nor sent"
    fresh_demo_server.faults = Faults(error_rate=1.0)
    failed = invoke(["selectors", "delete", "1", *map(str, ids), "--yes", "--concurrency", "16"])  # retries overlap
    assert failed.exit_code == 5, failed.stderr
    run_id = _audit()[0]["run"]
    fresh_demo_server.faults = Faults()
    code, screen = run_on_pty(["selectors", "resume", run_id], env, asked="Type 22 to", answer="21")
    assert code == 1 and "Type 22 to resume: delete what is left of 22 selectors" in screen, screen
    assert "[y/N]" not in screen and "aborted: nothing was deleted" in screen
    assert set(ids) <= _listed(1)
    code, screen = run_on_pty(["selectors", "resume", run_id], env, asked="Type 22 to", answer="22")
    assert code == 0, screen
    assert not set(ids) & _listed(1)


@pytest.mark.parametrize("how", ["flag", "variable", "profile"])
def test_read_only_refuses_destructive_commands_before_any_request(
    how: str, fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = str(deletable_selector(fresh_demo_server))
    prefix: list[str] = []
    expected = "svctui runs with --read-only"
    if how == "flag":
        prefix = ["--read-only"]
        _use_env(fresh_demo_server, monkeypatch)
    elif how == "variable":
        monkeypatch.setenv("SVCTUI_READ_ONLY", "1")
        _use_env(fresh_demo_server, monkeypatch)
        expected = "SVCTUI_READ_ONLY is set"
    else:
        saved = add_profile(
            "lab", fresh_demo_server.base_url, fresh_demo_server.token_id, fresh_demo_server.token_key, "--read-only"
        )
        assert saved.exit_code == 0, saved.stderr
        prefix = ["--profile", "lab"]
        expected = "profile 'lab' is read-only (read_only = true)"
        shown = invoke(["profile", "show", "lab"])
        assert "read_only:     true" in shown.stdout
    before = fresh_demo_server.request_count
    for command in (["selectors", "delete", "1", victim, "--yes"], ["selectors", "resume", "--yes"]):
        result = invoke([*prefix, *command])
        assert result.exit_code == 2, result.stdout + result.stderr
        assert expected in result.stderr and "nothing was sent" in result.stderr
    assert fresh_demo_server.request_count == before
    dry = invoke([*prefix, "selectors", "delete", "1", victim, "--dry-run"])
    assert dry.exit_code == 0, dry.stderr  # looking is not destructive
    assert _audit() == []


def _use_env(demo: DemoServer, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in demo_env(demo).items():
        monkeypatch.setenv(name, value)
