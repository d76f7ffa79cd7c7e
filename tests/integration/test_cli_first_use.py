"""What a newcomer meets on the command line first: --demo with a command, read-only said before anything else,
`selectors restore --dry-run` (against a fresh demo server)."""

from __future__ import annotations

import json

import pytest

from svctui.demo.server import DemoServer
from svctui.store.audit import audit_path
from tests.support.cli import add_profile, demo_env, invoke, run_binary
from tests.support.tasks import deletable_selector

DEMO_ONLY = (
    "error: --demo starts the dashboard only; for commands, run `svctui demo-server` and add the profile it prints"
)


@pytest.mark.parametrize(
    "args",
    [
        ["--demo", "health"],
        ["health", "--demo"],
        ["--demo", "selectors", "list", "1"],
        ["selectors", "list", "1", "--demo"],
        ["tasks", "log", "5", "--demo"],
        ["selectors", "delete", "1", "2", "--demo"],  # delete and restore take unknown options as ids
        ["selectors", "restore", "run", "--demo"],
    ],
)
def test_demo_with_a_command_says_it_starts_the_dashboard_only(args: list[str]) -> None:
    result = run_binary(args, env={})  # no profile at all: the profile error must not be what is said
    assert result.code == 2, result.stderr
    assert result.stderr.strip() == DEMO_ONLY
    assert "No such option" not in result.stderr and "no profile" not in result.stderr


