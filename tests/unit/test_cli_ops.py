"""The bulk selector delete engine: bounded concurrency, outcome classification, audit per attempt, auth stop."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from typing import Any

import pytest

from svctui.api.errors import (
    ApiConnectionError,
    ApiStatusError,
    Forbidden,
    NotFound,
    RateLimited,
    ResponseCutShort,
    ResponseShapeError,
    ResponseTooLarge,
    ServerError,
    Unauthorized,
)
from svctui.api.models import Selector, SelectorPage
from svctui.api.query import ListQuery
from svctui.api.resources import Deletion
from svctui.commands.common import ExitCode
from svctui.commands.delete import exit_code, result_line
from svctui.ops.selector_delete import (
    AuditContext,
    DeleteReport,
    DeleteResult,
    Outcome,
    Preview,
    Stopped,
    delete_selectors,
    preview_selectors,
)
from svctui.store.errors import StoreError
from tests.unit.test_layers import BLOCKER

NO_QUERY = ListQuery()
CONTEXT = AuditContext(profile="lab", token_id=None, server="https://bh.example.com", user="tester")


class MethodNotAllowed(ApiStatusError):
    """A 405: the server has no such call."""


class SelectorStore:
    """An in-memory stand-in for `ApiClient.selectors` that raises the client's real error classes."""

    def __init__(self, tag_id: int, ids: range, *, default: int = 0, other_tag: int = 0) -> None:
        self.tag_id = tag_id
        self.live = set(ids)
        self.default = default
        self.other_tag = other_tag
        self.in_flight = 0
        self.max_in_flight = 0
        self.fail: dict[int, Exception] = {}
        self.fail_get: dict[int, Exception] = {}
        self.gate = 0  # hold the first DELETEs until this many are in flight at once
        self.opened: asyncio.Event | None = None

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        if selector_id in self.fail_get:
            raise self.fail_get[selector_id]
        if selector_id == self.other_tag:
            return Selector(id=selector_id, asset_group_tag_id=tag_id + 1, name="elsewhere")
        if selector_id not in self.live:
            raise NotFound(404, ["resource not found"], request_id="r-get", from_api=True)
        return Selector(
            id=selector_id, asset_group_tag_id=tag_id, name=f"sel {selector_id}", is_default=selector_id == self.default
        )

    async def list(self, tag_id: int, query: ListQuery = NO_QUERY) -> SelectorPage:
        listed = [
            {"id": i, "asset_group_tag_id": tag_id, "name": f"sel {i}", "is_default": i == self.default}
            for i in sorted(self.live)
        ]
        return SelectorPage.model_validate({"count": len(listed), "data": {"selectors": listed}})

    async def delete(self, tag_id: int, selector_id: int) -> Deletion:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.gate:
                self.opened = self.opened or asyncio.Event()
                if self.in_flight >= self.gate:
                    self.opened.set()
                await self.opened.wait()
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            if selector_id in self.fail:
                raise self.fail[selector_id]
            if selector_id == self.other_tag:
                raise NotFound(404, ["selector is not part of asset group tag"], request_id="r-other", from_api=True)
            if selector_id == self.default:
                raise Forbidden(403, ["cannot delete a default selector"], request_id="r-default", from_api=True)
            if selector_id not in self.live:
                raise NotFound(404, ["resource not found"], request_id="r-gone", from_api=True)
            self.live.discard(selector_id)
            return Deletion(204, f"r-{selector_id}")
        finally:
            self.in_flight -= 1


class Client:
    def __init__(self, store: SelectorStore) -> None:
        self.selectors = store


@pytest.mark.anyio
@pytest.mark.parametrize("concurrency", [1, 3, 16])
async def test_concurrency_is_bounded(concurrency: int) -> None:
    store = SelectorStore(1, range(1, 41))
    store.gate = concurrency  # the first DELETEs wait for each other: the bound is reached, never passed
    report = await delete_selectors(
        Client(store), 1, list(range(1, 41)), context=CONTEXT, concurrency=concurrency, audit=lambda record: None
    )
    assert store.max_in_flight == concurrency
    assert report.counts[Outcome.DELETED] == 40
    assert not store.live


