"""Issue 30: what a restore does with each selector of a deletion run, over real loopback to `RecordingServer`
(which creates selectors on POST as the real server does: 201, or 409 for a name a non-default selector holds).

The deletion run is written to the real audit log as the engine writes it; the restore reads it back, plans, POSTs
and logs. Each test checks what went on the wire, the results and the lines the restore wrote: fast enough for
`make mutate` to run them against every mutant of `ops/selector_restore.py`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.signing import BearerAuth
from svctui.ops.audit_lines import AuditContext, intent_line, outcome_line, plan_line
from svctui.ops.selector_restore import (
    LOCK_RETRY,
    RestoreResult,
    plan_restore,
    restore_run,
)
from svctui.store.audit import append_audit, audit_path, try_lock_restores, unlock_restores
from svctui.store.audit_read import read_audit
from tests.support.recording_server import JWT, TOKEN_ID, Recorded, RecordingServer, Reply, client_for

CONTEXT = AuditContext(profile="lab", token_id=TOKEN_ID, server="http://127.0.0.1", user="tester")
SELECTORS_PATH = "/api/v2/asset-group-tags/1/selectors"
NAME_TAKEN = "asset group tag selector name must be unique"


def record(selector_id: int, name: str, **fields: Any) -> dict[str, Any]:
    """A selector's record as an intent line keeps it (`selector_record`'s shape)."""
    return {
        "id": selector_id,
        "asset_group_tag_id": 1,
        "name": name,
        "description": f"about {name}",
        "auto_certify": 0,
        "is_default": False,
        "allow_disable": True,
        "created_at": "2026-03-01T10:00:00Z",
        "disabled_at": None,
        "disabled_by": None,
        "rule_key": None,
        "extension_id": None,
        "seeds": [{"type": 1, "value": f"S-1-5-21-{selector_id}"}],
    } | fields


def deletion(
    run: str, kept: dict[int, tuple[dict[str, Any] | None, str | None]], *, tag_name: str = "Tier Zero", **link: str
) -> None:
    """Write a deletion run of tag 1 to the audit log: per id its intent (with the record) and its outcome (None:
    the intent only, the DELETE in doubt), then the end line."""
    append_audit(plan_line(run, CONTEXT, 1, tag_name, list(kept), 2, resumes=link.get("resumes")))
    for selector_id, (kept_record, outcome) in kept.items():
        append_audit(intent_line(run, 1, selector_id, kept_record))
        if outcome is not None:
            append_audit(
                {"run": run, "event": "outcome", "tag_id": 1, "selector_id": selector_id} | {"outcome": outcome}
            )
    append_audit({"run": run, "event": "end", "counts": {}, "stopped": None})


def log_lines() -> list[dict[str, Any]]:
    """Every line of the audit log, without the time stamps."""
    lines = [json.loads(line) for line in audit_path().read_text().splitlines()]
    return [{key: value for key, value in line.items() if key != "ts"} for line in lines]


def on_server(server: RecordingServer, *items: dict[str, Any]) -> None:
    """Put selectors into tag 1 of the server (as the list and GET answer them)."""
    server.selectors[1].extend(items)


async def restore(
    server: RecordingServer, run: str, only: list[int] | None = None, **options: Any
) -> tuple[list[RestoreResult], list[dict[str, Any]], list[RestoreResult]]:
    """Plan a restore of `run` from the log and run it as `back-1`: its results, the lines it wrote, and what
    `on_result` saw."""
    plan = plan_restore(read_audit(), run, only or ())
    before = len(log_lines())
    seen: list[RestoreResult] = []
    async with client_for(server, max_retries=0) as api:
        results = await restore_run(
            api, plan, context=CONTEXT, run_id="back-1", audit=append_audit, on_result=seen.append, **options
        )
    return results, log_lines()[before:], seen


def posts(server: RecordingServer) -> list[Recorded]:
    """The POSTs the server received."""
    return [request for request in server.requests if request.method == "POST"]


def intent(selector_id: int, kept: dict[str, Any]) -> dict[str, Any]:
    """The restore's intent line for one old id."""
    return {"run": "back-1", "event": "intent", "tag_id": 1, "selector_id": selector_id, "selector": kept}


def outcome(selector_id: int, said: str, answer: Recorded | None, message: str, **extra: Any) -> dict[str, Any]:
    """The restore's outcome line for one old id (`answer`: the request whose answer it records)."""
    return {
        "run": "back-1",
        "event": "outcome",
        "tag_id": 1,
        "selector_id": selector_id,
        "outcome": said,
        "status": extra.pop("status", 201 if answer is not None else None),
        "request_id": answer.request_id if answer is not None else None,
        "message": message,
        **extra,
    }


