"""Issue 30 items 1-3 over real loopback: which answer of a DELETE (or its look-up) settles an id, stops a run or
counts as server trouble.

Each answer comes from `BadServer` as the real server (or a proxy in front of it) would send it; the engine and the
dry run read it through the real client.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import ApiStatusError
from svctui.api.signing import BearerAuth
from svctui.ops.outcomes import Outcome, Stopped
from svctui.ops.preview import Preview, preview_selectors
from svctui.ops.selector_delete import AuditContext, delete_selectors
from tests.support.bad_server import BadServer, Misbehaviour, answer
from tests.support.recording_server import JWT, SIGNATURE_PREFIX, SleepRecorder

CONTEXT = AuditContext(profile="lab", token_id=None, server="http://127.0.0.1", user="tester")
NO_SELECTORS = {"count": 0, "skip": 0, "limit": 1000, "data": {"selectors": []}}


def envelope(status: int, message: str) -> Misbehaviour:
    """The API's error envelope with one message."""
    return answer(status, {"http_status": status, "request_id": "r-1", "errors": [{"context": "", "message": message}]})


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as running:
        yield running


def client(server: BadServer) -> ApiClient:
    """A client of the bad server that does not retry (one request per id) and never really sleeps."""
    return ApiClient(server.base_url, BearerAuth(JWT), sleep=SleepRecorder(), max_retries=0)


async def run_over(server: BadServer, reply: Misbehaviour, ids: list[int]) -> tuple[Any, list[dict[str, Any]]]:
    """Delete `ids` one at a time, every DELETE answered with `reply`; the report and the audit lines."""
    server.enqueue(answer(200, NO_SELECTORS))
    server.default = reply
    audit: list[dict[str, Any]] = []
    async with client(server) as api:
        report = await delete_selectors(api, 1, ids, context=CONTEXT, concurrency=1, audit=audit.append)
    return report, audit


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (envelope(404, "resource not found"), Outcome.ALREADY_GONE),
        (envelope(404, "selector is not part of asset group tag"), Outcome.NOT_IN_TAG),
        (envelope(404, "id is malformed."), Outcome.FAILED),
        (envelope(404, "asset group tag resource not found for this user"), Outcome.FAILED),
        (answer(404, "<html><title>404 Resource not found</title></html>", "text/html"), Outcome.FAILED),
        (answer(404, "resource not found", "text/plain"), Outcome.FAILED),
        (answer(404, "selector is not part of asset group tag", "text/plain"), Outcome.FAILED),
    ],
    ids=["gone", "not-in-tag", "malformed-id", "other-message", "proxy-html", "proxy-text", "proxy-not-part"],
)
async def test_only_the_apis_own_404_settles_a_selector(bad: BadServer, reply: Misbehaviour, outcome: Outcome) -> None:
    """Item 1: `already gone` is settled and never retried, so only the API's `resource not found` may say it; a
    proxy's page or another 404 message is a failure a resume tries again."""
    report, audit = await run_over(bad, reply, [5, 6])
    assert [result.outcome for result in report.results] == [outcome, outcome]
    assert report.stopped is None
    assert [line["outcome"] for line in audit if line["event"] == "outcome"] == [str(outcome)] * 2
    assert report.results[0].status == 404
    if outcome is Outcome.FAILED:
        assert report.unsettled() == 2 and not report.results[0].ok


