"""Issue 30 item 4: the rules of `ops/resume.py` — which run may be resumed, on which server, what the resumed run
keeps of the old one, and when the "resume this run" hint is given — on a real audit log and a real server over
loopback (`RecordingServer`: fast enough for `make mutate` to run against every mutant it reaches)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from svctui.api.models import Selector
from svctui.ops.audit_lines import AuditContext
from svctui.ops.delete_run import delete_selectors
from svctui.ops.outcomes import Outcome
from svctui.ops.resume import (
    NothingToResume,
    ResumeRefused,
    check_same_server,
    choose_run,
    recorded_selectors,
    resume_refusal,
    resume_run,
)
from svctui.store.audit import append_audit, audit_path
from svctui.store.audit_read import AuditLog, parse_audit, read_audit
from tests.support.recording_server import TOKEN_ID, RecordingServer, client_for


def lines(*records: dict[str, Any]) -> list[bytes]:
    """Records as audit lines."""
    return [json.dumps(record).encode() + b"\n" for record in records]


def plan(run: str, ids: list[int], minute: int = 0, **extra: Any) -> dict[str, Any]:
    """A deletion run's plan line, started at minute `minute`."""
    return {"ts": f"2026-11-24T10:{minute:02d}:00.000Z", "event": "plan", "run": run, "action": "selectors.delete"} | {
        "tag_id": 1,
        "ids": ids,
        **extra,
    }


def settle(run: str, selector_id: int, outcome: str) -> list[dict[str, Any]]:
    """An intent and its outcome."""
    return [
        {"event": "intent", "run": run, "selector_id": selector_id, "selector": None},
        {"event": "outcome", "run": run, "selector_id": selector_id, "outcome": outcome},
    ]


def end(run: str) -> dict[str, Any]:
    """An end line."""
    return {"event": "end", "run": run, "counts": {}, "stopped": None}


def test_the_legacy_lines_are_never_resumed_though_they_name_a_tag_and_a_failure() -> None:
    log = parse_audit(lines({"selector": 5, "outcome": "failed", "tag": 1, "base_url": "https://bh.example.com"}))
    legacy = log.get("legacy")
    assert legacy.tag_id == 1 and legacy.unsettled_ids() == [5]  # everything else would allow it
    refusal = resume_refusal(legacy)
    assert isinstance(refusal, ResumeRefused)
    assert str(refusal) == "the 'legacy' lines were written before runs had ids; they can't be resumed"
    with pytest.raises(ResumeRefused, match="'legacy' lines"):
        choose_run(log, "legacy")


def test_each_refusal_says_why() -> None:
    log = parse_audit(
        lines(
            plan("restore1", [5], action="selectors.restore"),
            {"event": "plan", "run": "noplan", "ts": "2026-11-24T10:01:00.000Z", "ids": [6]},
            plan("done1", [7], minute=2),
            *settle("done1", 7, "deleted"),
            end("done1"),
        )
    )
    assert str(resume_refusal(log.get("restore1"))) == (
        "run restore1 is a restore run; only deletion runs can be resumed"
    )
    assert isinstance(resume_refusal(log.get("restore1")), ResumeRefused)
    no_plan = resume_refusal(log.get("noplan"))
    assert isinstance(no_plan, ResumeRefused)
    assert str(no_plan) == "run noplan has no plan line (its tag is unknown); it can't be resumed"
    settled = resume_refusal(log.get("done1"))
    assert type(settled) is NothingToResume
    assert str(settled) == "nothing to resume: every selector of run done1 is settled"


@pytest.mark.parametrize(
    ("planned", "server"),
    [
        ("https://bh.example.com/", "https://bh.example.com"),
        ("https://bh.example.com", "https://bh.example.com/"),
        ("https://bh.example.com", "https://bh.example.com"),
        ("", "https://bh.example.com"),
    ],
)
def test_a_trailing_slash_or_an_unknown_server_does_not_block_a_resume(planned: str, server: str) -> None:
    run = parse_audit(lines(plan("r1", [5], server=planned))).get("r1")
    check_same_server(run, server, verb="resume")


