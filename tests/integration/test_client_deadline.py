"""Time limits do not multiply: one deadline per request covers its retries and 429 waits, a wait the server asks
for past it is not waited, and Ctrl-C ends a command. Real HTTP: the demo server behind the fault proxy
(tests/support/fault_proxy.py). Outcomes, counts and messages are asserted, never durations."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import DeadlineExceeded, RateLimited
from svctui.api.signing import SignatureAuth
from svctui.commands.common import ExitCode, exit_code_for
from svctui.demo.server import DemoServer
from tests.support.cli import SVCTUI_BIN, demo_env, invoke
from tests.support.fault_proxy import FaultProxy, Rule
from tests.support.recording_server import SleepRecorder

TAGS_PATH = "/api/v2/asset-group-tags"


@pytest.fixture
def proxy(demo_server: DemoServer) -> Iterator[FaultProxy]:
    """The fault proxy in front of the session's demo server (read-only use)."""
    with FaultProxy(demo_server.base_url) as running:
        yield running


def through(proxy: FaultProxy, demo: DemoServer, **options: object) -> ApiClient:
    """A client of `demo` through `proxy`."""
    return ApiClient(proxy.base_url, SignatureAuth(demo.token_id, demo.token_key), **options)  # type: ignore[arg-type]


@pytest.mark.anyio
async def test_a_dripping_answer_gets_one_deadline_for_all_its_tries(
    proxy: FaultProxy, demo_server: DemoServer
) -> None:
    # each try of a 1-byte-a-second answer took the whole deadline, three times over, and the message named one
    proxy.add(Rule("drip", path=TAGS_PATH, interval=0.5))
    async with through(proxy, demo_server, prefer_wait=1, deadline_margin=1.0) as api:
        with pytest.raises(DeadlineExceeded) as info:
            await api.tags.list()
    assert "did not complete within 2 s (Prefer wait=1 plus 1 s)" in info.value.user_message()
    assert info.value.tries == 1 and proxy.kinds_seen("drip") == 1, "no try after the deadline"
    assert exit_code_for(info.value) is ExitCode.SERVER


