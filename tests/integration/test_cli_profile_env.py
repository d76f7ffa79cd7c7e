"""A profile named on the command line (`--profile NAME`, repeated, `--all-profiles`, `profile test NAME`, the
dashboard's `--profile`) uses its stored server and token: the SVCTUI_* connection variables are ignored for it,
said once on stderr (they once made three dead stored profiles report the environment's server as healthy). The
environment still applies when no profile is named. Real HTTP to the session's demo server, dead loopback ports."""

from __future__ import annotations

import json
import socket

import pytest

from svctui.demo.config import FIXED_ANCHOR
from svctui.tui.launch import resolve_profile
from tests.support.cli import DemoLike, add_profile, invoke, use_demo_env

IGNORED = "SVCTUI_BASE_URL, SVCTUI_TOKEN_ID, SVCTUI_TOKEN_KEY ignored"


def dead_url() -> str:
    """A loopback URL nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment names the live demo; two stored profiles point at dead ports."""
    monkeypatch.setenv("SVCTUI_FROZEN_NOW", FIXED_ANCHOR.isoformat().replace("+00:00", "Z"))
    monkeypatch.setenv("COLUMNS", "200")
    for name in ("old-a", "old-b"):
        assert add_profile(name, dead_url(), demo_server.token_id, demo_server.token_key).exit_code == 0
    return use_demo_env(monkeypatch, demo_server)


def test_all_profiles_checks_each_stored_server_not_the_environments(env: dict[str, str]) -> None:
    result = invoke(["health", "--all-profiles", "-o", "json"], env=env)
    assert result.exit_code == 5, result.stdout
    rows = json.loads(result.stdout)
    assert {row["profile"] for row in rows} == {"old-a", "old-b"}
    assert all(row["verdict"] == "error" and "cannot reach" in row["error"] for row in rows), rows
    assert env["SVCTUI_BASE_URL"] not in result.stdout
    assert result.stderr.count(IGNORED) == 1, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["health", "--profile", "old-a"],
        ["--profile", "old-a", "events", "list"],
        ["events", "list", "--profile", "old-a"],
        ["tags", "list", "--profile", "old-a"],
        ["clients", "list", "--profile", "old-a"],
        ["profile", "test", "old-a"],
    ],
)
def test_a_named_profile_uses_its_stored_server(env: dict[str, str], args: list[str]) -> None:
    result = invoke(args, env=env)
    assert result.exit_code == 5, (result.stdout, result.stderr)
    assert "cannot reach" in result.stderr and env["SVCTUI_BASE_URL"] not in result.stderr + result.stdout
    assert result.stderr.count(IGNORED) == 1, result.stderr


def test_without_a_named_profile_the_environment_applies_quietly(env: dict[str, str]) -> None:
    listed = invoke(["events", "list", "--limit", "2", "-o", "jsonl"], env=env)
    assert listed.exit_code == 0 and "ignored" not in listed.stderr
    assert invoke(["--profile", "nosuch", "events", "list"], env=env).exit_code == 2


def test_the_dashboard_uses_the_named_profiles_stored_server(env: dict[str, str]) -> None:
    named, problem = resolve_profile("old-a")
    assert problem is None and named is not None and named.base_url != env["SVCTUI_BASE_URL"]
    unnamed, _ = resolve_profile(None)
    assert unnamed is not None and unnamed.base_url == env["SVCTUI_BASE_URL"]
