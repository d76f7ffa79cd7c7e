"""CHANGELOG.md follows Keep a Changelog 1.1.0: Unreleased first, versions with ISO dates, newest first, only its
six kinds of section, and every bracketed heading a link reference defined at the bottom."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
VERSION = re.compile(r"^## (\[?)(\d+\.\d+\.\d+)\]? - (\d{4}-\d{2}-\d{2})$")


def problems(text: str) -> list[str]:
    """What in `text` does not follow Keep a Changelog 1.1.0 (nothing: it does)."""
    found: list[str] = []
    releases = [line for line in text.splitlines() if line.startswith("## ")]
    if not releases or releases[0].strip("#[] ") != "Unreleased":
        found.append("the first release heading is not Unreleased")
    versions: list[tuple[int, ...]] = []
    for heading in (line for line in releases if line.strip("#[] ") != "Unreleased"):
        match = VERSION.match(heading)
        if match is None:
            found.append(f"not `## X.Y.Z - YYYY-MM-DD`: {heading}")
            continue
        try:
            date.fromisoformat(match.group(3))
        except ValueError:
            found.append(f"not an ISO date: {heading}")
        versions.append(tuple(int(part) for part in match.group(2).split(".")))
    if versions != sorted(versions, reverse=True):
        found.append("versions are not newest first")
    for release in re.split(r"^## ", text, flags=re.M)[1:]:
        kinds = re.findall(r"^### (.+)$", release, flags=re.M)
        found += [f"a section Keep a Changelog does not have: ### {kind}" for kind in kinds if kind not in KINDS]
        if len(set(kinds)) != len(kinds):
            found.append(f"a section twice under ## {release.splitlines()[0]}")
    for name in re.findall(r"^## \[([^\]]+)\]", text, flags=re.M):
        if not re.search(rf"^\[{re.escape(name)}\]: \S+$", text, flags=re.M):
            found.append(f"[{name}] has no link reference at the bottom")
    return found


def test_the_changelog_follows_keep_a_changelog() -> None:
    assert problems(CHANGELOG.read_text(encoding="utf-8")) == []


def test_the_check_finds_what_keep_a_changelog_does_not_allow() -> None:
    text = "# Changelog\n\n## 0.2.0 - 2026-13-01\n\n### Performance\n\n- x\n\n## [0.3.0] - 2026-11-27\n"
    assert problems(text) == [
        "the first release heading is not Unreleased",
        "not an ISO date: ## 0.2.0 - 2026-13-01",
        "versions are not newest first",
        "a section Keep a Changelog does not have: ### Performance",
        "[0.3.0] has no link reference at the bottom",
    ]