@pytest.mark.parametrize("how", ["flag", "variable", "profile"])
def test_read_only_is_said_before_any_other_check(
    how: str, fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix: list[str] = []
    expected = "svctui runs with --read-only"
    if how == "profile":
        saved = add_profile(
            "lab", fresh_demo_server.base_url, fresh_demo_server.token_id, fresh_demo_server.token_key, "--read-only"
        )
        assert saved.exit_code == 0, saved.stderr
        prefix, expected = ["--profile", "lab"], "profile 'lab' is read-only (read_only = true)"
    else:
        for name, value in demo_env(fresh_demo_server).items():
            monkeypatch.setenv(name, value)
        if how == "flag":
            prefix = ["--read-only"]
        else:
            monkeypatch.setenv("SVCTUI_READ_ONLY", "1")
            expected = "SVCTUI_READ_ONLY is set"
    victim = str(deletable_selector(fresh_demo_server))
    before = fresh_demo_server.request_count
    commands = [
        ["selectors", "delete", "2", "42"],  # no --yes and no terminal: read-only is still what is said
        ["selectors", "delete", "1", victim, "--yes"],
        ["selectors", "delete", "x", "-7"],  # bad arguments too
        ["selectors", "resume"],
        ["selectors", "resume", "no-such-run"],
        ["selectors", "restore", "no-such-run"],
        ["selectors", "restore", "no-such-run", "--yes", "x"],
        ["selectors", "restore", "no-such-run", "-4"],  # a negative id: not taken for an option before the refusal
    ]
    for command in commands:
        result = invoke([*prefix, *command], input="")
        assert result.exit_code == 2, (command, result.stdout + result.stderr)
        first = result.stderr.splitlines()[0]
        assert first.startswith("error: refusing to ") and expected in first and "nothing was sent" in first, command
        assert "--yes" not in result.stderr, command
    assert fresh_demo_server.request_count == before
    assert not audit_path().exists()


def _selector_ids(tag_id: int) -> set[int]:
    result = invoke(["selectors", "list", str(tag_id), "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return {json.loads(line)["id"] for line in result.stdout.splitlines()}


def test_restore_dry_run_shows_the_plan_and_creates_nothing(
    fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in demo_env(fresh_demo_server).items():
        monkeypatch.setenv(name, value)
    victim = deletable_selector(fresh_demo_server)
    deleted = invoke(["selectors", "delete", "1", str(victim), "--yes"])
    assert deleted.exit_code == 0, deleted.stderr
    run_id = json.loads(audit_path().read_text().splitlines()[-1])["run"]
    after_delete = _selector_ids(1)
    audit_before = audit_path().read_text()
    sent_before = fresh_demo_server.request_count
    dry = invoke(["selectors", "restore", run_id, "--dry-run"], input="")  # no terminal, no --yes: a look needs none
    assert dry.exit_code == 0, dry.stderr
    assert fresh_demo_server.request_count == sent_before  # the plan comes from the audit log: nothing sent
    assert f"  {victim} " in dry.stderr and "dry run: 1 selector would be re-created; nothing was created" in dry.stderr
    assert _selector_ids(1) == after_delete  # the server's state: nothing re-created
    assert audit_path().read_text() == audit_before  # nothing recorded either
    looked = invoke(["--read-only", "selectors", "restore", run_id, "--dry-run"])
    assert looked.exit_code == 0, looked.stderr  # looking is not destructive
    restored = invoke(["selectors", "restore", run_id, "--yes"])
    assert restored.exit_code == 0, restored.stderr  # the dry run left the run restorable
    assert len(_selector_ids(1) - after_delete) == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["profile", "add", "bad name", "--base-url", "http://x", "--token-id", "a"], "profile name 'bad name' is not"),
        (["tasks", "list", "1", "--limit", "x"], "Invalid value for '--limit': 'x' is not an integer"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["locate", "cache"], "'cache' is not one of"),
        (["events", "list", "--nope"], "No such option '--nope'"),
        (["demo-server", "--token-id", "x"], "'x' is not a UUID"),
    ],
)
def test_every_error_is_said_error_in_lowercase(args: list[str], said: str) -> None:
    """`profile add` with a bad name said `Error: …` (click's) where every other message says `error: …`."""
    result = run_binary(args, env={}, input="")
    assert result.code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("error: ") and said in lines[-1], result.stderr
    assert not [line for line in lines if line.startswith("Error")], result.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["tasks", "log", "-5"], "error: TASK_ID: '-5' is negative; allowed: a whole number from 0 to 2147483647"),
        (["tasks", "log", "-55", "--level", "error"], "error: TASK_ID: '-55' is negative; allowed: a whole number"),
        (["tasks", "log", "--grep", "-5", "-7"], "error: TASK_ID: '-7' is negative"),  # `-5` is the text to grep
        (["selectors", "list", "-3"], "error: TAG: '-3' is negative; allowed: a positive integer up to 2147483647"),
        (["selectors", "delete", "-3", "4"], "error: TAG: '-3' is negative; allowed: a positive integer"),
        (["selectors", "restore", "run", "-4"], "error: argument '-4': '-4' is negative; allowed: a positive integer"),
        (["tasks", "list", "-5"], "error: CLIENT_ID: '-5' is negative: neither a client's uuid nor an option"),
    ],
)
def test_a_negative_id_is_said_to_be_negative_not_an_unknown_option(args: list[str], said: str) -> None:
    """`svctui tasks log -5` said click's `No such option '-5'`; every id argument says what an id must be."""
    result = run_binary(args, env={}, input="")
    assert result.code == 2, result.stderr
    assert result.stderr.splitlines()[-1].startswith(said), result.stderr
    assert "No such option" not in result.stderr


def test_an_unknown_option_is_still_said_so() -> None:
    result = run_binary(["tasks", "log", "5", "--bogus"], env={})
    assert result.code == 2 and "error: No such option '--bogus'" in result.stderr, result.stderr


def test_a_read_only_profile_without_its_secret_is_still_refused_as_read_only() -> None:
    """The read-only check reads the profile's settings only: its secret (keyring) is not needed to refuse."""
    from svctui.store import paths
    from svctui.store.atomic import write_private

    token_id = "3f2b8a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
    text = (
        f'version = 1\ndefault = "a"\n[profiles.a]\nbase_url = "https://h"\ntoken_id = "{token_id}"\nread_only = true\n'
    )
    write_private(paths.profiles_path(), text.encode())
    result = invoke(["selectors", "delete", "1", "2"], input="")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("error: refusing to delete: profile 'a' is read-only"), result.stderr
