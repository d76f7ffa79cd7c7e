"""docs/ARCHITECTURE.md's layer map names every top-level module and package of svctui (issue 27, item 6)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "svctui"


def layer_map() -> str:
    """The code block under `## Layers` in docs/ARCHITECTURE.md."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1]
    return section.split("```", 2)[1]


def top_level_names() -> list[str]:
    """`cli.py`, `api/`, ...: svctui's own modules and packages (its `__init__.py` aside)."""
    modules = [path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py"]
    packages = [f"{path.name}/" for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()]
    return sorted(modules + packages)


def test_the_layer_map_names_every_module_and_package() -> None:
    shown = layer_map()
    missing = [name for name in top_level_names() if not re.search(rf"(?<![\w.]){re.escape(name)}", shown)]
    assert not missing, f"docs/ARCHITECTURE.md's layer map does not name {missing}: add a line saying what each holds"


def test_the_check_sees_the_modules() -> None:
    """The test above reads real names (a wrong path would make it pass on nothing)."""
    names = top_level_names()
    assert {"cli.py", "api/", "tui/", "table_fit.py"} <= set(names)
