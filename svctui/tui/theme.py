"""Themes: app variables (`$status-failed`, ...), theme files (TOML) validated, broken ones reported together.

A theme file (`svctui/themes/*.toml`, shipped as package data and linked from `themes/` at the repository root, or
`<config dir>/themes/*.toml`) looks like:

    name = "svctui-dusk"
    description = "calm: blue primary, warm accents"   # optional: the theme picker's second line
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
from dataclasses import dataclass, field
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
# What Textual's own themes are, for the theme picker (a theme file says it in its `description`).
TEXTUAL_THEME_NOTES: Mapping[str, str] = {
    "textual-dark": "Textual's default, and svctui's",
    "textual-light": "Textual's default light one",
    "ansi-dark": "your terminal's own 16 colours",
    "ansi-light": "your terminal's own 16 colours",
    "atom-one-dark": "Atom's One Dark",
    "atom-one-light": "Atom's One Light",
    "catppuccin-frappe": "Catppuccin Frappé: soft pastels",
    "catppuccin-latte": "Catppuccin Latte: soft pastels",
    "catppuccin-macchiato": "Catppuccin Macchiato: soft pastels",
    "catppuccin-mocha": "Catppuccin Mocha: soft pastels, the darkest",
    "dracula": "Dracula: purple and pink",
    "flexoki": "Flexoki: inky, warm",
    "gruvbox": "Gruvbox: warm, retro",
    "monokai": "Monokai: vivid",
    "nord": "Nord: cool arctic blues",
    "rose-pine": "Rosé Pine: muted, soho",
    "rose-pine-dawn": "Rosé Pine Dawn",
    "rose-pine-moon": "Rosé Pine Moon",
    "solarized-dark": "Solarized",
    "solarized-light": "Solarized",
    "tokyo-night": "Tokyo Night: deep blues",
}
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class ThemeFileError(ValueError):
    """A theme file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class ThemeLoad:
    """Themes loaded from files, and one line per broken file; what each file says its theme is (`description`)."""

    themes: tuple[Theme, ...]
    problems: tuple[str, ...]
    descriptions: Mapping[str, str] = field(default_factory=dict)


def describe_theme(theme: Theme, described: Mapping[str, str]) -> str:
    """The theme picker's line for a theme: `dark` or `light`, then what it is (its file's `description`, Textual's
    own themes' notes, else `your theme file`), e.g. `dark, high contrast: white on black, …`."""
    note = described.get(theme.name) or TEXTUAL_THEME_NOTES.get(theme.name) or "your theme file"
    return f"{'dark' if theme.dark else 'light'}, {note}"


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
    unknown = sorted(set(document) - {"name", "description", "dark", "variables", *COLOR_KEYS})
    if unknown:
        allowed = ", ".join(("name", "description", "dark", *COLOR_KEYS, "[variables]"))
        raise ThemeFileError(f"{path.name}: unknown key(s) {', '.join(unknown)}; allowed: {allowed}")
    if not isinstance(document.get("description", ""), str):
        raise ThemeFileError(f"{path.name}: description must be a string")
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


def read_theme_document(path: Path) -> dict[str, Any]:
    """One TOML theme file, parsed (not yet validated); ThemeFileError when it can't be read or parsed."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThemeFileError(f"{path.name}: cannot read ({exc.strerror})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeFileError(f"{path.name}: not valid TOML ({exc})") from None


def load_theme_file(path: Path) -> Theme:
    """Read and validate one TOML theme file."""
    return theme_from_mapping(path, read_theme_document(path))


def load_themes(directories: Iterable[Path]) -> ThemeLoad:
    """Every `*.toml` theme in the directories (later directories win on equal names), plus the problems."""
    themes: dict[str, Theme] = {}
    problems: list[str] = []
    descriptions: dict[str, str] = {}
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.toml")):
            try:
                document = read_theme_document(path)
                theme = theme_from_mapping(path, document)
            except ThemeFileError as exc:
                problems.append(f"{directory.name}/{exc}")
                continue
            themes[theme.name] = theme
            descriptions.pop(theme.name, None)
            if str(document.get("description", "")).strip():
                descriptions[theme.name] = str(document["description"]).strip()
    return ThemeLoad(tuple(themes.values()), tuple(problems), descriptions)


def pick_theme(requested: str, available: Iterable[str]) -> tuple[str, str | None]:
    """The theme to use and, when the requested one is unknown, a message saying so."""
    names = set(available)
    if requested in names:
        return requested, None
    return DEFAULT_THEME, f"Theme {requested!r} is not installed; using {DEFAULT_THEME}."
