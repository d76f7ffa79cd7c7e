"""Issue 30: how the deletion engine reads a tag's selectors (`fetch_selector_records`: pages of 1,000, never one
GET per selector, and an end even on a server whose count or paging is wrong) and what its report and outcome lines
say when the log fails, a run is cancelled at its very end, or a selector is an extension's — over real loopback to
`RecordingServer`, whose every request is checked on the wire."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from svctui.ops.audit_lines import AuditContext
from svctui.ops.delete_run import delete_selectors, fetch_selector_records
from svctui.ops.outcomes import DeleteResult, Outcome, Stopped
from svctui.store.errors import StoreError
from tests.support.recording_server import Recorded, RecordingServer, Reply, client_for


def pages_asked(server: RecordingServer) -> list[tuple[str | None, str | None]]:
    """(skip, limit) of every list request the server received."""
    return [(request.param("skip"), request.param("limit")) for request in server.requests]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("count", "pages"),
    [
        (2500, [("0", "1000"), ("1000", "1000"), ("2000", "1000")]),
        (2000, [("0", "1000"), ("1000", "1000")]),  # the last page full: no empty page asked after it
        (3, [("0", "1000")]),
    ],
)
async def test_every_selector_is_read_in_pages_of_a_thousand(count: int, pages: list[tuple[str, str]]) -> None:
    with RecordingServer(selectors=count) as server:
        async with client_for(server, max_retries=0) as api:
            found = await fetch_selector_records(api, 1)
        assert pages_asked(server) == pages
    assert list(found) == list(range(1, count + 1))
    assert all(found[selector_id].id == selector_id for selector_id in (1, count))


@pytest.mark.anyio
async def test_a_count_the_pages_never_reach_ends_at_the_first_empty_page(server: RecordingServer) -> None:
    server.count_override = 10  # says 10 selectors, has 4
    async with client_for(server, max_retries=0) as api:
        found = await fetch_selector_records(api, 1)
    assert list(found) == [1, 2, 3, 4]
    assert pages_asked(server) == [("0", "1000"), ("4", "1000")]


@pytest.mark.anyio
async def test_a_server_that_ignores_skip_ends_at_the_first_page_with_nothing_new(server: RecordingServer) -> None:
    """Each page is the first again (a proxy dropping the query): the second one brings nothing new, the end."""
    first_page = Reply(200, {"count": 10, "skip": 0, "limit": 1000, "data": {"selectors": server.selectors[1]}})

    def route(recorded: Recorded) -> Reply:
        return first_page

    server.route = route  # type: ignore[method-assign]
    async with client_for(server, max_retries=0) as api:
        found = await fetch_selector_records(api, 1)
    assert list(found) == [1, 2, 3, 4]
    assert pages_asked(server) == [("0", "1000"), ("4", "1000")]


CONTEXT = AuditContext(profile="lab", token_id=None, server="http://127.0.0.1", user="tester")


def deletes(server: RecordingServer) -> list[str]:
    """The paths of the DELETEs the server received."""
    return [request.path.rsplit("/", 1)[1] for request in server.requests if request.method == "DELETE"]


@pytest.mark.anyio
async def test_an_outcome_the_log_did_not_take_is_reported_unlogged_and_an_unwritten_intent_sends_nothing(
    server: RecordingServer,
) -> None:
    written: list[dict[str, Any]] = []

    def sink(line: dict[str, Any]) -> None:
        if line["event"] == "outcome" and line["selector_id"] == 3:
            raise StoreError("cannot append to the audit log: disk full")
        written.append(line)

    async with client_for(server, max_retries=0) as api:
        report = await delete_selectors(api, 1, [2, 3, 4], context=CONTEXT, concurrency=1, audit=sink)
    assert deletes(server) == ["2", "3"]  # 4's intent was never tried: the log had failed
    assert report.unlogged == frozenset({3}) and report.planned is True
    assert report.stopped is Stopped.AUDIT_NOT_WRITABLE
    assert report.audit_error == "cannot append to the audit log: disk full"
    assert [(r.selector_id, r.outcome) for r in report.results] == [
        (2, Outcome.DELETED), (3, Outcome.DELETED), (4, Outcome.SKIPPED)
    ]  # fmt: skip
    assert report.unsettled() == 2  # 3's deletion is not in the log: a resume takes it up again

    def no_intents(line: dict[str, Any]) -> None:
        if line["event"] == "intent":
            raise StoreError("cannot append to the audit log: read-only file system")

    async with client_for(server, max_retries=0) as api:
        refused = await delete_selectors(api, 1, [4], context=CONTEXT, audit=no_intents)
    assert deletes(server) == ["2", "3"] and refused.unlogged == frozenset() and refused.planned is True
    assert [r.outcome for r in refused.results] == [Outcome.SKIPPED]


@pytest.mark.anyio
async def test_a_plan_the_log_did_not_take_sends_nothing_and_says_so(server: RecordingServer) -> None:
    def nothing(line: dict[str, Any]) -> None:
        raise StoreError("cannot append to the audit log: disk full")

    async with client_for(server, max_retries=0) as api:
        report = await delete_selectors(api, 1, [2], context=CONTEXT, audit=nothing)
    assert report.planned is False and deletes(server) == []


@pytest.mark.anyio
async def test_a_cancel_after_the_last_id_is_not_a_cancelled_run(server: RecordingServer) -> None:
    cancel = asyncio.Event()

    def last(result: DeleteResult) -> None:
        if result.selector_id == 3:
            cancel.set()

    async with client_for(server, max_retries=0) as api:
        report = await delete_selectors(
            api, 1, [2, 3], context=CONTEXT, concurrency=1, cancel=cancel, on_result=last, audit=lambda line: None
        )
    assert report.stopped is None and [r.outcome for r in report.results] == [Outcome.DELETED] * 2


@pytest.mark.anyio
async def test_an_extension_owned_selector_keeps_its_owner_in_the_outcome_line(server: RecordingServer) -> None:
    server.selectors[1][1] |= {"rule_key": "tier-zero-dcs", "extension_id": 3}
    audit: list[dict[str, Any]] = []
    async with client_for(server, max_retries=0) as api:
        await delete_selectors(api, 1, [2, 3], context=CONTEXT, concurrency=1, audit=audit.append)
    outcomes = {line["selector_id"]: line for line in audit if line["event"] == "outcome"}
    assert (outcomes[2]["rule_key"], outcomes[2]["extension_id"]) == ("tier-zero-dcs", 3)
    assert "rule_key" not in outcomes[3] and "extension_id" not in outcomes[3]


@pytest.mark.anyio
async def test_nothing_escapes_a_worker_a_bug_on_the_way_is_that_selectors_failure(server: RecordingServer) -> None:
    """The engine's promise (no exception escapes a worker): a writer that breaks on an intent with something other
    than a log error fails that selector with what it said, sends nothing for it, and the run goes on."""
    audit: list[dict[str, Any]] = []

    def sink(line: dict[str, Any]) -> None:
        if line["event"] == "intent" and line["selector_id"] == 2:
            raise TypeError("a bug in the writer")
        audit.append(line)

    async with client_for(server, max_retries=0) as api:
        report = await delete_selectors(api, 1, [2, 3], context=CONTEXT, concurrency=1, audit=sink)
    assert deletes(server) == ["3"]
    assert [(r.selector_id, r.outcome, r.message) for r in report.results] == [
        (2, Outcome.FAILED, "TypeError: a bug in the writer"), (3, Outcome.DELETED, "")
    ]  # fmt: skip
    failed = next(line for line in audit if line["event"] == "outcome" and line["selector_id"] == 2)
    assert (failed["outcome"], failed["message"], failed["status"]) == (
        "failed",
        "TypeError: a bug in the writer",
        None,
    )
