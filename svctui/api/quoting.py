"""Quoting what the user typed in an error message: short enough to read, whatever they pasted."""

from __future__ import annotations

QUOTE_LIMIT = 100


def quote_input(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`repr(text)` for an error message, at most ~`limit` characters: a long input keeps its ends, and between them
    `…(cut from 70,000 characters)…` says how long it was (repr shows control characters as escapes)."""
    if len(text) <= limit:
        return repr(text)
    keep = (limit - 30) // 2
    return repr(text[:keep]) + f" …(cut from {len(text):,} characters)… " + repr(text[-keep:])
