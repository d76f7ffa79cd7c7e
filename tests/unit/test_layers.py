"""The layering rule: svctui.api and svctui.store import nothing from Textual; svctui.demo never imports the TUI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BLOCKER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "textual" or name.startswith("textual.") or name.startswith("svctui.tui"):
            raise ImportError(f"blocked import of {name}")
        return None
sys.meta_path.insert(0, Block())
import pkgutil, importlib
import svctui.{package} as root
for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
    importlib.import_module(info.name)
assert not any(m == "textual" or m.startswith("textual.") for m in sys.modules), "textual was imported"
print("ok", root.__name__)
"""


def _import_with_textual_blocked(package: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER.replace("{package}", package)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_api_imports_without_textual() -> None:
    result = _import_with_textual_blocked("api")
    assert result.returncode == 0, result.stderr
    assert "ok svctui.api" in result.stdout


def test_store_imports_without_textual() -> None:
    result = _import_with_textual_blocked("store")
    assert result.returncode == 0, result.stderr


def test_demo_imports_without_textual_or_tui() -> None:
    result = _import_with_textual_blocked("demo")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("package", ["ops", "triage", "runlog"])
def test_shared_logic_imports_without_textual(package: str) -> None:
    """The delete engine, the triage logic and the run-log reading are pure: the CLI and the screens use them."""
    result = _import_with_textual_blocked(package)
    assert result.returncode == 0, result.stderr


def test_blocker_really_blocks() -> None:
    """The blocker itself must fail a package that does import Textual, or the tests above prove nothing."""
    result = subprocess.run(
        [sys.executable, "-c", BLOCKER.split("import pkgutil")[0] + "import textual.app\n"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "blocked import of textual" in result.stderr


TUNING_MODULES = {"gc", "ctypes", "svctui.tui.heap"}  # process-wide runtime tuning: the app's, set at launch


def tuning_imports(source: str) -> list[str]:
    """The TUNING_MODULES a source imports (`import gc`, `import ctypes.util`, `from svctui.tui import heap`)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found += [module for module in sorted(TUNING_MODULES) if any(_is_in(name, module) for name in names)]
    return found


def _is_in(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def test_no_screen_widget_or_library_module_tunes_the_runtime() -> None:
    """Issue 27: gc and malloc are set once by the app at launch (svctui.tui.heap), never from a screen, a widget or
    svctui.api."""
    root = Path(__file__).resolve().parents[2] / "svctui"
    offenders = {
        str(path.relative_to(root)): imports
        for folder in ("tui/screens", "tui/widgets", "api")
        for path in sorted((root / folder).rglob("*.py"))
        if (imports := tuning_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_the_tuning_check_sees_each_way_of_importing() -> None:
    sources = ["import gc", "import ctypes.util", "from svctui.tui import heap", "from svctui.tui.heap import X"]
    expected = [["gc"], ["ctypes"], ["svctui.tui.heap"], ["svctui.tui.heap"]]
    assert [tuning_imports(source) for source in sources] == expected
