"""`svctui demo-server` suggests a profile name no stored profile has (`demo`, `demo-2`, …), and the line it prints
adds that profile."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

from tests.support.cli import add_profile, run_cli

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--clients", "1", "--events", "2", "--tasks", "10", "--tags", "1", "--selectors", "2", "--seed", "3"]


def banner(tmp_path: Path) -> str:
    """Start the real demo-server process, read its banner up to "Press Ctrl-C", stop it."""
    command = [sys.executable, "-m", "svctui", "demo-server", "--db", str(tmp_path / "d.sqlite3"), *SMALL]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
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


def test_the_banner_suggests_a_free_profile_name_that_adds(tmp_path: Path) -> None:
    for name in ("demo", "demo-2"):
        assert add_profile(name, "http://127.0.0.1:9", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "k").exit_code == 0
    text = banner(tmp_path)
    assert "svctui --profile demo-3" in text, text
    line = re.search(r"printf '%s\\n' (\S+) \| svctui profile add (\S+) --base-url (\S+) --token-id (\S+)", text)
    assert line is not None and line.group(2) == "demo-3", text
    key, name, url, token_id = line.groups()
    assert add_profile(name, url, token_id, key.strip("'")).exit_code == 0
    listed = run_cli("profile", "list")
    assert all(name in listed.stdout for name in ("demo", "demo-2", "demo-3")), listed.stdout


def test_free_names_count_up_past_gaps() -> None:
    from svctui.commands.demo import free_profile_name

    assert free_profile_name([]) == "demo"
    assert free_profile_name(["prod", "demo-2"]) == "demo"
    assert free_profile_name(["demo", "demo-2", "demo-4"]) == "demo-3"