@pytest.mark.anyio
async def test_a_restore_posts_each_kept_record_and_logs_every_step(server: RecordingServer) -> None:
    dcs = record(5, "Old DCs", description="Domain controllers", auto_certify=2)
    dcs |= {"disabled_at": "2026-02-01T00:00:00Z", "disabled_by": "alice", "seeds": [{"type": 2, "value": "MATCH (n)"}]}
    bare = record(6, "Web servers", description=None, auto_certify=None)
    quiet = record(8, "Printers", disabled_at="2026-02-01T00:00:00Z")
    default = (record(7, "Default"), "refused: default selector")
    deletion("del-1", {5: (dcs, "deleted"), 6: (bare, "deleted"), 7: default, 8: (quiet, "deleted")})
    results, lines, seen = await restore(server, "del-1")

    first, second, third = posts(server)
    assert all(request.path == SELECTORS_PATH and request.verified for request in posts(server))
    assert first.json == {"name": "Old DCs", "description": "Domain controllers", "auto_certify": 2} | {
        "seeds": [{"type": 2, "value": "MATCH (n)"}]
    }
    assert second.json == {"name": "Web servers", "description": "", "auto_certify": 0, "seeds": bare["seeds"]}
    assert third.json["name"] == "Printers"
    assert results == seen == [
        RestoreResult(5, "restored", "Old DCs", 1001, status=201, request_id=first.request_id,
                      message="re-created enabled; was disabled by alice"),
        RestoreResult(6, "restored", "Web servers", 1002, status=201, request_id=second.request_id, message=""),
        RestoreResult(8, "restored", "Printers", 1003, status=201, request_id=third.request_id,
                      message="re-created enabled; was disabled"),
    ]  # fmt: skip
    plan: dict[str, Any] = {
        "run": "back-1",
        "event": "plan",
        "action": "selectors.restore",
        "profile": "lab",
        "token_id": TOKEN_ID,
    }
    plan |= {"user": "tester", "server": "http://127.0.0.1", "tag_id": 1, "tag_name": "Tier Zero", "ids": [5, 6, 8]}
    assert lines == [
        plan | {"concurrency": 1, "restores": "del-1"},
        intent(5, dcs),
        outcome(5, "restored", first, "re-created enabled; was disabled by alice", new_id=1001),
        intent(6, bare),
        outcome(6, "restored", second, "", new_id=1002),
        intent(8, quiet),
        outcome(8, "restored", third, "re-created enabled; was disabled", new_id=1003),
        {"run": "back-1", "event": "end", "counts": {"restored": 3}, "stopped": None},
    ]
    assert read_audit().get("back-1").state == "finished"
    again = plan_restore(read_audit(), "del-1")
    assert again.to_restore == [] and again.already == {5: 1001, 6: 1002, 8: 1003}


@pytest.mark.anyio
async def test_a_name_taken_by_the_same_definition_is_counted_as_restored_another_is_not(
    server: RecordingServer,
) -> None:
    """A 409: the tag's list says whose name it is. The same definition is the selector restored (an earlier
    restore made it); another description, or a default selector of that definition, is not."""
    same, other, by_default = record(5, "Old DCs"), record(6, "Web servers"), record(7, "Everything")
    on_server(
        server,
        {"id": 30, "asset_group_tag_id": 1, "is_default": False}
        | {k: same[k] for k in ("name", "description", "seeds")},
        {"id": 31, "asset_group_tag_id": 1, "name": "Web servers", "description": "kept by hand", "is_default": False}
        | {"seeds": other["seeds"]},
        {"id": 32, "asset_group_tag_id": 1, "is_default": True}
        | {k: by_default[k] for k in ("name", "description", "seeds")},
    )
    deletion("del-1", {5: (same, "deleted"), 6: (other, "deleted"), 7: (by_default, "deleted")})
    results, lines, _ = await restore(server, "del-1", only=[5, 6])

    first, second = posts(server)
    assert results == [
        RestoreResult(5, "restored", "Old DCs", 30, status=409, request_id=first.request_id,
                      message="a selector with this name and definition exists now (id 30): counted as restored"),
        RestoreResult(6, "failed", "Web servers", status=409, request_id=second.request_id,
                      message="a selector named 'Web servers' exists now (id 31) with another definition; names are "
                      "unique per tag: rename or delete selector (id 31), then restore this one again"),
    ]  # fmt: skip
    assert lines[2] == outcome(5, "restored", first, results[0].message, status=409, new_id=30)
    assert lines[4] == outcome(6, "failed", second, results[1].message, status=409, new_id=None)
    assert lines[-1]["counts"] == {"restored": 1, "failed": 1}

    server.enqueue(Reply(409, {"problem": NAME_TAKEN}))  # 7's name: held by the default selector alone
    results, _, _ = await restore(server, "del-1", only=[7])
    assert results[0].outcome == "failed" and results[0].new_id is None
    assert results[0].message == (
        "a selector named 'Everything' exists now with another definition; names are unique per tag: rename or "
        "delete selector of that name, then restore this one again"
    )


