"""A per-profile cache of collection client names (client id -> name) in data_dir()/client-names/PROFILE.json.

Names are learnt from `GET /api/v2/clients` (enterprise) or from the `client_name` of completed tasks seen, and
kept so that a later session, or a community server without the clients listing, can still show them. Each file
is written atomically (0600, in a 0700 directory) under a lock: read, merge, write.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from svctui.store.atomic import cached_object, locked, read_private, remove_stale_temps, write_private
from svctui.store.model import check_name
from svctui.store.paths import data_dir

MAX_NAMES = 5000  # a cache, not an inventory: beyond this the oldest-learnt names are dropped
MAX_NAME_LENGTH = 200
WHAT = "client names cache"


def names_path(profile: str) -> Path:
    """The cache file of `profile` (ValueError for a name that is not a valid profile name)."""
    return data_dir() / "client-names" / f"{check_name(profile)}.json"


def _clean(names: Mapping[str, str]) -> dict[str, str]:
    """Lower-cased ids with non-empty names (one line, capped), anything else dropped."""
    cleaned: dict[str, str] = {}
    for client_id, name in names.items():
        if isinstance(client_id, str) and isinstance(name, str):
            text = " ".join(name.split())[:MAX_NAME_LENGTH]
            if client_id.strip() and text:
                cleaned[client_id.strip().lower()] = text
    return cleaned


def _parse(raw: bytes | None) -> dict[str, str]:
    """The names of a cache file's bytes; {} for a missing or unreadable (corrupt) file: it is only a cache."""
    names = cached_object(raw).get("names")
    return _clean(names) if isinstance(names, dict) else {}


def load_names(profile: str, path: Path | None = None) -> dict[str, str]:
    """The cached names of `profile` (client id -> name); StoreError for a file that is not private."""
    return _parse(read_private(path or names_path(profile), WHAT))


def learn_names(profile: str, names: Mapping[str, str], path: Path | None = None) -> dict[str, str]:
    """Merge `names` into `profile`'s cache (new names win) and return every cached name.

    The file is rewritten only when something changed.
    """
    target = path or names_path(profile)
    learnt = _clean(names)
    with locked(target):
        remove_stale_temps(target)
        cached = _parse(read_private(target, WHAT))
        merged = {key: value for key, value in cached.items() if key not in learnt} | learnt
        if len(merged) > MAX_NAMES:
            merged = dict(list(merged.items())[-MAX_NAMES:])
        if merged != cached:
            body = json.dumps({"names": merged}, ensure_ascii=False, indent=1)
            write_private(target, body.encode("utf-8") + b"\n")
    return merged