@pytest.mark.anyio
@pytest.mark.parametrize(
    "reply",
    [
        envelope(400, SIGNATURE_PREFIX + "no request date header"),
        envelope(400, SIGNATURE_PREFIX + "malformed signature header: illegal base64 data"),
        envelope(400, SIGNATURE_PREFIX + "Token ID is malformed."),
        envelope(400, "Unexpected authorization scheme: svcsignature."),
        envelope(400, "Expected only two components for the Authorization header."),
        envelope(401, "authentication is invalid"),
        envelope(403, SIGNATURE_PREFIX + "user disabled"),
        envelope(403, "not authorized"),
    ],
    ids=["400-no-date", "400-malformed-sig", "400-token-id", "400-scheme", "400-header", "401", "403-disabled", "403"],
)
async def test_a_refused_credential_stops_the_run_after_the_first_id(bad: BadServer, reply: Misbehaviour) -> None:
    """Item 2: 400s carrying the server's auth-failure messages and 403s not about a default selector stop the run
    (the rest skipped, unasked) instead of failing every id in turn."""
    report, _ = await run_over(bad, reply, [5, 6, 7])
    assert [result.outcome for result in report.results] == [Outcome.AUTH_FAILED, Outcome.SKIPPED, Outcome.SKIPPED]
    said = json.loads(reply.body)["errors"][0]["message"]
    status_line = f"HTTP {reply.status} {HTTPStatus(reply.status).phrase}"
    assert report.results[0].message.startswith(f"{status_line} — {said} (request id r-1)")
    assert report.stopped is Stopped.AUTH_FAILED
    assert sum(" DELETE " in f" {line}" for line in bad.requests) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (envelope(403, "cannot delete a default selector"), Outcome.REFUSED_DEFAULT),
        (envelope(400, "the request was malformed for this selector"), Outcome.FAILED),
        (envelope(409, "selector is in use"), Outcome.FAILED),
    ],
    ids=["403-default", "400-other", "409"],
)
async def test_a_refusal_about_the_selector_does_not_stop_the_run(
    bad: BadServer, reply: Misbehaviour, outcome: Outcome
) -> None:
    report, _ = await run_over(bad, reply, [5, 6, 7])
    assert [result.outcome for result in report.results] == [outcome] * 3
    assert report.stopped is None
    assert len(bad.requests) == 4  # the tag's list, then every id asked
    said = json.loads(reply.body)["errors"][0]["message"]
    if outcome is Outcome.FAILED:  # the status line, what the API said, its request id
        assert (
            report.results[0].message
            == f"HTTP {reply.status} {HTTPStatus(reply.status).phrase} — {said} (request id r-1)"
        )
    else:
        assert report.results[0].message == said


@pytest.mark.anyio
async def test_a_dry_run_stops_asking_a_server_it_cannot_reach(bad: BadServer) -> None:
    """Item 3: a connection error is server trouble: the first unanswered look-up stops the dry run, the rest are
    unchecked without a request each."""
    bad.default = Misbehaviour("hang_up")
    async with client(bad) as api:
        results = await preview_selectors(api, 1, [5, 6, 7], concurrency=1)
    assert [result.preview for result in results] == [Preview.UNCHECKED] * 3
    assert len(bad.requests) == 1
    assert results[1].message.startswith("not checked after: ")


@pytest.mark.anyio
async def test_a_dry_run_whose_lookup_is_refused_by_this_server_goes_on(bad: BadServer) -> None:
    """A 405 (a server without GET selector) is not trouble: the deletion would be tried, every id is asked."""
    bad.default = envelope(405, "method not allowed")
    async with client(bad) as api:
        results = await preview_selectors(api, 1, [5, 6], concurrency=1)
    assert [result.preview for result in results] == [Preview.UNKNOWN] * 2
    assert len(bad.requests) == 2


@pytest.mark.anyio
async def test_a_dry_run_this_user_may_not_read_asks_once_and_says_the_deletion_would_be_tried(bad: BadServer) -> None:
    """ETAC's 403 (`user does not have access to this resource`): reads are not this user's, DELETE is not gated.
    The first look-up says so; the rest are not asked (the same 403 each time) and say why."""
    bad.default = envelope(403, "user does not have access to this resource")
    seen: list[Any] = []
    async with client(bad) as api:
        results = await preview_selectors(api, 1, [5, 6, 7], concurrency=1, on_result=seen.append)
    assert len(bad.requests) == 1
    first = results[0].message
    assert first.startswith("HTTP 403 Forbidden — user does not have access to this resource (request id r-1)")
    assert [(r.selector_id, r.preview, r.selector, r.message) for r in results] == [
        (5, Preview.UNKNOWN, None, first),
        (6, Preview.UNKNOWN, None, f"not looked up: {first}"),
        (7, Preview.UNKNOWN, None, f"not looked up: {first}"),
    ]
    assert seen == results


