"""Exit codes and error messages of the read commands: 2 bad input, 3 authentication, 4 not found, 5 server."""

from __future__ import annotations

import os
import re
import select
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from tests.support.cli import (
    SVCTUI_BIN,
    DemoLike,
    connection_attempted,
    copy_template,
    demo_env,
    invoke,
    run_binary,
    silent_listener,
)

TOKEN_ID = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


@pytest.fixture(scope="module")
def failing_server(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoLike]:
    """A demo server that answers every authenticated request with the 500 envelope."""
    with DemoServer(
        faults=Faults(error_rate=1.0), db_path=copy_template(demo_template_db, tmp_path_factory), rate_limit=0
    ) as demo:
        yield demo


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["events", "list", "-f", "colour=eq:red"], ["colour", "filter columns", "rrule"]),
        (["events", "list", "-f", "rrule=gt:x"], ["rrule", "'gt'", "allowed: eq, ~eq, neq"]),
        (["events", "list", "-f", "id=eq:twelve"], ["id", "not an integer", "allowed: an integer"]),
        (["events", "list", "-f", "created_at=gte:yesterday"], ["created_at", "not a valid time", "RFC 3339"]),
        (["events", "list", "-f", "rrule=~eq:a,b"], ["rrule", "','", "cuts"]),
        (["events", "list", "--sort", "rrule"], ["rrule", "sortable: next_scheduled_at"]),
        (["tasks", "list", TOKEN_ID, "-f", "status=exploded"], ["status", "not a known value", "failed (5)"]),
        (["tasks", "list", TOKEN_ID, "-f", "all_trusted_domains=true"], ["all_trusted_domains", "filter columns"]),
        (["tasks", "list", " "], ["CLIENT_ID", "neither a client's uuid nor its name", "svctui clients list"]),
        (["tasks", "list", "dc\x1b[2J"], ["CLIENT_ID", "neither a client's uuid nor its name"]),
        (["selectors", "list", "1", "-f", "is_default=maybe"], ["is_default", "not a boolean", "true or false"]),
        (["selectors", "list", "zero"], ["TAG", "not a tag id"]),
        (["selectors", "list", "99999999999"], ["TAG: '99999999999' is out of range", "svctui tags list"]),
        (
            ["events", "list", "--limit", "0"],
            ["0 is too small: --limit must be 1 or more"],
        ),  # not 1<=x<=9223372036854775807
        (["events", "list", "--skip", "99999999999999999999"], ["--skip", "(x>=0)"]),
        (["tasks", "list", TOKEN_ID, "--limit", "-3"], ["--limit", "-3"]),
        (["events", "list", "--page-size", "1001"], ["--page-size", "1<=x<=1000"]),
        (["events", "list", "-o", "yaml"], ["--format", "'yaml' is not one of"]),
        (["events", "list", "-f", "id"], ["'id' is not a filter", "column=op:value"]),
        (["tasks", "list", TOKEN_ID, "--endpoint", "completed_jobs"], ["--endpoint", "completed-jobs"]),
    ],
)
def test_bad_input_exits_2_before_any_request(
    args: list[str], names: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with silent_listener() as (url, listener):
        env = {"SVCTUI_BASE_URL": url, "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": "k" * 20}
        result = invoke(args, env=env)
        assert result.exit_code == 2, (result.stdout, result.stderr)
        assert result.stdout == ""
        for name in names:
            assert name in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
        assert "range like" not in result.stderr  # a tag is one id, never a range
        assert not connection_attempted(listener)


def test_every_bad_filter_and_sort_is_reported_at_once_before_any_request() -> None:
    """Several bad --filter and --sort values: one `error:` line for each (column, predicate, what is allowed), in
    the order given, exit 2, nothing sent; the good filter among them is not reported."""
    args = ["events", "list", "-f", "id=eq:twelve", "-f", "rrule=gt:x", "-f", "id=gt:3", "-f", "colour=eq:red"]
    with silent_listener() as (url, listener):
        env = {"SVCTUI_BASE_URL": url, "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": "k" * 20}
        result = invoke([*args, "-s", "rrule", "-s", "-id"], env=env)
        assert not connection_attempted(listener)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[:3] == [
        "error: --filter 'id=eq:twelve': id eq: 'twelve' is not an integer; allowed: an integer such as 42 or -1",
        "error: --filter 'rrule=gt:x': rrule: predicate 'gt' is not allowed for a string column; allowed: eq, ~eq, neq",
        "error: --filter 'colour=eq:red': 'colour' is not a filter column of events; filter columns: id, rrule, "
        "next_scheduled_at, client_id, session_collection, local_group_collection, ad_structure_collection, "
        "cert_services_collection, ca_registry_collection, dc_registry_collection, created_at, updated_at, deleted_at",
    ]
    assert lines[3].startswith("error: --sort 'rrule': cannot sort events by 'rrule'; sortable: next_scheduled_at")
    assert len(lines) == 4, result.stderr


def test_the_listener_does_see_a_valid_request() -> None:
    """Positive control: without the bad filter the same command does connect (so the test above can fail)."""
    with silent_listener() as (url, listener):
        env = {"SVCTUI_BASE_URL": url, "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": "k" * 20}
        process = subprocess.Popen(
            [str(SVCTUI_BIN), "events", "list"],
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            readable, _, _ = select.select([listener], [], [], 60)
            assert readable, "the command never connected"
            assert connection_attempted(listener)
        finally:
            process.kill()
            process.wait()


def test_bad_filter_against_demo_server_sends_nothing(fresh_demo_server: DemoServer) -> None:
    env = demo_env(fresh_demo_server)
    assert invoke(["tags", "list"], env=env).exit_code == 0
    before = fresh_demo_server.request_count
    assert before > 0  # the counter does count this client's requests
    for args in (["events", "list", "-f", "rrule=gt:x"], ["tasks", "list", TOKEN_ID, "-s", "-rrule"]):
        result = invoke(args, env=env)
        assert result.exit_code == 2
        assert result.stderr.startswith("error: --")
    assert (
        "rrule: predicate 'gt' is not allowed for a string column; allowed: eq, ~eq, neq"
        in invoke(["events", "list", "-f", "rrule=gt:x"], env=env).stderr
    )
    assert fresh_demo_server.request_count == before


def test_no_profile_at_all_exits_2_with_the_way_out() -> None:
    result = invoke(["events", "list"])
    assert result.exit_code == 2
    assert "svctui profile add" in result.stderr


def test_wrong_key_exits_3_with_status_message_request_id_and_hint(demo_server: DemoLike) -> None:
    env = demo_env(demo_server, SVCTUI_TOKEN_KEY="not-the-key-" + "x" * 20)
    result = invoke(["events", "list"], env=env)
    assert result.exit_code == 3, result.stderr
    assert re.search(r"^error: HTTP 401 .*digest validation failed.*\(request id [0-9a-f-]{36}\)$", result.stderr, re.M)
    assert "hint: check the token key" in result.stderr
    assert env["SVCTUI_TOKEN_KEY"] not in result.stderr + result.stdout
    binary = run_binary(["tags", "list"], env=env)
    assert binary.code == 3 and "401" in binary.stderr


def test_unknown_client_exits_4(demo_server: DemoLike) -> None:
    result = invoke(["tasks", "list", str(uuid.uuid4()), "--endpoint", "completed-jobs"], env=demo_env(demo_server))
    assert result.exit_code == 4, result.stderr
    assert "404" in result.stderr and "request id" in result.stderr
    assert "hint: the server has no client" in result.stderr and "svctui events list" in result.stderr
    assert result.stdout == ""


def test_unknown_tag_exits_4(demo_server: DemoLike) -> None:
    result = invoke(["selectors", "list", "99999", "-o", "json"], env=demo_env(demo_server))
    assert result.exit_code == 4, result.stderr
    assert "404" in result.stderr
    assert "hint: the server has no asset group tag 99999; `svctui tags list` shows the tags" in result.stderr
    assert result.stdout == ""


def test_events_on_community_edition_exit_4(demo_server_community: DemoLike) -> None:
    result = invoke(["events", "list", "-o", "json"], env=demo_env(demo_server_community))
    assert result.exit_code == 4, result.stderr
    assert "enterprise feature" in result.stderr
    assert result.stdout == ""
    tags = invoke(["tags", "list"], env=demo_env(demo_server_community))
    assert tags.exit_code == 0, tags.stderr


def test_server_error_after_retries_exits_5(failing_server: DemoLike) -> None:
    result = invoke(["events", "list", "-o", "jsonl"], env=demo_env(failing_server))
    assert result.exit_code == 5, result.stderr
    assert re.search(r"^error: HTTP 500 .*\(request id [0-9a-f-]{36}\)$", result.stderr, re.M), result.stderr
    assert result.stdout == ""


def test_json_all_left_unclosed_is_not_taken_as_complete(failing_server: DemoLike) -> None:
    result = invoke(["tags", "list", "-o", "json"], env=demo_env(failing_server))
    assert result.exit_code == 5
    assert result.stdout == ""


def test_unreachable_server_exits_5_with_a_network_hint() -> None:
    with silent_listener() as (url, _listener):
        pass  # closed: nothing listens on this port any more
    env = {"SVCTUI_BASE_URL": url, "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": "k" * 20}
    result = invoke(["tags", "list"], env=env)
    assert result.exit_code == 5, result.stderr
    assert "cannot reach" in result.stderr
    assert "hint: check the URL / network" in result.stderr


def test_a_client_name_on_an_unreachable_server_says_the_server_is_unreachable() -> None:
    """`tasks list NAME` looks the name up first; a server it cannot reach said "this server lists no clients
    (community edition)" (the names' reader keeps its failures to itself) instead of the network error."""
    with silent_listener() as (url, _listener):
        pass  # closed: nothing listens on this port any more
    env = {"SVCTUI_BASE_URL": url, "SVCTUI_TOKEN_ID": TOKEN_ID, "SVCTUI_TOKEN_KEY": "k" * 20}
    result = invoke(["tasks", "list", "SHARPHOUND-LAB"], env=env)
    assert result.exit_code == 5, result.stderr
    assert "cannot reach" in result.stderr and "community" not in result.stderr
