"""A `--profile` name that is not stored is an error whatever the SVCTUI_* environment says: a typo must never
reach the server the environment names (it once listed that server's events and exited 0). Against the demo."""

from __future__ import annotations

import pytest

from svctui.tui.launch import resolve_profile
from tests.support.cli import DemoLike, add_profile, invoke, jsonl_items, use_demo_env


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    return use_demo_env(monkeypatch, demo_server)


def test_the_environment_alone_still_connects(env: dict[str, str]) -> None:
    listed = invoke(["events", "list", "--limit", "3", "-o", "jsonl"], env=env)
    assert listed.exit_code == 0, listed.stderr
    assert len(jsonl_items(listed.stdout)) == 3


@pytest.mark.parametrize("args", [["--profile", "nosuch", "events", "list"], ["events", "list", "--profile", "nosuch"]])
def test_unknown_profile_is_refused_with_the_environment_set(env: dict[str, str], args: list[str]) -> None:
    refused = invoke([*args, "-o", "jsonl"], env=env)
    assert refused.exit_code == 2, refused.stdout
    assert refused.stdout == ""
    assert "unknown profile 'nosuch'" in refused.stderr
    assert "used only when no --profile is given" in refused.stderr


def test_unknown_profile_names_the_stored_ones_with_the_environment_set(env: dict[str, str]) -> None:
    assert add_profile("prod", env["SVCTUI_BASE_URL"], env["SVCTUI_TOKEN_ID"], env["SVCTUI_TOKEN_KEY"]).exit_code == 0
    refused = invoke(["--profile", "prdo", "events", "list"], env=env)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "unknown profile 'prdo'; known profiles: prod" in refused.stderr


def test_the_dashboard_refuses_an_unknown_profile_with_the_environment_set(env: dict[str, str]) -> None:
    profile, problem = resolve_profile("nosuch")
    assert profile is None
    assert problem is not None and "unknown profile 'nosuch'" in problem
    connected, none = resolve_profile(None)  # no name: the environment is the profile, as documented
    assert none is None and connected is not None and connected.base_url == env["SVCTUI_BASE_URL"]
