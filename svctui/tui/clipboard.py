"""Copy text to the terminal's clipboard with OSC 52 (App.copy_to_clipboard) and say what was copied."""

from __future__ import annotations

import re
from typing import Any

from textual.app import App

MAX_OSC52_BYTES = 100_000


def copy_text(app: App[Any], text: str, what: str = "cell") -> bool:
    """Copy `text` (OSC 52); notify the user. Returns False when there was nothing to copy or it is too big."""
    if not text:
        app.notify(f"Nothing to copy: the {what} is empty.", severity="warning")
        return False
    size = len(text.encode("utf-8"))
    if size > MAX_OSC52_BYTES:
        app.notify(
            f"The {what} is {size:,} bytes; terminals drop OSC 52 copies over {MAX_OSC52_BYTES:,}. "
            "Use export (ctrl+p, Export view) instead.",
            severity="warning",
        )
        return False
    app.copy_to_clipboard(text)
    flat = re.sub(r"[ \t]*\n[ \t]*", " ", text)  # one line: a JSON document made a toast as tall as the dialog
    preview = flat if len(flat) <= 40 else f"{flat[:39]}…"
    app.notify(f"Copied {what}: {preview}", title="Clipboard (OSC 52)")
    return True