@pytest.mark.anyio
async def test_every_outcome_and_an_intent_before_and_outcome_after_each_delete() -> None:
    store = SelectorStore(3, range(1, 10), default=1, other_tag=50)
    store.fail[4] = ServerError(500, ["request timed out"], request_id="r-500", from_api=True)  # the API's own 500
    store.fail[5] = ApiConnectionError("cannot reach https://bh.example.com: connection refused")
    store.live.discard(2)
    audit: list[dict[str, Any]] = []
    seen: list[int] = []
    ids = [1, 2, 3, 4, 5, 50]
    report = await delete_selectors(
        Client(store), 3, ids, context=CONTEXT, audit=audit.append, on_result=lambda r: seen.append(r.selector_id)
    )
    outcomes = {r.selector_id: r.outcome for r in report.results}
    assert outcomes == {
        1: Outcome.REFUSED_DEFAULT,
        2: Outcome.ALREADY_GONE,
        3: Outcome.DELETED,
        4: Outcome.FAILED,
        5: Outcome.NO_ANSWER,
        50: Outcome.NOT_IN_TAG,
    }
    assert [r.selector_id for r in report.results] == ids
    assert sorted(seen) == sorted(ids)
    events = [record["event"] for record in audit]
    assert events[0] == "plan" and events[-1] == "end" and events.count("intent") == events.count("outcome") == 6
    for selector_id in ids:
        mine = [r["event"] for r in audit if r.get("selector_id") == selector_id]
        assert mine == ["intent", "outcome"]
    assert {r["run"] for r in audit} == {report.run_id}
    by_selector = {r["selector_id"]: r for r in audit if r["event"] == "outcome"}
    assert by_selector[4]["status"] == 500 and by_selector[4]["request_id"] == "r-500"
    assert "request timed out" in by_selector[4]["message"]
    assert by_selector[5]["status"] is None and "connection refused" in by_selector[5]["message"]
    assert by_selector[3] == {
        "run": report.run_id,
        "event": "outcome",
        "tag_id": 3,
        "selector_id": 3,
        "outcome": "deleted",
        "status": 204,
        "request_id": "r-3",
        "message": "",
    }
    intent = next(r for r in audit if r["event"] == "intent" and r["selector_id"] == 3)
    assert intent["selector"]["name"] == "sel 3" and intent["selector"]["seeds"] == []
    assert next(r for r in audit if r["event"] == "intent" and r["selector_id"] == 50)["selector"] is None
    assert audit[0] | {"run": "x"} == {
        "run": "x",
        "event": "plan",
        "action": "selectors.delete",
        "profile": "lab",
        "token_id": None,
        "user": "tester",
        "server": "https://bh.example.com",
        "tag_id": 3,
        "tag_name": "",
        "ids": ids,
        "concurrency": 4,
        "resumes": None,
    }
    assert audit[-1]["counts"] == {
        "deleted": 1,
        "already gone": 1,
        "refused: default selector": 1,
        "not part of tag": 1,
        "failed": 1,
        "no answer": 1,
    }
    assert audit[-1]["stopped"] is None
    assert report.summary() == (
        "1 deleted, 1 already gone, 1 refused: default selector, 1 not part of tag, 1 failed, 1 no answer"
    )


@pytest.mark.anyio
async def test_authentication_failure_stops_the_run() -> None:
    store = SelectorStore(1, range(1, 101))
    store.fail[3] = Unauthorized(401, ["digest validation failed"], request_id="r-401")
    audit: list[dict[str, Any]] = []
    report = await delete_selectors(
        Client(store), 1, list(range(1, 101)), context=CONTEXT, concurrency=2, audit=audit.append
    )
    counts = report.counts
    assert counts[Outcome.AUTH_FAILED] == 1
    assert counts[Outcome.SKIPPED] > 90
    assert report.stopped is Stopped.AUTH_FAILED
    outcomes = [r for r in audit if r["event"] == "outcome"]
    assert len(outcomes) == 100 - counts[Outcome.SKIPPED]
    assert all(record["outcome"] != "skipped" for record in outcomes)
    assert audit[-1]["stopped"] == "authentication failed" and audit[-1]["counts"]["skipped"] == counts[Outcome.SKIPPED]


@pytest.mark.anyio
async def test_preview_never_deletes() -> None:
    store = SelectorStore(2, range(1, 6), default=1, other_tag=9)
    results = await preview_selectors(Client(store), 2, [1, 2, 9, 77])
    assert [r.preview for r in results] == [
        Preview.WOULD_REFUSE,
        Preview.WOULD_DELETE,
        Preview.NOT_IN_TAG,
        Preview.NOT_FOUND,
    ]
    assert results[1].selector is not None and results[1].selector.name == "sel 2"
    assert store.live == set(range(1, 6))


