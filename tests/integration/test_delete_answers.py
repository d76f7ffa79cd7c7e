"""Issue 12 items 1-2 over real loopback: only a real answer of the API is an outcome.

A DELETE answered 200 with a body that is not the API's is `failed`, never `deleted`; a DELETE sent but not
answered is `no answer`; a dry run whose lookups got no real answer exits 5 naming the ids.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import ResponseShapeError, ResponseTooLarge
from svctui.api.resources import Deletion
from svctui.api.signing import BearerAuth
from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.ops.selector_delete import AuditContext, Outcome, delete_selectors
from svctui.store.audit import audit_path
from tests.support.bad_server import TAGS, BadServer, Misbehaviour, answer
from tests.support.cli import DemoLike, copy_template, demo_env, invoke
from tests.support.recording_server import JWT, SleepRecorder

MIB = 1024 * 1024
SIGN_IN_PAGE = "<html><head><title>Sign in - Corp SSO</title></head><body><form>…</form></body></html>"
CONTEXT = AuditContext(profile="lab", token_id=None, server="http://127.0.0.1", user="tester")
GONE = {"http_status": 404, "request_id": "r9", "errors": [{"context": "", "message": "resource not found"}]}
NO_SELECTORS = {"count": 0, "skip": 0, "limit": 1000, "data": {"selectors": []}}


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as running:
        yield running


def client(server: BadServer, **kwargs: Any) -> ApiClient:
    """A client of the bad server whose retries sleep through a recorder (no real waiting)."""
    kwargs.setdefault("sleep", SleepRecorder())
    return ApiClient(server.base_url, BearerAuth(JWT), **kwargs)


@pytest.mark.anyio
@pytest.mark.parametrize(
    "reply",
    [
        answer(200, '{"data": {"selector": {"id": 2, "na'),  # malformed JSON
        answer(200, SIGN_IN_PAGE, "text/html"),  # a proxy's sign-in page
        answer(200, '{"data": 5}'),  # wrong types
        answer(200, "[]"),
        answer(200, '"deleted"'),
        answer(200, {"http_status": 404, "request_id": "r", "errors": [{"context": "", "message": "not found"}]}),
        answer(202, ""),  # a success, but not one DELETE gives
    ],
    ids=["malformed", "html", "wrong-types", "array", "string", "error-envelope", "202"],
)
async def test_a_success_that_is_not_the_apis_answer_is_not_a_deletion(bad: BadServer, reply: Misbehaviour) -> None:
    bad.default = reply
    async with client(bad) as api:
        with pytest.raises(ResponseShapeError) as info:
            await api.selectors.delete(1, 2)
    assert info.value.status == reply.status
    assert "nothing confirms the deletion" in str(info.value)
    assert len(bad.requests) == 1  # answered: never sent again


@pytest.mark.anyio
async def test_whitespace_past_the_size_cap_is_not_a_deletion(bad: BadServer) -> None:
    bad.default = Misbehaviour("chunked_big", status=200)
    async with client(bad, max_response_bytes=MIB) as api:
        with pytest.raises(ResponseTooLarge):
            await api.selectors.delete(1, 2)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("reply", "status"),
    [
        (answer(204, ""), 204),
        (answer(200, ""), 200),
        (answer(200, "  \n"), 200),
        (answer(200, '{"data": null}'), 200),
        (answer(200, '{"data": {}}'), 200),
    ],
    ids=["204", "200-empty", "200-blank", "200-data-null", "200-data-object"],
)
async def test_204_or_an_empty_or_enveloped_200_is_a_deletion(bad: BadServer, reply: Misbehaviour, status: int) -> None:
    bad.default = reply
    async with client(bad) as api:
        assert await api.selectors.delete(1, 2) == Deletion(status, None)


@pytest.mark.anyio
async def test_the_engine_records_each_kind_of_answer_truthfully(bad: BadServer) -> None:
    bad.enqueue(
        answer(200, NO_SELECTORS),  # the tag's list, fetched once
        answer(204, ""),
        answer(200, SIGN_IN_PAGE, "text/html"),
        Misbehaviour("short", status=200, body=b'{"data": '),  # cut short: sent, never fully answered
        Misbehaviour("reset", status=200, body=b'{"data": '),  # reset mid-answer
        answer(404, GONE),
    )
    audit: list[dict[str, Any]] = []
    async with client(bad, max_retries=0) as api:
        report = await delete_selectors(api, 1, [1, 2, 3, 4, 5], context=CONTEXT, concurrency=1, audit=audit.append)
    # a 200 that is not the API's is not a deletion, nor a failure: the server behind it may have done it (in doubt)
    assert [r.outcome for r in report.results] == [
        Outcome.DELETED,
        Outcome.NO_ANSWER,
        Outcome.NO_ANSWER,
        Outcome.NO_ANSWER,
        Outcome.ALREADY_GONE,
    ]
    assert report.results[1].status == 200 and "Sign in - Corp SSO" in report.results[1].message
    assert "whether it was done is not known" in report.results[1].message
    outcomes = [line["outcome"] for line in audit if line["event"] == "outcome"]
    assert outcomes == ["deleted", "no answer", "no answer", "no answer", "already gone"]
    assert [line["event"] for line in audit] == ["plan"] + ["intent", "outcome"] * 5 + ["end"]


@pytest.fixture
def malformed_server(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoLike]:
    faults = Faults(kinds={"malformed": 1.0})
    db_path = copy_template(demo_template_db, tmp_path_factory)
    with DemoServer(faults=faults, db_path=db_path, rate_limit=0) as demo:
        yield demo


def _audit() -> list[dict[str, Any]]:
    return [json.loads(line) for line in audit_path().read_text().splitlines()]


def test_delete_against_a_malformed_server_leaves_every_id_in_doubt_with_exit_5(malformed_server: DemoLike) -> None:
    """Issue 12 must-show, `demo-server --faults malformed:1.0`: exit 5, nothing said deleted. Issue 12 asked for
    `failed`; since the adversarial audit of 2026-11-26 a 200 that is not the API's is `no answer` (in doubt): the
    server behind it may have deleted, and `failed` made the resume's GET call it `already gone`, beyond restore."""
    env = demo_env(malformed_server)
    result = invoke(["selectors", "delete", "1", "5", "6", "7", "--yes"], env=env)
    assert result.exit_code == 5, result.stdout + result.stderr
    assert [line.split(":")[1].strip() for line in result.stdout.splitlines()] == ["no answer"] * 3
    assert ": deleted" not in result.stdout
    outcomes = [line for line in _audit() if line["event"] == "outcome"]
    assert sorted((line["selector_id"], line["outcome"], line["status"]) for line in outcomes) == [
        (5, "no answer", 200),
        (6, "no answer", 200),
        (7, "no answer", 200),
    ]
    assert _audit()[-1]["counts"] == {"no answer": 3}


