"""Start-up cost: `svctui --help` and importing the dashboard module, against a bare interpreter start."""

from __future__ import annotations

import subprocess
import sys

from bench.harness import Comparison, compare


def _run(*args: str) -> None:
    subprocess.run([sys.executable, *args], check=True, capture_output=True)


def run() -> list[Comparison]:
    """Interpreter start vs CLI help vs dashboard import (each a fresh process)."""
    results = [
        compare(
            "cli-help",
            "fresh process: `python -m svctui --help`",
            ("python -c pass", lambda: _run("-c", "pass")),
            ("python -m svctui --help", lambda: _run("-m", "svctui", "--help")),
            repeats=5,
        )
    ]
    try:
        _run("-c", "import svctui.tui.app")
    except subprocess.CalledProcessError:
        return results
    results.append(
        compare(
            "tui-import",
            "fresh process: import the dashboard module (what precedes the first frame)",
            ("python -c pass", lambda: _run("-c", "pass")),
            ("import svctui.tui.app", lambda: _run("-c", "import svctui.tui.app")),
            repeats=5,
        )
    )
    return results