@pytest.mark.anyio
async def test_with_no_wait_limit_the_body_limit_is_one_for_all_tries(
    proxy: FaultProxy, demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Prefer wait=-1: the answer may take as long as it likes to start, but once one started its body limit (300 s,
    # shortened here) was per try, three times over
    monkeypatch.setattr("svctui.api.client.UNLIMITED_WAIT_BODY_DEADLINE", 1.5)
    proxy.add(Rule("drip", path=TAGS_PATH, interval=0.3))
    async with through(proxy, demo_server, prefer_wait=-1) as api:
        with pytest.raises(DeadlineExceeded) as info:
            await api.tags.list()
    assert "did not complete within 1.5 s of its start" in info.value.user_message()
    assert proxy.kinds_seen("drip") == 1 and info.value.tries == 1


@pytest.mark.anyio
async def test_the_tries_share_the_deadline_and_the_message_counts_them(
    proxy: FaultProxy, demo_server: DemoServer
) -> None:
    proxy.add(Rule("garbage", path=TAGS_PATH, times=1), Rule("drip", path=TAGS_PATH, interval=0.5))
    async with through(proxy, demo_server, prefer_wait=1, deadline_margin=2.0) as api:
        with pytest.raises(DeadlineExceeded) as info:
            await api.tags.list()
    message = info.value.user_message()
    assert "did not complete within 3 s (Prefer wait=1 plus 2 s)" in message and "2 tries in all" in message
    assert [kind for _, _, kind in proxy.seen] == ["garbage", "drip"], "the third try had no time left: not sent"


FAR = str(int(time.time()) + 10**9)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("headers", "json_body", "asked"),
    [
        ({"Retry-After": "99999999"}, False, "asks to wait 99,999,999 s"),
        ({"Retry-After": "99999999"}, True, "asks to wait 99,999,999 s"),
        ({"X-RateLimit-Reset": FAR, "Retry-After": "1"}, False, "asks to wait 999,999,"),
        ({"Retry-After": "61"}, False, "asks to wait 61 s"),
    ],
    ids=["retry-after-huge", "json-429", "reset-far-away", "just-past-the-deadline"],
)
async def test_a_wait_past_the_deadline_is_not_waited(
    proxy: FaultProxy, demo_server: DemoServer, headers: dict[str, str], json_body: bool, asked: str
) -> None:
    # such a 429 stalled every request 60 s (the per-wait cap), then failed anyway
    proxy.add(Rule("status429", path=TAGS_PATH, headers=headers, json_body=json_body))
    sleep = SleepRecorder()
    async with through(proxy, demo_server, sleep=sleep) as api:
        with pytest.raises(RateLimited) as info:
            await api.tags.list()
        with pytest.raises(RateLimited) as held:
            await api.tags.list()  # the route is held: this one is not even sent
    assert sleep.calls == [], "nothing waited"
    message = info.value.user_message()
    assert asked in message and "past the 60 s this request may take in all: not waited" in message
    assert "not sent: the server's rate limit holds these requests" in held.value.user_message()
    assert proxy.kinds_seen("status429") == 1
    assert exit_code_for(info.value) is ExitCode.SERVER


@pytest.mark.anyio
@pytest.mark.parametrize(
    "headers",
    [{"Retry-After": "-5"}, {"Retry-After": "soon"}, {"X-RateLimit-Reset": "nan"}, {"Retry-After": "1e999"}, {}],
    ids=["negative", "not-a-number", "nan-reset", "infinite", "none"],
)
async def test_odd_429_headers_are_waited_the_shortest_wait(
    proxy: FaultProxy, demo_server: DemoServer, headers: dict[str, str]
) -> None:
    proxy.add(Rule("status429", path=TAGS_PATH, headers=headers, times=1))
    sleep = SleepRecorder()
    async with through(proxy, demo_server, sleep=sleep) as api:
        assert await api.tags.list()
    assert len(sleep.calls) == 1 and sleep.calls[0] == pytest.approx(1.0, abs=0.2)  # 1 s from the 429, less the
    # moment between it and the wait (the recorded wait, not a measured duration)


def test_a_deletion_run_under_a_far_429_fails_each_selector_at_once(
    fresh_demo_server: DemoServer, tmp_path: Path
) -> None:
    with FaultProxy(fresh_demo_server.base_url) as proxy:
        proxy.add(Rule("status429", method="DELETE", headers={"Retry-After": "99999999"}))
        env = demo_env(fresh_demo_server, SVCTUI_BASE_URL=proxy.base_url)
        result = invoke(["selectors", "delete", "1", "2", "3", "--yes", "--concurrency", "2"], env=env)
        sent = proxy.kinds_seen("status429")
    assert result.exit_code == ExitCode.SERVER, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and all(": failed: HTTP 429" in line for line in lines), lines
    assert any("past the 60 s this request may take in all" in line for line in lines), lines
    assert 1 <= sent <= 2, "no request sent again"
    assert "Traceback" not in result.stderr


def run_until_seen(args: list[str], env: dict[str, str], proxy: FaultProxy, kind: str) -> subprocess.Popen[str]:
    """Start the binary, and return once the proxy has taken a request with a `kind` rule."""
    process = subprocess.Popen(
        [str(SVCTUI_BIN), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    for _ in range(600):
        if proxy.kinds_seen(kind) or process.poll() is not None:
            break
        time.sleep(0.05)
    assert proxy.kinds_seen(kind), "the request never reached the proxy"
    return process


def subprocess_env(demo: DemoServer, proxy: FaultProxy, home: Path) -> dict[str, str]:
    """The environment of a CLI subprocess: the demo through the proxy, private directories."""
    import os

    base = {name: value for name, value in os.environ.items() if not name.startswith("SVCTUI_")}
    dirs = {f"SVCTUI_{kind}_DIR": str(home / kind) for kind in ("CONFIG", "DATA", "STATE")}
    return {**base, **dirs, **demo_env(demo, SVCTUI_BASE_URL=proxy.base_url)}


@pytest.mark.parametrize(
    "args",
    [["tags", "list"], ["selectors", "delete", "1", "2", "--dry-run"], ["health"]],
    ids=["read", "dry", "health"],
)
def test_ctrl_c_mid_request_ends_the_command_with_exit_1(
    proxy: FaultProxy, demo_server: DemoServer, tmp_path: Path, args: list[str]
) -> None:
    proxy.add(Rule("drip", interval=1.0))  # every answer a byte a second: a minute per request
    process = run_until_seen(args, subprocess_env(demo_server, proxy, tmp_path), proxy, "drip")
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)  # a guard against a hang, not a measure of speed
    assert process.returncode == ExitCode.ABORTED, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr and "did not complete" not in stderr


def test_ctrl_c_mid_deletion_sends_nothing_more_and_keeps_the_audit_promises(
    fresh_demo_server: DemoServer, tmp_path: Path
) -> None:
    # the DELETE in flight is answered 429 "wait 20 s": before, it waited and was sent again after the Ctrl-C
    with FaultProxy(fresh_demo_server.base_url) as proxy:
        proxy.add(Rule("status429", method="DELETE", headers={"Retry-After": "20"}))
        env = subprocess_env(fresh_demo_server, proxy, tmp_path)
        process = run_until_seen(
            ["selectors", "delete", "1", "2", "3", "--yes", "--concurrency", "1"], env, proxy, "status429"
        )
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
        sent = proxy.kinds_seen("status429")
    assert process.returncode == ExitCode.SERVER, stderr  # the DELETE in flight failed (429): 5 outranks cancelled
    assert "cancelling: requests in flight finish" in stderr and "Traceback" not in stderr
    assert sent == 1, "the DELETE in flight was not sent again, the next one not at all"
    assert stdout.splitlines()[0].startswith("selector 2: failed: HTTP 429"), stdout
    assert "selector 3: skipped: not attempted: the run was cancelled" in stdout
    log = [json.loads(line) for line in (tmp_path / "STATE" / "audit.jsonl").read_text().splitlines()]
    intents = [line["selector_id"] for line in log if line["event"] == "intent"]
    outcomes = {line["selector_id"]: line["outcome"] for line in log if line["event"] == "outcome"}
    assert intents == [2] and outcomes == {2: "failed"}, log
    assert log[-1]["event"] == "end" and log[-1]["stopped"] == "cancelled"
