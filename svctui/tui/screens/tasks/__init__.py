"""The Completed tasks screen, top-down: screen.py (keys, intents, loads), state.py (history, known clients),
loaders.py (the network reads), detail.py (the detail pane and the table's columns), bars.py (the client bar and
notices), drops_view.py (the client-side drops view)."""

from svctui.tui.screens.tasks.screen import TasksScreen

__all__ = ["TasksScreen"]
