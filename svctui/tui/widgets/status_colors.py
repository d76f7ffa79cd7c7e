"""Theme colours for task statuses and count changes, looked up from the running app's theme variables.

App themes may define `status-<slug>` variables (e.g. `$status-failed`); when a theme does not, the colour falls
back to a semantic Textual variable (`$error`, `$success`, ...), so the widgets work in any app and any theme.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.style import Style
from textual.app import App
from textual.color import Color, ColorParseError

from svctui.api.models import TaskStatus

# status code -> (app variable, semantic fallback)
STATUS_VARIABLES: Mapping[int, tuple[str, str]] = {
    TaskStatus.INVALID: ("status-invalid", "foreground-darken-3"),
    TaskStatus.READY: ("status-ready", "secondary"),
    TaskStatus.RUNNING: ("status-running", "accent"),
    TaskStatus.COMPLETE: ("status-complete", "success"),
    TaskStatus.CANCELED: ("status-canceled", "foreground-darken-2"),
    TaskStatus.TIMED_OUT: ("status-timed-out", "warning"),
    TaskStatus.FAILED: ("status-failed", "error"),
    TaskStatus.INGESTING: ("status-ingesting", "primary"),
    TaskStatus.ANALYZING: ("status-analyzing", "primary-lighten-2"),
    TaskStatus.PARTIALLY_COMPLETE: ("status-partially-complete", "warning"),
}
UNKNOWN_STATUS = ("status-unknown", "foreground-darken-3")
# status code -> the glyph that fills its part of a status bar and leads its legend entry: statuses differ in shape,
# not only in colour (colour-vision deficiencies, monochrome terminals). Table cells spell the status out.
STATUS_GLYPHS: Mapping[int, str] = {
    TaskStatus.INVALID: "·",
    TaskStatus.READY: "▁",
    TaskStatus.RUNNING: "▞",
    TaskStatus.COMPLETE: "█",
    TaskStatus.CANCELED: "░",
    TaskStatus.TIMED_OUT: "▒",
    TaskStatus.FAILED: "▚",
    TaskStatus.INGESTING: "▄",
    TaskStatus.ANALYZING: "▀",
    TaskStatus.PARTIALLY_COMPLETE: "▓",
}
UNKNOWN_GLYPH = "?"
LAST_RESORT = "#888888"


def _theme_value(app: App[Any], name: str, fallback: str) -> Color | None:
    variables = app.theme_variables
    for candidate in (name, fallback):
        value = variables.get(candidate)
        if not value:
            continue
        try:
            return Color.parse(value)
        except ColorParseError:
            continue
    return None


def rich_color(color: Color) -> str:
    """`color` as Rich spells it: an ANSI theme's colours (`ansi_red`) are terminal colour numbers (`color(1)`), the
    terminal's default colour is `default`, the rest hex."""
    if color.ansi is not None:
        return "default" if color.ansi < 0 else f"color({color.ansi})"
    return color.hex


def theme_color(app: App[Any], name: str, fallback: str) -> str:
    """The colour of theme variable `name`, else of `fallback`, else grey; always a colour Rich can parse."""
    color = _theme_value(app, name, fallback)
    return rich_color(color) if color is not None else LAST_RESORT


def theme_rgb(app: App[Any], name: str, fallback: str) -> tuple[int, int, int]:
    """The same colour as red, green, blue (what the plot draws with; an ANSI colour gives its usual RGB)."""
    color = _theme_value(app, name, fallback)
    return color.rgb if color is not None else Color.parse(LAST_RESORT).rgb


def status_color(app: App[Any], code: int) -> str:
    """Hex colour for a task status code in the current theme."""
    name, fallback = STATUS_VARIABLES.get(code, UNKNOWN_STATUS)
    return theme_color(app, name, fallback)


def status_glyph(code: int) -> str:
    """The status bar glyph of a task status code (`?` for codes the API does not define)."""
    return STATUS_GLYPHS.get(code, UNKNOWN_GLYPH)


def status_style(app: App[Any], code: int, *, bold: bool = False) -> Style:
    """Rich style (foreground) for a task status code."""
    return Style(color=status_color(app, code), bold=bold)


def drop_style(app: App[Any], *, bold: bool = False) -> Style:
    """Rich style for a count that dropped beyond the threshold (`$drop`, else `$error`)."""
    return Style(color=theme_color(app, "drop", "error"), bold=bold)


def semantic_style(app: App[Any], name: str, *, bold: bool = False) -> Style:
    """Rich style for a semantic variable such as `error`, `success`, `warning`."""
    return Style(color=theme_color(app, name, name), bold=bold)
