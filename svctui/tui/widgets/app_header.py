"""The one-line header: app name, screen tabs (clickable, with their keys), profile, server and edition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.content import Content
from textual.widgets import Static


@dataclass(frozen=True)
class HeaderInfo:
    """What the header shows about the connection."""

    profile: str = ""
    server: str = ""
    edition: str | None = None
    problem: str | None = None


@dataclass(frozen=True)
class Tab:
    """A screen tab: mode name, key and title."""

    name: str
    key: str
    title: str


def header_content(info: HeaderInfo, tabs: Sequence[Tab], current: str) -> Content:
    """`svctui  1 Events  2 Completed tasks   profile demo · http://127.0.0.1:5000 · enterprise`."""
    parts: list[Content | tuple[str, str] | str] = [("svctui", "bold"), "  "]
    for tab in tabs:
        style = "reverse bold" if tab.name == current else "dim"
        parts += [(f" {tab.key} {tab.title} ", f"{style} @click=app.switch_screen_tab('{tab.name}')"), " "]
    parts += ["  ", ("profile ", "dim"), (info.profile or "-", "bold")]
    if info.server:
        parts += [(" | ", "dim"), info.server]
    edition = info.edition or ("?" if info.problem is None else "")
    if edition:
        parts += [(" | ", "dim"), (edition, "$success" if edition == "enterprise" else "$warning")]
    if info.problem:
        parts += [(" | ", "dim"), (info.problem, "$error")]
    return Content.assemble(*parts)


class AppHeader(Static):
    """Shows `HeaderInfo` and the screen tabs; the app calls `show()` when either changes."""

    DEFAULT_CSS = """
    AppHeader { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """

    def show(self, info: HeaderInfo, tabs: Sequence[Tab], current: str) -> None:
        """Render the header."""
        self.update(header_content(info, tabs, current))
