"""`screenshots/` holds exactly the scenes `make screenshots` renders, and the README and docs show them."""

from __future__ import annotations

import re
from pathlib import Path

from svctui.tui.screenshots import SCENES

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_screenshots_are_the_scenes() -> None:
    files = {path.stem for path in (ROOT / "screenshots").glob("*.svg")}
    assert files == {scene.name for scene in SCENES}


def test_every_screen_has_a_scene_and_the_readme_and_docs_embed_them() -> None:
    names = {scene.name for scene in SCENES}
    for screen in ("events", "tasks", "selectors", "clients"):
        assert any(name == screen or name.startswith(f"{screen}-") for name in names), screen
    shown = set()
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        shown |= set(re.findall(r"screenshots/([\w.-]+)\.svg", page.read_text(encoding="utf-8")))
    assert names <= shown, sorted(names - shown)
