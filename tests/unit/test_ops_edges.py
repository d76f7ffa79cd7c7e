"""Issue 30: small behaviours of the ops, audit, triage and filter modules the mutation run found unpinned or that
no fast test reached — the deletion report, the auth reprs, the interrupted-run notice, the audit context, a
restore plan in words, the restore runs of a deletion, the `~eq` case note, ages, the not-OK filter."""

from __future__ import annotations

import getpass
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from svctui.api.filters import case_note
from svctui.api.models import NOT_OK_STATUSES, TaskStatus
from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.ops.audit_lines import AuditContext, local_user
from svctui.ops.interrupted import interrupted_notice, interrupted_run
from svctui.ops.outcomes import DeleteReport, DeleteResult, Outcome, one_line, unexpected
from svctui.ops.selector_restore import RestorePlan, describe_plan, plan_restore, restore_runs_of
from svctui.store.audit import append_audit
from svctui.store.audit_read import parse_audit
from svctui.triage.health import age_text
from svctui.triage.quick import _not_ok

NOW = datetime(2026, 12, 4, 14, 0, tzinfo=UTC)


def lines(*records: dict[str, Any]) -> list[bytes]:
    """Records as audit lines."""
    return [json.dumps(record).encode() + b"\n" for record in records]


def plan(run: str, ids: list[int], **extra: Any) -> dict[str, Any]:
    """A deletion plan line."""
    return {"ts": "2026-12-04T14:00:01.500Z", "event": "plan", "run": run, "action": "selectors.delete"} | {
        "tag_id": 3,
        "ids": ids,
        **extra,
    }


def test_an_interrupted_run_is_told_only_for_this_server_and_only_with_selectors_left() -> None:
    assert interrupted_run("https://bh.example.com") is None  # no log at all
    append_audit(plan("r1", [5, 6], server="https://bh.example.com/"))
    run = interrupted_run("https://bh.example.com")
    assert run is not None and run.run_id == "r1"
    assert interrupted_run("https://other.example.com") is None
    assert interrupted_notice(run, "3") == (
        "Deletion run r1 (tag 3, 2026-12-04 14:00:01Z) was interrupted with 2 selectors unsettled: press 3 "
        "(Selector cleanup) to resume it."
    )


def test_the_interrupted_notice_names_the_tag_as_recorded_at_the_run_s_start() -> None:
    """Issue 28: the notice said `(tag 1, …)` while the dashboard names tags; the name the plan line recorded is
    said, the id only where no name was recorded."""
    append_audit(plan("r2", [5, 6], server="https://bh.example.com", tag_name="Owned"))
    run = interrupted_run("https://bh.example.com")
    assert run is not None and run.run_id == "r2"
    assert interrupted_notice(run, "3").startswith("Deletion run r2 (tag Owned, 2026-12-04 14:00:01Z) was interrupted")


def test_an_interrupted_run_without_a_tag_or_a_server_named() -> None:
    append_audit({"ts": "2026-12-04T14:00:01.500Z", "event": "plan", "run": "r0", "ids": [5]})
    assert interrupted_run("https://bh.example.com") is None  # no tag: nothing a resume could do
    append_audit(plan("r1", [5]))
    found = interrupted_run("https://bh.example.com")
    assert found is not None and found.run_id == "r1"  # no server in the plan: not another server's


def test_the_audit_context_names_the_local_user() -> None:
    context = AuditContext.of("lab", "tok", "https://bh.example.com")
    assert context == AuditContext("lab", "tok", "https://bh.example.com", getpass.getuser())
    assert local_user() == getpass.getuser()


def test_a_restore_plan_in_words() -> None:
    record = {"name": "Old DCs", "seeds": [{"type": 1, "value": "S-1"}], "disabled_at": "2026-01-01T00:00:00Z"}
    log = parse_audit(
        lines(
            plan("r1", [5, 6, 7, 8, 9]),
            *(
                line
                for sid, outcome, rec in [
                    (5, "deleted", record),
                    (6, "deleted", {"name": "", "seeds": [{"type": 1, "value": "S-2"}]}),
                    (7, "failed", record),
                    (8, "failed", record),
                    (9, "deleted", None),
                ]
                for line in (
                    {"event": "intent", "run": "r1", "selector_id": sid, "selector": rec},
                    {"event": "outcome", "run": "r1", "selector_id": sid, "outcome": outcome},
                )
            ),
        )
    )
    restore = plan_restore(log, "r1")
    restore.already[4] = 40
    restore.in_doubt.append(5)
    words = describe_plan(restore)
    assert words[0].startswith("  5 'Old DCs'")
    for line in (
        "  1 already restored (now 40), skipped: 4",
        "  2 skipped, not deleted by the run (failed): 7-8",
        "  1 skipped, the run kept no record of it (name, seeds): it can't be re-created: 9",
        "  1 had a restore that got no answer: looked up by name first",
        "  1 disabled when deleted comes back enabled: 5",
    ):
        assert line in words
    assert describe_plan(RestorePlan(restore.run)) == []


def test_the_restore_runs_of_a_deletion_are_those_that_restored_something() -> None:
    log = parse_audit(
        lines(
            plan("r1", [5]),
            {"event": "plan", "run": "back1", "action": "selectors.restore", "restores": "r1", "ids": [5]},
            {"event": "outcome", "run": "back1", "selector_id": 5, "outcome": "failed"},
            {"event": "plan", "run": "back2", "action": "selectors.restore", "restores": "r1", "ids": [5]},
            {"event": "outcome", "run": "back2", "selector_id": 5, "outcome": "restored", "new_id": 50},
            {"event": "plan", "run": "back3", "action": "selectors.restore", "restores": "r9", "ids": [5]},
            {"event": "outcome", "run": "back3", "selector_id": 5, "outcome": "restored", "new_id": 51},
        )
    )
    assert restore_runs_of(log, "r1") == ["back2"]


