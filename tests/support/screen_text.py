"""The words an app has on screen, read from its screenshot (what was drawn, clipping included)."""

from __future__ import annotations

import html
import re
from typing import Any

from textual.app import App


def screen_text(app: App[Any]) -> str:
    """The words on screen, the dialogs' side borders and the line breaks taken out (a wrapped message reads
    whole)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for found in re.finditer(r'<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', app.export_screenshot()):
        text = html.unescape(re.sub(r"<[^>]+>", "", found.group(3))).replace("\xa0", " ")
        rows.setdefault(float(found.group(2)), []).append((float(found.group(1)), text))
    lines = ["".join(text for _, text in sorted(row)).strip(" │█") for _, row in sorted(rows.items())]
    return " ".join(" ".join(line.split()) for line in lines)
