"""Answers lost after the server acted, through the fault proxy in front of a demo server of the test's own: a
DELETE whose answer is dropped, or replaced by garbage, is `no answer` (in doubt, exit 5), never `deleted` or
`failed`, and a resume through the same address settles it with GET as `already gone`. And escapes the proxy puts
in the server's names, or in the `<title>` of a 502 page of its own, reach the terminal shown, never obeyed."""

from __future__ import annotations

import json

import pytest

from svctui.demo.server import DemoServer
from tests.support.cli import demo_env, invoke, run_binary
from tests.support.fault_proxy import TITLE_ESCAPE, FaultProxy, Rule


def deletable(demo: DemoServer, env: dict[str, str]) -> int:
    """A selector of tag 1 the server will delete (not a default one)."""
    listed = invoke(["selectors", "list", "1", "--limit", "50", "-o", "json"], env=env)
    assert listed.exit_code == 0, listed.stderr
    found: int = next(item["id"] for item in json.loads(listed.stdout) if not item["is_default"])
    return found


@pytest.mark.parametrize(
    "rule",
    [Rule("drop", method="DELETE", times=1), Rule("garbage", method="DELETE", times=1, forward=True)],
    ids=["answer-dropped", "garbage-after-acting"],
)
def test_a_delete_whose_answer_is_lost_after_the_server_acted_is_in_doubt_then_resumed(
    fresh_demo_server: DemoServer, rule: Rule
) -> None:
    with FaultProxy(fresh_demo_server.base_url) as proxy:
        env = demo_env(fresh_demo_server, SVCTUI_BASE_URL=proxy.base_url)
        selector_id = deletable(fresh_demo_server, env)
        proxy.add(rule)
        deleted = invoke(["selectors", "delete", "1", str(selector_id), "--yes", "--concurrency", "1"], env=env)
        assert proxy.kinds_seen(rule.kind) == 1 and proxy.forwarded >= 2, proxy.seen
        assert deleted.exit_code == 5, deleted.stderr
        assert deleted.stdout.startswith(f"selector {selector_id}: no answer"), deleted.stdout
        direct = invoke(["selectors", "delete", "1", str(selector_id), "--dry-run"], env=demo_env(fresh_demo_server))
        assert "not found" in direct.stdout or "not part of tag" in direct.stdout, direct.stdout  # the server did it
        resumed = invoke(["selectors", "resume", "--yes"], env=env)
    assert resumed.exit_code == 0, resumed.stderr
    assert f"selector {selector_id}: already gone" in resumed.stdout, resumed.stdout


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "jsonl"])
def test_escapes_the_proxy_adds_to_every_name_never_reach_the_terminal(demo_server: DemoServer, fmt: str) -> None:
    """Issue 25's proxy kinds `escape` and `html_title` on a real demo server: every tag's name and description
    gets an OSC title and a screen clear on the way; each output format shows them (JSON as `\\u` escapes)."""
    with FaultProxy(demo_server.base_url) as proxy:
        proxy.add(Rule("escape", path="/api/v2/asset-group-tags"))
        listed = run_binary(["tags", "list", "-o", fmt], env=demo_env(demo_server, SVCTUI_BASE_URL=proxy.base_url))
        assert proxy.kinds_seen("escape") == 1
    assert listed.code == 0, listed.stderr
    assert not {"\x1b", "\x07"} & set(listed.stdout + listed.stderr), "no raw escape written"
    if fmt in ("json", "jsonl"):
        assert "\\u001b]0;pwned\\u0007" in listed.stdout
        first = json.loads(listed.stdout.splitlines()[0] if fmt == "jsonl" else listed.stdout)
        name = (first if fmt == "jsonl" else first[0])["name"]
        assert name.endswith(TITLE_ESCAPE), "the value reads back whole"
    else:
        assert "␛]0;pwned␇␛[2J" in listed.stdout


def test_a_proxy_page_whose_title_holds_escapes_is_shown_not_obeyed(demo_server: DemoServer) -> None:
    with FaultProxy(demo_server.base_url) as proxy:
        proxy.add(Rule("html_title"))
        failed = run_binary(["events", "list"], env=demo_env(demo_server, SVCTUI_BASE_URL=proxy.base_url))
    assert failed.code == 5, failed.stderr
    assert "502" in failed.stderr and "␛]0;pwned␇␛[2J" in failed.stderr, failed.stderr
    assert not {"\x1b", "\x07"} & set(failed.stdout + failed.stderr)
