"""Issue 29 item 6: the fleet's runs come from jobs/finished, and a client's own history is read only where that
is not enough — a client whose runs are all older than the lookback, or a run in the window with no earlier
comparable run in what came (its baseline). Only those clients are read, and their verdicts are the ones the
per-client reads of an older server give. And a server without jobs/finished is said once on the dashboard too.

Real HTTP to demo servers whose databases are edited so: one client's runs since the lookback removed, another's
runs of the week before the window removed."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from svctui import fleet_runs
from svctui.api.client import ApiClient
from svctui.api.signing import SignatureAuth
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.demo.timefmt import to_micros
from svctui.fleet import HealthOptions, find_fleet
from svctui.fleet_runs import BASELINE_LOOKBACK, MISSING_NOTE, FleetRuns, read_fleet
from svctui.triage.health import DEFAULT_WINDOW, ClientHealth
from svctui.tui.screens.clients import ClientsScreen
from tests.support.cli import add_profile, copy_template, run_cli
from tests.support.live import live_app, refresh_now
from tests.support.paths_seen import PathsSeen
from tests.support.tui import press_for, running

NOW = FIXED_ANCHOR.isoformat().replace("+00:00", "Z")
WINDOW_START = to_micros(FIXED_ANCHOR - DEFAULT_WINDOW)
LOOKBACK_START = to_micros(FIXED_ANCHOR - DEFAULT_WINDOW - BASELINE_LOOKBACK)


def thin_out(db_path: Path) -> tuple[str, str]:
    """Remove every run since the lookback of one client (`gone`) and the runs of the week before the window of
    another that ran in the window (`unbased`); their ids."""
    with sqlite3.connect(db_path) as conn:
        busy = [
            str(row[0])
            for row in conn.execute(
                "SELECT client_id FROM tasks WHERE execution_time >= ? GROUP BY client_id ORDER BY client_id",
                (WINDOW_START,),
            )
        ]
        gone, unbased = busy[0], busy[1]
        conn.execute("DELETE FROM tasks WHERE client_id = ? AND execution_time >= ?", (gone, LOOKBACK_START))
        conn.execute(
            "DELETE FROM tasks WHERE client_id = ? AND execution_time >= ? AND execution_time < ?",
            (unbased, LOOKBACK_START, WINDOW_START),
        )
    return gone, unbased


@pytest.fixture
def two_servers(
    demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[PathsSeen, tuple[str, str]]]:
    """`current` (with jobs/finished) and `older` (without) on the same thinned-out data, saved as profiles."""
    monkeypatch.setenv("SVCTUI_FROZEN_NOW", NOW)
    current_db, older_db = (copy_template(demo_template_db, tmp_path_factory) for _ in range(2))
    clients = thin_out(current_db)
    assert thin_out(older_db) == clients
    seen = PathsSeen()
    with (
        DemoServer(db_path=current_db, anchor=FIXED_ANCHOR, rate_limit=0, wrap=seen.wrap) as current,
        DemoServer(db_path=older_db, anchor=FIXED_ANCHOR, rate_limit=0, without=("jobs-finished",)) as older,
    ):
        for name, demo in (("current", current), ("older", older)):
            assert add_profile(name, demo.base_url, demo.token_id, demo.token_key).exit_code == 0
        yield seen, clients


def test_only_clients_the_fleets_runs_cannot_judge_have_their_history_read(
    two_servers: tuple[PathsSeen, tuple[str, str]],
) -> None:
    seen, (gone, unbased) = two_servers
    at_once = run_cli("health", "--profile", "current", "-o", "json")
    assert at_once.exit_code in (0, 6), at_once.stderr
    histories = sorted(path.split("/")[4] for path in seen.ending("/completed-jobs"))
    assert histories == sorted([gone, unbased]), "these two, and no other client"
    assert len(seen.ending("/jobs/finished")) >= 1
    one_by_one = run_cli("health", "--profile", "older", "-o", "json")
    assert one_by_one.exit_code == at_once.exit_code, one_by_one.stderr

    def verdicts(stdout: str) -> dict[str, str]:
        return {row["client_id"]: row["verdict"] for row in json.loads(stdout)}

    assert verdicts(at_once.stdout) == verdicts(one_by_one.stdout), "judged as the per-client reads judge them"
    assert verdicts(at_once.stdout)[gone] != "never ran", "its older runs were read"


@pytest.mark.anyio
async def test_the_clients_screen_says_once_that_the_server_has_no_jobs_finished(
    fresh_older_demo_server: DemoServer,
) -> None:
    app, clock = live_app(fresh_older_demo_server)
    async with running(app, (160, 40)) as pilot:
        screen = await press_for(pilot, "4", ClientsScreen)
        assert screen.results, "every client judged, each on its own"
        await refresh_now(pilot, clock)
        await refresh_now(pilot, clock)
    said = [note for note in app.notes if MISSING_NOTE[1:] in note.message]
    assert len(said) == 1 and said[0].title == "Clients", app.notes


class UpperCased:
    """An ASGI layer that writes one client's id in upper case in every answer (the clients list, jobs/finished,
    its own history), as a server may: a UUID's text names the same client in either case. Same length, so the
    answers' Content-Length stays right. `on` switches it."""

    def __init__(self, client_id: str) -> None:
        self.lower = client_id.lower().encode()
        self.upper = client_id.upper().encode()
        self.on = False
        self.paths: list[str] = []

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """`app` with the id upper-cased in its answers' bodies while `on`, and each path recorded."""

        async def rewriting(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            self.paths.append(scope["path"])

            async def sending(message: Message) -> None:
                if self.on and message["type"] == "http.response.body":
                    message = {**message, "body": message.get("body", b"").replace(self.lower, self.upper)}
                await send(message)

            await app(scope, receive, sending)

        return rewriting


@pytest.mark.anyio
async def test_a_client_id_in_upper_case_is_kept_and_judged_as_in_lower_case(
    demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Audit: `_merge` kept the fleet's runs under the lower-cased id, `_read_histories` and the lookups under the
    member's id as the server wrote it: a client listed in upper case found none of its runs, so its history was
    read every round and it was judged from that alone. Both now key by `client_key`."""
    db = copy_template(demo_template_db, tmp_path_factory)
    with sqlite3.connect(db) as conn:
        busiest = str(
            conn.execute(
                "SELECT client_id FROM tasks WHERE execution_time >= ? GROUP BY client_id ORDER BY COUNT(*) DESC, "
                "client_id LIMIT 1",
                (WINDOW_START,),
            ).fetchone()[0]
        )
    upper = UpperCased(busiest)
    options = HealthOptions()
    with DemoServer(db_path=db, anchor=FIXED_ANCHOR, rate_limit=0, wrap=upper.wrap) as demo:
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:

            def health_words(health: ClientHealth) -> str:
                return f"{health.verdict} {health.runs_in_window} {health.not_ok_in_window} {health.drops_in_window}"

            async def one_round(state: FleetRuns) -> tuple[dict[str, str], list[str]]:
                upper.paths.clear()
                fleet = await find_fleet(client)
                done = await read_fleet(client, fleet.members, FIXED_ANCHOR, options, state)
                assert done is not None
                judged = [result for result in done.results if result.health is not None]
                verdicts = {
                    result.member.client_id.lower(): health_words(result.health) for result in judged if result.health
                }
                return verdicts, sorted(path.split("/")[4].lower() for path in upper.paths if "/clients/" in path)

            as_written, read_as_written = await one_round(FleetRuns())
            upper.on = True
            state = FleetRuns()
            in_upper, read_in_upper = await one_round(state)
            assert any(member.client_id == busiest.upper() for member in (await find_fleet(client)).members)
            assert busiest not in read_in_upper, "its runs came with the fleet's: no history of its own read"
            assert (in_upper, read_in_upper) == (as_written, read_as_written), "judged as in lower case"
            assert set(state.runs) == {key.lower() for key in state.runs}, "one key per client"
            assert len(state.runs[busiest]) > 1
            await one_round(state)
            assert state.requests == 1 and state.histories == 0, "a quiet round: the one request"


@pytest.mark.anyio
async def test_in_turns_every_client_is_judged_on_the_loop_as_at_once(
    demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dashboard's round (`in_turns`) judges every client on the event loop's own thread, a slice at a time: a
    thread judging beside the loop took the GIL at each of the loop's socket calls (40-60 ms stalls while the
    histories were asked for, fleet-1000-fill). The same clients' histories are read and the verdicts are those of
    `svctui health`'s round."""
    db = copy_template(demo_template_db, tmp_path_factory)
    gone, unbased = thin_out(db)
    on_the_loop: list[bool] = []
    judge = fleet_runs.judge

    def noting(*args: Any, **kwargs: Any) -> ClientHealth:
        on_the_loop.append(threading.current_thread() is threading.main_thread())
        return judge(*args, **kwargs)

    options = HealthOptions()
    with DemoServer(db_path=db, anchor=FIXED_ANCHOR, rate_limit=0) as demo:
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
            fleet = await find_fleet(client)
            at_once_state, turns_state = FleetRuns(), FleetRuns()
            at_once = await read_fleet(client, fleet.members, FIXED_ANCHOR, options, at_once_state)
            monkeypatch.setattr(fleet_runs, "judge", noting)
            turns = await read_fleet(client, fleet.members, FIXED_ANCHOR, options, turns_state, in_turns=True)
    assert at_once is not None and turns is not None
    assert len(on_the_loop) == len(fleet.members) and all(on_the_loop), "every client judged on the loop's thread"
    assert [result.health for result in turns.results] == [result.health for result in at_once.results]
    assert turns_state.histories == at_once_state.histories == 2, (gone, unbased)
