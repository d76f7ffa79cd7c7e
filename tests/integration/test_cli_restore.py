"""`svctui selectors restore` and `svctui audit list/show` against a fresh demo server: undo a deletion run."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from tests.support.cli import demo_env, invoke, run_binary

SERVER_SET = ("id", "created_at", "created_by", "updated_at", "updated_by", "disabled_at", "disabled_by")


def _selectors(tag_id: int) -> list[dict[str, Any]]:
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


def _delete_some(count: int) -> tuple[str, list[dict[str, Any]]]:
    """Delete `count` non-default selectors of tag 1 (one with a Cypher seed if any); the run id and what went."""
    every = [item for item in _selectors(1) if not item["is_default"]]
    chosen = sorted(every, key=lambda item: -max(seed["type"] for seed in item["seeds"]))[:1] + every[: count - 1]
    result = invoke(["selectors", "delete", "1", *(str(item["id"]) for item in chosen), "--yes"])
    assert result.exit_code == 0, result.stderr
    return _audit()[-1]["run"], chosen


def test_restore_recreates_every_deleted_selector_field_for_field(env: dict[str, str]) -> None:
    run_id, deleted = _delete_some(4)
    result = invoke(["selectors", "restore", run_id, "--yes"])
    assert result.exit_code == 0, result.stderr
    now = {item["name"]: item for item in _selectors(1)}
    mapping: dict[int, int] = {}
    for old in deleted:
        new = now[old["name"]]
        assert {k: v for k, v in new.items() if k not in SERVER_SET} == {
            k: v for k, v in old.items() if k not in SERVER_SET
        }
        assert new["id"] != old["id"]
        mapping[old["id"]] = new["id"]
        assert f"{old['id']} {old['name']!r}: restored as {new['id']}" in result.stdout
        assert new["disabled_at"] is None  # the API creates selectors enabled: the output says which were not
        assert ("re-created enabled" in result.stdout) == any(item["disabled_at"] for item in deleted)
    log = read_audit()
    restore = log.runs[-1]
    assert restore.action == "selectors.restore" and restore.plan["restores"] == run_id and not restore.interrupted
    assert {old: entry.new_id for old, entry in restore.entries.items()} == mapping
    assert all(entry.outcome == "deleted" for entry in log.get(run_id).entries.values())  # the old run untouched
    restored = [line for line in _audit() if line["run"] == restore.run_id and line["event"] == "outcome"]
    assert restored and all(line["status"] == 201 and line["request_id"] for line in restored), restored  # newcomer


def test_restore_never_recreates_twice_and_takes_some_ids(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    run_id, deleted = _delete_some(3)
    first_id = str(deleted[0]["id"])
    some = invoke(["selectors", "restore", run_id[:18], first_id, "--yes"])  # a unique prefix of the run id
    assert some.exit_code == 0, some.stderr
    rest = invoke(["selectors", "restore", run_id, "--yes"])
    assert rest.exit_code == 7, rest.stderr  # the one already restored was skipped
    new_id = read_audit().runs[-2].entries[int(first_id)].new_id
    assert f"1 already restored (now {new_id}), skipped: {first_id}" in rest.stderr  # one line per reason
    names = [item["name"] for item in _selectors(1)]
    assert all(names.count(item["name"]) == 1 for item in deleted)
    sent = fresh_demo_server.request_count
    again = invoke(["selectors", "restore", run_id, "--yes"])
    assert again.exit_code == 7 and "nothing to re-create" in again.stderr  # all skipped: not a clean 0
    assert fresh_demo_server.request_count == sent  # nothing posted


def test_a_deletion_in_doubt_that_a_resume_made_is_restored_once_with_the_run(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    """Newcomer audit: a DELETE that got no answer (the connection dropped before the server acted) left the
    selector in doubt; the resume found it still there and deleted it. Restoring the first run re-created it
    (it was gone by then), and restoring the resume re-created it again: two copies. Issue 28: a run and its
    resumes are one deletion, so restoring the first run re-creates it (from the resume's record, saying so), and a
    selector re-created from one run of the family is never re-created again."""
    before = _selectors(1)
    plain = [item for item in before if not item["is_default"]]
    doubtful = plain[0]
    done = [item for item in plain[1:] if not str(item["id"]).startswith(str(doubtful["id"]))][:3]
    fresh_demo_server.faults = Faults(kinds={"reset": 1.0}, only_path=f"/selectors/{doubtful['id']}")
    ids = [str(item["id"]) for item in [*done, doubtful]]
    first = invoke(["selectors", "delete", "1", *ids, "--yes"])
    assert first.exit_code != 0 and "no answer" in first.stdout, first.stdout + first.stderr
    fresh_demo_server.faults = Faults()
    first_run = read_audit().runs[-1]
    assert first_run.entries[doubtful["id"]].in_doubt, "the dropped DELETE is in doubt"
    assert doubtful["name"] in {item["name"] for item in _selectors(1)}, "the server never acted on it"

    resumed = invoke(["selectors", "resume", first_run.run_id, "--yes"])
    assert resumed.exit_code == 0, resumed.stderr
    resume_run = read_audit().runs[-1]
    assert resume_run.entries[doubtful["id"]].outcome == "deleted"  # found still there with GET, then deleted

    restore_first = invoke(["selectors", "restore", first_run.run_id, "--yes"])
    assert restore_first.exit_code == 0, restore_first.stderr
    assert f"3 deleted by this run, 1 by its resumes {resume_run.run_id}" in restore_first.stderr
    assert f"{doubtful['id']} {doubtful['name']!r}: restored as" in restore_first.stdout
    restore_resume = invoke(["selectors", "restore", resume_run.run_id, "--yes"])
    assert restore_resume.exit_code == 7, restore_resume.stderr
    assert "1 already restored" in restore_resume.stderr and "nothing to re-create" in restore_resume.stderr

    names = [item["name"] for item in _selectors(1)]
    assert sorted(names) == sorted(item["name"] for item in before), "every selector back, none twice"
    again = invoke(["selectors", "restore", first_run.run_id, "--yes"])
    assert again.exit_code == 7 and "nothing to re-create" in again.stderr


def test_restore_refuses_bad_input_before_any_request(env: dict[str, str], fresh_demo_server: DemoServer) -> None:
    for args, message in (
        (["nope"], "no run 'nope' in the audit log"),
        (["x", "12-"], "12-"),
        (["x", "9" * 5000], "9999"),
    ):
        result = invoke(["selectors", "restore", *args, "--yes"])
        assert result.exit_code == 2, result.stderr
        assert message in result.stderr and len(result.stderr) < 600
    assert fresh_demo_server.request_count == 0


def test_restore_refuses_a_run_made_on_another_server_and_says_restore(
    env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    """Newcomer audit: the refusal said `resume it with the profile for that server` to a restore."""
    run_id, _ = _delete_some(1)
    elsewhere = {"server": "https://elsewhere.example.com"}
    lines = [line | elsewhere if line["event"] == "plan" else line for line in _audit()]
    audit_path().write_text("".join(json.dumps(line) + "\n" for line in lines))
    sent = fresh_demo_server.request_count
    result = invoke(["selectors", "restore", run_id, "--yes"])
    assert result.exit_code == 2, result.stderr
    assert (
        f"run {run_id} deleted on https://elsewhere.example.com, not on {env['SVCTUI_BASE_URL']}; "
        "restore it with the profile for that server"
    ) in result.stderr
    assert fresh_demo_server.request_count == sent


def test_restore_off_a_terminal_needs_yes_and_read_only_refuses(env: dict[str, str]) -> None:
    run_id, _ = _delete_some(1)
    piped = run_binary(["selectors", "restore", run_id], env=env, input="y\n")
    assert piped.code == 2 and "refusing to restore without --yes" in piped.stderr
    read_only = invoke(["--read-only", "selectors", "restore", run_id, "--yes"])
    assert read_only.exit_code == 2 and "refusing to re-create selectors" in read_only.stderr


def test_audit_list_files_carry_the_start_in_utc_and_the_table_in_local_time(env: dict[str, str]) -> None:
    """Review: `audit list -o json|csv` wrote `started` as the table's local time without an offset (`2026-11-26
    12:18:44`), which a file read elsewhere cannot place. Files carry the log's ISO-8601 UTC stamp; the table
    shows it in the local time zone."""
    run_id, _ = _delete_some(1)
    (run,) = [run for run in read_audit().runs if run.run_id == run_id]
    stamp = run.started
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp), stamp
    tokyo = {**env, "TZ": "Asia/Tokyo"}  # +09:00 all year: the table's time differs from the stamp's
    listed = json.loads(run_binary(["audit", "list", "-o", "json"], env=tokyo).stdout)
    assert [row["started"] for row in listed] == [stamp]
    (row,) = csv.DictReader(io.StringIO(run_binary(["audit", "list", "-o", "csv"], env=tokyo).stdout))
    assert row["started"] == stamp
    local = (datetime.fromisoformat(stamp.replace("Z", "+00:00")) + timedelta(hours=9)).strftime("%Y-%m-%d %H:%M:%S")
    table = run_binary(["audit", "list"], env={**tokyo, "COLUMNS": "200"})
    assert f"{run_id}  {local}  delete" in table.stdout, table.stdout


def test_audit_list_and_show_name_runs_and_selectors(env: dict[str, str]) -> None:
    empty = invoke(["audit", "list"])
    assert empty.exit_code == 0 and "no runs yet" in empty.stderr
    run_id, deleted = _delete_some(2)
    invoke(["selectors", "restore", run_id, "--yes"])
    listed = invoke(["audit", "list", "-o", "json"])
    assert listed.exit_code == 0, listed.stderr
    runs = json.loads(listed.stdout)
    assert [row["action"] for row in runs] == ["restore", "delete"]
    assert runs[1]["run"] == run_id and runs[1]["outcomes"] == "2 deleted" and runs[1]["state"] == "finished"
    assert runs[1]["profile"] and runs[1]["token_id"] and runs[1]["tag"].startswith("1 ")
    narrow = invoke(["audit", "list"], env={"COLUMNS": "80"})  # SSH's width: the run ids stay whole
    assert narrow.exit_code == 0, narrow.stderr
    lines = narrow.stdout.splitlines()
    assert [line.split()[0] for line in lines[1:]] == [row["run"] for row in runs]
    assert all(len(line) <= 80 for line in lines) and "SERVER" not in lines[0]
    assert "left out at 80 columns (SERVER" in narrow.stderr
    shown = invoke(["audit", "show", run_id])
    assert shown.exit_code == 0, shown.stderr
    assert all(item["name"] in shown.stdout for item in deleted) and f"run {run_id} (delete)" in shown.stderr
    restored = json.loads(invoke(["audit", "show", runs[0]["run"], "-o", "json"]).stdout)
    assert {row["outcome"] for row in restored} == {"restored"} and all(row["new_id"] for row in restored)
    with audit_path().open("a") as handle:
        handle.write('{"torn": \n')
    torn = invoke(["audit", "list"])
    assert torn.exit_code == 0 and "1 line(s) of the audit log could not be read" in torn.stderr
    missing = invoke(["audit", "show", "nope"])
    assert missing.exit_code == 2 and "no run 'nope'" in missing.stderr


def test_the_plan_says_before_confirming_which_disabled_selectors_come_back_enabled(env: dict[str, str]) -> None:
    """Newcomer walk: a restore re-enabled disabled selectors and said so only per row, after the fact."""
    every = [item for item in _selectors(1) if not item["is_default"]]
    disabled = next(item for item in every if item["disabled_at"])
    enabled = next(item for item in every if not item["disabled_at"])
    for chosen, says in ((enabled, False), (disabled, True)):
        deleted = invoke(["selectors", "delete", "1", str(chosen["id"]), "--yes"])
        assert deleted.exit_code == 0, deleted.stderr
        result = invoke(["selectors", "restore", _audit()[-1]["run"], "--yes"])
        assert result.exit_code == 0, result.stderr
        plan = result.stderr.split("restored as")[0]  # the plan is said before anything is sent
        line = f"1 disabled when deleted comes back enabled: {chosen['id']}"
        assert (line in plan) is says, plan


def test_an_unknown_run_off_a_terminal_is_said_before_the_yes_refusal(env: dict[str, str]) -> None:
    for command in ("restore", "resume"):
        piped = run_binary(["selectors", command, "nope"], env=env, input="y\n")
        assert piped.code == 2
        assert "no run 'nope' in the audit log" in piped.stderr
        assert "refusing" not in piped.stderr