@pytest.mark.anyio
async def test_a_dry_run_answered_by_a_proxys_page_says_it_was_not_the_api(bad: BadServer) -> None:
    """Not the API's answer (no error envelope): nothing was learnt about the selector."""
    bad.default = answer(418, "<html>\n<body>I'm a teapot\x1b[2J</body>\n</html>", "text/html")
    async with client(bad) as api:
        results = await preview_selectors(api, 1, [5], concurrency=1)
    assert (results[0].preview, results[0].selector) == (Preview.UNCHECKED, None)
    # the page's text on one line, its escape shown, never sent to the terminal
    assert results[0].message == "not an answer of the API (HTTP 418 I'm a Teapot — I'm a teapot␛[2J)"


def selector(selector_id: int, tag_id: int = 1, *, is_default: bool = False) -> Misbehaviour:
    """The API's answer to GET one selector."""
    record = {"id": selector_id, "asset_group_tag_id": tag_id, "name": f"sel {selector_id}", "is_default": is_default}
    return answer(200, {"data": {"selector": record | {"seeds": [{"type": 1, "value": "S-1-5-21-1"}]}}})


@pytest.mark.anyio
async def test_a_dry_run_says_what_a_deletion_would_do_to_each_id(bad: BadServer) -> None:
    answers = {
        5: selector(5),
        6: selector(6, is_default=True),
        7: selector(7, tag_id=2),
        8: envelope(404, "resource not found"),
        9: envelope(404, "selector is not part of asset group tag"),
        10: envelope(400, "selector lookups are not supported"),
        11: envelope(422, "unprocessable"),
        12: envelope(409, "selector is disabled"),
        13: envelope(404, "resource not found"),
    }
    bad.route = lambda line: answers[int(line.split()[1].rsplit("/", 1)[1])]
    seen: list[int] = []
    async with client(bad) as api:
        results = await preview_selectors(
            api, 1, list(answers), concurrency=2, on_result=lambda r: seen.append(r.selector_id), listed={8, 99}
        )
    assert sorted(seen) == list(answers) and len(bad.requests) == len(answers)
    assert [(r.selector_id, r.preview, r.selector.id if r.selector else None) for r in results] == [
        (5, Preview.WOULD_DELETE, 5),
        (6, Preview.WOULD_REFUSE, 6),
        (7, Preview.NOT_IN_TAG, 7),
        (8, Preview.GONE, None),
        (9, Preview.NOT_IN_TAG, None),
        (10, Preview.UNKNOWN, None),
        (11, Preview.UNCHECKED, None),  # 422 is not a refusal of the look-up itself (LOOKUP_REFUSALS)
        (12, Preview.UNCHECKED, None),
        (13, Preview.NOT_FOUND, None),
    ]
    assert [r.message for r in results[:3]] == ["", "", ""]
    assert (
        results[3].message == "resource not found" and results[4].message == "selector is not part of asset group tag"
    )
    assert results[5].message == "HTTP 400 Bad Request — selector lookups are not supported (request id r-1)"


@pytest.mark.anyio
@pytest.mark.parametrize("status", [500, 503, 429])
async def test_a_dry_run_stops_asking_a_failing_server(bad: BadServer, status: int) -> None:
    bad.default = envelope(status, "try later")
    seen: list[Any] = []
    async with client(bad) as api:
        results = await preview_selectors(api, 1, [5, 6], concurrency=1, on_result=seen.append)
    assert [result.preview for result in results] == [Preview.UNCHECKED] * 2
    assert [result.selector_id for result in results] == [5, 6] and seen == results
    assert len(bad.requests) == 1
    assert results[0].message.startswith(f"HTTP {status} ") and " — try later (request id r-1)" in results[0].message
    assert results[1].message == f"not checked after: {results[0].message}"


