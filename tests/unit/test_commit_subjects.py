"""Commit subjects stay readable in `git log --oneline`: at most 72 characters from the rule's first commit on."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_FROM = "ee1d7c6"  # the last commit before the rule was kept (CONTRIBUTING.md, "Commits")
LONGEST = 72


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_commit_subjects_since_the_rule_fit_in_72_characters() -> None:
    known = _git("cat-file", "-e", f"{RULE_FROM}^{{commit}}")
    if known.returncode != 0:
        pytest.skip(f"{RULE_FROM} is not in this clone's history (a shallow clone)")
    listed = _git("log", "--format=%h %s", f"{RULE_FROM}..HEAD")
    assert listed.returncode == 0, listed.stderr
    too_long = [line for line in listed.stdout.splitlines() if len(line.split(" ", 1)[1]) > LONGEST]
    assert not too_long, f"commit subjects over {LONGEST} characters (details go in the body):\n" + "\n".join(too_long)
