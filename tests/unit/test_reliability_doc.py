"""RELIABILITY.md names the tests that prove each fault's handling: every name must be a test that exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")
FAULT_CLASSES = (
    "5xx",
    "HTML",
    "malformed",
    "truncated",
    "slow drip",
    "reset",
    "redirect",
    "429 storm",
    "clock skew",
    "server gone mid-session",
    "kill -9",
    "disk full",
    "bad filter",
)


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    }


def test_every_test_named_in_reliability_md_exists() -> None:
    text = (ROOT / "RELIABILITY.md").read_text(encoding="utf-8")
    references = REFERENCE.findall(text)
    assert len(references) > 50
    missing = [
        f"{file}::{name}"
        for file, name in references
        if not (ROOT / file).is_file() or name not in _test_names(ROOT / file)
    ]
    assert not missing, f"RELIABILITY.md names tests that do not exist: {missing}"


def test_reliability_md_covers_every_fault_class_of_issue_12() -> None:
    text = (ROOT / "RELIABILITY.md").read_text(encoding="utf-8").lower()
    assert not [fault for fault in FAULT_CLASSES if fault.lower() not in text]
