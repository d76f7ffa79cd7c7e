"""Parse selector ids typed by a person or read from a file: `12`, ranges `10-20`, comments and blank lines."""

from __future__ import annotations

from collections.abc import Iterable

from svctui.api.ascii import strip_ascii
from svctui.api.limits import INT32_MAX
from svctui.api.quoting import quote_input

MAX_IDS = 10_000
# Above this many selectors a deletion, resume or restore is confirmed by typing the count (command line and dashboard)
TYPED_COUNT_ABOVE = 20
MAX_PROBLEMS = 20  # refused tokens named in one message; the rest are counted
ALLOWED_TEXT = f"a positive integer up to {INT32_MAX} or a range like 10-20"


class IdError(ValueError):
    """An id or range the command refuses; the message says where it came from and what is allowed."""


def parse_id(
    text: str, *, where: str = "", what: str = "selector id", allowed: str = ALLOWED_TEXT, typed: str = ""
) -> int:
    """Parse one positive int32 id (the API's path parameter type); the message names `what` and `allowed`, and
    quotes `typed` (the whole token an end of a range came from) or else the text."""
    prefix = f"{where}: " if where else ""
    token = strip_ascii(text)  # not str.strip(): `12\x1c` or `12\u3000` is no id
    quoted = quote_input(typed or token)
    if not typed and token.startswith("-") and token[1:].isascii() and token[1:].isdigit():
        raise IdError(f"{prefix}{quoted} is negative; allowed: {allowed}")
    if not token.isascii() or not token.isdigit():
        raise IdError(f"{prefix}{quoted} is not a {what}; allowed: {allowed}")
    digits = token.lstrip("0") or "0"
    if len(digits) > len(str(INT32_MAX)) or not 1 <= int(digits) <= INT32_MAX:  # no int() of 5,000 digits
        raise IdError(f"{prefix}{quoted} is out of range; allowed: {allowed}")
    return int(digits)


def parse_id_token(text: str, *, where: str = "") -> range:
    """Parse `12` or `10-20` (inclusive) into a range of ids."""
    prefix = f"{where}: " if where else ""
    token = strip_ascii(text)
    if token.startswith("-") and token[1:].isascii() and token[1:].isdigit():
        raise IdError(f"{prefix}{quote_input(token)} is negative; allowed: {ALLOWED_TEXT}")
    if (
        token.startswith("-") and len(token) > 1 and not token[1].isdigit()
    ):  # the command line passes an unknown option on as an id
        raise IdError(f"{prefix}{quote_input(token)} is no option of this command (see --help) nor a selector id")
    start_text, dash, end_text = token.partition("-")
    if not dash:
        value = parse_id(token, where=where)
        return range(value, value + 1)
    if not start_text or not end_text:
        raise IdError(f"{prefix}{quote_input(token)} is not a selector id or range; allowed: {ALLOWED_TEXT}")
    # a bad end is said with the whole range as typed: `'1-99999999999999' is out of range`, `'5--7' is not ...`
    start = parse_id(start_text, where=where, what="selector id or range", typed=token)
    end = parse_id(end_text, where=where, what="selector id or range", typed=token)
    if end < start:
        raise IdError(
            f"{prefix}range {quote_input(token)} runs backwards; write the smaller id first, e.g. {end}-{start}"
        )
    if end - start + 1 > MAX_IDS:
        raise IdError(f"{prefix}range {quote_input(token)} holds {end - start + 1:,} ids; at most {MAX_IDS:,} per run")
    return range(start, end + 1)


def lines_to_tokens(lines: Iterable[str], source: str) -> list[tuple[str, str]]:
    """(token, where) for each id line of a file: `#` starts a comment, blank lines are skipped."""
    tokens: list[tuple[str, str]] = []
    for number, line in enumerate(lines, start=1):
        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte-order mark some editors write first
        text = strip_ascii(line.split("#", 1)[0])
        if text:
            tokens.append((text, f"{source} line {number}"))
    return tokens


def collect_ids(tokens: Iterable[tuple[str, str]]) -> list[int]:
    """Expand ids and ranges, drop repeats (first occurrence wins), and enforce MAX_IDS; every refused token is named
    in one IdError (the first MAX_PROBLEMS of them), so a list is fixed in one go, not one typo per attempt."""
    seen: dict[int, None] = {}
    problems: list[str] = []
    for token, where in tokens:
        try:
            ids = parse_id_token(token, where=where)
        except IdError as exc:
            problems.append(str(exc))
            continue
        for value in ids:
            seen[value] = None
            if len(seen) > MAX_IDS:
                raise IdError(f"more than {MAX_IDS:,} selector ids in one run; split the list")
    if len(problems) == 1:
        raise IdError(problems[0])
    if problems:
        suffix = f"; allowed: {ALLOWED_TEXT}"  # said once below, not on every line
        shown = [problem.removesuffix(suffix) for problem in problems[:MAX_PROBLEMS]]
        more = [f"… and {len(problems) - len(shown):,} more"] if len(problems) > len(shown) else []
        lines = [f"{len(problems):,} ids refused (allowed: {ALLOWED_TEXT}):", *shown, *more]
        raise IdError("\n  ".join(lines))
    return list(seen)
