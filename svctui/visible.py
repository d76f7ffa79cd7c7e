"""One rule for text from outside (the server, a file, an argument, the audit log): C0/C1 controls, DEL and
bidirectional overrides are shown in a visible form, so no text can move the cursor, clear the screen, set the
title or write the clipboard."""

from __future__ import annotations

# ESC and BEL by their control pictures (`␛]0;pwned␇`), the rest of C0 by theirs (U+2400 + code), DEL as `␡`;
# C1 has no pictures, so `\x9b`; bidi overrides and isolates (they reorder what the eye reads) as `<U+202E>`.
_C0 = {code: chr(0x2400 + code) for code in range(0x20)}
_C0[0x1B] = "␛"
_C0[0x07] = "␇"
_C1 = {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}
_BIDI = {code: f"<U+{code:04X}>" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)}
_TABLE: dict[int, str] = {**_C0, 0x7F: "␡", **_C1, **_BIDI}
_LINES_TABLE: dict[int, str] = {code: shown for code, shown in _TABLE.items() if code not in (0x0A, 0x09)}


def visible(text: str, *, lines: bool = False) -> str:
    """`text` with every control character shown visibly (`␛]0;pwned␇`); with `lines`, newlines and tabs stay."""
    if text.isprintable():
        return text
    shown = text.translate(_LINES_TABLE if lines else _TABLE)
    if any("\ud800" <= ch <= "\udfff" for ch in shown):  # a lone surrogate can't be written to a terminal at all
        shown = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in shown)
    return shown
