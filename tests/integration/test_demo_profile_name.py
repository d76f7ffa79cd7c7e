"""`svctui demo-server` suggests a profile name no stored profile has (`demo-server`, `demo-server-2`, …), never
`demo` (`svctui --demo`'s own profile, reserved), and the line it prints adds that profile."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.cli import SVCTUI_BIN, add_profile, run_cli

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--clients", "1", "--events", "2", "--tasks", "10", "--tags", "1", "--selectors", "2", "--seed", "3"]


def banner(tmp_path: Path, start: list[str], env: dict[str, str] | None = None) -> str:
    """Start the real demo-server process (`start` runs svctui), read its banner up to "Press Ctrl-C", stop it."""
    command = [*start, "demo-server", "--db", str(tmp_path / "d.sqlite3"), *SMALL]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
    watchdog = threading.Timer(120, process.kill)
    watchdog.start()
    lines: list[str] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Press Ctrl-C"):
                break
    finally:
        watchdog.cancel()
        process.kill()
        process.wait(timeout=30)
    return "".join(lines)


def add_line(text: str) -> re.Match[str]:
    """The banner's `printf KEY | SVCTUI profile add NAME --base-url URL --token-id ID --secret-stdin` line."""
    line = re.search(
        r"^  (printf '%s\\n' (\S+) \| (.+?) profile add (\S+) --base-url (\S+) --token-id (\S+) --secret-stdin)$",
        text,
        re.MULTILINE,
    )
    assert line is not None, text
    return line


def test_the_banner_suggests_a_free_profile_name_that_adds(tmp_path: Path) -> None:
    for name in ("demo-server", "demo-server-2"):
        assert add_profile(name, "http://127.0.0.1:9", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "k").exit_code == 0
    text = banner(tmp_path, [sys.executable, "-m", "svctui"])
    line = add_line(text)
    assert line.group(4) == "demo-server-3", text
    assert f"{line.group(3)} --profile demo-server-3" in text, text
    _, key, _, name, url, token_id = line.groups()
    assert add_profile(name, url, token_id, key.strip("'")).exit_code == 0
    listed = run_cli("profile", "list")
    assert all(name in listed.stdout for name in ("demo-server", "demo-server-2", "demo-server-3")), listed.stdout


def test_the_demo_servers_profile_and_the_dashboards_demo_never_share_a_name(tmp_path: Path) -> None:
    """Review: the banner suggested `profile add demo`, the name of `svctui --demo`'s in-memory profile: the two
    servers (other ports) then shared one client-names cache, server facts and recent clients, each start emptying
    the other's, and the picker showed the stored `demo` as the one in use. The banner suggests `demo-server`, and
    `demo` cannot be stored (the line pasted with `demo` is refused, exit 2, nothing saved)."""
    from svctui.tui.launch import demo_profile

    text = banner(tmp_path, [str(SVCTUI_BIN)])
    line = add_line(text)
    _, key, _, name, url, token_id = line.groups()
    embedded = demo_profile(SimpleNamespace(base_url=url, token_id=token_id, token_key=key.strip("'")))
    assert name == "demo-server" != embedded.name, text
    pasted = subprocess.run(["sh", "-c", line.group(1)], capture_output=True, text=True, timeout=60)
    assert pasted.returncode == 0, pasted.stdout + pasted.stderr
    for reserved in (embedded.name, embedded.name.upper()):  # one cache file on a case-insensitive disk
        taken = subprocess.run(
            ["sh", "-c", line.group(1).replace(f" profile add {name} ", f" profile add {reserved} ")],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert taken.returncode == 2, taken.stdout + taken.stderr
        assert taken.stderr.startswith(f"error: profile name '{reserved}' is reserved for `svctui --demo`"), taken
    listed = run_cli("profile", "list")
    assert "demo-server" in listed.stdout and " demo " not in listed.stdout.replace("\n", " "), listed.stdout
    asked = run_cli("--profile", "demo", "profile", "test")
    assert asked.exit_code == 2 and "`svctui --demo`, never stored" in asked.stderr, asked.output
    assert "svctui demo-server" in asked.stderr and asked.stderr.rstrip().endswith("known profiles: demo-server")


@pytest.mark.parametrize("how", ["script", "module"])
def test_the_printed_line_works_in_a_shell_where_svctui_is_on_no_path(tmp_path: Path, how: str) -> None:
    """Run from a venv that is not activated (its bin not on PATH), the banner names the svctui that runs (the
    script's absolute path, or this interpreter with -m svctui), and pasting its line into a shell adds the profile."""
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != str(SVCTUI_BIN.parent))
    env = {**os.environ, "PATH": path}
    assert shutil.which("svctui", path=path) is None, "svctui must be on no PATH for this test"
    start = [str(SVCTUI_BIN)] if how == "script" else [sys.executable, "-m", "svctui"]
    text = banner(tmp_path, start, env)
    line = add_line(text)
    expected = shlex.quote(str(SVCTUI_BIN)) if how == "script" else f"{shlex.quote(sys.executable)} -m svctui"
    assert line.group(3) == expected, text
    assert f"Try it:  {expected} --profile demo-server" in text, text
    pasted = subprocess.run(["sh", "-c", line.group(1)], env=env, capture_output=True, text=True, timeout=60)
    assert pasted.returncode == 0, pasted.stdout + pasted.stderr
    listed = run_cli("profile", "list")
    assert "demo-server" in listed.stdout and line.group(5) in listed.stdout, listed.stdout


def test_the_banner_says_plain_svctui_only_when_that_is_the_one_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from svctui.commands.demo import running_command

    on_path, elsewhere = tmp_path / "bin", tmp_path / "my venv" / "bin"
    for directory in (on_path, elsewhere):
        directory.mkdir(parents=True)
        (directory / "svctui").write_text("#!/bin/sh\n")
        (directory / "svctui").chmod(0o755)
    monkeypatch.setenv("PATH", str(on_path))
    assert running_command(str(on_path / "svctui"), sys.executable) == "svctui"
    assert running_command(str(elsewhere / "svctui"), sys.executable) == shlex.quote(str(elsewhere / "svctui"))
    assert running_command("/no/such/dir/svctui", "/opt/py 3/python") == "'/opt/py 3/python' -m svctui"


def test_free_names_count_up_past_gaps() -> None:
    from svctui.commands.demo import free_profile_name

    assert free_profile_name([]) == "demo-server"
    assert free_profile_name(["prod", "demo", "demo-server-2"]) == "demo-server"
    assert free_profile_name(["demo-server", "demo-server-2", "demo-server-4"]) == "demo-server-3"
