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


# A fenced private name says what it buys and the bench row that needs it; its figures are in docs/PERFORMANCE.md
# ("why each device stays") and the story of its A/B runs in CHANGELOG.md and the commit messages.
MEASUREMENT = re.compile(
    r"\b20\d\d-\d\d-\d\d\b|\bat load\b|\bundecided\b|\bx\d+\.\d+|\b\d+(?:\.\d+)? ?ms\b|\bwith, .* without\b",
    re.IGNORECASE,
)


def measurements_told(text: str) -> list[str]:
    """The dates, loads, figures and verdicts of a measurement in `text`."""
    return [found.group(0) for found in MEASUREMENT.finditer(text)]


def test_the_fence_of_textual_internals_keeps_no_measurement_log() -> None:
    text = (ROOT / "svctui" / "tui" / "textual_internals.py").read_text(encoding="utf-8")
    told = history_told(text) + measurements_told(text)
    assert not told, f"one line a name: what it buys and its bench row; figures go to docs/PERFORMANCE.md: {told}"


def test_the_check_finds_a_measurement_log() -> None:
    old = "# for first-row: x1.92-x2.76 with, x2.13-x3.03 without at load 3-4 (2026-12-05), undecided, kept; 49 ms"
    told = measurements_told(old)
    assert {"x1.92", "at load", "2026-12-05", "undecided", "49 ms"} <= set(told), told
    assert measurements_told('("DataTable", "_data"): "append_rows: cells written in place (stall-page-turn)"') == []
