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


def hide_url_password(url: str) -> str:
    """`url` with the password of its user info (`user:pass@`) shown as `***`, a lone user info (often a token) too;
    works on text that is not a valid URL (a bad port, no scheme), since an error message quotes exactly that."""
    head, sep, rest = url.partition("://")
    if not sep:
        head, rest = "", url
    end = min((rest.find(mark) for mark in "/?#" if mark in rest), default=len(rest))
    authority, tail = rest[:end], rest[end:]
    userinfo, at, host = authority.rpartition("@")
    if not at:
        return url
    user, colon, _password = userinfo.partition(":")
    hidden = f"{user}:***" if colon else "***"
    return f"{head}{sep}{hidden}@{host}{tail}"


def quote_url(url: str, limit: int = QUOTE_LIMIT) -> str:
    """`quote_input` of a URL with its password hidden (see `hide_url_password`)."""
    return quote_input(hide_url_password(url), limit)