@pytest.mark.anyio
async def test_a_name_taken_whose_holder_cannot_be_looked_up_fails_saying_so(server: RecordingServer) -> None:
    deletion("del-1", {5: (record(5, "Old DCs"), "deleted")})
    server.enqueue(Reply(409, {"problem": NAME_TAKEN}), Reply(500, {"problem": "an internal error has occurred"}))
    results, lines, _ = await restore(server, "del-1")
    post = posts(server)[0]
    assert [request.method for request in server.requests] == ["POST", "GET"]
    assert results == [
        RestoreResult(5, "failed", "Old DCs", status=409, request_id=post.request_id,
                      message="a selector named 'Old DCs' exists now (HTTP 409); which one could not be looked up "
                      f"(HTTP 500 Internal Server Error — an internal error has occurred (request id "
                      f"{server.requests[1].request_id})): "
                      "find it in tag 1, then rename or delete it and restore again"),
    ]  # fmt: skip
    assert lines[2] == outcome(5, "failed", post, results[0].message, status=409, new_id=None)


@pytest.mark.anyio
async def test_a_refused_post_fails_an_unanswered_one_is_in_doubt_and_a_bad_record_fails(
    server: RecordingServer,
) -> None:
    deletion(
        "del-1",
        {
            5: (record(5, "Old DCs"), "deleted"),
            6: (record(6, "Web servers"), "deleted"),
            7: (record(7, "Printers", auto_certify="two"), "deleted"),  # a log edited by hand
        },
    )
    server.enqueue(
        Reply(500, {"problem": "an internal error has occurred"}),
        Reply(502, "<html><body>Bad Gateway</body></html>", content_type="text/html"),
    )
    results, lines, _ = await restore(server, "del-1")
    refused, lost = posts(server)
    assert [(result.outcome, result.status, result.request_id) for result in results] == [
        ("failed", 500, refused.request_id),
        ("no answer", 502, lost.request_id),
        ("failed", None, None),
    ]
    assert results[0] == RestoreResult(
        5,
        "failed",
        "Old DCs",
        status=500,
        request_id=refused.request_id,
        message=(f"HTTP 500 Internal Server Error — an internal error has occurred (request id {refused.request_id})"),
    )
    assert (results[1].name, results[1].new_id) == ("Web servers", None)
    assert "whether it was done is not known" in results[1].message
    assert results[2] == RestoreResult(
        7, "failed", "Printers", message=("ValueError: invalid literal for int() with base 10: 'two'")
    )
    assert lines[-1] == {"run": "back-1", "event": "end", "counts": {"failed": 2, "no answer": 1}, "stopped": None}
    assert [line["event"] for line in lines[1:-1]] == ["intent", "outcome"] * 3
    assert lines[6] == outcome(7, "failed", None, results[2].message, new_id=None)
    assert lost.json["name"] == "Web servers"
    assert plan_restore(read_audit(), "del-1").in_doubt == [6]  # the lost POST: looked up by name next time


