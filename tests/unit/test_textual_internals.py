"""Textual's private names: each one svctui uses is still in the installed Textual, and only one module uses them."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from importlib.metadata import version
from pathlib import Path

import pytest
from textual.app import App
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Footer, Input, Static
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from svctui.tui.textual_internals import PRIVATE_NAMES, UNEXPORTED_TYPES

PACKAGE = Path(__file__).resolve().parents[2] / "svctui"
DOOR = PACKAGE / "tui" / "textual_internals.py"
BENCH = PACKAGE.parent / "bench"  # the bench harness goes through the door too
# The Textual classes svctui builds on: their private names are what a subclass or caller could reach for.
BASES: dict[str, type[object]] = {
    cls.__name__: cls for cls in (App, Screen, ModalScreen, Widget, Static, DataTable, Footer, Input)
}


def _has(owner: str, name: str) -> bool:
    if owner in BASES:
        cls = BASES[owner]
        if hasattr(cls, name):
            return True
        instance = cls() if cls is not App else App()
        return hasattr(instance, name)
    value: object = importlib.import_module(owner)
    for part in name.split("."):  # "Plot._set_size": a class's name in that module, then its attribute
        if not hasattr(value, part):
            return False
        value = getattr(value, part)
    return True


@pytest.mark.parametrize(("owner", "name"), sorted(PRIVATE_NAMES))
def test_the_installed_textual_still_has_it(owner: str, name: str) -> None:
    assert _has(owner, name), (
        f"Textual {version('textual')} has no {owner}.{name} any more; svctui used it for: "
        f"{PRIVATE_NAMES[(owner, name)]}. Change svctui/tui/textual_internals.py (and the pin in pyproject.toml)."
    )


def _widget_types() -> set[str]:
    """The names of every Widget class Textual defines (its widgets modules imported, exported or not)."""
    importlib.import_module("textual.widgets._toast")  # Textual's toasts: imported by the app as it runs
    found: set[str] = set()
    todo: list[type[Widget]] = [Widget]
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("textual."):
            found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found


@pytest.mark.parametrize("name", sorted(UNEXPORTED_TYPES))
def test_the_installed_textual_still_has_the_widget_type(name: str) -> None:
    assert name in _widget_types(), (
        f"Textual {version('textual')} has no widget type {name} any more; svctui names it for: "
        f"{UNEXPORTED_TYPES[name]}. Change svctui/tui/textual_internals.py (and the pin in pyproject.toml)."
    )


def _textual_private_names() -> set[str]:
    names: set[str] = set()
    for cls in BASES.values():
        for klass in cls.__mro__:
            if klass.__module__.startswith(("textual.", "rich.")):
                names.update(n for n in vars(klass) if n.startswith("_") and not n.startswith("__"))
        instance = App() if cls is App else cls()
        names.update(n for n in vars(instance) if n.startswith("_") and not n.startswith("__"))
    # textual-plotext's figure (plotext's own classes under it) and its widget (Textual's classes under it)
    for klass in (*Plot.__mro__, *PlotextPlot.__mro__):
        if klass.__module__.startswith(("textual_plotext.", "plotext.")):
            names.update(n for n in vars(klass) if n.startswith("_") and not n.startswith("__"))
    names.update(n for n in vars(PlotextPlot()) if n.startswith("_") and not n.startswith("__"))
    return names


def _own_names(trees: list[ast.AST]) -> set[str]:
    """Private names svctui gives a value itself (`self._x = ...`, functions, methods, class attributes)."""
    own: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            targets = node.targets if isinstance(node, ast.Assign) else []
            targets += [node.target] if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                ):
                    own.add(target.attr)
                elif isinstance(target, ast.Name):
                    own.add(target.id)
    return own


def _imported_modules(tree: ast.AST) -> set[str]:
    """Names bound by `import x` (an `os._exit` is the os module's, not Textual's)."""
    return {
        alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }


def test_no_module_but_the_door_reads_a_private_textual_name() -> None:
    private = _textual_private_names()
    sources = [*sorted(PACKAGE.rglob("*.py")), *sorted(BENCH.rglob("*.py"))]
    paths = [path for path in sources if path != DOOR]
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in paths}
    own = _own_names(list(trees.values()))
    found = []
    for path, tree in trees.items():
        modules = _imported_modules(tree)
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("textual.", "rich.")):
                if any(part.startswith("_") for part in node.module.split(".")):
                    found.append(f"{where}:{node.lineno}: from {node.module} import ...")
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in private
                and node.attr not in own
                and not (isinstance(node.value, ast.Name) and node.value.id in modules)
            ):
                found.append(f"{where}:{node.lineno}: .{node.attr}")
    assert found == [], "private Textual names outside svctui/tui/textual_internals.py:\n" + "\n".join(found)
    assert any(path.parent == BENCH for path in paths), "the bench harness is read too"


def test_no_class_but_the_door_overrides_a_private_textual_method() -> None:
    found = []
    for info in pkgutil.walk_packages([str(PACKAGE / "tui")], "svctui.tui."):
        module = importlib.import_module(info.name)
        if module.__name__ == "svctui.tui.textual_internals":
            continue
        for cls in vars(module).values():
            if not isinstance(cls, type) or cls.__module__ != module.__name__:
                continue
            textual_bases = [base for base in cls.__mro__ if base.__module__.startswith(("textual.", "rich."))]
            for name, value in vars(cls).items():
                if not inspect.isfunction(value) or not name.startswith("_") or name.startswith("__"):
                    continue  # only methods (a class's attributes made by Textual's metaclass are not overrides)
                if any(name in vars(base) for base in textual_bases):
                    found.append(f"{cls.__module__}.{cls.__qualname__}.{name}")
    assert found == [], "private Textual methods overridden outside svctui/tui/textual_internals.py: " + ", ".join(
        found
    )


def test_every_private_name_the_door_uses_is_listed_with_what_it_buys() -> None:
    private = _textual_private_names()
    tree = ast.parse(DOOR.read_text(encoding="utf-8"))
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr in private}
    used |= {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)} & private
    listed = {name.rpartition(".")[2] for _owner, name in PRIVATE_NAMES}  # "Plot._set_size": a class's name
    assert sorted(used - listed) == [], "add these to PRIVATE_NAMES with the bench row or behaviour they keep"


def test_every_device_a_name_is_listed_for_is_code_that_exists() -> None:
    """Each name points at the devices that read it (`FixedLayoutTable: ...`, one line a device): each device it
    names (the words before `:`) is a class or function of svctui or the bench, so a device removed takes its line."""
    defined: set[str] = set()
    for path in [*PACKAGE.rglob("*.py"), *BENCH.rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef | ast.FunctionDef)}
        defined |= {node.name for node in ast.walk(tree) if isinstance(node, ast.AsyncFunctionDef)}
    devices = {device for said in PRIVATE_NAMES.values() for device in said.split("; ")}
    named = {name.strip() for device in devices for name in device.partition(":")[0].split(",")}
    assert all(":" in device for device in devices), devices
    missing = sorted(name for name in named if not set(name.split(".")) <= defined)
    assert missing == [], f"devices PRIVATE_NAMES names that svctui no longer has: {missing}"
    assert len(devices) < len(PRIVATE_NAMES), "a device's line is said once, however many names it reads"
