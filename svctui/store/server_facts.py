"""What svctui learnt about a profile's server, kept between runs in data_dir()/server-facts/PROFILE.json.

Facts: `task_endpoint` (the completed-tasks endpoint to use when none is chosen: `completed-jobs`, or
`completed-tasks` once the server answered the router's 404 to `completed-jobs`). They hold for the base URL they
were learnt at: a profile moved to another server starts from nothing. The file is a cache: a missing or corrupt one
means nothing learnt yet. (Whether the server has `jobs/finished` is asked again each session: one request, and an
upgraded server is used at once.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from svctui.store.atomic import cached_object, locked, read_private, remove_stale_temps, write_private
from svctui.store.model import check_name
from svctui.store.paths import data_dir

WHAT = "server facts file"
KNOWN: Mapping[str, tuple[object, ...]] = {"task_endpoint": ("completed-jobs", "completed-tasks")}


def facts_path(profile: str) -> Path:
    """The facts file of `profile` (ValueError for a name that is not a valid profile name)."""
    return data_dir() / "server-facts" / f"{check_name(profile)}.json"


def _parse(raw: bytes | None, base_url: str) -> dict[str, Any]:
    """The known facts of a file's bytes for `base_url`; {} for a missing, corrupt or other server's file."""
    document = cached_object(raw)
    if document.get("base_url") != base_url:
        return {}
    return {name: value for name, value in document.items() if name in KNOWN and value in KNOWN[name]}


def load_facts(profile: str, base_url: str, path: Path | None = None) -> dict[str, Any]:
    """What was learnt about `profile`'s server at `base_url`; StoreError for a file that is not private."""
    return _parse(read_private(path or facts_path(profile), WHAT), base_url)


def remember_fact(profile: str, base_url: str, name: str, value: object, path: Path | None = None) -> None:
    """Keep one fact about `profile`'s server at `base_url` (ValueError for an unknown fact or value)."""
    if name not in KNOWN or value not in KNOWN[name]:
        raise ValueError(f"unknown server fact {name}={value!r}")
    target = path or facts_path(profile)
    with locked(target):
        remove_stale_temps(target)
        facts = _parse(read_private(target, WHAT), base_url)
        if facts.get(name) == value and name in facts:
            return
        body = json.dumps({"base_url": base_url, **facts, name: value}, indent=1)
        write_private(target, body.encode("utf-8") + b"\n")
