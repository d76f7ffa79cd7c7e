"""A bare Textual app whose first frame is `READY`: the baseline for the dashboard's first data row in tmux."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static


class BareApp(App[None]):
    """The smallest app that draws something: one Static."""

    def compose(self) -> ComposeResult:
        """`READY`."""
        yield Static("READY")


if __name__ == "__main__":
    BareApp().run()
