"""Which command lines send their first request before their imports (svctui.api.early), and what that request is.

`main()` calls `start_early(argv, environ)` before click parses anything. It recognises `svctui tasks list
CLIENT_ID` with any of `--all`, `--format/-o`, `--page-size`, `--skip`, `--limit`, `--endpoint`,
`--no-hydrate-domains` and `--no-hydrate-ous` (the form scripts use to stream a client's tasks), when the
environment alone is the profile (SVCTUI_BASE_URL, SVCTUI_TOKEN_ID and SVCTUI_TOKEN_KEY set, no SVCTUI_PROFILE, no
--profile, no SVCTUI_JWT), and builds the first request the command will make. Anything else (a filter, a sort, a
help flag, a value click would refuse, a stored profile) sends nothing early. What is sent is only a guess: the
command's client uses the answer only when its own first request is the same (see svctui.api.early).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from svctui.api import early
from svctui.api.early import EarlyTarget, FollowingPages, env_profile_target
from svctui.api.filters import TASKS_NEWEST_FIRST, VALUE_PATTERNS, Kind, query_params
from svctui.api.limits import (
    DEFAULT_LIST_LIMIT,
    DEFAULT_PAGE_SIZE,
    INT64_MAX,
    MAX_PAGE_SIZE,
    TASK_ENDPOINTS,
)

ASCII_DIGITS = re.compile(r"\+?[0-9]{1,19}")
FORMATS = frozenset({"table", "json", "jsonl", "csv"})
FLAGS = {"--all": "all", "--no-hydrate-domains": "no_domains", "--no-hydrate-ous": "no_ous"}
VALUED = {
    "--format": "format",
    "-o": "format",
    "--page-size": "page_size",
    "--skip": "skip",
    "--limit": "limit",
    "--endpoint": "endpoint",
}
BOUNDS = {"page_size": (1, MAX_PAGE_SIZE), "skip": (0, INT64_MAX), "limit": (1, INT64_MAX)}
EarlyPlan = tuple[EarlyTarget, FollowingPages | None]


def _options(tokens: Sequence[str]) -> tuple[str, dict[str, str]] | None:
    """(the one positional argument, {option: last value}) of `tokens`, or None for anything not recognised."""
    positional: list[str] = []
    values: dict[str, str] = {}
    rest = list(tokens)
    while rest:
        token = rest.pop(0)
        name, equals, inline = token.partition("=")
        if token in FLAGS:
            values[FLAGS[token]] = "1"
        elif name in VALUED and name.startswith("--") and equals:
            values[VALUED[name]] = inline
        elif token in VALUED and rest:
            values[VALUED[token]] = rest.pop(0)
        elif token.startswith("-o") and len(token) > 2 and not token.startswith("--"):
            values["format"] = token[2:]
        elif not token.startswith("-") and not positional:
            positional.append(token)
        else:
            return None
    return (positional[0], values) if positional else None


def _number(values: Mapping[str, str], name: str, default: int | None) -> int | None:
    """The option as click's AsciiInt reads it, `default` when absent; ValueError when click would refuse it."""
    text = values.get(name)
    if text is None:
        return default
    if not ASCII_DIGITS.fullmatch(text):
        raise ValueError(name)
    low, high = BOUNDS[name]
    number = int(text)
    if not low <= number <= high:
        raise ValueError(name)
    return number


def first_target(argv: Sequence[str], environ: Mapping[str, str]) -> EarlyPlan | None:
    """The first request of the command line `argv` (without the program name) and, with `--all`, how its
    following pages are asked for; None when it is not one sent early (see the module docstring)."""
    if list(argv[:2]) != ["tasks", "list"]:
        return None
    parsed = _options(argv[2:])
    if parsed is None:
        return None
    client_id, values = parsed
    if not VALUE_PATTERNS[Kind.UUID].fullmatch(client_id.strip()):
        return None
    endpoint = values.get("endpoint", TASK_ENDPOINTS[0])
    if endpoint not in TASK_ENDPOINTS or values.get("format", "table") not in FORMATS:
        return None
    try:
        skip = _number(values, "skip", 0) or 0
        limit = _number(values, "limit", None)
        page_size = _number(values, "page_size", DEFAULT_PAGE_SIZE) or DEFAULT_PAGE_SIZE
    except ValueError:
        return None
    path = f"/api/v2/clients/{client_id.strip().lower()}/{endpoint}"
    hydrate_domains, hydrate_ous = "no_domains" not in values, "no_ous" not in values

    def target_at(at: int, size: int) -> str:
        params = query_params(
            (), TASKS_NEWEST_FIRST, skip=at, limit=size, hydrate_domains=hydrate_domains, hydrate_ous=hydrate_ous
        )
        return f"{path}?{urlencode(params)}"

    if "all" not in values:
        return _env_target(target_at(skip, limit or DEFAULT_LIST_LIMIT), environ, None)
    stop = None if limit is None else skip + limit
    following = FollowingPages(lambda at: target_at(at, page_size), skip, page_size, stop)
    return _env_target(target_at(skip, page_size), environ, following)


def _env_target(path_query: str, environ: Mapping[str, str], following: FollowingPages | None) -> EarlyPlan | None:
    """`path_query` with the profile of the environment, or None."""
    target = env_profile_target(path_query, environ)
    return None if target is None else (target, following)


def start_early(argv: Sequence[str], environ: Mapping[str, str]) -> None:
    """Send the first request of `argv` now when it is one sent early (nothing else happens otherwise)."""
    plan = first_target(argv, environ)
    if plan is not None:
        early.start(plan[0], environ, plan[1])
