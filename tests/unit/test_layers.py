"""The layering rule: svctui.api and svctui.store import nothing from Textual; svctui.demo never imports the TUI."""

from __future__ import annotations

import subprocess
import sys

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
