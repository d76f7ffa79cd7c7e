"""`svctui selectors delete` against a fresh demo server: dry run, confirmation, outcomes, audit log, exit codes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.store.audit import audit_path
from tests.support.cli import (
    DemoLike,
    copy_template,
    demo_env,
    invoke,
    jsonl_items,
    run_binary,
    run_on_pty,
)


@dataclass
class Layout:
    """Selector ids of the fresh demo data that the tests need."""

    tag_id: int
    tag_name: str
    deletable: list[int]
    default_id: int
    other_tag_selector: int


@pytest.fixture
def env(fresh_demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = demo_env(fresh_demo_server)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def _selectors(tag_id: int) -> list[dict[str, Any]]:
    result = invoke(["selectors", "list", str(tag_id), "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return jsonl_items(result.stdout)


def _range_second(ids: list[int]) -> list[int]:
    """`ids` with two consecutive ones in 2nd and 3rd place (tests pass them as a range `a-b`): ids of one tag
    interleave with other tags' ids, as selectors are created over time."""
    start = next(i for i in ids if i + 1 in ids)
    rest = [i for i in ids if i not in (start, start + 1)]
    return [rest[0], start, start + 1, *rest[1:]]


@pytest.fixture
def layout(env: dict[str, str]) -> Layout:
    tags = jsonl_items(invoke(["tags", "list", "-o", "jsonl"]).stdout)
    by_tag = {tag["id"]: _selectors(tag["id"]) for tag in tags}
    for tag in tags:
        selectors = by_tag[tag["id"]]
        defaults = [s["id"] for s in selectors if s["is_default"]]
        deletable = [s["id"] for s in selectors if not s["is_default"]]
        others = [s["id"] for other, items in by_tag.items() if other != tag["id"] for s in items]
        if defaults and len(deletable) >= 6 and others:
            return Layout(tag["id"], tag["name"], _range_second(sorted(deletable)), defaults[0], others[0])
    raise AssertionError("the demo data has no tag with a default selector and 6 others")


def _audit() -> list[dict[str, Any]]:
    path = audit_path()
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _outcomes() -> list[dict[str, Any]]:
    """The outcome lines of the audit log (docs/AUDIT.md), in the order written."""
    return [line for line in _audit() if line["event"] == "outcome"]


def _ids(tag_id: int) -> set[int]:
    return {item["id"] for item in _selectors(tag_id)}


def test_dry_run_names_what_it_would_delete_and_deletes_nothing(layout: Layout) -> None:
    before = _ids(layout.tag_id)
    args = [str(i) for i in layout.deletable[:2]] + [str(layout.default_id), str(layout.other_tag_selector), "2000000"]
    result = invoke(["selectors", "delete", str(layout.tag_id), *args, "--dry-run"])
    assert result.exit_code == 4, result.stderr  # as the run would: a default and another tag's selector
    assert f"2 would be refused or are not part of tag {layout.tag_id} ({layout.default_id}, " in result.stderr
    out = result.stdout
    for selector in _selectors(layout.tag_id):
        if selector["id"] in layout.deletable[:2]:
            assert f"selector {selector['id']}: would delete {selector['name']!r}" in out
    assert f"selector {layout.default_id}: would be refused: default selector" in out
    assert f"selector {layout.other_tag_selector}: not part of tag" in out
    assert "selector 2000000: not found" in out and "already gone" not in out, "nobody deleted 2000000 (issue 28)"
    assert "dry run: 1 not found (2000000): nothing to delete there" in result.stderr, "the summary adds up"
    one = invoke(["selectors", "delete", str(layout.tag_id), str(layout.other_tag_selector), "--dry-run"])
    assert one.exit_code == 4, one.stderr
    said = f"1 would be refused or is not part of tag {layout.tag_id} ({layout.other_tag_selector}): exit 4"
    assert said in one.stderr, "one selector: `is`, not `are`"
    printed = [int(line.split()[1].rstrip(":")) for line in out.splitlines()]
    assert printed == [int(a) for a in args]  # in the order given, whatever order the lookups finished in
    assert "nothing was deleted" in result.stderr
    assert _ids(layout.tag_id) == before
    assert _audit() == []


