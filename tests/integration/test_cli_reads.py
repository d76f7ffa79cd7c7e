"""`svctui events|tasks|tags|selectors list` against the demo server over loopback, in every format."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
from datetime import timedelta
from typing import Any

import pytest
from pydantic import TypeAdapter

from svctui.api.limits import CLI_DEPRECATION_NOTE, TASKS_DEPRECATION
from svctui.api.models import AssetGroupTag, CompletedTask, Event, Selector
from svctui.clock import FROZEN_NOW_ENV
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.data_health import FLEET_NEW_CLIENT
from svctui.demo.server import DemoServer
from svctui.schedule import describe, next_run_at, next_run_words
from tests.support.cli import (
    SVCTUI_BIN,
    DemoLike,
    add_profile,
    invoke,
    json_items,
    jsonl_items,
    run_binary,
    run_on_pty,
    use_demo_env,
)
from tests.support.demo_http import all_items, signed

FORMATS = ("table", "json", "jsonl", "csv")


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The demo server as the environment profile, for CliRunner and subprocess runs alike."""
    return use_demo_env(monkeypatch, demo_server, COLUMNS="100")


@pytest.fixture
def client_id(env: dict[str, str]) -> str:
    """The client with the most completed tasks, found through the commands themselves."""
    result = invoke(["events", "list", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    totals: dict[str, int] = {}
    for candidate in {event["client_id"] for event in jsonl_items(result.stdout)}:
        listed = invoke(["tasks", "list", candidate, "--limit", "1", "--endpoint", "completed-jobs"])
        assert listed.exit_code == 0, listed.stderr
        match = re.search(r"of ([0-9,]+) tasks", listed.stderr)
        totals[candidate] = int(match.group(1).replace(",", "")) if match else 0
    best = max(totals, key=lambda key: totals[key])
    assert totals[best] > 10
    return best


@pytest.fixture
def tag_id(env: dict[str, str]) -> int:
    """A tag with several selectors."""
    result = invoke(["tags", "list", "-o", "json"])
    assert result.exit_code == 0, result.stderr
    for tag in json_items(result.stdout):
        listed = invoke(["selectors", "list", str(tag["id"]), "-o", "json", "--limit", "5"])
        if len(json_items(listed.stdout)) >= 5:
            return int(tag["id"])
    raise AssertionError("no tag with 5 selectors in the demo data")


def _table_lines(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    assert lines, "empty table"
    assert all(len(line) <= 100 for line in lines), max(lines, key=len)
    return lines


# ---------------------------------------------------------------- events


@pytest.mark.parametrize("fmt", FORMATS)
def test_events_list_every_format(env: dict[str, str], fmt: str) -> None:
    result = invoke(["events", "list", "--limit", "7", "--sort", "id", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    if fmt == "table":
        lines = _table_lines(out)
        assert lines[0].split()[:3] == ["ID", "CLIENT", "SCHEDULE"]
        assert len(lines) == 8
        # the schedule in words (as the dashboard shows it), never the raw rule
        assert any(word in out for word in ("Daily", "Hourly", "Weekly"))
        assert "RRULE:" not in out and "FREQ=" not in out
        assert "showing 1-7 of" in result.stderr
    elif fmt == "json":
        events = TypeAdapter(list[Event]).validate_json(out)
        assert [e.id for e in events] == sorted(e.id for e in events)
        assert len(events) == 7
        # json is the list of items as the models parsed them: dumping the parsed models gives the same data
        assert [e.model_dump(mode="json") for e in events] == json_items(out)
    elif fmt == "jsonl":
        items = jsonl_items(out)
        assert len(items) == 7
        assert all(Event.model_validate(item).id == item["id"] for item in items)
    else:
        rows = list(csv.DictReader(io.StringIO(out)))
        assert len(rows) == 7
        assert {"id", "client_id", "rrule", "domains_count", "domains", "ous_count", "ous"} <= set(rows[0])
        with_domains = [row for row in rows if int(row["domains_count"]) > 0]
        assert with_domains and all(row["domains"].count(";") == int(row["domains_count"]) - 1 for row in with_domains)
    assert "note: showing 1-7 of" in result.stderr  # every format says it holds a first page (issue 28)


def test_events_list_names_the_next_run_as_the_dashboard_does(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    now = FIXED_ANCHOR + timedelta(hours=3, minutes=7)
    monkeypatch.setenv(FROZEN_NOW_ENV, now.isoformat())
    events = json_items(invoke(["events", "list", "--limit", "30", "--sort", "id", "-o", "json"]).stdout)
    rules = [str(event["rrule"]) for event in events]
    table = invoke(["events", "list", "--limit", "30", "--sort", "id"])
    assert table.exit_code == 0, table.stderr
    lines = _table_lines(table.stdout)
    assert lines[0].split()[:5] == ["ID", "CLIENT", "SCHEDULE", "NEXT", "RUN"]
    start = lines[0].index("NEXT RUN")
    shown = [line[start:] for line in lines[1:]]
    words = [" ".join(next_run_words(rule, now).split()) for rule in rules]  # a table cell is one spaced line
    assert {"- (rule has no DTSTART)", "ended"} & set(words) or len(set(words)) > 1, "the demo's rules vary"
    for cell, said in zip(shown, words, strict=True):
        assert cell.startswith(said[:17]), (cell, said)  # the date at least; the rest as it fits at 100 columns
    assert any(cell.startswith(said) for cell, said in zip(shown, words, strict=True)), "whole where it fits"
    rows = list(
        csv.DictReader(io.StringIO(invoke(["events", "list", "--limit", "30", "--sort", "id", "-o", "csv"]).stdout))
    )
    headers = list(rows[0])
    assert headers.index("svctui_next_run") == headers.index("next_scheduled_at") + 1
    for row, rule in zip(rows, rules, strict=True):
        at = next_run_at(rule, now)
        assert row["svctui_next_run"] == ("" if at is None else at.isoformat().replace("+00:00", "Z"))
    assert any(row["svctui_next_run"] for row in rows)


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_events_json_keeps_the_servers_fields_and_adds_the_tables_under_svctui_names(
    env: dict[str, str], demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """Issue 28: `-o json` gave `client_name: null` and no next run while the table showed both. The server's fields
    are kept as sent; the computed ones are added under `svctui_` names: the client's name and the next run."""
    now = FIXED_ANCHOR + timedelta(hours=3, minutes=7)
    monkeypatch.setenv(FROZEN_NOW_ENV, now.isoformat())
    result = invoke(["events", "list", "--limit", "30", "--sort", "id", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    items = json_items(result.stdout) if fmt == "json" else jsonl_items(result.stdout)
    served = all_items(signed(demo_server), "/api/v2/events", [("sort_by", "id")])[:30]
    assert len(items) == len(served) == 30
    names = {client["id"]: client["name"] for client in all_items(signed(demo_server), "/api/v2/clients")}
    for item, sent in zip(items, served, strict=True):
        computed = {key: value for key, value in item.items() if key.startswith("svctui_")}
        assert {key: value for key, value in item.items() if key not in computed} == Event.model_validate(
            sent
        ).model_dump(mode="json"), "the server's fields as the model parses them"
        at = next_run_at(str(sent["rrule"]), now)
        assert computed == {  # data only: the table's words (`in 6d 23h`) would be stale once the file is read
            "svctui_client_name": sent.get("client_name") or names[sent["client_id"]],
            "svctui_next_run": None if at is None else at.isoformat().replace("+00:00", "Z"),
        }
    assert all(item["svctui_client_name"] for item in items) and not any(sent.get("client_name") for sent in served)


COUNTDOWN = re.compile(r"\bin \d+[smhd]\b|\b\d+[smhd] ago\b|\bended\b")  # the table's words for a time


@pytest.mark.parametrize("fmt", ["csv", "json", "jsonl"])
@pytest.mark.parametrize("command", ["events list", "tasks list CLIENT", "clients list"])
def test_files_carry_data_not_the_tables_countdown(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, client_id: str, command: str, fmt: str
) -> None:
    """Review: `events list -o csv|json|jsonl` wrote `svctui_next_run_text` (`in 6d 23h`), screen text that is
    stale once the file is read. Files carry data: the next run as RFC 3339 UTC, no countdown, in any list."""
    monkeypatch.setenv(FROZEN_NOW_ENV, (FIXED_ANCHOR + timedelta(hours=3, minutes=7)).isoformat())
    args = [client_id if word == "CLIENT" else word for word in command.split()]
    table = invoke([*args, "--limit", "30"])
    assert table.exit_code == 0, table.stderr
    if args[0] == "events":
        assert COUNTDOWN.search(table.stdout), "the table still says it in words"
    result = invoke([*args, "--limit", "30", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
    else:
        rows = json_items(result.stdout) if fmt == "json" else jsonl_items(result.stdout)
    assert rows and not [name for name in rows[0] if name.endswith("_text")], list(rows[0])
    found = [(name, value) for row in rows for name, value in row.items() if COUNTDOWN.search(str(value))]
    assert not found, found[:3]
    if args[0] == "events":
        times = [row["svctui_next_run"] for row in rows if row["svctui_next_run"]]
        assert times and all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", time) for time in times), times


def test_events_csv_writes_each_rule_on_one_line(env: dict[str, str], demo_server: DemoServer) -> None:
    """Issue 28: the rule (DTSTART, a line break, RRULE) made each event two lines of the CSV file; it is one line,
    its break written `\\n` as JSON writes it, and reads back as the same schedule."""
    result = invoke(["events", "list", "--limit", "30", "--sort", "id", "-o", "csv"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    served = all_items(signed(demo_server), "/api/v2/events", [("sort_by", "id")])[:30]
    assert len(lines) == len(rows) + 1 == 31, "a header and one line per event"
    with_two_lines = [sent for sent in served if "\n" in str(sent["rrule"])]
    assert with_two_lines, "the demo's rules have a DTSTART line"
    for row, sent in zip(rows, served, strict=True):
        assert row["rrule"] == str(sent["rrule"]).replace("\n", "\\n")
        assert describe(row["rrule"]) == describe(str(sent["rrule"]))


@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_events_list_reads_the_clock_once(env: dict[str, str], monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """Review: `events list` read the clock once per row (each row's next run); a command now reads it once and
    works every row out at that moment. Counted by wrapping svctui's clock, which still tells the time."""
    from svctui.clock import make_clock

    readings: list[object] = []

    def counted(environ: Any = None) -> Any:
        clock, frozen = make_clock(environ)

        def reading() -> Any:
            readings.append(None)
            return clock()

        return reading, frozen

    monkeypatch.setattr("svctui.commands.table.make_clock", counted)
    result = invoke(["events", "list", "--limit", "30", "--sort", "id", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) > 2
    assert len(readings) == 1


def test_skip_past_the_end_says_how_many_there_are(env: dict[str, str]) -> None:
    total = len(jsonl_items(invoke(["events", "list", "--all", "-o", "jsonl"]).stdout))
    result = invoke(["events", "list", "--skip", "100000"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"note: --skip 100,000 is past the end: there are {total:,} events\nno events found\n"
    quiet = invoke(["events", "list", "--skip", "100000", "-o", "json"])  # stdout stays pure JSON, the note on stderr
    assert (quiet.stdout, quiet.stderr) == (
        "[]\n",
        f"note: --skip 100,000 is past the end: there are {total:,} events\n",
    )


@pytest.mark.parametrize("columns", [44, 97])
def test_table_fits_the_real_terminal(env: dict[str, str], columns: int) -> None:
    """On a terminal (no COLUMNS set) every line of every table fits the terminal's width (not the 120 fallback)."""
    for args in (["events", "list", "--limit", "30"], ["tags", "list"], ["selectors", "list", "1", "--limit", "30"]):
        code, screen = run_on_pty(args, env, columns=columns, drop=("COLUMNS", "LINES"))
        assert code == 0, screen
        lines = [line for line in screen.splitlines() if line and not line.startswith(("showing ", "note: "))]
        assert lines[0].startswith("ID "), screen
        assert len(lines) > 2
        assert all(len(line) <= columns for line in lines), max(lines, key=len)


def test_at_80_columns_names_stay_whole_and_low_value_columns_give_way(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer audit: at COLUMNS=80 every client read `SHARPHO…` and every selector `Accounts li…` while the fixed
    columns stayed whole. Names keep 20 cells (or all of a shorter one); counts are left out, said on stderr."""
    monkeypatch.setenv("COLUMNS", "80")
    events = invoke(["events", "list", "--limit", "20", "--sort", "id"])
    assert events.exit_code == 0, events.stderr
    lines = events.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    listed = jsonl_items(invoke(["events", "list", "--limit", "20", "--sort", "id", "-o", "jsonl"]).stdout)
    names = invoke(["clients", "list", "--all", "-o", "jsonl"]).stdout
    name_of = {client["id"]: client["name"] for client in jsonl_items(names)}
    assert all(name_of[event["client_id"]] in line for event, line in zip(listed, lines[1:], strict=True))
    assert (
        "OUS" not in lines[0].split() and "left out at 80 columns (DOMAIN NAMES, OUS, DOMAINS, KINDS)" in events.stderr
    )
    selectors = invoke(["selectors", "list", "1", "--limit", "20"])
    assert selectors.exit_code == 0, selectors.stderr
    lines = selectors.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    for item, line in zip(
        json_items(invoke(["selectors", "list", "1", "--limit", "20", "-o", "json"]).stdout), lines[1:], strict=True
    ):
        assert line.split()[0] == str(item["id"])
        assert item["name"][:19] in line  # at least 20 cells of the name (19 letters and the cut mark)
    assert "AUTO CERTIFY" not in lines[0]


def _left_out(stderr: str) -> list[str]:
    """The headers a table's note says were left out (none without a note)."""
    found = re.search(r"left out at \d+ columns \(([^)]*)\)", stderr)
    return found.group(1).split(", ") if found else []


def test_at_80_columns_the_note_and_the_headers_agree_and_short_values_stay_whole(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer audit: at COLUMNS=80 `events list` showed a `DOMAIN …` column (DOMAIN NAMES cut) while its note said
    DOMAINS was left out, and `clients list` cut TYPE to `shar…`/`azur…` beside the whole 36-cell ids. Every header
    is now whole and not named in the note; a short value (a type) is whole or its column left out."""
    monkeypatch.setenv("COLUMNS", "80")
    events = invoke(["events", "list", "--limit", "20", "--sort", "id"])
    assert events.exit_code == 0, events.stderr
    header = events.stdout.splitlines()[0]
    assert "…" not in header and _left_out(events.stderr) == ["DOMAIN NAMES", "OUS", "DOMAINS", "KINDS"]
    assert re.split(r"\s{2,}", header.strip()) == ["ID", "CLIENT", "SCHEDULE", "NEXT RUN"]  # the next run whole
    clients = invoke(["clients", "list"])
    assert clients.exit_code == 0, clients.stderr
    lines = clients.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines) and "…" not in lines[0]
    assert re.split(r"\s{2,}", lines[0].strip()) == ["ID", "NAME", "CHECK-IN (UTC)", "JOBS"]
    assert "TYPE" in _left_out(clients.stderr), "the type is left out whole, not cut to `shar…`"
    listed = jsonl_items(invoke(["clients", "list", "-o", "jsonl"]).stdout)
    for client, line in zip(listed, lines[1:], strict=True):
        assert line.startswith(f"{client['id']}  {client['name']}")
    monkeypatch.setenv("COLUMNS", "90")  # room for the type: whole
    wider = invoke(["clients", "list"])
    assert "TYPE" in wider.stdout.splitlines()[0] and "TYPE" not in _left_out(wider.stderr)
    rows = wider.stdout.splitlines()[1:]
    assert all(f"  {client['type']}  " in line for client, line in zip(listed, rows, strict=True))


def test_events_json_round_trips_exactly(env: dict[str, str]) -> None:
    first = invoke(["events", "list", "--limit", "25", "-o", "json"])
    assert first.exit_code == 0, first.stderr
    parsed = TypeAdapter(list[Event]).validate_json(first.stdout)
    again = TypeAdapter(list[Event]).validate_python(json_items(first.stdout))
    assert parsed == again
    assert TypeAdapter(list[Event]).dump_python(parsed, mode="json") == json_items(first.stdout)


def test_events_filter_sort_skip_limit(env: dict[str, str]) -> None:
    everything = invoke(["events", "list", "--all", "--sort", "-id", "-o", "jsonl"])
    assert everything.exit_code == 0, everything.stderr
    all_ids = [item["id"] for item in jsonl_items(everything.stdout)]
    assert all_ids == sorted(all_ids, reverse=True)
    window = invoke(["events", "list", "--sort", "-id", "--skip", "5", "--limit", "10", "-o", "jsonl"])
    assert [item["id"] for item in jsonl_items(window.stdout)] == all_ids[5:15]
    filtered = invoke(["events", "list", "--all", "-f", "session_collection=true", "-f", "id=gt:3", "-o", "jsonl"])
    assert filtered.exit_code == 0, filtered.stderr
    items = jsonl_items(filtered.stdout)
    assert items and all(item["session_collection"] and item["id"] > 3 for item in items)
    assert len(items) < len(all_ids)


def test_events_all_streams_pages_into_one_json_array(env: dict[str, str]) -> None:
    paged = invoke(["events", "list", "--all", "--page-size", "37", "-o", "json"])
    whole = invoke(["events", "list", "--all", "--page-size", "1000", "-o", "json"])
    assert paged.exit_code == whole.exit_code == 0
    assert json_items(paged.stdout) == json_items(whole.stdout)
    assert len(json_items(paged.stdout)) > 37 * 2
    capped = invoke(["events", "list", "--all", "--page-size", "37", "--limit", "50", "-o", "jsonl"])
    assert [item["id"] for item in jsonl_items(capped.stdout)] == [item["id"] for item in json_items(whole.stdout)][:50]


def test_events_all_table_keeps_one_header(env: dict[str, str]) -> None:
    result = invoke(["events", "list", "--all", "--page-size", "50"])
    assert result.exit_code == 0, result.stderr
    lines = _table_lines(result.stdout)
    assert sum(1 for line in lines if line.startswith("ID ")) == 1
    count = len(jsonl_items(invoke(["events", "list", "--all", "-o", "jsonl"]).stdout))
    assert len(lines) == count + 1
    assert "showing" not in result.stderr


def test_events_without_hydration_carry_objectids_only(env: dict[str, str]) -> None:
    hydrated = jsonl_items(invoke(["events", "list", "--limit", "20", "-o", "jsonl"]).stdout)
    assert any(d["name"] for e in hydrated for d in e["domains"])
    bare = invoke(["events", "list", "--limit", "20", "--no-hydrate-domains", "--no-hydrate-ous", "-o", "jsonl"])
    items = jsonl_items(bare.stdout)
    assert any(e["domains"] for e in items)
    assert all(not d["name"] for e in items for d in e["domains"])
    assert all(not o["name"] for e in items for o in e["ous"])


def test_root_profile_option_and_subcommand_profile_option(env: dict[str, str]) -> None:
    # --profile names a stored profile in either place; a name the file lacks is refused even with the environment
    # complete (test_cli_profile_typo.py): it is no longer an env-only profile under any name
    for args in (["--profile", "ops", "events", "list"], ["events", "list", "--profile", "ops"]):
        assert invoke([*args, "--limit", "1"]).exit_code == 2
    stored = add_profile("ops", env["SVCTUI_BASE_URL"], env["SVCTUI_TOKEN_ID"], env["SVCTUI_TOKEN_KEY"])
    assert stored.exit_code == 0, stored.stderr
    for args in (["--profile", "ops", "events", "list"], ["events", "list", "--profile", "ops"]):
        result = invoke([*args, "--limit", "1", "-o", "jsonl"])
        assert result.exit_code == 0, result.stderr
        assert len(jsonl_items(result.stdout)) == 1


# ---------------------------------------------------------------- tasks


@pytest.mark.parametrize("fmt", FORMATS)
def test_tasks_list_every_format(env: dict[str, str], client_id: str, fmt: str) -> None:
    result = invoke(["tasks", "list", client_id, "--limit", "6", "--sort", "-execution_time", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    assert "deprecated" not in result.stderr, "completed-jobs by default: no deprecation note (issue 26)"
    out = result.stdout
    if fmt == "table":
        lines = _table_lines(out)
        assert lines[0].split()[:3] == ["ID", "EVENT", "EXECUTED"]
        assert len([line for line in lines[1:] if line[:4].strip()]) == 6  # a long message continues below its row
    elif fmt == "json":
        tasks = TypeAdapter(list[CompletedTask]).validate_json(out)
        assert len(tasks) == 6 and all(t.client_id == client_id for t in tasks)
        times = [t.execution_time for t in tasks if t.execution_time]
        assert times == sorted(times, reverse=True)
        assert [t.model_dump(mode="json") for t in tasks] == json_items(out)
        assert all(
            item["svctui_status_label"] == t.status_label for item, t in zip(json_items(out), tasks, strict=True)
        )
    elif fmt == "jsonl":
        assert len([CompletedTask.model_validate(item) for item in jsonl_items(out)]) == 6
    else:
        rows = list(csv.DictReader(io.StringIO(out)))
        assert len(rows) == 6
        for row in rows:
            assert row["status_label"]
            assert int(row["domain_results_ok"]) + int(row["domain_results_failed"]) >= 0
            assert int(row["domains_count"]) == (row["domains"].count(";") + 1 if row["domains"] else 0)


def test_tasks_list_takes_a_client_name_in_any_case(env: dict[str, str], client_id: str) -> None:
    """Newcomer audit: `tasks list SHARPHOUND-DC01` said the name is not a uuid. A client's whole name, in any case,
    lists what its uuid lists; a name no client has is exit 2 naming the nearest names and `svctui clients list`."""
    names = {item["id"]: item["name"] for item in jsonl_items(invoke(["clients", "list", "-o", "jsonl"]).stdout)}
    args = ["--limit", "7", "--endpoint", "completed-jobs"]
    for fmt in ("jsonl", "table"):
        by_uuid = invoke(["tasks", "list", client_id, *args, "-o", fmt])
        by_name = invoke(["tasks", "list", f" {names[client_id].lower()} ", *args, "-o", fmt])
        assert by_uuid.exit_code == by_name.exit_code == 0, by_name.stderr
        assert by_name.stdout == by_uuid.stdout and by_name.stdout.count("\n") >= 7
    unknown = invoke(["tasks", "list", names[client_id][:-1], *args])
    assert (unknown.exit_code, unknown.stdout) == (2, "")
    assert f"CLIENT_ID {names[client_id][:-1]!r} is no client's name or uuid; did you mean: " in unknown.stderr
    assert names[client_id] in unknown.stderr and "`svctui clients list`" in unknown.stderr


def test_tasks_both_endpoints_agree_and_only_the_old_one_warns(env: dict[str, str], client_id: str) -> None:
    old = invoke(["tasks", "list", client_id, "--limit", "30", "-o", "json", "--endpoint", "completed-tasks"])
    new = invoke(["tasks", "list", client_id, "--limit", "30", "-o", "json"])  # completed-jobs, the default
    assert old.exit_code == new.exit_code == 0
    assert json_items(old.stdout) == json_items(new.stdout)
    first_page = "note: showing 1-30 of "  # a first page says so in every format (issue 28)
    assert [line for line in old.stderr.splitlines() if not line.startswith(first_page)] == [CLI_DEPRECATION_NOTE]
    assert TASKS_DEPRECATION in CLI_DEPRECATION_NOTE  # the one sentence of the fact, with the CLI's hint
    assert new.stderr.startswith(first_page) and len(new.stderr.splitlines()) == 1


def test_tasks_filter_by_status_label(env: dict[str, str], client_id: str) -> None:
    result = invoke(
        ["tasks", "list", client_id, "--all", "-f", "status=failed", "-o", "jsonl", "--endpoint", "completed-jobs"]
    )
    assert result.exit_code == 0, result.stderr
    items = jsonl_items(result.stdout)
    assert items and all(item["status"] == 5 for item in items)


# ---------------------------------------------------------------- tags and selectors


@pytest.mark.parametrize("fmt", FORMATS)
def test_tags_list_every_format(env: dict[str, str], fmt: str) -> None:
    result = invoke(["tags", "list", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    if fmt == "table":
        lines = _table_lines(result.stdout)
        assert lines[0].split()[:3] == ["ID", "TYPE", "NAME"]
        assert len(lines) >= 3
    elif fmt == "json":
        tags = TypeAdapter(list[AssetGroupTag]).validate_json(result.stdout)
        assert tags and all(t.name for t in tags)
        assert [t.model_dump(mode="json") for t in tags] == json_items(result.stdout)
    elif fmt == "jsonl":
        assert all(AssetGroupTag.model_validate(item).name for item in jsonl_items(result.stdout))
    else:
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert rows and {"id", "type", "name", "description"} <= set(rows[0])


def test_tags_list_filters_on_the_real_servers_columns(env: dict[str, str]) -> None:
    every = TypeAdapter(list[AssetGroupTag]).validate_json(invoke(["tags", "list", "-o", "json"]).stdout)
    certified = invoke(["tags", "list", "-f", "analysis_enabled=eq:true", "-f", "created_by=neq:nobody", "-o", "json"])
    assert certified.exit_code == 0, certified.stderr
    found = TypeAdapter(list[AssetGroupTag]).validate_json(certified.stdout)
    assert found and [t.id for t in found] == [t.id for t in every if t.analysis_enabled and t.created_by != "nobody"]
    skulls = invoke(["tags", "list", "-f", "glyph=~eq:kul", "-o", "json"])  # ~eq: a contains, as the server's
    assert skulls.exit_code == 0, skulls.stderr
    assert [t.name for t in TypeAdapter(list[AssetGroupTag]).validate_json(skulls.stdout)] == ["Owned"]
    refused = invoke(["tags", "list", "-f", "glyph=gt:x"])
    assert refused.exit_code == 2 and "glyph" in refused.stderr and "eq, ~eq, neq" in refused.stderr


def test_tags_list_by_position_exits_2_before_any_request(env: dict[str, str], demo_server: DemoLike) -> None:
    """Issue 26: the real server answers 400 to a `position` filter; svctui refuses it itself, naming what works."""
    before = demo_server.request_count  # type: ignore[attr-defined]
    result = invoke(["tags", "list", "-f", "position=eq:1"])
    assert result.exit_code == 2, result.stderr
    assert "'position' is not a filter column of asset group tags" in result.stderr
    assert "cannot be filtered: position" in result.stderr and "filter columns: name, description" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert demo_server.request_count == before  # type: ignore[attr-defined]


@pytest.mark.parametrize("fmt", FORMATS)
def test_selectors_list_every_format(env: dict[str, str], tag_id: int, fmt: str) -> None:
    result = invoke(["selectors", "list", str(tag_id), "--limit", "5", "--sort", "name", "-o", fmt])
    assert result.exit_code == 0, result.stderr
    if fmt == "table":
        lines = _table_lines(result.stdout)
        assert lines[0].split()[:3] == ["ID", "NAME", "DEFAULT"]
        assert len(lines) == 6
    elif fmt == "json":
        selectors = TypeAdapter(list[Selector]).validate_json(result.stdout)
        assert len(selectors) == 5 and all(s.asset_group_tag_id == tag_id for s in selectors)
        assert [s.name for s in selectors] == sorted(s.name for s in selectors)
        assert [s.model_dump(mode="json") for s in selectors] == json_items(result.stdout)
    elif fmt == "jsonl":
        assert len(jsonl_items(result.stdout)) == 5
    else:
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
        assert len(rows) == 5 and {"seeds_count", "seeds", "is_default"} <= set(rows[0])


def test_selectors_all_and_filters(env: dict[str, str], tag_id: int) -> None:
    everything = jsonl_items(
        invoke(["selectors", "list", str(tag_id), "--all", "--page-size", "2", "-o", "jsonl"]).stdout
    )
    assert len(everything) >= 5
    assert len({item["id"] for item in everything}) == len(everything)
    name_part = everything[0]["name"][:4]
    found = invoke(["selectors", "list", str(tag_id), "--all", "-f", f"name=~eq:{name_part}", "-o", "jsonl"])
    assert found.exit_code == 0, found.stderr
    items: list[dict[str, Any]] = jsonl_items(found.stdout)
    assert items and all(name_part in item["name"] for item in items)


# ---------------------------------------------------------------- the real binary


def test_binary_streams_jsonl_and_csv(env: dict[str, str]) -> None:
    jsonl = run_binary(["events", "list", "--all", "--page-size", "50", "-o", "jsonl"], env=env)
    assert jsonl.code == 0, jsonl.stderr
    events = [Event.model_validate(item) for item in jsonl_items(jsonl.stdout)]
    assert len(events) > 50
    table = run_binary(["tags", "list"], env=env)
    assert table.code == 0, table.stderr
    assert table.stdout.splitlines()[0].startswith("ID")
    assert all(len(line) <= 100 for line in table.stdout.splitlines())
    csv_run = run_binary(["events", "list", "--limit", "3", "-o", "csv"], env=env)
    assert csv_run.code == 0 and len(list(csv.DictReader(io.StringIO(csv_run.stdout)))) == 3


def test_binary_closed_pipe_is_quiet(env: dict[str, str]) -> None:
    shell = f"'{SVCTUI_BIN}' events list --all --page-size 10 -o jsonl | head -n 2"
    done = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, env={**os.environ, **env}, check=False, timeout=60
    )
    assert len(done.stdout.splitlines()) == 2
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


# ---------------------------------------------------------------- connection sources


def test_stored_profile_by_name_and_as_default(demo_server: DemoLike) -> None:
    where = ["--base-url", demo_server.base_url, "--token-id", demo_server.token_id]
    added = invoke(["profile", "add", "lab", *where, "--secret-stdin", "--default"], input=demo_server.token_key + "\n")
    assert added.exit_code == 0, added.stderr
    for args in (["--profile", "lab", "tags", "list"], ["tags", "list", "--profile", "lab"], ["tags", "list"]):
        result = invoke([*args, "-o", "json"])
        assert result.exit_code == 0, result.stderr
        assert TypeAdapter(list[AssetGroupTag]).validate_json(result.stdout)
    missing = invoke(["tags", "list", "--profile", "nope"])
    assert missing.exit_code == 2 and "nope" in missing.stderr


def test_bearer_jwt_from_the_environment(demo_server: DemoLike) -> None:
    jwt = getattr(demo_server, "jwt")  # noqa: B009 - the DemoLike protocol leaves the JWT out on purpose
    result = invoke(
        ["events", "list", "--limit", "2", "-o", "jsonl"],
        env={"SVCTUI_BASE_URL": demo_server.base_url, "SVCTUI_JWT": jwt},
    )
    assert result.exit_code == 0, result.stderr
    assert len(jsonl_items(result.stdout)) == 2
    assert jwt not in result.stdout + result.stderr


@pytest.mark.parametrize("fmt", FORMATS)
def test_clients_list_never_prints_a_clients_token(env: dict[str, str], demo_server: DemoLike, fmt: str) -> None:
    """Newcomer audit: `clients list -o csv` printed each client's `token` object (its id, name and user); the API
    model keeps it out of dumps, and every format must too (REAL-SERVER.md: never show or log it)."""
    assert isinstance(demo_server, DemoServer)
    with signed(demo_server) as http:  # the tokens as the server sends them
        tokens = [item["token"] for item in all_items(http, "/api/v2/clients") if item.get("token")]
    token_ids = [token["id"] for token in tokens]
    result = invoke(["clients", "list", "-o", fmt])
    assert result.exit_code == 0, result.output
    assert token_ids and not any(token_id in result.output for token_id in token_ids)
    assert " token" not in result.output and "token" not in result.output.splitlines()[0].lower()


def test_a_contains_filter_that_matched_nothing_says_it_is_case_sensitive(env: dict[str, str]) -> None:
    """Newcomer audit: `-f rrule=~eq:daily` printed only `no events found`; the dashboard's editor says `~eq` is
    case-sensitive, and the command now says it too (one wording, api.filters.case_note), only when nothing matched."""
    lower = invoke(["events", "list", "-f", "rrule=~eq:daily"])
    assert lower.exit_code == 0 and lower.stdout == ""
    assert "no events found" in lower.stderr
    assert "note: ~eq is case-sensitive on the server: 'daily' does not match 'DAILY', which differs only in case" in (
        lower.stderr
    ), "a note, as the docs show it; DAILY is no missing value, only other capitals"
    upper = invoke(["events", "list", "-f", "rrule=~eq:DAILY", "-o", "json"])
    assert upper.exit_code == 0 and json_items(upper.stdout) and "case-sensitive" not in upper.stderr


def test_clients_list_csv_names_each_clients_schedules_by_id(env: dict[str, str], demo_server: DemoLike) -> None:
    """Audit: the `events` column of `clients list -o csv` held each schedule's Python repr (~10 KB a row); it is
    the schedules' ids joined with `;`, as the server lists them, beside their count."""
    assert isinstance(demo_server, DemoServer)
    with signed(demo_server) as http:
        expected = {
            item["id"]: [str(event["id"]) for event in item["events"]] for item in all_items(http, "/api/v2/clients")
        }
    result = invoke(["clients", "list", "--all", "-o", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {row["id"] for row in rows} == set(expected) and any(expected.values())
    for row in rows:
        assert row["events"] == ";".join(expected[row["id"]]) and row["events_count"] == str(len(expected[row["id"]]))


def test_clients_list_table_shows_each_clients_type_after_its_name(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14 names the columns `name, type, version, hostname, …`: the table had no TYPE. The demo's fleet has an
    AzureHound collector (the client that never ran) beside the SharpHound ones."""
    monkeypatch.setenv("COLUMNS", "200")  # the names whole
    result = invoke(["clients", "list"])
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split()[:4] == ["ID", "NAME", "TYPE", "HOSTNAME"], header
    types = {row.split()[1]: row.split()[2] for row in rows}
    assert types[FLEET_NEW_CLIENT] == "azurehound" and set(types.values()) == {"sharphound", "azurehound"}, types


def test_at_80_columns_the_message_at_the_end_of_the_line_is_no_stub(
    env: dict[str, str], client_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer walk (issue 28 item 7): at COLUMNS=80 `tasks list` cut every message to `Ingesting c…` (11 cells)
    while the EVENT and DOMAINS counts kept their width. The message is whole (it wraps in its column, 18 cells or
    more): a column that may go is left out first, and the note names it."""
    monkeypatch.setenv("COLUMNS", "80")
    tasks = invoke(["tasks", "list", client_id, "--limit", "20"])
    assert tasks.exit_code == 0, tasks.stderr
    lines = tasks.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    start = lines[0].index("MESSAGE")
    listed = jsonl_items(invoke(["tasks", "list", client_id, "--limit", "20", "-o", "jsonl"]).stdout)
    rows: list[list[str]] = []
    for line in lines[1:]:  # a long message continues on the next lines
        if line[:start].strip():
            rows.append([line])
        else:
            rows[-1].append(line)
    assert "…" not in tasks.stdout and start + 18 <= 80
    for task, block in zip(listed, rows, strict=True):
        shown = "".join("".join(line[start:].split()) for line in block)
        assert shown == "".join(str(task["status_message"]).split()), (block, task["status_message"])
    assert "DOMAINS" in _left_out(tasks.stderr) and "DOMAINS" not in lines[0].split()


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv"])
def test_a_first_page_says_so_in_every_format(env: dict[str, str], fmt: str) -> None:
    """`events list -o json | jq length` printed 100 with 200 on the server and nothing on stderr: every format says
    (once, on stderr, in the table's words) that it holds a first page; stdout is unchanged; --all says nothing."""
    total = len(jsonl_items(invoke(["events", "list", "--all", "-o", "jsonl"]).stdout))
    first = invoke(["events", "list", "-o", fmt], env={"COLUMNS": "160"})
    assert first.exit_code == 0, first.stderr
    assert total > 100
    assert first.stderr.splitlines()[-1:] == [f"note: showing 1-100 of {total:,} events; more with --skip 100 or --all"]
    assert sum("of" in line and "events" in line for line in first.stderr.splitlines()) == 1
    if fmt == "json":
        assert len(json.loads(first.stdout)) == 100
    every = invoke(["events", "list", "--all", "-o", fmt], env={"COLUMNS": "160"})
    assert every.exit_code == 0 and "showing" not in every.stderr, every.stderr
