"""The audit writer's promises on real files: run ids, whole lines after a torn one, short writes are failures;
the intent record; the read_only profile setting."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from svctui.api.models import Selector
from svctui.ops.audit_lines import RECORD_FIELDS, selector_record
from svctui.store import paths
from svctui.store.audit import append_audit, audit_path, new_run_id
from svctui.store.audit_read import read_audit
from svctui.store.errors import StoreError
from svctui.store.model import Profile
from svctui.store.profiles import ProfileStore, dump_profiles, parse_profiles
from svctui.store.read_only import read_only_reason
from tests.support.files import child_env

RUN_ID = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{4}$")


def test_run_ids_carry_the_utc_start_and_sort_by_time() -> None:
    early = new_run_id(datetime(2026, 11, 24, 18, 55, 1, tzinfo=UTC))
    late = new_run_id(datetime(2026, 11, 24, 18, 55, 2, tzinfo=UTC))
    assert RUN_ID.match(early) and early.startswith("20261124T185501Z-")
    assert early < late
    assert RUN_ID.match(new_run_id())


def test_a_line_after_a_torn_one_starts_on_its_own_line() -> None:
    path = audit_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"run": "a", "event": "plan", "ids": [1')  # what a full disk leaves
    append_audit({"run": "b", "event": "plan", "action": "selectors.delete", "tag_id": 1, "ids": [2]})
    log = read_audit(path)
    assert log.unreadable_lines == 1
    assert [run.run_id for run in log.runs] == ["b"]
    assert path.read_bytes().endswith(b"\n")


def test_a_write_the_kernel_takes_only_in_part_is_a_failure_of_the_log() -> None:
    """A real short write: the file-size limit (RLIMIT_FSIZE) lets the kernel write part of the line, no more.

    The first line is written here, the second by a child process under the limit (a limit on this process would
    stay with it): under `make mutate` this test then reaches the writer in both, so mutmut runs it for the writer's
    mutants and the child runs the mutant under test (`child_env`)."""
    first = append_audit({"run": "r", "event": "plan", "ids": [1]}).stat().st_size
    program = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({first + 100}, {first + 100}))\n"
        "from svctui.store.audit import append_audit\n"
        "from svctui.store.errors import StoreError\n"
        "try:\n"
        "    append_audit({'run': 'r', 'event': 'end', 'ids': list(range(100))})\n"
        "except StoreError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False, env=child_env())
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        rf"cannot append to the audit log '{re.escape(str(audit_path()))}': only 100 of \d+ bytes could be written "
        r"\(disk full\?\)\n",
        done.stdout,
    ), done.stdout
    assert audit_path().stat().st_size == first + 100


def test_the_intent_record_keeps_every_field_needed_to_recreate_the_selector() -> None:
    selector = Selector.model_validate(
        {
            "id": 12,
            "asset_group_tag_id": 3,
            "name": "Old DCs",
            "description": "retired",
            "auto_certify": 2,
            "is_default": False,
            "allow_disable": True,
            "disabled_at": None,
            "created_at": "2026-01-02T03:04:05Z",
            "created_by": "admin@example.com",
            "seeds": [{"type": 2, "value": "MATCH (n:Computer) RETURN n"}],
            "extra_server_field": 1,
        }
    )
    record = selector_record(selector)
    assert list(record) == [*RECORD_FIELDS, "seeds"]
    assert record["name"] == "Old DCs" and record["auto_certify"] == 2 and record["description"] == "retired"
    assert record["seeds"] == [{"type": 2, "value": "MATCH (n:Computer) RETURN n"}]
    assert record["created_at"] == "2026-01-02T03:04:05Z"
    with pytest.raises(ValueError, match="token_key"):
        append_audit({"run": "r", "event": "intent", "token_key": "x"})


def test_read_only_is_a_strict_profile_setting_saved_only_when_on() -> None:
    path = paths.profiles_path()
    text = 'version = 1\n[profiles.lab]\nbase_url = "https://bh.example.com"\nauth = "bearer"\njwt = "a.b.c"\n'
    on = parse_profiles(path, (text + "read_only = true\n").encode())
    assert on.profiles["lab"].read_only is True
    assert b"read_only = true" in dump_profiles(on)
    off = parse_profiles(path, text.encode())
    assert off.profiles["lab"].read_only is False and b"read_only" not in dump_profiles(off)
    with pytest.raises(StoreError, match="read_only"):
        parse_profiles(path, (text + 'read_only = "yes"\n').encode())
    assert ProfileStore(path).path == path


def test_read_only_reason_names_the_flag_the_variable_or_the_profile() -> None:
    lab = Profile(name="lab", base_url="https://bh.example.com", auth="bearer", read_only=True)
    prod = Profile(name="prod", base_url="https://bh.example.com", auth="bearer")
    assert read_only_reason(prod, env={}) is None
    assert read_only_reason(prod, flag=True, env={}) == "svctui runs with --read-only"
    assert read_only_reason(prod, env={"SVCTUI_READ_ONLY": "1"}) == "SVCTUI_READ_ONLY is set"
    assert read_only_reason(lab, env={}) == "profile 'lab' is read-only (read_only = true)"
    assert read_only_reason(None, env={"SVCTUI_READ_ONLY": "0"}) is None


def test_concurrent_appends_from_threads_and_processes_leave_only_whole_lines() -> None:
    """Writers racing the torn-line check (a thread of one run, other processes) never add a blank line."""
    import threading

    path = audit_path()
    script = (
        "import sys\nfrom pathlib import Path\nfrom svctui.store.audit import append_audit\n"
        "for n in range(60):\n    append_audit({'run': sys.argv[2], 'n': n}, Path(sys.argv[1]))\n"
    )
    others = [subprocess.Popen([sys.executable, "-c", script, str(path), f"p{k}"], env=child_env()) for k in range(3)]
    threads = [
        threading.Thread(target=lambda k=k: [append_audit({"run": f"t{k}", "n": n}, path) for n in range(60)])
        for k in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(process.wait(timeout=60) == 0 for process in others)
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and b"" not in lines[:-1]
    runs = [json.loads(line)["run"] for line in lines[:-1]]
    assert sorted(set(runs)) == ["p0", "p1", "p2", "t0", "t1", "t2"] and len(runs) == 6 * 60