@pytest.mark.parametrize(
    ("planned", "server"),
    [("https://bh.example.com/X", "https://bh.example.com/"), ("https://bh.example.com/", "https://bh.example.com/X")],
)
def test_only_slashes_are_trimmed_before_comparing_servers(planned: str, server: str) -> None:
    run = parse_audit(lines(plan("r1", [5], server=planned))).get("r1")
    with pytest.raises(ResumeRefused):
        check_same_server(run, server, verb="resume")


def test_without_a_run_id_the_newest_interrupted_deletion_run_is_chosen() -> None:
    log = parse_audit(
        lines(
            plan("old", [5]),
            plan("new", [6], minute=1),
            plan("back", [7], minute=2, action="selectors.restore"),
        )
    )
    assert choose_run(log, None).run_id == "new"


@pytest.mark.parametrize("verb", ["resume", "restore"])
def test_another_server_is_refused_with_the_verb_asked(verb: Any) -> None:
    run = parse_audit(lines(plan("r1", [5], server="https://a.example.com/"))).get("r1")
    with pytest.raises(ResumeRefused) as info:
        check_same_server(run, "https://b.example.com", verb=verb)
    assert str(info.value) == (
        f"run r1 deleted on https://a.example.com/, not on https://b.example.com; {verb} it with the profile for "
        "that server"
    )


def hint_of(log: AuditLog) -> str:
    """What `choose_run` says when there is nothing interrupted to resume (the hint follows the first sentence)."""
    with pytest.raises(NothingToResume) as info:
        choose_run(log, None)
    text = str(info.value)
    head = "nothing to resume: no interrupted deletion run in the audit log"
    assert text.startswith(head)
    return text.removeprefix(head)


def test_the_hint_names_the_newest_finished_run_with_selectors_left() -> None:
    log = parse_audit(lines(plan("old", [5, 6]), *settle("old", 5, "failed"), *settle("old", 6, "failed"), end("old")))
    assert hint_of(log) == (
        "; run old finished with 2 selectors not deleted (failed, no answer or skipped): "
        "`svctui selectors resume old` re-checks and retries them"
    )
    one = parse_audit(lines(plan("one", [5]), *settle("one", 5, "skipped"), end("one")))
    assert "run one finished with 1 selector not deleted" in hint_of(one)


def test_no_hint_when_the_newest_deletion_run_is_settled_even_if_an_older_one_is_not() -> None:
    log = parse_audit(
        lines(
            plan("old", [5]),
            *settle("old", 5, "failed"),
            end("old"),
            plan("new", [6], minute=1),
            *settle("new", 6, "deleted"),
            end("new"),
        )
    )
    assert hint_of(log) == ""


def test_the_hint_skips_resumed_runs_restore_runs_and_the_legacy_lines() -> None:
    log = parse_audit(
        lines(
            {"selector": 9, "outcome": "failed", "tag": 1},  # legacy: never named
            plan("first", [5]),
            *settle("first", 5, "failed"),
            end("first"),
            plan("second", [5], minute=1, resumes="first"),
            *settle("second", 5, "failed"),
            end("second"),
            plan("back", [5], minute=2, action="selectors.restore"),
            *settle("back", 5, "failed"),
            end("back"),
        )
    )
    assert "run second finished" in hint_of(log)
    only_resumed = parse_audit(
        lines(
            {"selector": 9, "outcome": "failed", "tag": 1},
            plan("first", [5]),
            *settle("first", 5, "failed"),
            end("first"),
            plan("second", [5], minute=1, resumes="first"),
            *settle("second", 5, "deleted"),
            end("second"),
        )
    )
    assert hint_of(only_resumed) == ""
    assert hint_of(parse_audit(lines({"selector": 9, "outcome": "failed", "tag": 1}))) == ""


def test_recorded_selectors_skip_intents_without_a_valid_record() -> None:
    record = {"id": 5, "asset_group_tag_id": 1, "name": "Old DCs", "seeds": []}
    run = parse_audit(
        lines(
            plan("r1", [6, 7, 5]),
            {"event": "intent", "run": "r1", "selector_id": 6, "selector": None},
            {"event": "intent", "run": "r1", "selector_id": 7, "selector": {"id": "not a number"}},
            {"event": "intent", "run": "r1", "selector_id": 5, "selector": record},
        )
    ).get("r1")
    found = recorded_selectors(run)
    assert list(found) == [5] and found[5].name == "Old DCs"


