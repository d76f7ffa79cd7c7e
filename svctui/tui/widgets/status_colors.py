"""Theme colours for task statuses and count changes, looked up from the running app's theme variables.

App themes may define `status-<slug>` variables (e.g. `$status-failed`); when a theme does not, the colour falls
back to a semantic Textual variable (`$error`, `$success`, ...), so the widgets work in any app and any theme.
"""

from __future__ import annotations

from collections.abc import Mapping

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
LAST_RESORT = "#888888"


def theme_color(app: App[object], name: str, fallback: str) -> str:
    """The colour of theme variable `name`, else of `fallback`, else grey; always a colour Rich can parse."""
    variables = app.theme_variables
    for candidate in (name, fallback):
        value = variables.get(candidate)
        if not value:
            continue
        try:
            return Color.parse(value).hex
        except ColorParseError:
            continue
    return LAST_RESORT


def status_color(app: App[object], code: int) -> str:
    """Hex colour for a task status code in the current theme."""
    name, fallback = STATUS_VARIABLES.get(code, UNKNOWN_STATUS)
    return theme_color(app, name, fallback)


def status_style(app: App[object], code: int, *, bold: bool = False) -> Style:
    """Rich style (foreground) for a task status code."""
    return Style(color=status_color(app, code), bold=bold)


def semantic_style(app: App[object], name: str, *, bold: bool = False) -> Style:
    """Rich style for a semantic variable such as `error`, `success`, `warning`."""
    return Style(color=theme_color(app, name, name), bold=bold)
