"""The audit reader groups lines into runs and finds interrupted ones, whatever the log holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from svctui.store.audit_read import LEGACY_RUN_ID, parse_audit, read_audit
from svctui.store.errors import StoreError


def lines(*records: dict[str, Any]) -> list[bytes]:
    """Encode records as audit lines."""
    return [json.dumps(record).encode() + b"\n" for record in records]


def plan(run: str, ids: list[int], **extra: Any) -> dict[str, Any]:
    """A plan line."""
    return {
        "ts": f"2026-11-24T10:00:0{len(run) % 10}.000Z",
        "event": "plan",
        "run": run,
        "action": "selectors.delete",
        "tag_id": 1,
        "ids": ids,
        **extra,
    }


def test_finished_run_is_not_interrupted_and_counts_come_from_end() -> None:
    log = parse_audit(
        lines(
            plan("r1", [1, 2]),
            {"event": "intent", "run": "r1", "selector_id": 1, "selector": {"name": "one"}},
            {"event": "outcome", "run": "r1", "selector_id": 1, "outcome": "deleted", "status": 204},
            {"event": "end", "run": "r1", "counts": {"deleted": 1, "skipped": 1}, "stopped": "cancelled"},
        )
    )
    run = log.get("r1")
    assert not run.interrupted
    assert run.counts == {"deleted": 1, "skipped": 1}
    assert run.entries[1].name == "one"
    assert run.unsettled_ids() == [2]


def test_intent_without_outcome_is_in_doubt_and_the_run_interrupted() -> None:
    log = parse_audit(
        lines(
            plan("r1", [1, 2, 3]),
            {"event": "intent", "run": "r1", "selector_id": 1, "selector": None},
            {"event": "outcome", "run": "r1", "selector_id": 1, "outcome": "deleted"},
            {"event": "intent", "run": "r1", "selector_id": 2, "selector": {"name": "two"}},
        )
    )
    run = log.get("r1")
    assert run.interrupted and run.entries[2].in_doubt
    assert run.unsettled_ids() == [2, 3]
    assert log.last_interrupted() is run


def test_a_finished_resume_resolves_its_parent() -> None:
    log = parse_audit(
        lines(
            plan("r1", [1, 2]),
            {"event": "intent", "run": "r1", "selector_id": 2},
            plan("r2", [1, 2], resumes="r1"),
            {"event": "end", "run": "r2", "counts": {"deleted": 2}, "stopped": None},
        )
    )
    assert log.get("r1").resolved_by == "r2"
    assert log.last_interrupted() is None


def test_a_resume_chain_is_one_family_whichever_run_is_asked() -> None:
    """A run, its resume and the resume's resume are one deletion (a restore reads them together); another run and
    a self-resuming line (a corrupt log) do not loop or join."""
    log = parse_audit(
        lines(
            plan("a1", [1, 2]),
            plan("b22", [2], resumes="a1"),
            plan("c333", [2], resumes="b22"),
            plan("d4444", [9]),
            plan("e55555", [8], resumes="e55555"),
            plan("f666666", [7], resumes=["a1"]),  # a foreign or torn value: no parent, and no TypeError
        )
    )
    for member in ("a1", "b22", "c333"):
        assert [run.run_id for run in log.family(member)] == ["a1", "b22", "c333"], member
    assert [run.run_id for run in log.family("d4444")] == ["d4444"]
    assert [run.run_id for run in log.family("e55555")] == ["e55555"]
    assert [run.run_id for run in log.family("f666666")] == ["f666666"] and log.get("f666666").resumes is None


def test_no_answer_stays_in_doubt_and_a_later_attempt_supersedes_it() -> None:
    log = parse_audit(
        lines(
            plan("r1", [5]),
            {"event": "intent", "run": "r1", "selector_id": 5},
            {"event": "outcome", "run": "r1", "selector_id": 5, "outcome": "no answer"},
            {"event": "end", "run": "r1", "counts": {"no answer": 1}},
        )
    )
    assert log.get("r1").interrupted
    assert log.get("r1").unsettled_ids() == [5]


def test_torn_foreign_and_legacy_lines_are_read_not_fatal() -> None:
    raw = [
        b'{"event":"plan","run":"r1","ids":[1]}\n',
        b'{"event":"inte',
        b"[1,2]\n",
        b"\xff\xfe\n",
        *lines(
            {
                "time": "2025-01-01T00:00:00Z",
                "profile": "p",
                "base_url": "https://x",
                "tag": 3,
                "selector": 9,
                "outcome": "deleted",
                "status": 204,
            }
        ),
    ]
    log = parse_audit(raw)
    assert log.unreadable_lines == 3
    legacy = log.get(LEGACY_RUN_ID)
    assert legacy.entries[9].outcome == "deleted" and not legacy.interrupted
    assert log.runs[0] is legacy


def test_get_by_prefix_and_clear_errors(tmp_path: Path) -> None:
    log = parse_audit(lines(plan("20261124T100000Z-aaaa", [1]), plan("20261124T100000Z-aabb", [2])))
    assert log.get("20261124T100000Z-aaaa").run_id.endswith("aaaa")
    with pytest.raises(StoreError, match="matches 2 runs"):
        log.get("20261124T100000Z-aa")
    with pytest.raises(StoreError, match="no run"):
        log.get("x" * 5000)
    assert read_audit(tmp_path / "absent.jsonl").runs == []


def test_get_by_the_end_the_dashboard_shows() -> None:
    """Newcomer walk (issue 28, item 12): a run id worked only by its prefix, not by the `7a2f` the dashboard shows;
    a unique end is enough, a prefix still wins, and an end two runs share is ambiguous."""
    log = parse_audit(lines(plan("20261124T100000Z-7a2f", [1]), plan("20261125T100000Z-0b2f", [2])))
    assert log.get("7a2f").run_id == "20261124T100000Z-7a2f"
    assert log.get("20261125").run_id == "20261125T100000Z-0b2f"
    with pytest.raises(StoreError, match="matches 2 runs"):
        log.get("2f")


def test_a_restore_runs_counts_are_its_restore_outcomes_in_the_cli_and_the_tab_alike() -> None:
    """Newcomer audit: the Audit tab said `nothing yet` for a finished restore run (it counted only deletion
    outcomes) while `svctui audit list` said `3 restored`; both now show `AuditRun.counts_text`."""
    from svctui.commands.audit import run_row

    restore = {"action": "selectors.restore", "restores": "r1"}
    log = parse_audit(
        lines(
            plan("r2", [1, 2, 3, 4], **restore),
            *(
                record
                for old in (1, 2, 3)
                for record in (
                    {"event": "intent", "run": "r2", "selector_id": old, "selector": {"name": f"s{old}"}},
                    {"event": "outcome", "run": "r2", "selector_id": old, "outcome": "restored", "new_id": old + 10},
                )
            ),
            {"event": "outcome", "run": "r2", "selector_id": 4, "outcome": "failed", "status": 400},
            {"event": "end", "run": "r2", "counts": {"restored": 3, "failed": 1}, "stopped": None},
            plan("r3", [1, 2, 3], **restore),
            {"event": "intent", "run": "r3", "selector_id": 1, "selector": None},
            {"event": "outcome", "run": "r3", "selector_id": 1, "outcome": "restored", "new_id": 21},
        )
    )
    assert log.get("r2").counts_text == "3 restored, 1 failed"
    assert run_row(log.get("r2")).outcomes == "3 restored, 1 failed", "the CLI's words are the tab's"
    assert log.get("r3").counts_text == "1 restored, 2 not attempted"  # unfinished: what the lines say so far
    assert parse_audit(lines(plan("r4", []))).get("r4").counts_text == "nothing yet"


def test_a_run_that_ended_with_no_outcomes_says_what_happened() -> None:
    """Review: a finished run with no outcomes read `nothing yet`, as if it were still going; `nothing yet` is for a
    run with no end line, and an ended one says how it ended."""
    log = parse_audit(
        lines(
            plan("none", []),
            {"event": "end", "run": "none", "counts": {}, "stopped": None},
            plan("early", [1, 2]),
            {"event": "end", "run": "early", "counts": {}, "stopped": "server unreachable"},
            plan("quiet", [1, 2]),
            {"event": "end", "run": "quiet", "counts": {}, "stopped": None},
            plan("going", [1, 2]),
        )
    )
    assert log.get("none").counts_text == "no outcomes: the run planned no selectors"
    assert log.get("early").counts_text == "no outcomes: stopped (server unreachable) before any request"
    assert log.get("quiet").counts_text == "no outcomes: the run finished before sending any request"
    assert log.get("going").counts_text == "2 not attempted"
    assert parse_audit(lines(plan("new", []))).get("new").counts_text == "nothing yet", "not ended: nothing yet"


def test_a_cancelled_run_can_be_resumed_a_resumed_or_restore_run_cannot() -> None:
    """One rule (`resume_refusal`) for `svctui selectors resume RUN_ID` and the dashboard's `s`: a cancelled
    deletion run with selectors skipped can be resumed, though it is not interrupted."""
    from svctui.ops.resume import NothingToResume, ResumeRefused, choose_run, resume_refusal

    log = parse_audit(
        lines(
            plan("r1", [1, 2, 3]),
            {"event": "intent", "run": "r1", "selector_id": 1, "selector": None},
            {"event": "outcome", "run": "r1", "selector_id": 1, "outcome": "deleted"},
            {"event": "end", "run": "r1", "counts": {"deleted": 1, "skipped": 2}, "stopped": "cancelled"},
            plan("r2", [1], action="selectors.restore", restores="r1"),
            plan("r3", [4]),
            {"event": "intent", "run": "r3", "selector_id": 4, "selector": None},
            {"event": "outcome", "run": "r3", "selector_id": 4, "outcome": "failed", "status": 500},
            {"event": "end", "run": "r3", "counts": {"failed": 1}, "stopped": None},
            plan("r4", [4], resumes="r3"),
            {"event": "intent", "run": "r4", "selector_id": 4, "selector": None},
            {"event": "outcome", "run": "r4", "selector_id": 4, "outcome": "deleted"},
            {"event": "end", "run": "r4", "counts": {"deleted": 1}, "stopped": None},
        )
    )
    cancelled = log.get("r1")
    assert not cancelled.interrupted and resume_refusal(cancelled) is None and choose_run(log, "r1") is cancelled
    assert isinstance(resume_refusal(log.get("r2")), ResumeRefused)
    resumed = resume_refusal(log.get("r3"))
    assert isinstance(resumed, NothingToResume) and "was resumed by run r4" in str(resumed)
    with pytest.raises(NothingToResume, match="every selector of run r4 is settled"):
        choose_run(log, "r4")


def test_a_resumes_already_gone_rows_are_named_from_the_run_it_resumed(tmp_path: Path) -> None:
    """Newcomer walk (issue 28, item 12): `audit show` left the name empty for a resume's `already gone` rows (the
    resume writes no intent for what its GET found gone; the resumed run's intent kept the record)."""
    from click.testing import CliRunner

    from svctui.cli import cli

    log_lines = lines(
        plan("20261124T100000Z-aaaa", [5, 6]),
        {"event": "intent", "run": "20261124T100000Z-aaaa", "selector_id": 5, "selector": {"name": "Old DCs"}},
        plan("20261124T110000Z-bbbb", [5, 6], resumes="20261124T100000Z-aaaa"),
        {
            "event": "outcome",
            "run": "20261124T110000Z-bbbb",
            "selector_id": 5,
            "outcome": "already gone",
            "status": 404,
        },
    )
    log = parse_audit(log_lines)
    assert log.names("20261124T110000Z-bbbb") == {5: "Old DCs"}
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "audit.jsonl").write_bytes(b"".join(log_lines))
    result = CliRunner().invoke(cli, ["audit", "show", "bbbb", "-o", "jsonl"], env={"SVCTUI_STATE_DIR": str(state)})
    rows = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert result.exit_code == 0 and rows[0]["selector_id"] == 5 and rows[0]["name"] == "Old DCs", result.output


def test_a_device_in_the_logs_place_is_refused_not_read_forever() -> None:
    """A character device where the log should be (/dev/zero, /dev/full) never ends: reading it grew memory until
    the process was killed (the start-up notice reads the log). It is refused as not a regular file."""
    with pytest.raises(StoreError, match="not a regular file"):
        read_audit(Path("/dev/zero"))


def test_a_run_that_stopped_with_ids_in_doubt_says_why_and_can_still_be_resumed() -> None:
    """Newcomer walk: the Audit tab said INTERRUPTED for a run whose end line said `stopped: server unreachable`
    (every intent had an outcome, six of them `no answer`). The state is the end line's; the run stays resumable."""
    log = parse_audit(
        lines(
            plan("r1", [1, 2]),
            {"event": "intent", "run": "r1", "selector_id": 1, "selector": {"name": "one"}},
            {"event": "outcome", "run": "r1", "selector_id": 1, "outcome": "no answer"},
            {"event": "end", "run": "r1", "counts": {"no answer": 1, "skipped": 1}, "stopped": "server unreachable"},
        )
    )
    run = log.get("r1")
    assert run.state == "stopped: server unreachable"
    assert run.interrupted and log.last_interrupted() is run, "its in-doubt id is still offered for resume"