@pytest.mark.anyio
async def test_a_resume_settles_by_its_get_what_is_gone_elsewhere_or_unreadable(bad: BadServer) -> None:
    """A resumed run re-checks each id with GET: gone or under another tag is settled without a DELETE, a failed
    GET is a failure (tried again by the next resume), one still there is deleted."""
    gets = {
        5: envelope(404, "resource not found"),
        6: envelope(500, "database is down"),
        7: selector(7, tag_id=2),
        8: selector(8),
    }

    def route(line: str) -> Misbehaviour:
        method, target = line.split()[:2]
        selector_id = int(target.rsplit("/", 1)[1])
        return gets[selector_id] if method == "GET" else answer(204, "")

    bad.route = route
    audit: list[dict[str, Any]] = []
    async with client(bad) as api:
        report = await delete_selectors(
            api, 1, list(gets), context=CONTEXT, concurrency=1, records={}, resumes="old", audit=audit.append
        )
    assert [(r.selector_id, r.outcome, r.status, r.message) for r in report.results] == [
        (5, Outcome.ALREADY_GONE, 404, "re-checked with GET: resource not found"),
        (6, Outcome.FAILED, 500, "could not re-check with GET: HTTP 500 Internal Server Error — database is down "
         "(request id r-1)"),
        (7, Outcome.NOT_IN_TAG, 200, "re-checked with GET: under another tag"),
        (8, Outcome.DELETED, 204, ""),
    ]  # fmt: skip
    assert [line.split()[0] for line in bad.requests] == ["GET", "GET", "GET", "GET", "DELETE"]
    assert [line["event"] for line in audit] == ["plan", "outcome", "outcome", "outcome", "intent", "outcome", "end"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("reply", "status", "answered", "words"),
    [
        (Misbehaviour("hang_up"), None, False, "Server disconnected"),
        (answer(200, "<html><title>Sign in</title></html>", "text/html"), 200, True, "answered, but not by the API"),
        (answer(500, "<html><title>Oops</title></html>", "text/html"), 500, True, "not answered by the API (a proxy?)"),
        (answer(502, "<html><title>Bad gateway</title></html>", "text/html"), 502, True, "(a proxy?)"),
        (
            Misbehaviour("short", status=200, body=b'{"data": '),
            200,
            False,
            "(HTTP 200) was cut short",
        ),  # the status came, the body not
    ],
    ids=["no-answer", "html-200", "proxy-500", "proxy-502", "cut-short"],
)
async def test_an_answer_that_is_not_the_apis_leaves_the_id_in_doubt(
    bad: BadServer, reply: Misbehaviour, status: int | None, answered: bool, words: str
) -> None:
    report, audit = await run_over(bad, reply, [5])
    result = report.results[0]
    assert (result.outcome, result.status, result.request_id, result.answered) == (
        Outcome.NO_ANSWER,
        status,
        None,
        answered,
    )
    assert words in result.message and "\n" not in result.message
    assert [line["outcome"] for line in audit if line["event"] == "outcome"] == ["no answer"]


@pytest.mark.anyio
async def test_a_404_to_a_delete_sent_again_after_a_lost_answer_is_in_doubt(bad: BadServer) -> None:
    bad.enqueue(answer(200, NO_SELECTORS), Misbehaviour("hang_up"), envelope(404, "resource not found"))
    async with ApiClient(bad.base_url, BearerAuth(JWT), sleep=SleepRecorder(), max_retries=1) as api:
        report = await delete_selectors(api, 1, [5], context=CONTEXT, concurrency=1, audit=lambda line: None)
    result = report.results[0]
    assert (result.outcome, result.status, result.request_id, result.answered) == (Outcome.NO_ANSWER, 404, "r-1", True)
    assert result.message == (
        "gone when sent again, after an attempt the server may have done got no answer: this request may have done "
        "it (resource not found)"
    )


@pytest.mark.anyio
async def test_a_refusal_naming_a_default_selector_is_one_only_as_a_403(bad: BadServer) -> None:
    report, _ = await run_over(bad, envelope(400, "cannot delete a default selector"), [5])
    assert report.results[0].outcome is Outcome.FAILED and not report.results[0].answered
    assert report.results[0].message == "HTTP 400 Bad Request — cannot delete a default selector (request id r-1)"
    report, _ = await run_over(bad, envelope(403, "cannot delete a default selector"), [5])
    assert report.results[0].outcome is Outcome.REFUSED_DEFAULT and report.results[0].message == (
        "cannot delete a default selector"
    )


