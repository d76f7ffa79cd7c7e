"""One width rule for every CLI table (issue 28): at 80 columns the column that holds the answer stays whole (a next
run, a name, outcomes, a request id's end) and optional columns are left out whole, said once on stderr; at 160
columns everything fits. Against the demo server over loopback."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import pytest

from svctui.clock import FROZEN_NOW_ENV
from svctui.demo.config import FIXED_ANCHOR, Faults
from svctui.demo.server import DemoServer
from svctui.schedule import next_run_words
from svctui.store.audit_read import read_audit
from svctui.text import cell_width
from tests.support.cli import DemoLike, add_profile, demo_env, invoke, json_items, jsonl_items, use_demo_env

FROZEN = "2026-11-26T09:30:00Z"  # both the table and the JSON work out the next run at this time
NOTE = re.compile(r"^note: \d+ columns? left out at (\d+) columns \(([^)]*)\); -o json or a wider terminal shows them$")


def _left_out(stderr: str, width: int) -> list[str]:
    """The headers the one note names (none without a note); the note is said once, at `width`."""
    notes = [match for line in stderr.splitlines() if (match := NOTE.match(line))]
    assert len(notes) <= 1, stderr
    assert all(int(found.group(1)) == width for found in notes)
    return notes[0].group(2).split(", ") if notes else []


def _headers(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    return use_demo_env(monkeypatch, demo_server, **{FROZEN_NOW_ENV: FROZEN})


@pytest.mark.parametrize("width", [80, 160])
def test_events_keep_the_next_run_whole_and_leave_counts_out(env: dict[str, str], width: int) -> None:
    """At 80 columns NEXT RUN read `2026-11-27 07:18Z …` while KINDS and DOMAINS stayed: the next run is the answer."""
    table = invoke(["events", "list", "--limit", "40", "--sort", "id"], env={"COLUMNS": str(width)})
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert all(len(line) <= width for line in lines), max(lines, key=len)
    assert "…" not in lines[0] and "NEXT RUN" in _headers(lines[0])
    listed = jsonl_items(invoke(["events", "list", "--limit", "40", "--sort", "id", "-o", "jsonl"]).stdout)
    now = datetime.fromisoformat(FROZEN)
    for event, line in zip(listed, lines[1:], strict=True):
        words = " ".join(next_run_words(event["rrule"], now).split())  # the words JSON no longer carries (data only)
        assert f"  {words}" in line, line  # whole, not cut after the date
    left_out = _left_out(table.stderr, width)
    if width == 80:
        assert {"KINDS", "DOMAINS"} <= set(left_out) and not set(left_out) & set(_headers(lines[0]))
    else:
        assert left_out == [] and _headers(lines[0])[-4:] == ["KINDS", "DOMAINS", "OUS", "DOMAIN NAMES"]


@pytest.mark.parametrize("width", [80, 160])
def test_selectors_keep_names_whole_and_never_cut_a_header(env: dict[str, str], width: int) -> None:
    """At 80 columns `selectors list` cut every name and showed `DESCRIP…` with 8 cells of description beside counts."""
    table = invoke(["selectors", "list", "1", "--limit", "40"], env={"COLUMNS": str(width)})
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert all(len(line) <= width for line in lines) and "…" not in lines[0], lines[0]
    items = json_items(invoke(["selectors", "list", "1", "--limit", "40", "-o", "json"]).stdout)
    assert all(f"{item['id']}  {item['name']}  " in line for item, line in zip(items, lines[1:], strict=True))
    left_out = _left_out(table.stderr, width)
    if width == 80:
        assert left_out[0] == "DESCRIPTION" and "DISABLED" in _headers(lines[0])
    else:
        assert left_out == [] and _headers(lines[0])[-1] == "DESCRIPTION"


def test_tasks_list_says_what_it_left_out_in_the_same_form(env: dict[str, str]) -> None:
    """The reference: `tasks list` at 80 columns keeps RESULTS and the message (it wraps past its column), leaves the
    counts, the client and the event out, and says so."""
    clients = jsonl_items(invoke(["clients", "list", "-o", "jsonl"]).stdout)
    client = max(clients, key=lambda item: item["completed_job_count"])["id"]
    table = invoke(["tasks", "list", client, "--limit", "10"], env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.stderr
    assert _left_out(table.stderr, 80) == ["CLIENT", "KINDS", "DOMAINS", "EVENT"]
    assert _headers(table.stdout.splitlines()[0])[-2:] == ["RESULTS", "MESSAGE"]


# ---------------------------------------------------------------- the audit log's tables


@pytest.fixture
def fresh_env(fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _deletable(count: int) -> list[dict[str, Any]]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    return [item for item in jsonl_items(result.stdout) if not item["is_default"]][:count]


def _row_block(lines: list[str], first: str) -> str:
    """A table row and the lines it continues on (a wrapped cell's: they start with spaces)."""
    start = next(index for index, line in enumerate(lines) if line.startswith(first))
    end = start + 1
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    return "\n".join(lines[start:end])


def test_audit_tables_keep_outcomes_request_ids_and_names(
    fresh_env: dict[str, str], fresh_demo_server: DemoServer
) -> None:
    """At 80 columns `audit list` read `3 deleted, 1 n…` (the in-doubt count hidden) and `audit show` cut the request
    id to 8 characters, its start: outcomes are whole (continued on the next line when they must), a request id keeps
    its end, the part that differs; and a resume's `already gone` row names its selector (issue 28 item 12)."""
    chosen = _deletable(4)
    lost = chosen[-1]
    fresh_demo_server.faults = Faults(kinds={"reset": 1.0}, only_path=f"/selectors/{lost['id']}")
    first = invoke(["selectors", "delete", "1", *(str(item["id"]) for item in chosen), "--yes"])
    assert first.exit_code != 0, first.stderr
    fresh_demo_server.faults = Faults()
    run = read_audit().runs[-1]
    assert [entry.selector_id for entry in run.entries.values() if entry.in_doubt] == [lost["id"]]
    assert invoke(["selectors", "delete", "1", str(lost["id"]), "--yes"]).exit_code == 0  # gone meanwhile
    resumed = invoke(["selectors", "resume", run.run_id, "--yes"])
    assert resumed.exit_code == 0, resumed.stderr
    log = read_audit()
    resume = log.runs[-1]
    assert resume.entries[lost["id"]].outcome == "already gone"

    for width in (80, 160):
        listed = invoke(["audit", "list"], env={"COLUMNS": str(width)})
        assert listed.exit_code == 0, listed.stderr
        lines = listed.stdout.splitlines()
        assert all(len(line) <= width for line in lines), max(lines, key=len)
        block = _row_block(lines, run.run_id)
        assert f"resumed by {resume.run_id}" in block, block
        assert all(part in " ".join(block.split()) for part in log.get(run.run_id).counts_text.split(", ")), block
        assert "…" not in block

        shown = invoke(["audit", "show", run.run_id], env={"COLUMNS": str(width)})
        assert shown.exit_code == 0, shown.stderr
        lines = shown.stdout.splitlines()
        assert all(len(line) <= width for line in lines), max(lines, key=len)
        rows = json.loads(invoke(["audit", "show", run.run_id, "-o", "json"]).stdout)
        for row in [row for row in rows if row["request_id"]]:
            line = next(line for line in lines if line.split()[0] == str(row["selector_id"]))
            kept = row["request_id"] if width == 160 else row["request_id"][-12:]
            assert kept in line, line
        assert "sent, no answer recorded" in " ".join(shown.stdout.split())

        again = invoke(["audit", "show", resume.run_id], env={"COLUMNS": str(width)})
        gone = next(line for line in again.stdout.splitlines() if line.split()[0] == str(lost["id"]))
        assert lost["name"][:19] in gone and "already gone" in gone, gone


def test_audit_show_of_a_deletion_leaves_out_the_empty_new_id_column(fresh_env: dict[str, str]) -> None:
    """A deletion run re-creates nothing: its NEW ID column was empty in every row, taking room from the names; it is
    left out of the table and said so on stderr (json keeps the field) (issue 28 item 7)."""
    chosen = _deletable(2)
    assert invoke(["selectors", "delete", "1", *(str(item["id"]) for item in chosen), "--yes"]).exit_code == 0
    run = read_audit().runs[-1]
    for width in (80, 160):
        shown = invoke(["audit", "show", run.run_id], env={"COLUMNS": str(width)})
        assert shown.exit_code == 0, shown.stderr
        header = shown.stdout.splitlines()[0]
        assert "NEW ID" not in header and "REQUEST ID" in header, header
        said = shown.stderr.partition("left out as empty in every row (")[2].partition(")")[0]
        assert "NEW ID" in said.split(", "), shown.stderr
    rows = json.loads(invoke(["audit", "show", run.run_id, "-o", "json"]).stdout)
    assert all("new_id" in row and row["new_id"] is None for row in rows)


def test_profile_list_is_fitted_as_every_table() -> None:
    """`profile list` printed its own table at any width (a 70-cell URL ran past 60 columns); it is fitted by the same
    rule: the URL keeps its host's start and its port, the auth kind is left out and said so."""
    url = "https://bloodhound-enterprise.very-long-subdomain.corp.example.com:8443"
    added = add_profile(
        "production-eu-west", url, "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "Q7mZ2xR9vK4tP1wL8nB3cH6dF0gJ5sAy"
    )
    assert added.exit_code == 0, added.stderr
    narrow = invoke(["profile", "list"], env={"COLUMNS": "60"})
    assert narrow.exit_code == 0, narrow.stderr
    lines = narrow.stdout.splitlines()
    assert all(cell_width(line) <= 60 for line in lines), max(lines, key=len)
    assert lines[1].split()[:2] == ["*", "production-eu-west"]
    assert re.search(r"  https://bloodh\S*…\S*\.com:8443  file$", lines[1]), lines[1]
    assert _left_out(narrow.stderr, 60) == ["AUTH"]
    wide = invoke(["profile", "list"], env={"COLUMNS": "160"})
    assert url in wide.stdout and "signature" in wide.stdout and _left_out(wide.stderr, 160) == []


# ---------------------------------------------------------------- the answer wrapped, never cut (issue 28, cliwalk)

HEALTH_NOW = FIXED_ANCHOR.isoformat().replace("+00:00", "Z")  # the demo's health data is anchored here


def _blocks(stdout: str) -> tuple[str, list[list[str]]]:
    """The header and each row with its continuation lines (they start with blanks up to the second column)."""
    header, *lines = stdout.splitlines()
    indent = " " * header.index(_headers(header)[1])
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith(indent) and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return header, blocks


def _column_text(header: str, block: list[str], column: str) -> str:
    """The text of `column` (the last one) over a row's lines, joined by spaces."""
    start = header.index(column)
    return " ".join(line[start:].strip() for line in block if line[start:].strip())


def test_health_note_wraps_whole_at_80_columns(env: dict[str, str]) -> None:
    """At 80 columns the NOTE read `task 3980: ADVENTUREWORKS.ORG …`: the drop itself never showed. It continues on
    the next lines of its column, whole, as the wide table (and the pipe) shows it."""
    clock = {FROZEN_NOW_ENV: HEALTH_NOW}
    wide = invoke(["health", "--fail-on", "none"], env={**clock, "COLUMNS": "100000"})
    narrow = invoke(["health", "--fail-on", "none"], env={**clock, "COLUMNS": "80"})
    assert wide.exit_code == narrow.exit_code == 0, narrow.stderr
    wide_header, wide_rows = _blocks(wide.stdout)
    notes = {block[0].split()[1]: _column_text(wide_header, block, "NOTE") for block in wide_rows}
    assert any("→" in note for note in notes.values()) and any("failed" in note for note in notes.values()), notes
    header, rows = _blocks(narrow.stdout)
    assert all(cell_width(line) <= 80 for line in narrow.stdout.splitlines()), narrow.stdout
    assert "…" not in narrow.stdout and len(rows) == len(wide_rows)
    for block in rows:
        assert _column_text(header, block, "NOTE") == notes[block[0].split()[1]], block
    assert max(len(block) for block in rows) > 1  # the long notes did continue


def test_failed_runs_keep_their_reason_whole_at_80_columns(env: dict[str, str]) -> None:
    """`tasks list DC01 -f status=failed` at 80 columns cut the reason to 20 cells (`Kerberos authenticat…`) beside
    EVENT and `0 ok / 1 failed`: the message claims its room before EVENT (left out, said on stderr) and wraps;
    RESULTS, which the dashboard keeps, stays (the message gives up its room for it)."""
    args = ["tasks", "list", "SHARPHOUND-DC01", "-f", "status=failed", "--limit", "30"]
    table = invoke(args, env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.stderr
    assert all(cell_width(line) <= 80 for line in table.stdout.splitlines()), table.stdout
    assert "EVENT" in _left_out(table.stderr, 80) and "RESULTS" not in _left_out(table.stderr, 80)
    tasks = json_items(invoke([*args, "-o", "json"]).stdout)
    header, rows = _blocks(table.stdout)
    assert _headers(header)[-1] == "MESSAGE" and len(rows) == len(tasks) == 30
    for task, block in zip(tasks, rows, strict=True):
        assert block[0].split()[0] == str(task["id"])
        assert _column_text(header, block, "MESSAGE") == " ".join(task["status_message"].split()), block
    assert max(len(block) for block in rows) > 1


@pytest.mark.parametrize("width", [60, 80, 160])
def test_a_task_status_is_whole_while_the_message_can_wrap(env: dict[str, str], width: int) -> None:
    """`tasks list` cut STATUS to `Partially com…` to keep the message's room: a status is what is scanned for, so it
    stays whole while the message can give way (it wraps, whole, on the next lines of its column)."""
    args = ["tasks", "list", "SHARPHOUND-DC01", "-f", "status=8", "--limit", "12"]
    table = invoke(args, env={"COLUMNS": str(width)})
    assert table.exit_code == 0, table.stderr
    assert all(cell_width(line) <= width for line in table.stdout.splitlines()), table.stdout
    tasks = json_items(invoke([*args, "-o", "json"]).stdout)
    header, rows = _blocks(table.stdout)
    assert len(rows) == len(tasks) == 12
    status_at = header.index("STATUS")
    for task, block in zip(tasks, rows, strict=True):
        assert block[0][status_at:].startswith("Partially complete  "), block
        assert _column_text(header, block, "MESSAGE") == " ".join(task["status_message"].split()), block


def test_an_unknown_client_says_how_many_clients_it_did_not_name(env: dict[str, str]) -> None:
    """`health --client NOPE` named 5 of 7 clients as `clients include:` with no sign of the other 2."""
    result = invoke(["health", "--client", "NOPE"])
    assert result.exit_code == 2 and result.stdout == ""
    names = {item["name"] for item in jsonl_items(invoke(["clients", "list", "--all", "-o", "jsonl"]).stdout)}
    match = re.search(r"clients include: ([^(]*?) and (\d+) more \(", result.stderr)
    assert match is not None, result.stderr
    shown = match.group(1).split(", ")
    assert set(shown) < names and len(shown) + int(match.group(2)) == len(names)


def _results_text(task: dict[str, Any]) -> str:
    """A task's RESULTS cell as the dashboard words it: `1 ok`, `0 ok / 1 failed`, `—` without domain results (the
    newcomer's walk: the CLI said `1 ok / 0 failed` and nothing where the dashboard says `1 ok` and `—`)."""
    results = task["domain_results"] or []
    failed = sum(1 for result in results if not result["success"])
    if not results:
        return "—"
    return f"{len(results) - failed} ok / {failed} failed" if failed else f"{len(results)} ok"


@pytest.mark.parametrize("width", [80, 160])
@pytest.mark.parametrize("listing", [[], ["-f", "status=8"], ["-f", "status=failed"], ["--skip", "200"]])
def test_a_tasks_results_stay_whole_at_80_columns(env: dict[str, str], width: int, listing: list[str]) -> None:
    """`tasks list` at 80 columns left out RESULTS (`0 ok / 1 failed`), the column the dashboard keeps: it is kept
    whole ahead of the message's room (the message wraps, whole), the counts, the client and the event."""
    args = ["tasks", "list", "SHARPHOUND-DC01", *listing, "--limit", "20"]
    table = invoke(args, env={"COLUMNS": str(width)})
    assert table.exit_code == 0, table.stderr
    assert all(cell_width(line) <= width for line in table.stdout.splitlines()), table.stdout
    assert "RESULTS" not in _left_out(table.stderr, width)
    tasks = json_items(invoke([*args, "-o", "json"]).stdout)
    header, rows = _blocks(table.stdout)
    assert len(rows) == len(tasks) == 20 and any(task["domain_results"] for task in tasks)
    results_at, message_at = header.index("RESULTS"), header.index("MESSAGE")
    for task, block in zip(tasks, rows, strict=True):
        assert block[0][results_at:message_at].strip() == _results_text(task), block
        assert f"{task['execution_time'][:10]} {task['execution_time'][11:16]}Z" in block[0], "UTC as the dashboard"
        # whole: a word wider than the column is broken across its lines (the join adds a space there)
        assert "".join(_column_text(header, block, "MESSAGE").split()) == "".join(task["status_message"].split())
        assert "Partially comple…" not in block[0]
