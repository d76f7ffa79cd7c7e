"""BENCHMARKS.md and the bench code that writes it say what is measured and the verdict now, never what a row
was before (issue 27: history goes to CHANGELOG.md and the commit messages)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HISTORY = re.compile(
    r"\bsince issue \d+|\b(?:this|it) (?:was|did at) x?\d|\buntil 20\d\d|\bswung\b|\blast session\b|\bused to\b"
    r"|\bbefore (?:and after )?this change\b",
    re.IGNORECASE,
)


def history_told(text: str) -> list[str]:
    """The phrases of `text` that tell what was before."""
    return [found.group(0) for found in HISTORY.finditer(text)]


def test_the_bench_notes_tell_no_history() -> None:
    told = {
        path.relative_to(ROOT).as_posix(): phrases
        for path in [ROOT / "BENCHMARKS.md", *sorted((ROOT / "bench").glob("*.py"))]
        if (phrases := history_told(path.read_text(encoding="utf-8")))
    }
    assert not told, f"say what is measured and the verdict now; history goes to CHANGELOG.md: {told}"


def test_the_check_finds_history() -> None:
    old = "(a child process since issue 15's change; this was x3.4 with one remove_row; with 3 the ratio swung)"
    assert history_told(old) == ["since issue 15", "this was x3", "swung"]
    assert history_told("remove_row is O(rows) per call: see table-remove-cost") == []
