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


TUNING_MODULES = {"gc", "ctypes"}  # process-wide runtime tuning: the launch's alone
TUNERS = {"tune_runtime", "limit_malloc_arenas"}  # svctui.startup's: cli.py calls tune_runtime, once, at launch


def tuning_imports(source: str) -> list[str]:
    """The TUNING_MODULES a source imports (`import gc`, `import ctypes.util`, `from ctypes import CDLL`)."""
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


def tuner_uses(source: str) -> list[str]:
    """The TUNERS a source names (imported, called or read as an attribute)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found |= {alias.name for alias in node.names} & TUNERS
        elif isinstance(node, ast.Name) and node.id in TUNERS:
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in TUNERS:
            found.add(node.attr)
    return sorted(found)


def _is_in(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


def test_only_the_launch_tunes_the_runtime() -> None:
    """Issue 27: gc and malloc are set once as the program launches (svctui/startup.py, called by cli.py), never from
    the app, a screen, a widget or svctui.api: no other module imports gc or ctypes, or calls the launch's tuning."""
    root = Path(__file__).resolve().parents[2] / "svctui"
    sources = {str(path.relative_to(root)): path.read_text(encoding="utf-8") for path in sorted(root.rglob("*.py"))}
    importers = {name: found for name, source in sources.items() if (found := tuning_imports(source))}
    callers = {name: found for name, source in sources.items() if (found := tuner_uses(source))}
    assert importers == {"startup.py": ["gc", "ctypes"]}
    assert callers == {"cli.py": ["tune_runtime"], "startup.py": ["limit_malloc_arenas"]}


def test_the_tuning_checks_see_each_way_of_importing_and_calling() -> None:
    sources = ["import gc", "import ctypes.util", "from ctypes import CDLL", "import os"]
    assert [tuning_imports(source) for source in sources] == [["gc"], ["ctypes"], ["ctypes"], []]
    calls = ["from svctui.startup import tune_runtime", "startup.tune_runtime(k)", "limit_malloc_arenas(1)", "x = 1"]
    assert [tuner_uses(source) for source in calls] == [["tune_runtime"], ["tune_runtime"], ["limit_malloc_arenas"], []]
