"""The Events screen (key 1), top-down: screen.py (the list, its keys and jumps), detail.py (the detail pane, the
schedule and next-run cells and the table's columns)."""

from svctui.tui.screens.events.screen import EventsScreen

__all__ = ["EventsScreen"]