def deletable(server: RecordingServer, count: int) -> list[dict[str, Any]]:
    """Records of `count` non-default selectors of tag 1."""
    return [item for item in server.selectors[1] if not item["is_default"]][:count]


@pytest.mark.anyio
async def test_a_resume_on_another_server_sends_nothing_even_when_the_caller_did_not_check(
    server: RecordingServer,
) -> None:
    """The resume's own same-server check: callers check first, the engine must too."""
    run = parse_audit(lines(plan("r1", [5], server="https://elsewhere.example.com"))).get("r1")
    context = AuditContext(profile="demo", token_id=None, server=server.base_url, user="tester")
    async with client_for(server) as api:
        with pytest.raises(ResumeRefused) as info:
            await resume_run(api, run, context=context, audit=lambda line: None)
    assert str(info.value) == (
        f"run r1 deleted on https://elsewhere.example.com, not on {server.base_url}; resume it with the "
        "profile for that server"
    )
    assert server.requests == []


@pytest.mark.anyio
async def test_a_resumed_run_keeps_the_tag_name_and_the_names_its_intents_recorded(server: RecordingServer) -> None:
    chosen = deletable(server, 2)
    ids = [item["id"] for item in chosen]
    planned_on = server.base_url + "/"  # the plan's server with a trailing slash: still this server
    old = "20261124T100000Z-0001"
    append_audit(plan(old, ids, tag_name="Tier Zero", server=planned_on))
    for item in chosen:  # an intent each, the record as the old run saw it, never answered
        append_audit({"event": "intent", "run": old, "tag_id": 1, "selector_id": item["id"]} | {"selector": item})
    append_audit(end(old))
    run = read_audit().get(old)
    context = AuditContext(profile="demo", token_id=None, server=server.base_url, user="tester")
    async with client_for(server) as api:
        report = await resume_run(api, run, context=context, concurrency=1)
    assert [(result.selector_id, str(result.outcome)) for result in report.results] == [(i, "deleted") for i in ids]
    assert [result.name for result in report.results] == [item["name"] for item in chosen]
    new = read_audit(audit_path()).get(report.run_id)
    assert new.plan["tag_name"] == "Tier Zero" and new.plan["resumes"] == old and new.tag_id == 1
    assert new.plan["ids"] == ids and new.plan["concurrency"] == 1
    assert read_audit().get(old).resolved_by == report.run_id


@pytest.mark.anyio
async def test_a_run_with_nothing_left_is_not_resumed(server: RecordingServer) -> None:
    run = parse_audit(lines(plan("r1", [5]), *settle("r1", 5, "deleted"), end("r1"))).get("r1")
    context = AuditContext(profile="demo", token_id=None, server=server.base_url, user="tester")
    async with client_for(server) as api:
        with pytest.raises(NothingToResume, match="nothing to resume in run r1"):
            await resume_run(api, run, context=context, audit=lambda line: None)
    assert server.requests == []


@pytest.mark.anyio
async def test_a_resume_reports_each_result_and_can_be_cancelled(server: RecordingServer) -> None:
    ids = [item["id"] for item in deletable(server, 2)]
    run = parse_audit(lines(plan("r1", ids, tag_name=7), end("r1"))).get("r1")  # a tag name that is not text
    context = AuditContext(profile="demo", token_id=None, server=server.base_url, user="tester")
    seen: list[int] = []
    written: list[dict[str, Any]] = []
    cancel = asyncio.Event()
    cancel.set()
    async with client_for(server) as api:
        report = await resume_run(
            api, run, context=context, on_result=lambda r: seen.append(r.selector_id), cancel=cancel,
            audit=written.append,
        )  # fmt: skip
    assert [str(result.outcome) for result in report.results] == ["skipped", "skipped"] and seen == ids
    assert written[0]["tag_name"] == "" and written[0]["resumes"] == "r1" and written[0]["concurrency"] == 4
    assert server.requests == []  # cancelled before the first: nothing asked


