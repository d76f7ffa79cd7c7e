"""Issue 29 items 6 and 7 on the command line: `svctui health` reads the fleet's runs in one paged query where the
server has jobs/finished (each client on its own where not, said once), and `--all-profiles` / repeated `--profile`
judge several servers in one table. Real HTTP to demo servers, one dead port."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.fleet_runs import MISSING_NOTE
from tests.support.cli import add_profile, copy_template, run_cli
from tests.support.paths_seen import PathsSeen

NOW = FIXED_ANCHOR.isoformat().replace("+00:00", "Z")


@pytest.fixture(autouse=True)
def frozen_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' clock at the data's anchor."""
    monkeypatch.setenv("SVCTUI_FROZEN_NOW", NOW)
    monkeypatch.setenv("COLUMNS", "200")


def started(template: Path, factory: pytest.TempPathFactory, seen: PathsSeen, *without: str) -> DemoServer:
    """A demo server of its own (the session's data) whose requests `seen` records, rate limited like the real one."""
    return DemoServer(db_path=copy_template(template, factory), anchor=FIXED_ANCHOR, wrap=seen.wrap, without=without)


@pytest.fixture
def two_servers(
    demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[tuple[DemoServer, PathsSeen], tuple[DemoServer, PathsSeen]]]:
    """`current` (with jobs/finished) and `older` (without), each saved as a profile of that name."""
    current_seen, older_seen = PathsSeen(), PathsSeen()
    with (
        started(demo_template_db, tmp_path_factory, current_seen) as current,
        started(demo_template_db, tmp_path_factory, older_seen, "jobs-finished") as older,
    ):
        for name, demo in (("current", current), ("older", older)):
            assert add_profile(name, demo.base_url, demo.token_id, demo.token_key).exit_code == 0
        yield (current, current_seen), (older, older_seen)


def verdicts(stdout: str) -> dict[tuple[str, str], str]:
    """(profile or '', client name) -> verdict of a `health -o json` output."""
    return {(row.get("profile", ""), row["name"]): row["verdict"] for row in json.loads(stdout)}


def test_health_reads_the_fleet_at_once_and_an_older_server_client_by_client_with_the_same_verdicts(
    two_servers: tuple[tuple[DemoServer, PathsSeen], tuple[DemoServer, PathsSeen]],
) -> None:
    (_current, current_seen), (_older, older_seen) = two_servers
    at_once = run_cli("health", "--profile", "current", "-o", "json")
    assert at_once.exit_code == 6 and MISSING_NOTE not in at_once.stderr
    clients = len(json.loads(at_once.stdout))
    assert current_seen.ending("/jobs/finished") and len(current_seen.ending("/api/v2/clients")) == 1
    assert not current_seen.ending("/completed-jobs"), "no client needed its own history in this data"
    one_by_one = run_cli("health", "--profile", "older", "-o", "json")
    assert one_by_one.exit_code == 6 and one_by_one.stderr.count(MISSING_NOTE) == 1, "said once"
    assert len(older_seen.ending("/completed-jobs")) == clients, "today's reads: one per client"
    assert verdicts(at_once.stdout) == verdicts(one_by_one.stdout)
    assert len(current_seen.paths) < len(older_seen.paths) - clients + 3


def dead_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_all_profiles_judges_every_server_in_one_table_and_a_dead_one_is_a_row_with_its_error(
    two_servers: tuple[tuple[DemoServer, PathsSeen], tuple[DemoServer, PathsSeen]],
) -> None:
    (current, _), _ = two_servers
    dead = f"http://127.0.0.1:{dead_port()}"
    assert add_profile("gone", dead, current.token_id, current.token_key).exit_code == 0
    result = run_cli("health", "--all-profiles", "-o", "json")
    assert result.exit_code == 5, "the worst: a server that could not be checked"
    rows = json.loads(result.stdout)
    gone = [row for row in rows if row["profile"] == "gone"]
    assert len(gone) == 1 and gone[0]["verdict"] == "error" and "cannot reach" in gone[0]["error"], gone
    by_profile = verdicts(result.stdout)
    current_rows = {name: verdict for (profile, name), verdict in by_profile.items() if profile == "current"}
    older_rows = {name: verdict for (profile, name), verdict in by_profile.items() if profile == "older"}
    assert current_rows == older_rows and "failing" in current_rows.values(), "both servers judged alike"
    assert "could not be checked: gone" in result.stderr and "Traceback" not in result.stderr
    table = run_cli("health", "--all-profiles")
    lines = table.stdout.splitlines()
    assert table.exit_code == 5 and lines[0].split()[:3] == ["PROFILE", "VERDICT", "CLIENT"]
    assert any(line.startswith("gone") and "ERROR" in line and "cannot reach" in line for line in lines), lines
    two = run_cli("health", "--profile", "current", "--profile", "older", "-o", "json")
    assert two.exit_code == 6, "every server reached: the worst verdict, a client failing"
    assert {row["profile"] for row in json.loads(two.stdout)} == {"current", "older"}


def test_several_servers_refuse_client_names_and_all_profiles_needs_a_profile() -> None:
    none_saved = run_cli("health", "--all-profiles")
    assert none_saved.exit_code == 2 and "no profile is saved" in none_saved.stderr
    named = run_cli("health", "--profile", "a", "--profile", "b", "--client", "DC01")
    assert named.exit_code == 2 and "one --profile" in named.stderr


def last_runs(stdout: str) -> dict[str, tuple[int, str, str] | None]:
    """Client name -> (id, status) of its last run and its strip, in a `health -o json` output."""
    return {
        row["name"]: None
        if row["last_run"] is None
        else (row["last_run"]["id"], row["last_run"]["status"], row["strip"])
        for row in json.loads(stdout)
    }


def test_a_clients_last_run_is_its_newest_finished_run_whatever_the_window_and_the_read(
    two_servers: tuple[tuple[DemoServer, PathsSeen], tuple[DemoServer, PathsSeen]],
) -> None:
    """A run still ready or running (completed-jobs lists it, jobs/finished does not) is no last run: `--since -24h`
    (the fleet's finished runs only) and `-7d`/`-30d` (a client's own history read too) name the same run and show
    the same strip, as does a server read client by client (walk of issue 28: NYC-02 was 3993 Ingesting at -24h,
    4000 Ready at -7d)."""
    seen: dict[str, dict[str, tuple[int, str, str] | None]] = {}
    for profile in ("current", "older"):
        for since in ("-24h", "-7d", "-30d"):
            result = run_cli("health", "--profile", profile, "--since", since, "-o", "json")
            assert result.exit_code in (0, 6), result.stderr
            seen[f"{profile} {since}"] = last_runs(result.stdout)
    first = seen["current -24h"]
    assert first and all(run is None or run[1] not in ("Ready", "Running") for run in first.values())
    for label, runs in seen.items():
        assert runs == first, label