def test_yes_deletes_records_audit_and_a_repeat_is_already_gone(layout: Layout, env: dict[str, str]) -> None:
    first, second, third = layout.deletable[:3]
    before = _selectors(layout.tag_id)
    result = invoke(["selectors", "delete", str(layout.tag_id), str(first), f"{second}-{third}", "--yes"])
    assert result.exit_code == 0, result.stderr
    for selector_id in (first, second, third):
        assert f"selector {selector_id}: deleted" in result.stdout
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        f"selector {i}" for i in (first, second, third)
    ]
    remaining = _ids(layout.tag_id)
    assert not {first, second, third} & remaining
    records = _outcomes()
    assert len(records) == 3
    for record in records:
        assert record["outcome"] == "deleted" and record["status"] == 204 and record["request_id"]
        assert record["tag_id"] == layout.tag_id
    assert {r["selector_id"] for r in records} == {first, second, third}
    plan = _audit()[0]
    assert plan["event"] == "plan" and plan["server"] == env["SVCTUI_BASE_URL"].rstrip("/")
    assert plan["profile"] and plan["token_id"] == env["SVCTUI_TOKEN_ID"] and plan["tag_name"] == layout.tag_name
    assert plan["ids"] == [first, second, third]
    intents = {line["selector_id"]: line["selector"] for line in _audit() if line["event"] == "intent"}
    assert {selector_id: record["name"] for selector_id, record in intents.items()} == {
        s["id"]: s["name"] for s in before if s["id"] in (first, second, third)
    }
    assert _audit()[-1] == {**_audit()[-1], "event": "end", "counts": {"deleted": 3}, "stopped": None}
    audit_text = audit_path().read_text()
    assert env["SVCTUI_TOKEN_KEY"] not in audit_text
    assert f"run {plan['run']}: 3 deleted" in result.stderr

    again = invoke(["selectors", "delete", str(layout.tag_id), str(first), "--yes"])
    assert again.exit_code == 0, again.stderr
    assert f"selector {first}: already gone (404 resource not found)" in again.stdout
    last = _outcomes()[-1]
    assert last["outcome"] == "already gone" and last["status"] == 404 and last["request_id"]


def test_default_selector_is_refused_with_exit_4(layout: Layout) -> None:
    victim = layout.deletable[0]
    result = invoke(["selectors", "delete", str(layout.tag_id), str(layout.default_id), str(victim), "--yes"])
    assert result.exit_code == 4, result.stderr
    assert f"selector {layout.default_id}: refused: default selector (403 cannot delete a default selector)" in (
        result.stdout
    )
    assert f"selector {victim}: deleted" in result.stdout
    assert layout.default_id in _ids(layout.tag_id)
    outcomes = {r["selector_id"]: r["outcome"] for r in _outcomes()}
    assert outcomes == {layout.default_id: "refused: default selector", victim: "deleted"}


def test_selector_of_another_tag_is_not_part_of_tag(layout: Layout) -> None:
    result = invoke(["selectors", "delete", str(layout.tag_id), str(layout.other_tag_selector), "--yes"])
    assert result.exit_code == 4, result.stderr
    assert f"selector {layout.other_tag_selector}: not part of tag" in result.stdout
    assert _outcomes()[-1]["outcome"] == "not part of tag"


def test_unknown_tag_exits_4_before_deleting(layout: Layout) -> None:
    result = invoke(["selectors", "delete", "77777", str(layout.deletable[0]), "--yes"])
    assert result.exit_code == 4, result.stderr
    assert "asset group tag 77777 not found" in result.stderr and layout.tag_name in result.stderr
    assert _audit() == []