def test_dry_run_against_a_malformed_server_exits_5_naming_the_ids(malformed_server: DemoLike) -> None:
    result = invoke(["selectors", "delete", "1", "5", "6", "--dry-run"], env=demo_env(malformed_server))
    assert result.exit_code == 5, result.stdout + result.stderr
    assert "would delete" not in result.stdout and "would be deleted" not in result.stderr
    assert "2 of 2 could not be checked (5, 6)" in result.stderr
    assert "selector 5: could not be checked" in result.stdout


@pytest.mark.parametrize(
    "reply",
    [
        answer(302, ""),
        Misbehaviour("short", status=200, body=b'{"data": {"selector": '),
    ],
    ids=["302", "cut-short"],
)
def test_dry_run_whose_lookups_got_no_real_answer_exits_5(bad: BadServer, reply: Misbehaviour) -> None:
    reply.headers.update({"Location": "https://sso.example.com/login"} if reply.status == 302 else {})
    bad.enqueue(answer(200, TAGS))
    bad.default = reply
    env = {"SVCTUI_BASE_URL": bad.base_url, "SVCTUI_JWT": JWT}
    result = invoke(["selectors", "delete", "1", "5", "--dry-run"], env=env)
    assert result.exit_code == 5, result.stdout + result.stderr
    assert "1 of 1 could not be checked (5)" in result.stderr
    assert "would be deleted" not in result.stderr
