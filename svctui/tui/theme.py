"""Themes: app variables (`$status-failed`, ...), theme files (TOML) validated, broken ones reported together.

A theme file (`svctui/themes/*.toml`, shipped as package data and linked from `themes/` at the repository root, or
`<config dir>/themes/*.toml`) looks like:

    name = "svctui-dusk"
    dark = true
    primary = "#5B8DEF"
    background = "#14161C"          # optional: secondary accent warning error success foreground surface panel boost
    [variables]
    status-failed = "#FF6B6B"       # optional overrides of the app variables below

Every colour is parsed with Textual's `Color.parse`; a file with any problem is skipped and named (with the
problem) in one notification. A theme name from the settings that does not exist falls back to DEFAULT_THEME.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

DEFAULT_THEME = "textual-dark"
COLOR_KEYS = (
    "primary",
    "secondary",
    "accent",
    "warning",
    "error",
    "success",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
)
APP_VARIABLE_DEFAULTS: Mapping[str, str] = {
    "status-invalid": "#8A8F98",
    "status-ready": "#7AA2F7",
    "status-running": "#2AC3DE",
    "status-complete": "#4EBF71",
    "status-canceled": "#9AA0A6",
    "status-timed-out": "#E0AF68",
    "status-failed": "#F7768E",
    "status-ingesting": "#BB9AF7",
    "status-analyzing": "#9D7CD8",
    "status-partially-complete": "#FF9E64",
    "status-unknown": "#8A8F98",
    "status-missing": "#F7768E",
    "mark": "#E0AF68",
    "drop": "#BA3C5B",  # a count that fell beyond the threshold (▼); textual-dark's $error, as before the variable
}
SHIPPED_THEMES = ("svctui-dusk", "svctui-paper", "svctui-contrast", "svctui-cvd")
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class ThemeFileError(ValueError):
    """A theme file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class ThemeLoad:
    """Themes loaded from files, and one line per broken file."""

    themes: tuple[Theme, ...]
    problems: tuple[str, ...]


def shipped_themes_dir() -> Path:
    """`svctui/themes/`: the themes installed with the package (`themes/` at the repository root links to it)."""
    return Path(__file__).resolve().parents[1] / "themes"


def user_themes_dir() -> Path:
    """`<config dir>/themes`."""
    from svctui.store.paths import config_dir

    return config_dir() / "themes"


def _color(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ThemeFileError(f'{path.name}: {key} must be a colour string like "#5B8DEF", not {value!r}')
    try:
        Color.parse(value)
    except ColorParseError as exc:
        raise ThemeFileError(f"{path.name}: {key} = {value!r} is not a colour ({exc})") from None
    return value


def theme_from_mapping(path: Path, document: Mapping[str, Any]) -> Theme:
    """Validate a parsed theme document into a Theme; ThemeFileError names what is wrong."""
    name = document.get("name")
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise ThemeFileError(f"{path.name}: name must be 1-64 letters, digits, '.', '_' or '-', got {name!r}")
    if "primary" not in document:
        raise ThemeFileError(f"{path.name}: primary is required")
    unknown = sorted(set(document) - {"name", "dark", "variables", *COLOR_KEYS})
    if unknown:
        allowed = ", ".join(("name", "dark", *COLOR_KEYS, "[variables]"))
        raise ThemeFileError(f"{path.name}: unknown key(s) {', '.join(unknown)}; allowed: {allowed}")
    dark = document.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeFileError(f"{path.name}: dark must be true or false, not {dark!r}")
    colors = {key: _color(path, key, document[key]) for key in COLOR_KEYS if key in document}
    variables = document.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeFileError(f'{path.name}: [variables] must be a table of name = "colour"')
    checked = {str(key): _color(path, f"variables.{key}", value) for key, value in variables.items()}
    theme = Theme(name=name, primary=colors.pop("primary"), dark=dark, variables=checked)
    for key, value in colors.items():
        setattr(theme, key, value)
    return theme


def load_theme_file(path: Path) -> Theme:
    """Read and validate one TOML theme file."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThemeFileError(f"{path.name}: cannot read ({exc.strerror})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path.name}: not valid TOML ({exc})") from None
    return theme_from_mapping(path, document)


def load_themes(directories: Iterable[Path]) -> ThemeLoad:
    """Every `*.toml` theme in the directories (later directories win on equal names), plus the problems."""
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.toml")):
            try:
                theme = load_theme_file(path)
            except ThemeFileError as exc:
                problems.append(f"{directory.name}/{exc}")
                continue
            themes[theme.name] = theme
    return ThemeLoad(tuple(themes.values()), tuple(problems))


def pick_theme(requested: str, available: Iterable[str]) -> tuple[str, str | None]:
    """The theme to use and, when the requested one is unknown, a message saying so."""
    names = set(available)
    if requested in names:
        return requested, None
    return DEFAULT_THEME, f"Theme {requested!r} is not installed; using {DEFAULT_THEME}."
