"""The fleet's slim read (svctui.api.fleet_models.FleetRun) reads what judging needs exactly as CompletedTask does:
over real HTTP on the demo's fleet every run's judged fields and every client's health are the same from either;
and the shapes the real server may send (nulls, wrappers, the zero time) read alike in both."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

import pytest
from pydantic import ValidationError

from svctui.api.client import ApiClient
from svctui.api.fields import COUNT_NAMES, FLAG_NAMES
from svctui.api.fleet_models import FleetResult, FleetRun, Run, RunResult, slim_model
from svctui.api.models import CompletedTask, DomainResult
from svctui.api.signing import SignatureAuth
from svctui.commands.health_check import table_row
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.fleet import HealthOptions, MemberHealth, find_fleet, recent_runs_query
from svctui.fleet_runs import BASELINE_LOOKBACK, finished_query, judge
from svctui.triage.drops import detect_drops
from svctui.triage.health import assess
from svctui.triage.summary import count_values

pytestmark = pytest.mark.anyio
RUN_FIELDS: tuple[str, ...] = ("id", "client_id", "client_name", "event_id", "status", "status_message")
RUN_FIELDS += ("execution_time", "start_time", "end_time", "created_at", "updated_at")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def judged(run: Run) -> tuple[Any, ...]:
    """Everything of a run that judging reads, as plain values."""
    results = tuple((r.domain_name, r.success, *(getattr(r, name) for name in COUNT_NAMES)) for r in run.domain_results)
    return (*(getattr(run, name) for name in RUN_FIELDS), *(getattr(run, name) for name in FLAG_NAMES), results)


def by_client(runs: Sequence[Run]) -> dict[str, list[Run]]:
    grouped: dict[str, list[Run]] = {}
    for run in runs:
        grouped.setdefault(run.client_id.lower(), []).append(run)
    return grouped


async def test_the_slim_read_judges_the_demo_fleet_as_the_full_one(demo_server: DemoServer) -> None:
    """jobs/finished over the window and lookback, read both ways: the same runs, the same judged fields, and for
    every client the same health and the same line of `svctui health` (verdict, numbers, last run, note)."""
    options = HealthOptions()
    since = FIXED_ANCHOR - options.window - BASELINE_LOOKBACK
    query = finished_query("execution_time", since)
    async with ApiClient(demo_server.base_url, SignatureAuth(demo_server.token_id, demo_server.token_key)) as client:
        fleet = await find_fleet(client)
        full = [run async for page in client.jobs.finished_pages(query, page_size=1000) for run in page.data]
        slim = [run async for page in client.jobs.fleet_run_pages(query, page_size=1000) for run in page.data]
        histories = [
            (
                (await client.tasks.list(member.client_id, recent_runs_query())).data,
                (await client.tasks.fleet_runs(member.client_id, recent_runs_query())).data,
            )
            for member in fleet.members[:3]
        ]
    assert len(full) > 100 and any(run.domain_results for run in full)
    assert [judged(run) for run in slim] == [judged(run) for run in full]
    for whole, slimmed in histories:
        assert [judged(run) for run in slimmed] == [judged(run) for run in whole]
    full_runs, slim_runs = by_client(full), by_client(slim)
    verdicts = set()
    for member in fleet.members:
        key = member.client_id.lower()
        from_full = judge(member, full_runs.get(key, []), FIXED_ANCHOR, options)
        from_slim = judge(member, slim_runs.get(key, []), FIXED_ANCHOR, options)
        rows = [table_row(MemberHealth(member, health), FIXED_ANCHOR) for health in (from_full, from_slim)]
        assert rows[0] == rows[1]
        assert (from_slim.window_drops, from_slim.strip) == (from_full.window_drops, from_full.strip)
        verdicts.add(from_slim.verdict)
    assert len(verdicts) >= 3, verdicts  # the demo's fleet shapes several verdicts: the comparison covers them


TIMES = [
    '"2026-03-02T10:59:19.585661Z"',
    '"2026-03-02T10:59:19.123456789+02:00"',
    '"0001-01-01T00:00:00Z"',
    '""',
    "null",
    '{"Time": "2026-03-02T10:59:19Z", "Valid": true}',
    '{"Time": "0001-01-01T00:00:00Z", "Valid": false}',
    '{"time": "2026-03-02T10:59:19Z", "valid": true}',
]


@pytest.mark.parametrize("moment", TIMES)
def test_times_read_alike(moment: str) -> None:
    """Every time shape the real server sends (plain, zero, null, both wrappers) reads the same in both models."""
    body = f'{{"id": 1, "client_id": "c", "execution_time": {moment}, "updated_at": {moment}}}'.encode()
    full, slim = CompletedTask.model_validate_json(body), FleetRun.model_validate_json(body)
    assert judged(slim) == judged(full)


def test_nulls_take_the_defaults_alike() -> None:
    """A null where the field has a default (a name, a status, a flag, a count, the results) reads as that default
    in both, and numbers sent as strings read alike."""
    task = {
        "id": 7,
        "client_id": "C-1",
        "client_name": None,
        "event_id": {"int32": 4, "valid": True},
        "status": "5",
        "status_message": None,
        **dict.fromkeys(FLAG_NAMES, None),
        "domain_results": [
            {"id": 1, "domain_name": None, "success": None, **dict.fromkeys(COUNT_NAMES, None)},
            {"id": 2},
        ],
        "unknown_field": {"kept": "by the full model only"},
    }
    body = json.dumps(task).encode()
    full, slim = CompletedTask.model_validate_json(body), FleetRun.model_validate_json(body)
    assert judged(slim) == judged(full)
    assert slim.status == 5 and slim.event_id == 4 and count_values(slim.domain_results[0]) == (0,) * len(COUNT_NAMES)
    empty = json.dumps({"id": 8, "client_id": "c", "domain_results": None}).encode()
    assert judged(FleetRun.model_validate_json(empty)) == judged(CompletedTask.model_validate_json(empty))


@pytest.mark.parametrize(
    "bad",
    [{"client_id": "c"}, {"id": "x", "client_id": "c"}, {"id": 1, "client_id": "c", "status": "failed"}],
)
def test_what_the_full_model_refuses_the_slim_one_refuses(bad: dict[str, Any]) -> None:
    """A run without an id, or a status that is no number, is refused by both (the client then words the error)."""
    body = json.dumps(bad).encode()
    with pytest.raises(ValidationError):
        CompletedTask.model_validate_json(body)
    with pytest.raises(ValidationError):
        FleetRun.model_validate_json(body)


def test_both_models_fit_what_judging_reads() -> None:
    """The models are what `Run` / `RunResult` say (a field renamed in one would fail here, not in a verdict)."""
    runs: list[Run] = [CompletedTask(id=1, client_id="c"), FleetRun.model_validate({"id": 1, "client_id": "c"})]
    results: list[RunResult] = [DomainResult(id=1), FleetResult.model_validate({})]
    assert judged(runs[0]) == judged(runs[1])
    assert [getattr(result, name) for result in results for name in COUNT_NAMES] == [0] * 2 * len(COUNT_NAMES)


def test_the_slim_models_are_the_full_ones_fields() -> None:
    """The slim models hold the fields the protocols name, in the full model's order, each with its type and
    default (only the results' item model is the slim one)."""
    for slim, full in ((FleetRun, CompletedTask), (FleetResult, DomainResult)):
        assert list(slim.model_fields) == [name for name in full.model_fields if name in slim.model_fields]
        for name, info in slim.model_fields.items():
            whole = full.model_fields[name]
            assert info.is_required() == whole.is_required(), name
            if not info.is_required():
                assert info.get_default(call_default_factory=True) == whole.get_default(call_default_factory=True)
            assert info.annotation == (list[FleetResult] if name == "domain_results" else whole.annotation), name
    assert len(FleetRun.model_fields) == 19 and len(FleetResult.model_fields) == 14


def test_a_protocol_naming_a_field_the_model_lacks_fails_at_import() -> None:
    """A field judging would read but the full model does not have is refused when the slim model is built."""

    class Flavoured(RunResult, Protocol):
        @property
        def flavour(self) -> str: ...

    with pytest.raises(TypeError, match="DomainResult has no field \\['flavour'\\] that Flavoured names"):
        slim_model("FlavouredResult", DomainResult, Flavoured)


async def test_judging_sorts_once_and_reads_as_before(demo_server: DemoServer) -> None:
    """`judge` sorts a client's runs once and hands them on `ordered`: from runs in any order its health is the one
    `assess` and `detect_drops` give when each sorts for itself."""
    options = HealthOptions()
    query = finished_query("execution_time", FIXED_ANCHOR - options.window - BASELINE_LOOKBACK)
    async with ApiClient(demo_server.base_url, SignatureAuth(demo_server.token_id, demo_server.token_key)) as client:
        fleet = await find_fleet(client)
        runs = by_client(
            [run async for page in client.jobs.fleet_run_pages(query, page_size=1000) for run in page.data]
        )
    for member in fleet.members:
        mine = list(reversed(runs.get(member.client_id.lower(), [])))  # newest id first: not the order judged in
        each_sorting = assess(
            member.client_id,
            member.name,
            mine,
            detect_drops(mine, options.threshold),
            FIXED_ANCHOR,
            window=options.window,
            stale_after=options.stale_after,
            last_checkin=member.last_checkin,
        )
        assert judge(member, mine, FIXED_ANCHOR, options) == each_sorting