def test_the_case_note_shows_the_other_capitals_when_there_are_any() -> None:
    assert (
        case_note("Tier")
        == "~eq is case-sensitive on the server: 'Tier' does not match 'tIER', which differs only in case"
    )
    assert case_note("123") == "~eq is case-sensitive on the server: '123' matches exactly these capitals"


@pytest.mark.parametrize(
    ("ago", "text"),
    [
        (timedelta(days=2, hours=3), "2d ago"),
        (timedelta(days=1), "1d ago"),
        (timedelta(hours=23, minutes=59), "23h ago"),
        (timedelta(hours=1), "1h ago"),
        (timedelta(minutes=59, seconds=59), "59m ago"),
        (timedelta(minutes=1), "1m ago"),
        (timedelta(seconds=59), "now"),
        (timedelta(minutes=-5), "now"),
    ],
)
def test_ages_are_told_in_the_largest_whole_unit(ago: timedelta, text: str) -> None:
    assert age_text(NOW - ago, NOW) == text
    assert age_text(None, NOW) == "-"


def test_not_ok_is_sent_as_not_equal_to_every_other_status() -> None:
    others = [status for status in TaskStatus if status not in NOT_OK_STATUSES]
    assert [str(f) for f in _not_ok(NOW)] == [f"status=neq:{int(status)}" for status in others]


def test_a_report_with_nothing_in_it_says_so() -> None:
    assert DeleteReport("r1").summary() == "nothing to do"
    report = DeleteReport("r1", [DeleteResult(1, Outcome.DELETED), DeleteResult(2, Outcome.FAILED)])
    assert report.summary() == "1 deleted, 1 failed"


def test_a_settled_id_without_its_outcome_line_is_still_to_resume() -> None:
    results = [DeleteResult(1, Outcome.DELETED), DeleteResult(2, Outcome.DELETED), DeleteResult(3, Outcome.FAILED)]
    assert DeleteReport("r1", results).unsettled() == 1
    assert DeleteReport("r1", results, unlogged=frozenset({2})).unsettled() == 2


def test_one_line_joins_the_lines_with_semicolons_and_drops_blank_ones() -> None:
    assert one_line("first\n\n  second  \nthird") == "first; second; third"
    assert unexpected(4, KeyError("x")) == DeleteResult(4, Outcome.FAILED, message="KeyError: 'x'")


def test_the_auth_reprs_name_the_class_and_hide_the_secret() -> None:
    assert repr(BearerAuth("a.b.c")) == "BearerAuth(jwt='**********')" == str(BearerAuth("a.b.c"))
    auth = SignatureAuth("6f1e2d3c-4b5a-4968-8776-655443322110", "key")
    assert repr(auth) == (
        "SignatureAuth(token_id='6f1e2d3c-4b5a-4968-8776-655443322110', token_key='**********', scheme='bhesignature')"
    )


class BrokenLookups:
    """A lookup client whose GET fails with something that is not an ApiError (a bug, an odd library error): the
    real client never raises one, so only a stand-in can show the dry run survives it."""

    @property
    def selectors(self) -> BrokenLookups:
        return self

    async def get(self, tag_id: int, selector_id: int) -> Any:
        raise RuntimeError(f"boom {selector_id}")


@pytest.mark.anyio
async def test_a_dry_run_survives_a_lookup_that_raises_something_unexpected() -> None:
    from svctui.ops.preview import Preview, PreviewResult, preview_selectors

    seen: list[PreviewResult] = []
    results = await preview_selectors(BrokenLookups(), 1, [5, 6], on_result=seen.append)
    assert results == [
        PreviewResult(5, Preview.UNCHECKED, None, "RuntimeError: boom 5"),
        PreviewResult(6, Preview.UNCHECKED, None, "RuntimeError: boom 6"),
    ]
    assert sorted(seen, key=lambda r: r.selector_id) == results


def test_a_received_signature_with_non_ascii_text_is_a_mismatch_not_a_crash() -> None:
    from svctui.api.signing import signature_matches

    assert signature_matches("abc=", "abc=") and not signature_matches("abc=", "abé=")
    assert not signature_matches("abé=", "abc=")


def test_the_local_user_is_empty_when_the_system_cannot_say(monkeypatch: pytest.MonkeyPatch) -> None:
    def nobody() -> str:
        raise OSError("no login name")

    monkeypatch.setattr(getpass, "getuser", nobody)
    assert local_user() == ""


def test_an_interrupted_run_on_this_server_is_told_whatever_its_trailing_slashes() -> None:
    append_audit(plan("r1", [5], server="https://bh.example.com"))
    assert interrupted_run("https://bh.example.com/") is not None
    append_audit(plan("r2", [5], server="https://bh.example.com/X"))
    assert interrupted_run("https://bh.example.com/") is None


def test_an_interrupted_run_behind_a_path_is_told_for_that_server_with_or_without_a_trailing_slash() -> None:
    append_audit(plan("r1", [5], server="https://proxy.example.com/BHX"))
    for asked in ("https://proxy.example.com/BHX", "https://proxy.example.com/BHX/"):
        found = interrupted_run(asked)
        assert found is not None and found.run_id == "r1", asked
    assert interrupted_run("https://proxy.example.com/BH") is None
