"""The bulk selector delete engine: bounded concurrency, outcome classification, audit per attempt, auth stop."""

from __future__ import annotations

import asyncio
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
    ServerError,
    Unauthorized,
)
from svctui.api.models import Selector
from svctui.commands.common import ExitCode
from svctui.commands.delete import exit_code, result_line
from svctui.ops.selector_delete import (
    AuditContext,
    DeleteReport,
    DeleteResult,
    Outcome,
    Preview,
    delete_selectors,
    preview_selectors,
)
from svctui.store.errors import StoreError
from tests.unit.test_layers import BLOCKER

CONTEXT = AuditContext(profile="lab", base_url="https://bh.example.com")


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

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        if selector_id in self.fail_get:
            raise self.fail_get[selector_id]
        if selector_id == self.other_tag:
            return Selector(id=selector_id, asset_group_tag_id=tag_id + 1, name="elsewhere")
        if selector_id not in self.live:
            raise NotFound(404, ["resource not found"], request_id="r-get")
        return Selector(
            id=selector_id, asset_group_tag_id=tag_id, name=f"sel {selector_id}", is_default=selector_id == self.default
        )

    async def delete(self, tag_id: int, selector_id: int) -> None:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            if selector_id in self.fail:
                raise self.fail[selector_id]
            if selector_id == self.other_tag:
                raise NotFound(404, ["selector is not part of asset group tag"], request_id="r-other")
            if selector_id == self.default:
                raise Forbidden(403, ["cannot delete a default selector"], request_id="r-default")
            if selector_id not in self.live:
                raise NotFound(404, ["resource not found"], request_id="r-gone")
            self.live.discard(selector_id)
        finally:
            self.in_flight -= 1


class Client:
    def __init__(self, store: SelectorStore) -> None:
        self.selectors = store


@pytest.mark.anyio
@pytest.mark.parametrize("concurrency", [1, 3, 16])
async def test_concurrency_is_bounded(concurrency: int) -> None:
    store = SelectorStore(1, range(1, 41))
    report = await delete_selectors(
        Client(store), 1, list(range(1, 41)), context=CONTEXT, concurrency=concurrency, audit=lambda record: None
    )
    assert store.max_in_flight == concurrency
    assert report.counts[Outcome.DELETED] == 40
    assert not store.live


@pytest.mark.anyio
async def test_every_outcome_and_an_audit_line_per_attempt() -> None:
    store = SelectorStore(3, range(1, 10), default=1, other_tag=50)
    store.fail[4] = ServerError(500, ["request timed out"], request_id="r-500")
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
        5: Outcome.FAILED,
        50: Outcome.NOT_IN_TAG,
    }
    assert [r.selector_id for r in report.results] == ids
    assert sorted(seen) == sorted(ids)
    assert len(audit) == 6
    by_selector = {record["selector"]: record for record in audit}
    assert by_selector[4]["status"] == 500 and by_selector[4]["request_id"] == "r-500"
    assert "request timed out" in by_selector[4]["message"]
    assert by_selector[5]["status"] is None and "connection refused" in by_selector[5]["message"]
    assert by_selector[3] | {"time": "t"} == {
        "time": "t",
        "profile": "lab",
        "base_url": "https://bh.example.com",
        "tag": 3,
        "selector": 3,
        "outcome": "deleted",
        "status": 204,
        "request_id": None,
        "message": "",
    }
    assert report.summary() == "1 deleted, 1 already gone, 1 refused: default selector, 1 not part of tag, 2 failed"


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
    assert len(audit) == 100 - counts[Outcome.SKIPPED]
    assert all(record["outcome"] != "skipped" for record in audit)


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
    store.fail_get[3] = MethodNotAllowed(405, ["method not allowed"], request_id="r-405")
    results = await preview_selectors(Client(store), 2, [2, 3])
    assert [r.preview for r in results] == [Preview.WOULD_DELETE, Preview.UNKNOWN]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "error",
    [
        ApiConnectionError("cannot reach https://bh.example.com: connection refused"),
        ServerError(500, ["an internal error has occurred"], request_id="r-500"),
        ServerError(503, ["Service Unavailable"], request_id="r-503"),
        RateLimited(429, ["Limit exceeded"]),
        Unauthorized(401, ["digest validation failed"], request_id="r-401"),
    ],
)
async def test_preview_that_could_not_ask_fails_instead_of_guessing(error: Exception) -> None:
    store = SelectorStore(2, range(1, 6))
    store.fail_get[3] = error
    with pytest.raises(type(error)):
        await preview_selectors(Client(store), 2, [1, 2, 3, 4], concurrency=1)
    assert store.live == set(range(1, 6))


@pytest.mark.anyio
async def test_audit_failure_stops_the_run_and_says_why() -> None:
    store = SelectorStore(1, range(1, 51))
    written: list[dict[str, Any]] = []
    seen: list[DeleteResult] = []

    def sink(record: dict[str, Any]) -> None:
        if len(written) == 2:
            raise StoreError("cannot append to the audit log '/x/audit.jsonl': No space left on device")
        written.append(record)

    report = await delete_selectors(
        Client(store), 1, list(range(1, 51)), context=CONTEXT, concurrency=1, audit=sink, on_result=seen.append
    )
    assert report.audit_error == "cannot append to the audit log '/x/audit.jsonl': No space left on device"
    assert [r.outcome for r in report.results[:3]] == [Outcome.DELETED] * 3  # the third is deleted, just unrecorded
    assert {r.outcome for r in report.results[3:]} == {Outcome.SKIPPED}
    assert report.results[3].message == "not attempted after the audit log could not be written"
    assert len(seen) == 50  # every outcome is still reported
    assert store.live == set(range(4, 51))
    assert exit_code(report) == ExitCode.SERVER


@pytest.mark.parametrize(
    ("result", "line"),
    [
        (DeleteResult(7, Outcome.DELETED, 204), "selector 7: deleted"),
        (DeleteResult(7, Outcome.ALREADY_GONE, 404, "r", "resource not found"),
         "selector 7: already gone (404 resource not found)"),
        (DeleteResult(7, Outcome.REFUSED_DEFAULT, 403, "r", "cannot delete a default selector"),
         "selector 7: refused: default selector (403 cannot delete a default selector)"),
        (DeleteResult(7, Outcome.NOT_IN_TAG, 404, "r", "selector is not part of asset group tag"),
         "selector 7: not part of tag (404 selector is not part of asset group tag)"),
        (DeleteResult(7, Outcome.FAILED, 500, "r", "HTTP 500 — boom (request id r)"),
         "selector 7: failed: HTTP 500 — boom (request id r)"),
        (DeleteResult(7, Outcome.AUTH_FAILED, 401, "r", "HTTP 401 — digest mismatch (request id r)"),
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
    assert exit_code(DeleteReport(results)) == code