@pytest.mark.anyio
async def test_a_resume_deletes_only_the_selector_it_planned_never_a_newcomer_or_a_renamed_one(
    server: RecordingServer,
) -> None:
    """The resume GETs each id first and compares it with the record its deletion kept: another creation time under
    the id is another selector (the planned one is gone: settled, not deleted); the same one under another name was
    renamed since (failed, not deleted: the person decides anew); the same one unchanged is deleted."""
    planned = "2026-03-01T10:00:00Z"
    for item, created in zip(server.selectors[1][1:], ["2026-05-01T00:00:00Z", planned, planned], strict=True):
        item["created_at"] = created
    kept = {
        2: Selector.model_validate({"id": 2, "asset_group_tag_id": 1, "name": "Old DCs", "created_at": planned}),
        3: Selector.model_validate({"id": 3, "asset_group_tag_id": 1, "name": "Web", "created_at": planned}),
        4: Selector.model_validate({"id": 4, "asset_group_tag_id": 1, "name": "selector 4", "created_at": planned}),
    }
    context = AuditContext("lab", TOKEN_ID, server.base_url, "tester")
    audit: list[dict[str, Any]] = []
    async with client_for(server, max_retries=0) as api:
        report = await delete_selectors(
            api, 1, [2, 3, 4], context=context, concurrency=1, records=kept, resumes="r0", audit=audit.append
        )
    assert [f"{request.method} {request.path}" for request in server.requests] == [
        "GET /api/v2/asset-group-tags/1/selectors/2",
        "GET /api/v2/asset-group-tags/1/selectors/3",
        "GET /api/v2/asset-group-tags/1/selectors/4",
        "DELETE /api/v2/asset-group-tags/1/selectors/4",
    ]
    said = [line for line in audit if line["event"] == "outcome"]
    assert [(line["selector_id"], line["outcome"], line["status"], line["message"]) for line in said] == [
        (2, "already gone", 200, "re-checked with GET: the selector planned is gone; id 2 now holds 'selector 2' "
         "created 2026-05-01T00:00:00Z, not 'Old DCs' created 2026-03-01T10:00:00Z, which is not deleted"),
        (3, "failed", 200, "re-checked with GET: renamed 'Web' → 'selector 3' since the run planned it; not deleted: "
         "delete it anew if meant"),
        (4, "deleted", 204, ""),
    ]  # fmt: skip
    assert [(result.selector_id, result.outcome) for result in report.results] == [
        (2, Outcome.ALREADY_GONE), (3, Outcome.FAILED), (4, Outcome.DELETED)
    ]  # fmt: skip


@pytest.mark.anyio
async def test_a_resume_compares_with_what_the_deletion_planned_not_with_the_tag_as_it_is_now(
    server: RecordingServer,
) -> None:
    """The resume re-checks against the records its deletion kept: selector 3, renamed since it was planned, is not
    deleted (reading the tag's list now would take the renamed one for the planned one)."""
    planned = "2026-03-01T10:00:00Z"
    for item in server.selectors[1]:
        item["created_at"] = planned
    kept = {"id": 3, "asset_group_tag_id": 1, "name": "Old name", "created_at": planned}
    append_audit(plan("r1", [3], server=server.base_url, tag_name="Tier Zero"))
    append_audit({"event": "intent", "run": "r1", "tag_id": 1, "selector_id": 3, "selector": kept})
    append_audit(end("r1"))
    context = AuditContext("lab", TOKEN_ID, server.base_url, "tester")
    async with client_for(server, max_retries=0) as api:
        report = await resume_run(api, read_audit().get("r1"), context=context, audit=append_audit)
    assert [f"{request.method} {request.path}" for request in server.requests] == [
        "GET /api/v2/asset-group-tags/1/selectors/3"
    ]
    assert [(result.selector_id, result.outcome, result.name) for result in report.results] == [
        (3, Outcome.FAILED, "Old name")
    ]
    assert report.results[0].message.startswith("re-checked with GET: renamed 'Old name' → 'selector 3' since ")