@pytest.mark.anyio
async def test_a_deletion_in_doubt_is_restored_only_once_its_selector_is_found_gone(server: RecordingServer) -> None:
    """Intent without outcome (or `no answer`): GET the old id first. Still there, or unknown: skipped, nothing
    sent nor logged. Gone, or another selector now under the id (another tag's, another one of this tag): POST."""
    still = record(2, "selector 2")  # the server's own selector 2, unchanged: the DELETE never happened
    unknown = record(3, "selector 3")
    newcomer = record(4, "Old DCs", disabled_at="2026-02-01T00:00:00Z")  # the server's id 4 holds 'selector 4' now
    moved = record(9, "Moved")
    gone = record(10, "Gone")
    on_server(server, {"id": 9, "asset_group_tag_id": 2, "name": "Moved away", "is_default": False, "seeds": []})
    deletion("del-1", {2: (still, None), 3: (unknown, "no answer"), 4: (newcomer, None), 9: (moved, None)}
             | {10: (gone, "no answer")})  # fmt: skip

    def route(recorded: Recorded) -> Reply:
        if recorded.method == "GET" and recorded.path.endswith("/selectors/3"):
            return Reply(500, {"problem": "an internal error has occurred"})
        return RecordingServer.route(server, recorded)

    server.route = route  # type: ignore[method-assign]
    results, lines, seen = await restore(server, "del-1")

    assert [(r.old_id, r.outcome, r.new_id) for r in results] == [
        (2, "skipped", None), (3, "skipped", None), (4, "restored", 1001), (9, "restored", 1002),
        (10, "restored", 1003),
    ]  # fmt: skip
    doubt = "its deletion is in doubt and it was not found gone"
    assert results[:2] == [
        RestoreResult(2, "skipped", "selector 2", message=doubt),
        RestoreResult(3, "skipped", "selector 3", message=doubt),
    ]
    assert results[2].message == (
        "re-created enabled; was disabled; the deleted one is gone: id 4 now holds 'selector 4', not 'Old DCs' "
        "created 2026-03-01T10:00:00Z, not ours"
    )
    assert results[3].message == "the deleted one is gone: id 9 is now a selector of tag 2, not of tag 1, not ours"
    assert results[4].message == ""
    assert seen == results
    assert [request.json["name"] for request in posts(server)] == ["Old DCs", "Moved", "Gone"]
    assert [(line["event"], line["selector_id"]) for line in lines[1:-1]] == [
        ("intent", 4), ("outcome", 4), ("intent", 9), ("outcome", 9), ("intent", 10), ("outcome", 10),
    ]  # fmt: skip
    assert lines[-1] == {"run": "back-1", "event": "end", "counts": {"skipped": 2, "restored": 3}, "stopped": None}
    assert read_audit().get("back-1").state == "finished"  # skipped as still there is not a cancelled run


@pytest.mark.anyio
async def test_a_restore_after_one_that_got_no_answer_finds_what_that_one_created(server: RecordingServer) -> None:
    """The earlier restore's POST of 5 got no answer but created it (the server has it: same definition): counted as
    restored, nothing sent. 6's earlier POST created nothing: POSTed now."""
    dcs, web = record(5, "Old DCs"), record(6, "Web servers")
    deletion("del-1", {5: (dcs, "deleted"), 6: (web, "deleted"), 7: (record(7, "Printers"), "deleted")})
    append_audit(
        plan_line("back-0", CONTEXT, 1, "Tier Zero", [5, 6, 7], 1, action="selectors.restore", restores="del-1")
    )
    append_audit(intent_line("back-0", 1, 5, dcs))
    append_audit(intent_line("back-0", 1, 6, web))
    append_audit({"run": "back-0", "event": "outcome", "tag_id": 1, "selector_id": 6, "outcome": "no answer"})
    append_audit(intent_line("back-0", 1, 7, record(7, "Printers")))
    append_audit(outcome_line("back-0", 1, RestoreResult(7, "restored", "Printers", 77), new_id=77))
    made = {"id": 40, "asset_group_tag_id": 1, "is_default": False} | {k: dcs[k] for k in ("name", "description")}
    on_server(server, made | {"seeds": dcs["seeds"]})

    plan = plan_restore(read_audit(), "del-1")
    assert [entry.selector_id for entry in plan.to_restore] == [5, 6] and plan.in_doubt == [5, 6]
    assert plan.already == {7: 77}
    results, lines, _ = await restore(server, "del-1")

    assert [request.method for request in server.requests] == ["GET", "POST"]  # the tag's list once, one POST
    assert results[0] == RestoreResult(5, "restored", "Old DCs", 40, message="found: an earlier restore created it")
    assert (results[1].outcome, results[1].new_id, results[1].status) == ("restored", 1001, 201)
    assert lines[1] == outcome(5, "restored", None, "found: an earlier restore created it", status=None, new_id=40)
    assert [line["event"] for line in lines[2:]] == ["intent", "outcome", "end"]


@pytest.mark.anyio
async def test_a_cancelled_restore_sends_nothing_and_says_so(server: RecordingServer) -> None:
    deletion("del-1", {5: (record(5, "Old DCs"), "deleted"), 6: (record(6, "Web servers"), "deleted")}, tag_name="")
    cancel = asyncio.Event()
    cancel.set()
    results, lines, seen = await restore(server, "del-1", cancel=cancel)
    assert posts(server) == []
    assert results == [
        RestoreResult(5, "skipped", "Old DCs", message="cancelled"),
        RestoreResult(6, "skipped", "Web servers", message="cancelled"),
    ]
    assert (lines[0]["tag_name"], lines[0]["ids"]) == ("", [5, 6])  # the deletion named no tag: nor does this
    assert seen == []
    assert lines[1:] == [{"run": "back-1", "event": "end", "counts": {"skipped": 2}, "stopped": "cancelled"}]
    assert read_audit().get("back-1").state == "stopped: cancelled"


