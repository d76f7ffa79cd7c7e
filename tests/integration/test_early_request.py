"""The first request of `svctui tasks list CLIENT` sent as the process starts (svctui.api.early), over loopback.

The recording server sees what went on the wire: the early requests ask for `Accept-Encoding: identity` (httpx asks
for gzip), so the tests can tell which requests were sent early and that none was sent twice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.api.early import EarlyRequest
from svctui.api.filters import TASKS_NEWEST_FIRST
from svctui.api.query import ListQuery
from svctui.commands.early import first_target
from tests.support.recording_server import CLIENT_ID, RecordingServer, Reply, SleepRecorder, client_for

pytestmark = pytest.mark.anyio
QUERY = ListQuery(sort=TASKS_NEWEST_FIRST, hydrate_domains=True, hydrate_ous=True)


@pytest.fixture
def server() -> Iterator[RecordingServer]:
    with RecordingServer(tasks=5) as running:
        yield running


def profile_env(server: RecordingServer, root: Path) -> dict[str, str]:
    """This process's environment without proxies or profile choices, isolated under `root`, with `server` as the
    profile from the environment."""
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy") and not k.startswith("SVCTUI_")}
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        env[name] = str(root / name.lower())
    for name in ("SVCTUI_CONFIG_DIR", "SVCTUI_STATE_DIR", "SVCTUI_DATA_DIR"):
        env[name] = str(root / name.lower())
    env.update(
        SVCTUI_NO_KEYRING="1",
        SVCTUI_BASE_URL=server.base_url,
        SVCTUI_TOKEN_ID=server.token_id,
        SVCTUI_TOKEN_KEY=server.token_key,
    )
    return env


def early_flags(server: RecordingServer) -> list[tuple[int, bool]]:
    """(skip, sent early) of every request received, in order of arrival."""
    return [(int(r.param("skip") or 0), r.headers.get("accept-encoding") == "identity") for r in server.requests]


def run_svctui(server: RecordingServer, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m svctui ARGS` (the console script's path: main()) with the environment profile."""
    return subprocess.run(
        [sys.executable, "-m", "svctui", *args],
        env=profile_env(server, root),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_tasks_list_all_gets_its_first_pages_from_the_early_request(server: RecordingServer, tmp_path: Path) -> None:
    result = run_svctui(server, tmp_path, "tasks", "list", CLIENT_ID, "--all", "-o", "jsonl", "--page-size", "2")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [1, 2, 3, 4, 5]
    assert all(recorded.verified for recorded in server.requests)
    # page 1 as the process started, then the pages its count announces (up to three), each once
    assert sorted(early_flags(server)) == [(0, True), (2, True), (4, True)]


def test_all_with_a_limit_asks_early_only_for_the_pages_it_writes(server: RecordingServer, tmp_path: Path) -> None:
    result = run_svctui(server, tmp_path, "tasks", "list", CLIENT_ID, "--all", "--limit", "3", "--page-size", "2")
    assert result.returncode == 0, result.stderr
    early = sorted(skip for skip, sent_early in early_flags(server) if sent_early)
    assert early == [0, 2]  # not the page from 4: the third task ends the listing


def test_one_page_is_requested_once_early(server: RecordingServer, tmp_path: Path) -> None:
    result = run_svctui(server, tmp_path, "tasks", "list", CLIENT_ID, "--limit", "3", "-o", "json")
    assert result.returncode == 0, result.stderr
    assert [task["id"] for task in json.loads(result.stdout)] == [1, 2, 3]
    assert early_flags(server) == [(0, True)]
    assert server.requests[0].param("limit") == "3"


def test_a_command_answered_early_never_loads_the_connection_pool(server: RecordingServer, tmp_path: Path) -> None:
    """Every answer came early: httpx's transport (httpcore, h11, anyio) is never made, nor closed."""
    code = (
        "import atexit, sys\nfrom svctui.cli import main\n"
        "atexit.register(lambda: print('httpcore' in sys.modules, file=sys.stderr, flush=True))\n"
        f"sys.argv = ['svctui', 'tasks', 'list', {CLIENT_ID!r}, '--limit', '3', '-o', 'json']\nmain()\n"
    )
    env = profile_env(server, tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert [task["id"] for task in json.loads(result.stdout)] == [1, 2, 3]
    assert result.stderr.strip().splitlines()[-1] == "False"
    assert early_flags(server) == [(0, True)]


@pytest.mark.parametrize(
    ("argv", "sent"),
    [
        (["tasks", "list", CLIENT_ID], True),
        (
            [
                "tasks",
                "list",
                "--all",
                CLIENT_ID.upper(),
                "--page-size=1000",
                "-ojsonl",
                "--endpoint",
                "completed-jobs",
            ],
            True,
        ),
        (["tasks", "list", CLIENT_ID, "--no-hydrate-domains", "--no-hydrate-ous", "--skip", "7", "--limit", "5"], True),
        (["tasks", "list", CLIENT_ID, "--filter", "status=eq:2"], False),  # filters and sorts: not sent early
        (["tasks", "list", CLIENT_ID, "--sort", "id"], False),
        (["tasks", "list", CLIENT_ID, "--help"], False),
        (["tasks", "list", CLIENT_ID, "--profile", "lab"], False),  # a stored profile
        (["--read-only", "tasks", "list", CLIENT_ID], False),
        (["tasks", "list", "not-a-uuid"], False),  # click would refuse these: nothing is sent
        (["tasks", "list", CLIENT_ID, "--page-size", "1001"], False),
        (["tasks", "list", CLIENT_ID, "--limit", "0"], False),
        (["tasks", "list", CLIENT_ID, "-o", "yaml"], False),
        (["tasks", "list", CLIENT_ID, CLIENT_ID], False),
        (["events", "list"], False),
    ],
)
def test_which_command_lines_are_sent_early(argv: list[str], sent: bool, server: RecordingServer) -> None:
    assert (first_target(argv, profile_env(server, Path("/nonexistent"))) is not None) is sent


@pytest.mark.parametrize(
    "change",
    [
        {"SVCTUI_PROFILE": "lab"},
        {"SVCTUI_JWT": "x.y.z"},
        {"SVCTUI_TOKEN_KEY": " "},
        {"HTTPS_PROXY": "http://proxy:3128"},
    ],
)
def test_only_a_profile_wholly_from_the_environment_without_a_proxy_is_used(
    change: dict[str, str], server: RecordingServer
) -> None:
    env = {**profile_env(server, Path("/nonexistent")), **change}
    assert first_target(["tasks", "list", CLIENT_ID], env) is None


def ignore(_notice: str) -> None:
    """The client's deprecation notice (completed-tasks), not a warning here."""


def early_for(server: RecordingServer, argv: list[str], **env: str) -> EarlyRequest:
    """The early request of `argv` against `server`, started."""
    plan = first_target(argv, {**profile_env(server, Path("/nonexistent")), **env})
    assert plan is not None
    target, following = plan
    return EarlyRequest(target, following=following).start()


async def test_the_client_takes_the_answer_of_the_same_request(server: RecordingServer) -> None:
    early = early_for(server, ["tasks", "list", CLIENT_ID, "--limit", "3"])
    async with client_for(server, early=early, on_deprecation=ignore) as client:
        page = await client.tasks.list(CLIENT_ID, QUERY.page(0, 3))
        assert [task.id for task in page.data] == [1, 2, 3]
        assert client.requests_sent == 1
    assert early_flags(server) == [(0, True)]


async def test_a_client_with_another_key_or_query_sends_its_own_request(server: RecordingServer) -> None:
    other_key = early_for(server, ["tasks", "list", CLIENT_ID, "--limit", "3"], SVCTUI_TOKEN_KEY="another key")
    async with client_for(server, early=other_key, on_deprecation=ignore) as client:
        assert [task.id for task in (await client.tasks.list(CLIENT_ID, QUERY.page(0, 3))).data] == [1, 2, 3]
    other_key.first.result(timeout=10)
    other_query = early_for(server, ["tasks", "list", CLIENT_ID, "--limit", "4"])
    async with client_for(server, early=other_query, on_deprecation=ignore) as client:
        assert [task.id for task in (await client.tasks.list(CLIENT_ID, QUERY.page(0, 3))).data] == [1, 2, 3]
        assert client.requests_sent == 1
    other_query.first.result(timeout=10)
    # each early request went out (the one with the wrong key refused), and each client sent its own
    assert sorted(
        (r.param("limit"), r.verified, r.headers.get("accept-encoding") == "identity") for r in server.requests
    ) == [
        ("3", False, True),
        ("3", True, False),
        ("3", True, False),
        ("4", True, True),
    ]


async def test_an_early_answer_goes_through_the_clients_checks(server: RecordingServer) -> None:
    """A 500 answered early is the client's first attempt: retried like any 5xx, by the client itself."""
    server.enqueue(Reply(500, {"problem": "boom"}))
    early = early_for(server, ["tasks", "list", CLIENT_ID, "--limit", "3"])
    sleep = SleepRecorder()
    async with client_for(server, early=early, sleep=sleep, on_deprecation=ignore) as client:
        assert [task.id for task in (await client.tasks.list(CLIENT_ID, QUERY.page(0, 3))).data] == [1, 2, 3]
        assert client.requests_sent == 2
    assert len(sleep.calls) == 1
    assert early_flags(server) == [(0, True), (0, False)]
