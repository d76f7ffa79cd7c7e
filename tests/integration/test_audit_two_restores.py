"""Adversarial: two `selectors restore` of the same run at once (two terminals) must not re-create anything twice."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import termios

import pytest

from svctui.demo.server import DemoServer
from svctui.store.audit_read import read_audit
from tests.support.cli import SVCTUI_BIN, demo_env, invoke, run_binary


def _names() -> list[str]:
    result = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    assert result.exit_code == 0, result.stderr
    return [json.loads(line)["name"] for line in result.stdout.splitlines()]


def test_a_restore_confirmed_after_another_restore_of_the_run_does_not_recreate_twice(
    fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Terminal B runs `selectors restore RUN` and sits at its [y/N] prompt; terminal A restores RUN with --yes;
    then B answers y. B planned from the log it read before A wrote anything and POSTs every selector again:
    two copies of each, and the log holds two `restored` outcomes for one old id."""
    env = demo_env(fresh_demo_server)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    listed = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    target = next(item for item in map(json.loads, listed.stdout.splitlines()) if not item["is_default"])
    assert invoke(["selectors", "delete", "1", str(target["id"]), "--yes"]).exit_code == 0
    run_id = read_audit().runs[-1].run_id

    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    waiting = subprocess.Popen(
        [str(SVCTUI_BIN), "selectors", "restore", run_id],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, **env},
        close_fds=True,
    )
    os.close(terminal)
    screen = b""
    try:
        while b"[y/N]" not in screen:
            readable, _, _ = select.select([controller], [], [], 60)
            assert readable, f"no prompt; so far: {screen!r}"
            screen += os.read(controller, 4096)
        first = run_binary(["selectors", "restore", run_id, "--yes"], env=env)  # terminal A
        assert first.code == 0, first.stderr
        assert _names().count(target["name"]) == 1
        os.write(controller, b"y\n")  # terminal B goes on
        while True:
            readable, _, _ = select.select([controller], [], [], 60)
            assert readable, f"B hangs; so far: {screen!r}"
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            screen += chunk
        waiting.wait(timeout=60)
    finally:
        if waiting.poll() is None:
            waiting.kill()
            waiting.wait()
        os.close(controller)
    restored = [
        run.entries[target["id"]].new_id
        for run in read_audit().runs
        if run.action == "selectors.restore"
        and target["id"] in run.entries
        and run.entries[target["id"]].outcome == "restored"
    ]
    assert _names().count(target["name"]) == 1, f"re-created twice: {restored}; B said {screen.decode()[-400:]!r}"


def test_a_restore_waiting_for_another_restores_lock_says_so(
    fresh_demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: a restore waiting for another restore's lock showed nothing while it waited. It says so on stderr
    (the dashboard's restore sheet on its status line), then goes on once the lock is free."""
    from svctui.store.audit import try_lock_restores, unlock_restores

    env = demo_env(fresh_demo_server)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    listed = invoke(["selectors", "list", "1", "--all", "-o", "jsonl"])
    target = next(item for item in map(json.loads, listed.stdout.splitlines()) if not item["is_default"])
    assert invoke(["selectors", "delete", "1", str(target["id"]), "--yes"]).exit_code == 0
    run_id = read_audit().runs[-1].run_id
    held = try_lock_restores()  # another restore runs
    assert held is not None
    waiting = subprocess.Popen(
        [str(SVCTUI_BIN), "selectors", "restore", run_id, "--yes"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **env},
    )
    try:
        assert waiting.stderr is not None
        said = ""
        while "waiting for another restore" not in said:
            # os.read, not readline: a buffered readline keeps lines select() can no longer see
            readable, _, _ = select.select([waiting.stderr], [], [], 60)
            assert readable, f"nothing said while waiting; so far: {said!r}"
            chunk = os.read(waiting.stderr.fileno(), 65536).decode()
            assert chunk, f"ended without saying it waited: {said!r}"
            said += chunk
        assert "ctrl+c cancels" in said, said
        assert _names().count(target["name"]) == 0, "nothing is sent while it waits"
    finally:
        unlock_restores(held)
    _out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    assert _names().count(target["name"]) == 1