@pytest.mark.anyio
async def test_a_selector_restored_by_another_restore_meanwhile_is_skipped(server: RecordingServer) -> None:
    """The plan was made (and confirmed) before another restore re-created 5: this one plans again under the lock
    and skips it, saying as what; 6 was restored without a new id known: no longer to restore."""
    deletion("del-1", {5: (record(5, "Old DCs"), "deleted"), 6: (record(6, "Web"), "deleted")} | {
        8: (record(8, "Printers"), "deleted")})  # fmt: skip
    plan = plan_restore(read_audit(), "del-1")
    append_audit(plan_line("other", CONTEXT, 1, "", [5, 6], 1, action="selectors.restore", restores="del-1"))
    append_audit(outcome_line("other", 1, RestoreResult(5, "restored", "Old DCs", 50), new_id=50))
    append_audit(outcome_line("other", 1, RestoreResult(6, "restored", "Web", None)))
    seen: list[RestoreResult] = []
    async with client_for(server, max_retries=0) as api:
        results = await restore_run(
            api, plan, context=CONTEXT, run_id="back-1", audit=append_audit, on_result=seen.append
        )
    assert [request.json["name"] for request in posts(server)] == ["Printers"]
    assert results[1:] == [
        RestoreResult(5, "skipped", "Old DCs", 50, message="restored meanwhile by another restore (as 50)"),
        RestoreResult(6, "skipped", "Web", None, message="no longer to restore"),
    ]
    assert (results[0].old_id, results[0].outcome, results[0].new_id) == (8, "restored", 1001)
    assert seen == results
    assert read_audit().get("back-1").plan["ids"] == [8]


@pytest.mark.anyio
async def test_a_record_kept_without_a_name_is_sent_without_one_and_the_refusal_is_its_outcome(
    server: RecordingServer,
) -> None:
    deletion("del-1", {5: (record(5, "Old DCs") | {"name": None}, "deleted")})
    results, lines, _ = await restore(server, "del-1")
    post = posts(server)[0]
    assert post.json["name"] == ""
    assert results == [
        RestoreResult(5, "failed", "", status=400, request_id=post.request_id, message=(
            f"HTTP 400 Bad Request — name: a non-empty name is required (request id {post.request_id})"))
    ]  # fmt: skip
    assert lines[2] == outcome(5, "failed", post, results[0].message, status=400, new_id=None)


@pytest.mark.anyio
async def test_a_post_to_a_server_that_is_not_there_is_in_doubt() -> None:
    """No connection: `no answer` (a POST sent and not answered may have created it), never a crashed run."""
    deletion("del-1", {5: (record(5, "Old DCs"), "deleted")})
    plan = plan_restore(read_audit(), "del-1")
    async with ApiClient(RecordingServer.refused_url(), BearerAuth(JWT), max_retries=0) as api:
        results = await restore_run(api, plan, context=CONTEXT, run_id="back-1", audit=append_audit)
    assert [(r.old_id, r.outcome, r.name, r.status, r.request_id) for r in results] == [
        (5, "no answer", "Old DCs", None, None)
    ]
    assert results[0].message
    assert log_lines()[-2]["outcome"] == "no answer" and log_lines()[-1]["counts"] == {"no answer": 1}


@pytest.mark.anyio
async def test_a_restore_waiting_for_another_says_so_once_then_goes_on(server: RecordingServer) -> None:
    """Another restore holds the lock: `on_wait` is told once (however long the wait), then the restore runs."""
    deletion("del-1", {5: (record(5, "Old DCs"), "deleted")})
    plan = plan_restore(read_audit(), "del-1")
    held = try_lock_restores()
    assert held is not None
    waits: list[int] = []

    async def let_go_later() -> None:
        await asyncio.sleep(LOCK_RETRY * 3)  # a few tries of the lock: each one must not be told again
        unlock_restores(held)

    async with client_for(server, max_retries=0) as api:
        releasing = asyncio.create_task(let_go_later())
        results = await restore_run(
            api, plan, context=CONTEXT, run_id="back-1", audit=append_audit, on_wait=lambda: waits.append(1)
        )
        await releasing
    assert waits == [1]
    assert [(result.old_id, result.outcome) for result in results] == [(5, "restored")]