def test_not_a_terminal_without_yes_refuses(layout: Layout, env: dict[str, str]) -> None:
    result = invoke(["selectors", "delete", str(layout.tag_id), str(layout.deletable[0])])
    assert result.exit_code == 2
    assert "refusing to delete without --yes when not on a terminal" in result.stderr
    binary = run_binary(["selectors", "delete", str(layout.tag_id), str(layout.deletable[0])], env=env, input="y\n")
    assert binary.code == 2
    assert "refusing to delete without --yes when not on a terminal" in binary.stderr
    assert layout.deletable[0] in _ids(layout.tag_id)
    assert _audit() == []


def test_unwritable_audit_log_refuses_before_deleting(
    layout: Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SVCTUI_STATE_DIR", str(blocker / "state"))
    result = invoke(["selectors", "delete", str(layout.tag_id), str(layout.deletable[0]), "--yes"])
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stderr.startswith("error: cannot append to the audit log '")
    assert "a part of the path is not a directory" in result.stderr
    assert result.stdout == ""
    assert layout.deletable[0] in _ids(layout.tag_id)
    dry = invoke(["selectors", "delete", str(layout.tag_id), str(layout.deletable[0]), "--dry-run"])
    assert dry.exit_code == 0, dry.stderr  # a dry run writes no audit line, so it needs no log


def test_from_file_with_comments_and_from_stdin(layout: Layout, tmp_path: Path, env: dict[str, str]) -> None:
    a, b, c, d, e = layout.deletable[:5]
    ids_file = tmp_path / "ids.txt"
    ids_file.write_text(f"# stale selectors\n\n{a}\n{b}  # old one\n")
    result = invoke(["selectors", "delete", str(layout.tag_id), "--from-file", str(ids_file), str(c), "--yes"])
    assert result.exit_code == 0, result.stderr
    assert all(f"selector {x}: deleted" in result.stdout for x in (a, b, c))
    piped = run_binary(
        ["selectors", "delete", str(layout.tag_id), "--from-file", "-", "--yes"], env=env, input=f"{d}\n# x\n{e}\n"
    )
    assert piped.code == 0, piped.stderr
    assert f"selector {d}: deleted" in piped.stdout and f"selector {e}: deleted" in piped.stdout
    assert not {a, b, c, d, e} & _ids(layout.tag_id)
    stdin_no_yes = invoke(["selectors", "delete", str(layout.tag_id), "--from-file", "-"], input=f"{a}\n")
    assert stdin_no_yes.exit_code == 2 and "refusing" in stdin_no_yes.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["x1"], "argument 'x1': 'x1' is not a selector id"),
        (["10-5"], "runs backwards"),
        (["0"], "out of range"),
        (["2147483648"], "out of range"),
        ([], "no selector ids given"),
    ],
)
def test_bad_ids_exit_2_before_any_request(layout: Layout, args: list[str], message: str) -> None:
    result = invoke(["selectors", "delete", str(layout.tag_id), *args, "--yes"])
    assert result.exit_code == 2
    assert message in result.stderr
    assert _audit() == []


def test_bad_line_in_file_names_the_line(layout: Layout, tmp_path: Path) -> None:
    ids_file = tmp_path / "ids.txt"
    ids_file.write_text(f"{layout.deletable[0]}\n12,13\n")
    result = invoke(["selectors", "delete", str(layout.tag_id), "--from-file", str(ids_file), "--yes"])
    assert result.exit_code == 2
    assert "ids.txt line 2: '12,13' is not a selector id" in result.stderr
    assert layout.deletable[0] in _ids(layout.tag_id)