def test_ops_import_without_textual() -> None:
    result = subprocess.run(
        [sys.executable, "-c", BLOCKER.replace("{package}", "ops")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "ok svctui.ops" in result.stdout


@pytest.mark.anyio
async def test_preview_says_unknown_only_when_the_lookup_itself_is_refused() -> None:
    store = SelectorStore(2, range(1, 6))
    store.fail_get[3] = MethodNotAllowed(405, ["method not allowed"], request_id="r-405", from_api=True)  # its envelope
    results = await preview_selectors(Client(store), 2, [2, 3])
    assert [r.preview for r in results] == [Preview.WOULD_DELETE, Preview.UNKNOWN]


@pytest.mark.anyio
async def test_preview_that_could_not_ask_says_so_and_asks_no_more_after_server_trouble() -> None:
    store = SelectorStore(2, range(1, 6))
    store.fail_get[3] = ServerError(503, ["Service Unavailable"], request_id="r-503")
    results = await preview_selectors(Client(store), 2, [1, 2, 3, 4], concurrency=1)
    assert [r.preview for r in results] == [Preview.WOULD_DELETE, Preview.WOULD_DELETE] + [Preview.UNCHECKED] * 2
    assert "503" in results[2].message and "not checked after" in results[3].message
    assert store.live == set(range(1, 6))


@pytest.mark.anyio
@pytest.mark.parametrize(
    "error",
    [
        ApiConnectionError("cannot reach https://bh.example.com: connection refused"),
        ServerError(500, ["an internal error has occurred"], request_id="r-500"),
        RateLimited(429, ["Limit exceeded"]),
        ApiStatusError(302, ["the server redirected to /login"]),
        ResponseShapeError("unexpected response to GET …: body starts: <html>", status=200),
        ResponseCutShort("the server's answer (HTTP 200) was cut short", status=200),
        ValueError("a bug"),
    ],
)
async def test_a_lookup_without_a_real_answer_is_unchecked(error: Exception) -> None:
    store = SelectorStore(2, range(1, 6))
    store.fail_get[3] = error
    results = await preview_selectors(Client(store), 2, [3])
    assert [r.preview for r in results] == [Preview.UNCHECKED]


@pytest.mark.anyio
async def test_preview_raises_on_authentication_failure() -> None:
    store = SelectorStore(2, range(1, 6))
    store.fail_get[3] = Unauthorized(401, ["digest validation failed"], request_id="r-401")
    with pytest.raises(Unauthorized):
        await preview_selectors(Client(store), 2, [1, 2, 3, 4], concurrency=1)


@pytest.mark.anyio
async def test_audit_failure_stops_the_run_and_says_why() -> None:
    store = SelectorStore(1, range(1, 51))
    written: list[dict[str, Any]] = []
    seen: list[DeleteResult] = []

    def sink(record: dict[str, Any]) -> None:
        if len(written) == 5:  # plan, then intent+outcome for 1 and 2, then the intent of 3 fails
            raise StoreError("cannot append to the audit log '/x/audit.jsonl': No space left on device")
        written.append(record)

    report = await delete_selectors(
        Client(store), 1, list(range(1, 51)), context=CONTEXT, concurrency=1, audit=sink, on_result=seen.append
    )
    assert report.audit_error == "cannot append to the audit log '/x/audit.jsonl': No space left on device"
    assert report.stopped is Stopped.AUDIT_NOT_WRITABLE
    assert [r.outcome for r in report.results[:3]] == [Outcome.DELETED] * 2 + [Outcome.SKIPPED]
    assert {r.outcome for r in report.results[2:]} == {Outcome.SKIPPED}
    assert report.results[3].message == "not attempted: the audit log could not be written"
    assert len(seen) == 50  # every outcome is still reported
    assert store.live == set(range(3, 51))  # the third was not sent: its intent never reached the log
    assert exit_code(report) == ExitCode.SERVER


@pytest.mark.anyio
async def test_a_failed_outcome_line_stops_the_run_after_that_delete() -> None:
    store = SelectorStore(1, range(1, 11))
    written: list[dict[str, Any]] = []

    def sink(record: dict[str, Any]) -> None:
        if record["event"] == "outcome" and record["selector_id"] == 2:
            raise StoreError("cannot append to the audit log '/x/audit.jsonl': Read-only file system")
        written.append(record)

    report = await delete_selectors(Client(store), 1, list(range(1, 11)), context=CONTEXT, concurrency=1, audit=sink)
    assert [r.outcome for r in report.results[:2]] == [Outcome.DELETED] * 2
    assert {r.outcome for r in report.results[2:]} == {Outcome.SKIPPED}
    assert store.live == set(range(3, 11))
    assert written[-1]["event"] == "end" and written[-1]["stopped"] == "audit log not writable"


@pytest.mark.anyio
async def test_nothing_unexpected_escapes_a_worker_and_every_line_is_written() -> None:
    store = SelectorStore(1, range(1, 7))
    store.fail[2] = ValueError("a bug in a library")
    store.fail[3] = ResponseShapeError("unexpected answer to DELETE …: its body is not the API's", status=200)
    store.fail[4] = ResponseTooLarge("the server's answer declares 200,000,000 bytes", limit=64)
    store.fail[5] = ResponseCutShort("the server's answer (HTTP 200) was cut short", status=200)
    audit: list[dict[str, Any]] = []
    report = await delete_selectors(Client(store), 1, list(range(1, 7)), context=CONTEXT, audit=audit.append)
    assert [r.outcome for r in report.results] == [
        Outcome.DELETED,
        Outcome.FAILED,  # a bug: nothing was answered at all
        Outcome.NO_ANSWER,  # a 200 not the API's, an answer over the cap, one cut short: the server may have acted
        Outcome.NO_ANSWER,
        Outcome.NO_ANSWER,
        Outcome.DELETED,
    ]
    assert report.results[1].message == "ValueError: a bug in a library"
    assert report.results[2].status == 200
    assert [r["event"] for r in audit].count("outcome") == 6 and audit[-1]["event"] == "end"


@pytest.mark.anyio
async def test_a_callback_that_raises_costs_no_audit_line() -> None:
    store = SelectorStore(1, range(1, 6))
    audit: list[dict[str, Any]] = []

    def broken(result: DeleteResult) -> None:
        raise RuntimeError("the screen went away")

    with pytest.raises(RuntimeError, match="the screen went away"):
        await delete_selectors(Client(store), 1, [1, 2, 3], context=CONTEXT, audit=audit.append, on_result=broken)
    assert sorted(r["event"] for r in audit) == sorted(["plan", "end"] + ["intent", "outcome"] * 3)


@pytest.mark.anyio
async def test_cancel_sends_nothing_more_and_the_rest_is_skipped() -> None:
    store = SelectorStore(1, range(1, 41))
    cancel = asyncio.Event()
    audit: list[dict[str, Any]] = []

    def on_result(result: DeleteResult) -> None:
        if result.selector_id == 5:
            cancel.set()

    report = await delete_selectors(
        Client(store), 1, list(range(1, 41)), context=CONTEXT, concurrency=1, audit=audit.append,
        on_result=on_result, cancel=cancel,
    )  # fmt: skip
    assert report.stopped is Stopped.CANCELLED
    assert [r.outcome for r in report.results[:5]] == [Outcome.DELETED] * 5
    assert {r.outcome for r in report.results[5:]} == {Outcome.SKIPPED}
    assert store.live == set(range(6, 41))
    assert audit[-1]["stopped"] == "cancelled" and audit[-1]["counts"] == {"deleted": 5, "skipped": 35}


@pytest.mark.anyio
async def test_resume_rechecks_with_get_and_never_deletes_twice() -> None:
    from svctui.ops.selector_delete import resume_run
    from svctui.store.audit_read import parse_audit

    store = SelectorStore(1, range(1, 11))
    first: list[dict[str, Any]] = []
    await delete_selectors(Client(store), 1, list(range(1, 11)), context=CONTEXT, concurrency=1, audit=first.append)
    # the log a killed process leaves: 1-3 settled, 4 and 5 sent (intent, no outcome), 6-10 never started
    cut = [r for r in first if r["event"] == "plan" or r.get("selector_id", 99) <= 3]
    cut += [r for r in first if r["event"] == "intent" and r["selector_id"] in (4, 5)]
    store.live = {5, 6, 7, 8, 9, 10}  # the server did delete 4 before the kill
    lines = [json.dumps(r | {"ts": "2026-11-24T00:00:00.000Z"}).encode() for r in cut]
    run = parse_audit(lines).last_interrupted()
    assert run is not None and run.unsettled_ids() == [4, 5, 6, 7, 8, 9, 10]
    deleted_before = set(range(1, 11)) - store.live
    second: list[dict[str, Any]] = []
    report = await resume_run(Client(store), run, context=CONTEXT, concurrency=2, audit=second.append)
    assert {r.selector_id: r.outcome for r in report.results} == {4: Outcome.ALREADY_GONE} | {
        i: Outcome.DELETED for i in range(5, 11)
    }
    assert not [r for r in second if r["event"] == "intent" and r["selector_id"] in deleted_before]
    assert second[0]["resumes"] == run.run_id and second[0]["ids"] == [4, 5, 6, 7, 8, 9, 10]
    assert not store.live
    after = parse_audit([json.dumps(r | {"ts": "2026-11-24T00:00:01.000Z"}).encode() for r in cut + second])
    assert after.last_interrupted() is None


def _answered(outcome: Outcome, status: int, message: str) -> DeleteResult:
    return DeleteResult(7, outcome, status=status, request_id="r", message=message)


@pytest.mark.parametrize(
    ("result", "line"),
    [
        (DeleteResult(7, Outcome.DELETED, status=204), "selector 7: deleted"),
        (_answered(Outcome.ALREADY_GONE, 404, "resource not found"),
         "selector 7: already gone (404 resource not found)"),
        (_answered(Outcome.REFUSED_DEFAULT, 403, "cannot delete a default selector"),
         "selector 7: refused: default selector (403 cannot delete a default selector)"),
        (_answered(Outcome.NOT_IN_TAG, 404, "selector is not part of asset group tag"),
         "selector 7: not part of tag (404 selector is not part of asset group tag)"),
        (_answered(Outcome.FAILED, 500, "HTTP 500 — boom (request id r)"),
         "selector 7: failed: HTTP 500 — boom (request id r)"),
        (_answered(Outcome.AUTH_FAILED, 401, "HTTP 401 — digest mismatch (request id r)"),
         "selector 7: failed: authentication: HTTP 401 — digest mismatch (request id r)"),
        (DeleteResult(7, Outcome.SKIPPED, message="not attempted after an authentication failure"),
         "selector 7: skipped: not attempted after an authentication failure"),
    ],
)  # fmt: skip
def test_every_outcome_prints_its_own_line(result: DeleteResult, line: str) -> None:
    assert result_line(result) == line


@pytest.mark.parametrize(
    ("counts", "code"),
    [
        ({Outcome.DELETED: 2, Outcome.ALREADY_GONE: 1}, ExitCode.OK),
        ({Outcome.DELETED: 1, Outcome.REFUSED_DEFAULT: 1}, ExitCode.NOT_FOUND),
        ({Outcome.NOT_IN_TAG: 1}, ExitCode.NOT_FOUND),
        ({Outcome.REFUSED_DEFAULT: 1, Outcome.FAILED: 1}, ExitCode.SERVER),
        ({Outcome.FAILED: 1, Outcome.AUTH_FAILED: 1, Outcome.SKIPPED: 3}, ExitCode.AUTH),
    ],
)
def test_delete_exit_code_takes_the_worst_outcome(counts: dict[Outcome, int], code: ExitCode) -> None:
    results = [DeleteResult(n, outcome) for n, outcome in enumerate(o for o, k in counts.items() for _ in range(k))]
    assert exit_code(DeleteReport("run", results)) == code


def test_a_cancelled_delete_exits_1_even_with_ids_not_part_of_the_tag() -> None:
    # docs/COMMANDS.md: the first Ctrl-C cancels, the rest is `skipped` (exit 1); a `not part of tag` (4) made a
    # script read the interrupted run as a finished one (newcomer walk)
    results = [DeleteResult(1, Outcome.DELETED), DeleteResult(2, Outcome.NOT_IN_TAG), DeleteResult(3, Outcome.SKIPPED)]
    assert exit_code(DeleteReport("run", results, stopped=Stopped.CANCELLED)) == ExitCode.ABORTED
    results.append(DeleteResult(4, Outcome.NO_ANSWER))  # a selector in doubt still says 5
    assert exit_code(DeleteReport("run", results, stopped=Stopped.CANCELLED)) == ExitCode.SERVER
