"""Client faults seen from the command line: each is a clear message on stderr and exit 5, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from svctui.store.settings import Settings, save_settings
from tests.support.bad_server import BadServer, Misbehaviour, answer
from tests.support.cli import invoke

TOKEN_ID = "6f1e2d3c-4b5a-4968-8776-655443322110"
ENV = {"SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": "c2VjcmV0LWtleS1mb3ItdGVzdHMtb25seQ=="}


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as running:
        yield running


def run(bad: BadServer, *args: str) -> tuple[int, str, str]:
    result = invoke(list(args), env={"SVCTUI_BASE_URL": bad.base_url, **ENV})
    return result.exit_code, result.stdout, result.stderr


def test_over_the_size_cap_setting_is_exit_5(bad: BadServer) -> None:
    save_settings(Settings(max_response_mb=1))
    bad.default = Misbehaviour("short", body=b'{"count": 0', declared=2 * 1024 * 1024)
    code, out, err = run(bad, "events", "list")
    assert code == 5, err
    assert "over the 1 MiB limit" in err and "max_response_mb" in err
    assert "Traceback" not in err and out == ""
    assert len(bad.requests) == 1


def test_an_empty_object_to_a_list_is_exit_5_not_no_events(bad: BadServer) -> None:
    bad.default = answer(200, "{}")
    code, out, err = run(bad, "events", "list", "-o", "json")
    assert code == 5, (out, err)
    assert "Field required" in err
    assert "[]" not in out


def test_an_answer_cut_short_is_exit_5_and_says_so(bad: BadServer) -> None:
    bad.default = Misbehaviour("short", body=b'{"data": {"tags": [')
    code, _, err = run(bad, "tags", "list")
    assert code == 5, err
    assert "was cut short" in err and "cannot reach" not in err
    assert len(bad.requests) == 3


def test_an_all_listing_cut_short_by_an_error_says_how_far_it_got(bad: BadServer) -> None:
    first = [{"id": 1, "client_id": "c"}, {"id": 2, "client_id": "c"}]
    bad.enqueue(answer(200, {"count": 6, "skip": 0, "limit": 2, "data": first}))
    bad.default = answer(500, {"http_status": 500, "request_id": "r-1", "errors": [{"context": "", "message": "boom"}]})
    code, out, err = run(bad, "events", "list", "--all", "--page-size", "2", "-o", "jsonl")
    assert code == 5, err
    assert [line for line in out.splitlines() if line] and len(out.splitlines()) == 2
    assert "the output is cut short: 2 events were written before the error below; --skip 2 continues" in err
    assert err.index("cut short") < err.index("500"), "the note comes before the error it explains"
    whole = run(bad, "events", "list", "--limit", "2", "-o", "jsonl")  # one page: nothing to say about pages
    assert "cut short" not in whole[2]