def test_terminal_prompt_names_the_selectors_and_no_deletes_nothing(layout: Layout, env: dict[str, str]) -> None:
    ids = layout.deletable[:3]
    names = {s["id"]: s["name"] for s in _selectors(layout.tag_id)}
    asked = [*ids, layout.default_id, layout.other_tag_selector, *layout.deletable[3:6]]
    code, screen = run_on_pty(["selectors", "delete", str(layout.tag_id), *map(str, asked)], env, answer="n")
    assert code == 1
    assert f"About to delete 8 selectors from tag {layout.tag_id} {layout.tag_name!r}" in screen
    shown = ", ".join(f"{names[i]!r} ({i})" for i in [*ids, layout.default_id]) + f", {layout.other_tag_selector}"
    assert f"  {shown} … and 3 more" in screen  # the first five by name, then how many more
    assert f"1 of them not part of tag {layout.tag_id}" in screen
    assert "1 of them default selectors: the server will refuse them" in screen
    assert "aborted: nothing was deleted" in screen
    assert _audit() == []
    assert set(ids) <= _ids(layout.tag_id)
    code, screen = run_on_pty(["selectors", "delete", str(layout.tag_id), *map(str, ids)], env, answer="y")
    assert code == 0, screen
    assert all(f"selector {i}: deleted" in screen for i in ids)
    assert not set(ids) & _ids(layout.tag_id)


@pytest.fixture
def failing_server(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoLike]:
    with DemoServer(
        faults=Faults(error_rate=1.0), db_path=copy_template(demo_template_db, tmp_path_factory), rate_limit=0
    ) as demo:
        yield demo


def test_server_errors_are_failed_with_reason_and_exit_5(failing_server: DemoLike) -> None:
    result = invoke(["selectors", "delete", "1", "5", "6", "--yes", "--concurrency", "2"], env=demo_env(failing_server))
    assert result.exit_code == 5, result.stderr
    assert "could not look up the name of tag 1" in result.stderr
    for selector_id in (5, 6):
        line = next(line for line in result.stdout.splitlines() if line.startswith(f"selector {selector_id}:"))
        assert line.startswith(f"selector {selector_id}: failed: HTTP 500")
        assert "request id" in line
    records = _outcomes()
    assert [r["outcome"] for r in records] == ["failed", "failed"]
    assert all(r["status"] == 500 and r["request_id"] for r in records)
    assert "could not list the selectors of tag 1" in result.stderr  # so the intents carry no record
    assert [line["selector"] for line in _audit() if line["event"] == "intent"] == [None, None]
    lines = len(_audit())
    dry = invoke(["selectors", "delete", "1", "5", "6", "--dry-run"], env=demo_env(failing_server))
    assert dry.exit_code == 5, dry.stderr  # a dry run that could not look must not pass for a clean one
    assert "HTTP 500" in dry.stderr and "would delete" not in dry.stdout
    assert "could not be checked (5" in dry.stderr
    assert len(_audit()) == lines


def test_wrong_key_exits_3_and_deletes_nothing(layout: Layout, env: dict[str, str]) -> None:
    bad = {**env, "SVCTUI_TOKEN_KEY": "wrong-key-" + "z" * 20}
    result = invoke(["selectors", "delete", str(layout.tag_id), str(layout.deletable[0]), "--yes"], env=bad)
    assert result.exit_code == 3, result.stderr
    assert "401" in result.stderr
    assert layout.deletable[0] in _ids(layout.tag_id)


@pytest.mark.slow
def test_rate_limited_bulk_delete_waits_out_429s(
    layout: Layout, demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """24 deletions, 4 at a time, against a server allowing 6 requests a second: paced, any 429 is waited out."""
    ids = layout.deletable[:24] if len(layout.deletable) >= 24 else layout.deletable
    db_path = copy_template(demo_template_db, tmp_path_factory)
    with DemoServer(db_path=db_path, rate_limit=6) as limited:
        args = ["selectors", "delete", str(layout.tag_id), *map(str, ids), "--yes", "--concurrency", "4"]
        result = invoke(args, env=demo_env(limited))
        assert result.exit_code == 0, result.stdout + result.stderr
        assert result.stdout.count(": deleted") == len(ids)
        assert limited.request_count >= len(ids) + 1  # the tag lookup, one DELETE each, any 429 retries (rare: paced)
    assert [r["outcome"] for r in _outcomes()] == ["deleted"] * len(ids)
