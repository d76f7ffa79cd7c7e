"""Quoting what the user typed in an error message: short enough to read, whatever they pasted."""

from __future__ import annotations

QUOTE_LIMIT = 100


def quote_input(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`repr(text)` for an error message, at most ~`limit` characters: a long input keeps its ends, `…` between."""
    if len(text) <= limit:
        return repr(text)
    keep = (limit - 20) // 2
    return repr(text[:keep]) + f" …({len(text) - 2 * keep:,} characters)… " + repr(text[-keep:])
