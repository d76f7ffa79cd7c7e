"""Trimming and splitting what a person typed by ASCII whitespace only: `str.strip()` and `str.split()` also take
U+3000, U+00A0 and the separators U+001C-U+001F for spaces, and `int()` reads digits of any script; an id, a number
or a filter value is ASCII, so anything else stays in the text and is refused where it is checked."""

from __future__ import annotations

import re

ASCII_SPACE = " \t\r\n\f\v"
_ASCII_SPACES = re.compile(r"[ \t\r\n\f\v]+")


def strip_ascii(text: str) -> str:
    """`text` without leading and trailing ASCII whitespace (other spaces and separators kept)."""
    return text.strip(ASCII_SPACE)


def split_ascii(text: str) -> list[str]:
    """The words of `text` between runs of ASCII whitespace (no empty words)."""
    return [word for word in _ASCII_SPACES.split(text) if word]
