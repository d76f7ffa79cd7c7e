"""`svctui health` against the demo server: one test per verdict, the exit codes cron reads, and bad input."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from svctui.api.limits import CLI_DEPRECATION_NOTE
from svctui.demo.config import FIXED_ANCHOR, Faults
from svctui.demo.data_health import FLEET_NEW_CLIENT
from svctui.demo.server import DemoServer
from tests.support.cli import demo_env, invoke
from tests.support.demo_http import scalar

NOW = FIXED_ANCHOR.isoformat().replace("+00:00", "Z")


@pytest.fixture
def fleet(demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[DemoServer]:
    """The session's demo server as the profile, the commands' clock at the data's anchor."""
    for name, value in demo_env(demo_server, COLUMNS="160", SVCTUI_FROZEN_NOW=NOW).items():
        monkeypatch.setenv(name, value)
    yield demo_server


def client_named(demo: DemoServer, name: str) -> str:
    found = scalar(demo.db_path, "SELECT id FROM clients WHERE name = ?", (name,))
    assert isinstance(found, str)
    return found


def health_of(*args: str) -> tuple[int, list[dict[str, Any]], str]:
    result = invoke(["health", "-o", "json", *args])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else [], result.stderr


@pytest.mark.parametrize(
    ("name", "verdict", "code"),
    [
        ("SHARPHOUND-DC01", "failing", 6),
        ("SHARPHOUND-LON-01", "stale", 6),
        ("SHARPHOUND-FRA-03", "drops", 6),
        (FLEET_NEW_CLIENT, "never ran", 0),  # never-ran is not in the default --fail-on
        ("SHARPHOUND-LAB", "ok", 0),
    ],
)
def test_each_verdict_and_its_exit_code(fleet: DemoServer, name: str, verdict: str, code: int) -> None:
    exit_code, rows, stderr = health_of("--client", client_named(fleet, name))
    assert (exit_code, [row["verdict"] for row in rows], [row["name"] for row in rows]) == (code, [verdict], [name])
    assert ("unhealthy: 1 of 1" in stderr) is (code == 6)


def test_the_whole_fleet_worst_first_and_fail_on_chooses_what_is_unhealthy(fleet: DemoServer) -> None:
    exit_code, rows, _ = health_of()
    verdicts = [row["verdict"] for row in rows]
    assert exit_code == 6 and verdicts[:4] == ["failing", "stale", "drops", "never ran"]
    assert set(verdicts[4:]) == {"ok"} and len(rows) == scalar(fleet.db_path, "SELECT count(*) FROM clients")
    failing = rows[0]
    assert failing["not_ok_in_window"] > 0 and failing["failures"] and set(failing["strip"][-4:]) <= {"F", "I", "A"}
    assert health_of("--fail-on", "none")[0] == 0
    assert health_of("--fail-on", "never-ran")[0] == 6
    lab = client_named(fleet, "SHARPHOUND-LAB")
    assert health_of("--client", lab, "--fail-on", "not-ok,drops,stale,never-ran")[0] == 0


def test_table_output_reads_without_colour(fleet: DemoServer) -> None:
    result = invoke(["health"])
    assert result.exit_code == 6
    assert "not counted (not in --fail-on): 1 never-ran" in result.stderr, "the dashboard counts it: say why not here"
    drops = next(line for line in result.stdout.splitlines() if line.startswith("DROPS"))
    assert re.search(r"task \d+: \S+ \w[\w ]* [\d,]+ → [\d,]+ \(-[\d.]+ %\)", drops), drops
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["VERDICT", "CLIENT"]
    assert lines[1].startswith("FAILING") and "SHARPHOUND-DC01" in lines[1]
    assert any(line.startswith("ok") and "SHARPHOUND-LAB" in line for line in lines)


def test_an_unknown_client_is_exit_4_and_the_others_still_print(fleet: DemoServer) -> None:
    """Exit 4 is "not found: unknown client" for every command (COMMANDS.md); health said 5 for a mistyped --client."""
    missing = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
    exit_code, rows, stderr = health_of("--client", missing, "--client", client_named(fleet, "SHARPHOUND-LAB"))
    assert exit_code == 4 and "1 client(s) not found on this server; `svctui clients list` lists them" in stderr
    assert [row["verdict"] for row in rows] == ["error", "ok"] and "404" in rows[0]["error"]


def test_a_server_that_fails_is_exit_5(fleet: DemoServer) -> None:
    fleet.faults = Faults(error_rate=1.0)  # every authenticated request answers the 500 envelope
    try:
        exit_code, rows, stderr = health_of("--client", client_named(fleet, "SHARPHOUND-LAB"))
    finally:
        fleet.faults = Faults()
    assert exit_code == 5 and rows == [] and "500" in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fail-on", "bogus"], "allowed: a comma-separated list of not-ok, drops, stale, never-ran, or none"),
        (["--since", "soon"], "--since 'soon' is not a time"),
        (["--since", "+1d"], "is not in the past"),
        (["--since", "99999999d"], "--since '-99999999d' is out of range: a relative time must land between the years"),
        (["--stale-after", "often"], "--stale-after 'often' is not a duration"),
        (["--client", ""], "--client '' is neither a client's uuid nor its name"),
    ],
)
def test_bad_input_is_exit_2_before_any_request(fleet: DemoServer, args: list[str], message: str) -> None:
    before = fleet.request_count
    result = invoke(["health", *args])
    assert result.exit_code == 2 and message in result.stderr
    assert fleet.request_count == before


