"""No import cycles between svctui modules: every import counts (lazy ones inside functions too), only those under
`if TYPE_CHECKING:` do not — a cycle there is typing, anywhere else it is design."""

from __future__ import annotations

import ast
from pathlib import Path

import svctui

ROOT = Path(svctui.__file__).parent


def module_name(path: Path) -> str:
    """`svctui.tui.app` for svctui/tui/app.py, `svctui.tui` for svctui/tui/__init__.py."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class Imports(ast.NodeVisitor):
    """The svctui modules a module imports, outside `if TYPE_CHECKING:` blocks."""

    def __init__(self, known: set[str]) -> None:
        self.known = known
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        """Skip the body of `if TYPE_CHECKING:` (its else still counts)."""
        test = node.test
        typing_only = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        )
        for child in node.orelse if typing_only else [*node.body, *node.orelse]:
            self.visit(child)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        """`from svctui.x import y`: y when it is a module, else x."""
        if node.module and node.module.startswith("svctui"):
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                self.found.add(candidate if candidate in self.known else node.module)

    def visit_Import(self, node: ast.Import) -> None:
        """`import svctui.x`."""
        self.found.update(alias.name for alias in node.names if alias.name.startswith("svctui"))


def import_graph() -> dict[str, set[str]]:
    """Module -> the svctui modules it imports."""
    paths = {module_name(path): path for path in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        visitor = Imports(set(paths))
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = {other for other in visitor.found if other in paths and other != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_the_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
