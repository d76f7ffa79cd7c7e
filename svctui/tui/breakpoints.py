"""Narrow layouts by Textual's HORIZONTAL_BREAKPOINTS: a screen is `-narrow` under its width, `-wide` from it."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

NARROW = "-narrow"


def narrow_below(width: int) -> list[tuple[int, str]]:
    """A screen's HORIZONTAL_BREAKPOINTS: `-narrow` under `width` columns, `-wide` from it."""
    return [(0, NARROW), (width, "-wide")]


def set_breakpoint_class(screen: Screen[Any]) -> None:
    """The class for the app's width now. Textual sets it on the screen's first Resize, which comes after its first
    layout: a screen built narrow would be laid out wide once (and a handler reading the class would read none)."""
    width = screen.app.size.width
    reached = [(at, name) for at, name in screen.HORIZONTAL_BREAKPOINTS or [] if width >= at]
    if reached:
        screen.add_class(max(reached)[1])
