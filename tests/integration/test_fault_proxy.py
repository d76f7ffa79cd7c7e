"""Answers lost after the server acted, through the fault proxy in front of a demo server of the test's own: a
DELETE whose answer is dropped, or replaced by garbage, is `no answer` (in doubt, exit 5), never `deleted` or
`failed`, and a resume through the same address settles it with GET as `already gone`."""

from __future__ import annotations

import json

import pytest

from svctui.demo.server import DemoServer
from tests.support.cli import demo_env, invoke
from tests.support.fault_proxy import FaultProxy, Rule


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
