"""Widgets are reached with Textual's `getters.query_one`, screens through typed protocols (issue 27, item 4)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TUI = Path(__file__).resolve().parents[2] / "svctui" / "tui"
# A property that types what it finds with the screen's own type parameter (`PagedTable[T]`), which a class-level
# getter cannot name: list_screen's `table` and `detail`.
GENERIC = {("screens/list_screen.py", "table"), ("screens/list_screen.py", "detail")}


def _is_query(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "query_one"


def _returns_a_query(function: ast.FunctionDef) -> bool:
    """True when the function only returns the widget one `query_one` finds (directly or through a name)."""
    body = [node for node in function.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    match body:
        case [ast.Return(value=value)]:
            return _is_query(value)
        case [ast.Assign(targets=[ast.Name(id=name)], value=value), ast.Return(value=ast.Name(id=returned))]:
            return _is_query(value) and name == returned
        case [ast.AnnAssign(target=ast.Name(id=name), value=value), ast.Return(value=ast.Name(id=returned))]:
            return _is_query(value) and name == returned
    return False


def query_properties(source: str) -> list[str]:
    """The names of the properties in `source` that only wrap a `query_one`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)
        if is_property and _returns_a_query(node):
            found.append(node.name)
    return found


def test_no_property_wraps_a_query_one() -> None:
    wrapped = [
        f"{path.relative_to(TUI)}:{name}"
        for path in sorted(TUI.rglob("*.py"))
        for name in query_properties(path.read_text(encoding="utf-8"))
        if (path.relative_to(TUI).as_posix(), name) not in GENERIC
    ]
    assert not wrapped, f"use `name = getters.query_one(selector, Type)` at class level instead of: {wrapped}"


def test_the_check_finds_a_wrapping_property() -> None:
    source = (
        "class Pane:\n"
        "    @property\n"
        "    def table(self):\n"
        '        """The table."""\n'
        "        table: DataTable[str] = self.query_one('#t', DataTable)\n"
        "        return table\n"
        "    @property\n"
        "    def value(self):\n"
        "        return str(self.query_one('.v', Select).value) if self.ok else 'eq'\n"
        "    @property\n"
        "    def state(self):\n"
        "        return self.query_one(StatePanel)\n"
    )
    assert query_properties(source) == ["table", "state"]  # `value` reads a widget's value: not a getter


def test_no_screen_is_asked_by_attribute_name() -> None:
    """A screen's own method is called through a typed protocol (tui/navigation.py), never found by name."""
    pattern = re.compile(r"(?:getattr|hasattr)\((?:self(?:\.app)?\.)?screen\b")
    asked = [
        f"{path.relative_to(TUI)}:{number}"
        for path in sorted(TUI.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not asked, f"call the screen through a runtime_checkable Protocol instead: {asked}"


APP_BY_NAME = re.compile(r"(?:getattr|hasattr)\((?:self\.)?app\b")


def apps_asked_by_name(source: str) -> list[int]:
    """The lines of `source` that find an attribute of the app by name (getattr/hasattr)."""
    return [number for number, line in enumerate(source.splitlines(), 1) if APP_BY_NAME.search(line)]


def test_no_app_is_asked_by_attribute_name() -> None:
    """Issue 27: a part the app imports reads it through a protocol of tui/app_shape.py (the state panel's profile
    and demo_stopped, help's settings, the theme picker's descriptions), a screen through `getters.app`."""
    asked = [
        f"{path.relative_to(TUI)}:{number}"
        for path in sorted(TUI.rglob("*.py"))
        for number in apps_asked_by_name(path.read_text(encoding="utf-8"))
    ]
    assert not asked, f"read the app through a Protocol of tui/app_shape.py or getters.app instead: {asked}"


def test_the_app_check_finds_a_getattr_of_the_app() -> None:
    source = 'x = getattr(self.app, "profile", None)\ny = getattr(app, "settings")\nz = getattr(apple, "a")\n'
    assert apps_asked_by_name(source) == [1, 2]


def test_the_app_has_every_shape_its_parts_ask_for() -> None:
    """SvcTuiApp satisfies the protocols (mypy checks the assignment; isinstance is what the parts ask at run time)."""
    from svctui.tui.app import SvcTuiApp
    from svctui.tui.app_shape import DescribesThemes, HasSettings, KnowsProfile

    app = SvcTuiApp(None)
    shapes: tuple[KnowsProfile, HasSettings, DescribesThemes] = (app, app, app)
    assert all(isinstance(app, shape) for shape in (KnowsProfile, HasSettings, DescribesThemes)), shapes
