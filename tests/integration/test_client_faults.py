"""Client faults over real loopback: drip, size cap, `{}` to a list, cut-short bodies, malformed answers, 429 storms.

A small misbehaving server (bad_server.py) plays the faults a demo server cannot; the demo server's own `--faults`
modes and rate limit play the rest. Outcomes and counts are asserted, never durations.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from svctui.api.client import DEADLINE_MARGIN, ApiClient
from svctui.api.errors import (
    PROXY_HINT,
    ApiError,
    DeadlineExceeded,
    RateLimited,
    ResponseCutShort,
    ResponseShapeError,
    ResponseTooLarge,
    ServerError,
)
from svctui.api.limits import REPLACEMENT_TASK_ENDPOINT
from svctui.api.query import ListQuery
from svctui.api.signing import BearerAuth, SignatureAuth
from svctui.commands.common import ExitCode, exit_code_for
from svctui.connect import failure_hint
from svctui.demo.config import Faults
from svctui.store.model import build_profile
from svctui.store.settings import Settings
from tests.support.bad_server import TAGS, BadServer, Misbehaviour, answer
from tests.support.demo_http import own_server
from tests.support.recording_server import JWT, SleepRecorder

JOBS = ListQuery(endpoint=REPLACEMENT_TASK_ENDPOINT)  # the replacement endpoint, as the Clients screen asks it

pytestmark = pytest.mark.anyio

MIB = 1024 * 1024
PROXY_PAGE = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as running:
        yield running


def client(server: BadServer, **kwargs: object) -> ApiClient:
    """A client of the bad server whose retries sleep through a recorder (no real waiting)."""
    kwargs.setdefault("sleep", SleepRecorder())
    return ApiClient(server.base_url, BearerAuth(JWT), **kwargs)  # type: ignore[arg-type]


async def test_a_dripping_server_meets_the_deadline(bad: BadServer) -> None:
    bad.enqueue(Misbehaviour("drip", body=b'{"count": 0, "data": []}' + b" " * 40, interval=0.5))
    async with client(bad, prefer_wait=1, deadline_margin=1.0, max_retries=0) as api:
        assert api.deadline == 2.0
        with pytest.raises(DeadlineExceeded) as info:
            await api.events.list()
    message = info.value.user_message()
    assert "did not complete within 2 s (Prefer wait=1 plus 1 s)" in message
    assert "HTTP 200 started" in message
    assert exit_code_for(info.value) is ExitCode.SERVER
    assert len(bad.requests) == 1
    profile = build_profile(None, name="p", base_url=bad.base_url, auth="bearer", jwt=SecretStr(JWT))
    assert "too slowly" in failure_hint(info.value, profile)


async def test_with_no_wait_limit_a_stalled_body_still_ends(bad: BadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Prefer wait=-1: no deadline for the answer to start, but the body may not stall (idle cap, shortened here)."""
    monkeypatch.setattr("svctui.api.client.IDLE_TIMEOUT", 0.5)
    monkeypatch.setattr("svctui.api.body.IDLE_TIMEOUT", 0.5)
    bad.enqueue(Misbehaviour("drip", body=b'{"count": 0, "data": []}', interval=3.0))
    async with client(bad, prefer_wait=-1, max_retries=0) as api:
        with pytest.raises(DeadlineExceeded) as info:
            await api.events.list()
    assert "or it stalled for 0.5 s (HTTP 200 started, body too slow)" in info.value.user_message()


async def test_the_deadline_follows_the_prefer_wait() -> None:
    assert ApiClient("http://127.0.0.1:9", None, prefer_wait=30).deadline == 30 + DEADLINE_MARGIN
    assert ApiClient("http://127.0.0.1:9", None, prefer_wait=-1).deadline is None  # body and idle caps still hold


async def test_a_huge_content_length_is_refused_before_reading(bad: BadServer) -> None:
    bad.enqueue(Misbehaviour("short", body=b'{"count": 0', declared=1024 * MIB))
    async with client(bad, max_response_bytes=MIB) as api:
        with pytest.raises(ResponseTooLarge) as info:
            await api.events.list()
    message = info.value.user_message()
    assert "declares 1,073,741,824 bytes, over the 1 MiB limit" in message
    assert "max_response_mb in settings.toml" in message
    assert exit_code_for(info.value) is ExitCode.SERVER
    assert len(bad.requests) == 1, "a refused answer is not asked for again"


async def test_a_body_growing_past_the_cap_is_cut_off(bad: BadServer) -> None:
    bad.enqueue(Misbehaviour("chunked_big"))
    async with client(bad, max_response_bytes=MIB) as api:
        with pytest.raises(ResponseTooLarge, match="grew past the limit"):
            await api.events.list()


def test_the_size_cap_is_a_generous_setting() -> None:
    assert Settings().max_response_mb == 64
    assert Settings(max_response_mb=2).max_response_bytes == 2 * MIB
    assert ApiClient("http://127.0.0.1:9", None).max_response_bytes == 64 * MIB


@pytest.mark.parametrize("call", ["events", "tags", "selectors"])
async def test_an_empty_object_is_not_an_empty_list(bad: BadServer, call: str) -> None:
    bad.default = answer(200, "{}")
    async with client(bad) as api:
        with pytest.raises(ResponseShapeError) as info:
            if call == "events":
                await api.events.list()
            elif call == "tags":
                await api.tags.list()
            else:
                await api.selectors.list(1)
    assert "Field required" in info.value.user_message()
    assert exit_code_for(info.value) is ExitCode.SERVER
    assert len(bad.requests) == 3, "an answer out of shape to a GET is retried like a 5xx"


