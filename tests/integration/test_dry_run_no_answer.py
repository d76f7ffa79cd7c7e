"""Issue 25: a dry run whose look-ups got no answer of the API never says "would be deleted".

A dry run said "2 of 2 would be deleted", exit 0, when every look-up got the router's plain `404 page not found`,
a 418, or a 404 whose JSON envelope was cut off: none of them is the API saying anything about the selector. They are
`could not be checked`, and the dry run exits 5 as documented.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.bad_server import TAGS, BadServer, Misbehaviour, answer
from tests.support.cli import invoke
from tests.support.recording_server import JWT

CUT_ENVELOPE = b'{"http_status": 404, "request_id": "r1", "errors": [{"context": "", "mess'


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as running:
        yield running


@pytest.mark.parametrize(
    "reply",
    [
        answer(404, "404 page not found", content_type="text/plain; charset=utf-8"),
        answer(418, "I'm a teapot", content_type="text/plain; charset=utf-8"),
        answer(418, {"http_status": 418, "request_id": "r2", "errors": [{"context": "", "message": "teapot"}]}),
        answer(404, CUT_ENVELOPE),
        Misbehaviour("short", status=404, body=CUT_ENVELOPE),
    ],
    ids=["router-404", "plain-418", "api-418", "cut-404-envelope", "short-404"],
)
def test_a_dry_run_whose_lookups_got_no_api_answer_exits_5(bad: BadServer, reply: Misbehaviour) -> None:
    bad.enqueue(answer(200, TAGS))
    bad.default = reply
    env = {"SVCTUI_BASE_URL": bad.base_url, "SVCTUI_JWT": JWT}
    result = invoke(["selectors", "delete", "1", "5", "6", "--dry-run"], env=env)
    assert result.exit_code == 5, result.stdout + result.stderr
    assert "would be deleted" not in result.stderr and "would try" not in result.stdout
    assert "2 of 2 could not be checked (5, 6)" in result.stderr
