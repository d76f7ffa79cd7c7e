"""The dashboard's side of `svctui.visible`: Rich Text and Textual Content with their control characters shown,
their styled spans kept on the same characters (a cell, a pane line, a toast made from the server's text).

Rich and Textual drop BEL and CR from a str they are given but keep ESC and C1, so a str from outside goes through
`visible` before it becomes Text or Content (`␛]0;pwned␇`); these catch what was made without it (`␛]0;pwned`)."""

from __future__ import annotations

from rich.text import Span as TextSpan
from rich.text import Text
from textual.content import Content
from textual.content import Span as ContentSpan

from svctui.visible import visible


def _starts(plain: str, *, lines: bool) -> list[int]:
    """Where each character of `plain` starts once every character is shown (and, last, the shown length)."""
    starts = [0]
    for ch in plain:
        starts.append(starts[-1] + len(visible(ch, lines=lines)))
    return starts


def shown_text(text: Text, *, lines: bool = False) -> Text:
    """`text` with its control characters shown (`visible`; newlines and tabs kept with `lines`), spans kept (the
    same object when nothing changes)."""
    plain = text.plain
    shown = visible(plain, lines=lines)
    if shown is plain:
        return text
    if len(shown) == len(plain):  # C0 and DEL: one picture each, the spans stay where they were
        text.plain = shown
        return text
    rebuilt = Text(
        shown, style=text.style, justify=text.justify, overflow=text.overflow, no_wrap=text.no_wrap, end=text.end
    )
    starts = _starts(plain, lines=lines)
    rebuilt.spans = [TextSpan(starts[span.start], starts[min(span.end, len(plain))], span.style) for span in text.spans]
    return rebuilt


def shown_content(content: Content, *, lines: bool = True) -> Content:
    """`content` with its control characters shown (newlines and tabs kept unless `lines` is False), spans kept."""
    plain = content.plain
    shown = visible(plain, lines=lines)
    if shown is plain:
        return content
    starts = _starts(plain, lines=lines)
    return Content(
        shown, [ContentSpan(starts[s.start], starts[min(s.end, len(plain))], s.style) for s in content.spans]
    )


def shown_str(text: str, *, lines: bool = False) -> Content:
    """A str from outside as Content (taken literally, never markup), its control characters shown."""
    return Content(visible(text, lines=lines))
