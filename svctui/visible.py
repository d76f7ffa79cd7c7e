"""One rule for text from outside (the server, a file, an argument, the audit log): C0/C1 controls, DEL and
bidirectional overrides are shown in a visible form, so no text can move the cursor, clear the screen, set the
title or write the clipboard.

`visible` is for text shown to a person; `json_safe` for JSON text (the same characters as `\\u` escapes, so the
document still reads back whole); `VisibleStream` wraps the command line's stdout and stderr, so whatever a
command (or click) writes there passes the rule too.
"""

from __future__ import annotations

import re
from typing import TextIO

# ESC and BEL by their control pictures (`␛]0;pwned␇`), the rest of C0 by theirs (U+2400 + code), DEL as `␡`;
# C1 has no pictures, so `\x9b`; bidi overrides and isolates (they reorder what the eye reads) as `<U+202E>`.
_C0 = {code: chr(0x2400 + code) for code in range(0x20)}
_C0[0x1B] = "␛"
_C0[0x07] = "␇"
_C1 = {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}
_BIDI = {code: f"<U+{code:04X}>" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}
_TABLE: dict[int, str] = {**_C0, 0x7F: "␡", **_C1, **_BIDI}
_LINES_TABLE: dict[int, str] = {code: shown for code, shown in _TABLE.items() if code not in (0x0A, 0x09)}
# what `visible` changes (a lone surrogate included), found in one pass: most text holds none and is returned as is
_BIDI_CLASS = "\u200e\u200f\u202a-\u202e\u2066-\u2069"
_SHOWN_RE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI_CLASS}\ud800-\udfff]")
_SHOWN_LINES_RE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI_CLASS}\ud800-\udfff]")
# what json.dumps(ensure_ascii=False) and pydantic leave raw in a JSON string (they escape C0 themselves)
_JSON_RAW_RE = re.compile(f"[\x7f-\x9f{_BIDI_CLASS}\ud800-\udfff]")


def visible(text: str, *, lines: bool = False) -> str:
    """`text` with every control character shown visibly (`␛]0;pwned␇`); with `lines`, newlines and tabs stay."""
    if (_SHOWN_LINES_RE if lines else _SHOWN_RE).search(text) is None:
        return text
    shown = text.translate(_LINES_TABLE if lines else _TABLE)
    if any("\ud800" <= ch <= "\udfff" for ch in shown):  # a lone surrogate can't be written to a terminal at all
        shown = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in shown)
    return shown


def json_safe(document: str) -> str:
    """JSON text (from json.dumps or pydantic) with DEL, C1 controls, bidi overrides and lone surrogates written as
    `\\u` escapes: it parses back to the same values, and no raw one reaches a terminal."""
    if _JSON_RAW_RE.search(document) is None:
        return document
    return _JSON_RAW_RE.sub(lambda match: f"\\u{ord(match.group()):04x}", document)


class VisibleStream:
    """A text stream that writes everything through `visible(lines=True)` to the stream it wraps (the command line's
    stdout and stderr: a message built from a server's answer, a file or an argument, click's own included).

    It has no `buffer`, so click writes to it rather than to the bytes beneath."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        """Write `text`, its control characters shown; the length of `text` (what a caller counts)."""
        self.wrapped.write(visible(text, lines=True))
        return len(text)

    def writelines(self, lines: list[str]) -> None:
        """Write each line through `write`."""
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        """Flush the wrapped stream."""
        self.wrapped.flush()

    def isatty(self) -> bool:
        """Whether the wrapped stream is a terminal."""
        return self.wrapped.isatty()

    def fileno(self) -> int:
        """The wrapped stream's file descriptor."""
        return self.wrapped.fileno()

    def writable(self) -> bool:
        """A stream one writes to."""
        return True

    def readable(self) -> bool:
        """Not one to read from."""
        return False

    @property
    def encoding(self) -> str:
        """The wrapped stream's encoding (click checks it)."""
        return str(getattr(self.wrapped, "encoding", "utf-8"))

    @property
    def errors(self) -> str:
        """The wrapped stream's error handler (click checks it)."""
        return str(getattr(self.wrapped, "errors", "strict"))

    @property
    def closed(self) -> bool:
        """Whether the wrapped stream is closed."""
        return bool(self.wrapped.closed)