@pytest.mark.parametrize(
    "fault",
    [
        Misbehaviour("short", body=b'{"count": 1, "data": ['),
        Misbehaviour("chunked_cut", body=b'{"count": 1, "data": ['),
        Misbehaviour("reset", body=b'{"count": 1, "data": ['),
    ],
    ids=["content-length-longer", "chunked-cut", "reset-mid-body"],
)
async def test_a_cut_body_is_cut_short_not_unreachable(bad: BadServer, fault: Misbehaviour) -> None:
    bad.default = fault
    async with client(bad) as api:
        with pytest.raises(ResponseCutShort) as info:
            await api.events.list()
    message = info.value.user_message()
    assert "the server's answer (HTTP 200) was cut short" in message
    assert "cannot reach" not in message
    assert exit_code_for(info.value) is ExitCode.SERVER
    assert len(bad.requests) == 3, "a GET cut short is retried"
    profile = build_profile(None, name="p", base_url=bad.base_url, auth="bearer", jwt=SecretStr(JWT))
    assert "closed mid-answer" in failure_hint(info.value, profile)


async def test_a_cut_delete_answer_is_not_sent_again(bad: BadServer) -> None:
    bad.default = Misbehaviour("short", status=200, body=b'{"data": ')
    async with client(bad) as api:
        with pytest.raises(ResponseCutShort):
            await api.selectors.delete(1, 2)
    assert len(bad.requests) == 1


async def test_malformed_then_good_is_retried_to_success(bad: BadServer) -> None:
    bad.enqueue(
        answer(200, '{"count": 3, "data": [{"id": 1, "client'), answer(200, "<html>sign in</html>", "text/html")
    )
    bad.default = answer(200, TAGS)
    async with client(bad) as api:
        tags = await api.tags.list()
    assert [tag.name for tag in tags] == ["Tier Zero"]
    assert len(bad.requests) == 3


async def test_a_502_says_a_proxy_failed(bad: BadServer) -> None:
    bad.default = answer(502, PROXY_PAGE, "text/html")
    async with client(bad) as api:
        with pytest.raises(ServerError) as info:
            await api.tags.list()
    assert info.value.user_message() == f"HTTP 502 Bad Gateway — 502 Bad Gateway ({PROXY_HINT})"


async def test_429_is_waited_out_for_sixty_seconds_then_reported_with_a_hint(bad: BadServer) -> None:
    bad.default = answer(429, "Limit exceeded", "text/plain")
    sleep = SleepRecorder()
    async with client(bad, sleep=sleep) as api:
        with pytest.raises(RateLimited) as info:
            await api.tags.list()
    assert len(bad.requests) == 61, "1 s per 429 without Reset: 60 waits, bounded by time, not by a retry count"
    assert sum(sleep.calls) == pytest.approx(60.0, abs=0.1)
    assert "the server kept limiting requests for 60 s: try --concurrency 1, or try again later" in (
        info.value.user_message()
    )
    assert exit_code_for(info.value) is ExitCode.SERVER


async def test_a_429_without_waiting_still_gives_the_hint(bad: BadServer) -> None:
    bad.default = answer(429, "Limit exceeded", "text/plain")
    async with client(bad, max_retries=0) as api:
        with pytest.raises(RateLimited) as info:
            await api.tags.list()
    assert info.value.user_message().endswith(
        "the server is limiting requests: try --concurrency 1, or try again later"
    )


async def test_a_429_storm_is_paced_by_one_shared_limiter(demo_template_db: Path, tmp_path: Path) -> None:
    with own_server(demo_template_db, tmp_path, rate_limit=5) as demo:
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as api:
            gate = asyncio.Semaphore(8)

            async def one() -> int:
                async with gate:
                    return len(await api.tags.list())

            results = await asyncio.gather(*(one() for _ in range(20)), return_exceptions=True)
            assert api.limiter.limit == 5
        sent = demo.request_count
    failures = [r for r in results if isinstance(r, BaseException)]
    assert failures == [], "rate limiting is waited out, never reported as a failure"
    assert sent - 20 < 15, f"{sent - 20} answers of 429: the limiter paces after it learns the limit"


async def test_demo_faults_kept_to_one_path_hit_only_its_requests(demo_template_db: Path, tmp_path: Path) -> None:
    """`Faults.only_path`: one client's runs answer 500 (with a request id) while the client list and another
    client's runs answer as usual (how the Clients screen's tests make one client's fetch fail)."""
    with own_server(demo_template_db, tmp_path, rate_limit=0) as demo:
        demo_client = ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key), sleep=SleepRecorder())
        async with demo_client as api:
            first, second = [record.id for record in (await api.clients.list()).data][:2]
            demo.faults = Faults(error_rate=1.0, only_path=f"/api/v2/clients/{first}/")
            assert (await api.clients.list()).data
            assert (await api.tasks.list(second, JOBS)).count > 0
            with pytest.raises(ServerError) as info:
                await api.tasks.list(first, JOBS)
    assert info.value.status == 500 and info.value.request_id


@pytest.mark.parametrize(
    ("kind", "error"),
    [("malformed", ResponseShapeError), ("truncated", ResponseCutShort), ("html", ServerError)],
)
async def test_demo_fault_modes_on_gets(
    demo_template_db: Path, tmp_path: Path, kind: str, error: type[ApiError]
) -> None:
    with own_server(demo_template_db, tmp_path, faults=Faults(kinds={kind: 1.0}), rate_limit=0) as demo:
        demo_client = ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key), sleep=SleepRecorder())
        async with demo_client as api:
            with pytest.raises(error) as info:
                await api.events.list()
        assert demo.request_count == 3, "retried like a 5xx"
    assert exit_code_for(info.value) is ExitCode.SERVER
    assert "cannot reach" not in info.value.user_message()
    if kind == "html":
        assert PROXY_HINT in info.value.user_message()