@pytest.mark.anyio
async def test_the_apis_messages_are_told_together() -> None:
    """An error envelope with two messages: both are kept, in order (the first settles the id as gone)."""
    errors = [{"context": "", "message": "resource not found"}, {"context": "selector", "message": "selector 5"}]
    body = {"http_status": 404, "request_id": "r-1", "errors": errors}
    with BadServer() as bad:
        report, _ = await run_over(bad, answer(404, body), [5])
    assert (report.results[0].outcome, report.results[0].message) == (
        Outcome.ALREADY_GONE,
        "resource not found; selector 5",
    )


@pytest.mark.anyio
async def test_a_refused_credential_on_the_tags_list_stops_before_anything_is_written(bad: BadServer) -> None:
    bad.enqueue(envelope(401, "authentication is invalid"))
    audit: list[dict[str, Any]] = []
    async with client(bad) as api:
        with pytest.raises(ApiStatusError) as refused:
            await delete_selectors(api, 1, [5], context=CONTEXT, audit=audit.append)
    assert refused.value.status == 401 and audit == [] and len(bad.requests) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(
    "refusal",
    [envelope(403, "user does not have access to this resource"), envelope(500, "an internal error has occurred")],
    ids=["etac", "500"],
)
async def test_a_tag_list_that_cannot_be_had_gets_each_record_by_get(bad: BadServer, refusal: Misbehaviour) -> None:
    """Not a bad credential (ETAC keeps reads from this user; a 500): the run goes on, each selector looked up with
    GET before its DELETE — gone: settled, nothing sent; found: its record in the intent; unreadable: DELETE anyway."""
    answers = {
        "GET /api/v2/asset-group-tags/1/selectors/5": selector(5),
        "GET /api/v2/asset-group-tags/1/selectors/6": envelope(404, "resource not found"),
        "GET /api/v2/asset-group-tags/1/selectors/7": envelope(500, "an internal error has occurred"),
    }
    bad.route = lambda line: answers.get(line.rsplit(" ", 1)[0])
    bad.enqueue(refusal)  # the tag's list
    bad.default = answer(204, b"")
    audit: list[dict[str, Any]] = []
    async with client(bad) as api:
        report = await delete_selectors(api, 1, [5, 6, 7], context=CONTEXT, concurrency=1, audit=audit.append)
    assert [line.rsplit(" ", 1)[0] for line in bad.requests[1:]] == [
        "GET /api/v2/asset-group-tags/1/selectors/5",
        "DELETE /api/v2/asset-group-tags/1/selectors/5",
        "GET /api/v2/asset-group-tags/1/selectors/6",
        "GET /api/v2/asset-group-tags/1/selectors/7",
        "DELETE /api/v2/asset-group-tags/1/selectors/7",
    ]
    assert [(r.selector_id, r.outcome, r.name) for r in report.results] == [
        (5, Outcome.DELETED, ""), (6, Outcome.ALREADY_GONE, ""), (7, Outcome.DELETED, "")
    ]  # fmt: skip
    intents = {line["selector_id"]: line["selector"] for line in audit if line["event"] == "intent"}
    assert sorted(intents) == [5, 7] and intents[5]["name"] == "sel 5" and intents[7] is None


@pytest.mark.anyio
async def test_a_caller_whose_own_list_failed_gets_each_record_by_get_and_no_list(bad: BadServer) -> None:
    """`list_failed`: the caller (the CLI, the dashboard) could not list the tag: not asked again; each selector is
    looked up with GET before its DELETE."""
    bad.route = lambda line: selector(5) if line.startswith("GET ") else None
    bad.default = answer(204, b"")
    audit: list[dict[str, Any]] = []
    async with client(bad) as api:
        report = await delete_selectors(api, 1, [5], context=CONTEXT, list_failed=True, audit=audit.append)
    assert [line.rsplit(" ", 1)[0] for line in bad.requests] == [
        "GET /api/v2/asset-group-tags/1/selectors/5",
        "DELETE /api/v2/asset-group-tags/1/selectors/5",
    ]
    assert report.results[0].outcome is Outcome.DELETED
    assert next(line for line in audit if line["event"] == "intent")["selector"]["name"] == "sel 5"
