"""Narrow layouts by Textual's HORIZONTAL_BREAKPOINTS: a screen is `-narrow` under its width, `-wide` from it."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

NARROW = "-narrow"
NARROWER = "-narrower"
MEDIUM = "-medium"
WIDE = "-wide"
DETAIL_BELOW = 110  # a dashboard screen's detail pane goes under its table below this many columns
FULL_FOOTER_FROM = 120  # the list screens' full footer (Completed tasks', Selector cleanup's: ~118 columns)
NARROW_TERMINAL = 100  # below this many columns: tables without their minor columns, narrower fields and columns


def narrow_below(width: int, narrower_below: int | None = None, wide_from: int | None = None) -> list[tuple[int, str]]:
    """A screen's HORIZONTAL_BREAKPOINTS: `-narrow` under `width` columns, `-wide` from it; with `narrower_below`,
    `-narrower` in place of `-narrow` under that many (Textual gives a screen one class of the list, so a rule of
    its narrow layout names both: `.-narrow #body, .-narrower #body`); with `wide_from`, `-medium` from `width`
    and `-wide` only from `wide_from` (the list screens: their footer is compact until `-wide`)."""
    tiers = [(0, NARROW)] if narrower_below is None else [(0, NARROWER), (narrower_below, NARROW)]
    if wide_from is None:
        return [*tiers, (width, WIDE)]
    return [*tiers, (width, MEDIUM), (wide_from, WIDE)]


def narrow_terminal(screen: Screen[Any]) -> bool:
    """True when a list screen is under NARROW_TERMINAL columns: its `-narrower` class (set before Textual lays the
    screen out at a new width, see `set_breakpoint_class`), the one place that decides a narrow terminal."""
    return screen.has_class(NARROWER)


def set_breakpoint_class(screen: Screen[Any], width: int | None = None) -> None:
    """The screen's class for `width` (default: the app's width now), from its HORIZONTAL_BREAKPOINTS.

    Textual sets the class in the screen's own Resize handler, after laying the screen out at the new size: a
    screen crossing its breakpoint was laid out once more the old way (the table scrolled for that layout kept the
    scroll), and a screen built narrow was laid out wide once. So it is set at construction and from the
    DashboardScreen's Resize handler, which runs before Textual's; Textual's own update then changes nothing."""
    breakpoints = screen.HORIZONTAL_BREAKPOINTS or []
    width = screen.app.size.width if width is None else width
    reached = max(((at, name) for at, name in breakpoints if width >= at), default=(0, ""))[1]
    screen.update_classes({name: name == reached for _, name in breakpoints}, animate=False)