def test_a_community_server_needs_the_clients_named(demo_server_community: DemoServer, monkeypatch: Any) -> None:
    for name, value in demo_env(demo_server_community, SVCTUI_FROZEN_NOW=NOW).items():
        monkeypatch.setenv(name, value)
    result = invoke(["health"])
    assert result.exit_code == 2 and "name them with --client ID" in result.stderr


def test_a_pipe_gets_whole_cells_so_a_cron_mail_keeps_the_reason(
    fleet: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer audit: piped (cron), the table was cut at 120 columns: `task 3989: Kerberos au…`. Without a terminal
    (and no COLUMNS) nothing is cut: the table's note holds the JSON's latest failure whole."""
    monkeypatch.delenv("COLUMNS")
    client = client_named(fleet, "SHARPHOUND-DC01")
    _, rows, _ = health_of("--client", client)
    table = invoke(["health", "--client", client])
    failure = rows[0]["failures"][0]
    assert f"task {failure['id']}: {failure['message']}" in table.stdout and "…" not in table.stdout


def test_the_deprecated_endpoint_is_noted_once_in_the_cli_words(fleet: DemoServer) -> None:
    """The client's deprecation notice reaches stderr as the CLI's note (how to switch: --endpoint), not the
    library's hint."""
    _, rows, stderr = health_of("--client", client_named(fleet, "SHARPHOUND-LAB"), "--endpoint", "completed-tasks")
    assert [row["verdict"] for row in rows] == ["ok"]
    assert [line for line in stderr.splitlines() if "deprecated" in line] == [CLI_DEPRECATION_NOTE]


def test_at_80_columns_every_client_name_is_whole_and_low_value_columns_give_way(
    fleet: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer audit: at COLUMNS=80 (SSH) every client read `SHARPHO…` while the fixed columns stayed whole. The
    names are whole now; the history strip is left out, said once on stderr."""
    monkeypatch.setenv("COLUMNS", "80")
    _, rows, _ = health_of()
    table = invoke(["health"])
    lines = table.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    start = lines[0].index("CLIENT")
    names = [line[start:].split()[0] for line in lines[1:] if line[:start].strip()]  # a long note continues below
    assert names == [row["name"] for row in rows]  # each name whole
    assert "LAST 20 RUNS" not in lines[0] and lines[0].split()[:2] == ["VERDICT", "CLIENT"]
    notes = [line for line in table.stderr.splitlines() if "left out" in line]
    assert len(notes) == 1 and notes[0].startswith("note: ") and "(LAST 20 RUNS" in notes[0]


def test_a_client_named_by_name_is_checked_as_by_its_uuid(fleet: DemoServer) -> None:
    """Newcomer audit: `--client` took only a uuid; the dashboard's picker takes a name. Any case, whole name."""
    by_uuid = health_of("--client", client_named(fleet, "SHARPHOUND-DC01"))
    assert health_of("--client", "sharphound-dc01") == by_uuid and by_uuid[1][0]["name"] == "SHARPHOUND-DC01"
    code, rows, stderr = health_of("--client", "SHARPHOUND-DC")
    assert (code, rows) == (2, []) and "did you mean: SHARPHOUND-DC01" in stderr and "svctui clients list" in stderr


def test_the_table_and_the_json_spell_each_verdict_alike_as_documented(fleet: DemoServer) -> None:
    """`health` printed `NEVER RAN` where `-o json` said `"never ran"` and `problems` `"never-ran"`, and
    docs/COMMANDS.md gave none of the JSON's values: the table's verdict is the JSON's in capitals (a problem) or
    as it is (`ok`), and the page names every value of `verdict` and `problems` as the JSON spells them."""
    from svctui.triage.health import Problem, Verdict

    table = invoke(["health", "--fail-on", "none"])
    _, rows, _ = health_of("--fail-on", "none")
    lines = [line for line in table.stdout.splitlines()[1:] if not line.startswith(" ")]  # not a note's next lines
    by_name = {row["name"]: row["verdict"] for row in rows}
    assert len(lines) == len(rows) and set(by_name.values()) == {str(verdict) for verdict in Verdict}
    for line in lines:
        name = next(name for name in by_name if f"  {name}  " in line)
        verdict = by_name[name]
        assert line.startswith(verdict if verdict == "ok" else verdict.upper()), line
    page = (Path(__file__).resolve().parents[2] / "docs" / "COMMANDS.md").read_text(encoding="utf-8")
    json_bullet = page[page.index("- `-o json` prints the same as an array") :].split("\n\n", 1)[0]
    for value in [*(str(verdict) for verdict in Verdict), "error", *(str(problem) for problem in Problem)]:
        assert f'`"{value}"`' in json_bullet, value
