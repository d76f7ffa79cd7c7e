"""The one-line header: app name, screen tabs (clickable, with their keys), profile, server and edition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual.content import Content
from textual.widgets import Static

MIN_SERVER = 12
SHORT_READ_ONLY = " r/o"  # where ` read-only` would cut the profile's name


@dataclass(frozen=True)
class HeaderInfo:
    """What the header shows about the connection."""

    profile: str = ""
    server: str = ""
    edition: str | None = None
    problem: str | None = None
    read_only: bool = False  # deletion off (`--read-only`, SVCTUI_READ_ONLY, a read-only profile): at every width


@dataclass(frozen=True)
class Tab:
    """A screen tab: mode name, key and title."""

    name: str
    key: str
    title: str


def header_content(info: HeaderInfo, tabs: Sequence[Tab], current: str, width: int | None = None) -> Content:
    """`svctui  1 Events  2 Completed tasks   profile demo | http://127.0.0.1:5000 | enterprise`.

    With `width`, a header that does not fit first shortens the server (…) and then drops the app name, so the
    tabs, the profile and the edition stay in view.
    """
    content = _assemble(info, tabs, current, info.server, brand=True)
    if width is None or content.cell_length <= width:
        return content
    overflow = content.cell_length - width
    server = info.server
    if server:
        keep = max(len(server) - overflow - 1, MIN_SERVER)
        server = server[:keep] + "…" if keep < len(server) else server
    content = _assemble(info, tabs, current, server, brand=True)
    if content.cell_length > width:
        content = _assemble(info, tabs, current, server, brand=False)
    # still too wide (80 columns): the server, then the edition, then the word `profile` go, and last the name is
    # cut with `…`; the name was cut off the right edge instead (`profile` alone with a name of 5 letters)
    steps: list[dict[str, Any]] = [{"server": ""}, {"server": "", "edition": False}]
    steps.append({"server": "", "edition": False, "label": False})
    if info.read_only:  # the short mark before the name is cut (`de… read-only` at 80 columns)
        steps.append({"server": "", "edition": False, "label": False, "mark": SHORT_READ_ONLY})
    for step in steps:
        if content.cell_length <= width:
            return content
        content = _assemble(info, tabs, current, **{"server": server, "brand": False, **step})
    if content.cell_length > width:
        name = info.profile or "-"
        keep = max(len(name) - (content.cell_length - width) - 1, 1)
        content = _assemble(
            info,
            tabs,
            current,
            "",
            brand=False,
            edition=False,
            label=False,
            name=name[:keep] + "…",
            mark=SHORT_READ_ONLY,
        )
    return content


def _assemble(
    info: HeaderInfo,
    tabs: Sequence[Tab],
    current: str,
    server: str,
    *,
    brand: bool,
    edition: bool = True,
    label: bool = True,
    name: str | None = None,
    mark: str = " read-only",
) -> Content:
    parts: list[Content | tuple[str, str] | str] = [("svctui", "bold"), "  "] if brand else []
    for tab in tabs:
        style = "reverse bold" if tab.name == current else "dim"
        parts += [(f" {tab.key} {tab.title} ", f"{style} @click=app.switch_screen_tab('{tab.name}')"), " "]
    parts += ["  ", ("profile ", "dim")] if label else [" "]
    parts += [(name or info.profile or "-", "bold")]
    if info.read_only:
        parts += [(mark, "$warning bold")]
    if server:
        parts += [(" | ", "dim"), server]
    shown = (info.edition or ("?" if info.problem is None else "")) if edition else ""
    if shown:
        parts += [(" | ", "dim"), (shown, "$success" if shown == "enterprise" else "$warning")]
    if info.problem and edition:
        parts += [(" | ", "dim"), (info.problem, "$error")]
    return Content.assemble(*parts)


class AppHeader(Static):
    """Shows `HeaderInfo` and the screen tabs; the app calls `show()` when either changes."""

    DEFAULT_CSS = """
    AppHeader { height: 1; background: $panel; color: $foreground; padding: 0 1; }
    """
    shown: tuple[HeaderInfo, tuple[Tab, ...], str] | None = None

    def show(self, info: HeaderInfo, tabs: Sequence[Tab], current: str) -> None:
        """Render the header (fitted to the width it has)."""
        self.shown = (info, tuple(tabs), current)
        # one row high, fitted to its width: its size never follows the text, so no layout pass for a new text
        self.update(header_content(info, tabs, current, self.content_size.width or None), layout=False)

    def on_resize(self) -> None:
        """Fit the header again."""
        if self.shown is not None:
            self.show(*self.shown)
