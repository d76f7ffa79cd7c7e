"""A per-profile cache of collection client names (client id -> name) in data_dir()/client-names/PROFILE.json.

Names are learnt from `GET /api/v2/clients` (enterprise) or from the `client_name` of completed tasks seen, and
kept so that a later session, or a community server without the clients listing, can still show them. The file
says which server it holds (`server`: a digest of the base URL and the token id): another server under the same
profile name reads as an empty cache, and its first write starts the file afresh (a file from before the server was
kept counts as any server's until then). The server's whole client list
replaces the cache (`replace_names`: a client gone from the server goes from the cache); names seen one by one are
merged (`learn_names`). Each file is written atomically (0600, in a 0700 directory) under a lock.
"""

from __future__ import annotations

import hashlib
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


def server_key(base_url: str, token_id: str) -> str:
    """Which server (and account) a cache holds: a digest of the base URL and the token id (neither is shown)."""
    return hashlib.sha256(f"{base_url.rstrip('/')}\n{token_id}".encode()).hexdigest()[:32]


def _parse(raw: bytes | None, server: str | None) -> dict[str, str]:
    """The names of a cache file's bytes; {} for a missing or unreadable (corrupt) file, it is only a cache, and for
    another server's file (`server` given and not the file's; a file without a server is any server's)."""
    document = cached_object(raw)
    if server is not None and document.get("server", server) != server:  # a file from before servers were kept: any
        return {}
    names = document.get("names")
    return _clean(names) if isinstance(names, dict) else {}


def load_names(profile: str, path: Path | None = None, *, server: str | None = None) -> dict[str, str]:
    """The cached names of `profile` (client id -> name), none when the file holds another server than `server`
    (None: whichever); StoreError for a file that is not private."""
    return _parse(read_private(path or names_path(profile), WHAT), server)


def _write(target: Path, names: dict[str, str], server: str | None) -> None:
    document: dict[str, object] = {"server": server, "names": names} if server is not None else {"names": names}
    body = json.dumps(document, ensure_ascii=False, indent=1)
    write_private(target, body.encode("utf-8") + b"\n")


def _server_of(raw: bytes | None) -> str | None:
    server = cached_object(raw).get("server")
    return server if isinstance(server, str) else None


def learn_names(
    profile: str, names: Mapping[str, str], path: Path | None = None, *, server: str | None = None
) -> dict[str, str]:
    """Merge `names` into `profile`'s cache (new names win) and return every cached name. A file of another server
    than `server` starts afresh (None: the file's server is kept, whichever it is).

    The file is rewritten only when something changed.
    """
    target = path or names_path(profile)
    learnt = _clean(names)
    with locked(target):
        remove_stale_temps(target)
        raw = read_private(target, WHAT)
        cached = _parse(raw, server)
        merged = {key: value for key, value in cached.items() if key not in learnt} | learnt
        if len(merged) > MAX_NAMES:
            merged = dict(list(merged.items())[-MAX_NAMES:])
        kept_server = server if server is not None else _server_of(raw)
        if merged != cached or kept_server != _server_of(raw):
            _write(target, merged, kept_server)
    return merged


def replace_names(profile: str, names: Mapping[str, str], server: str, path: Path | None = None) -> dict[str, str]:
    """Make `names` (the server's whole client list) `profile`'s cache for `server`: clients gone from the server
    go from the cache. Returns the cached names; the file is rewritten only when something changed."""
    target = path or names_path(profile)
    fresh = dict(list(_clean(names).items())[:MAX_NAMES])
    with locked(target):
        remove_stale_temps(target)
        raw = read_private(target, WHAT)
        if _parse(raw, server) != fresh or _server_of(raw) != server:
            _write(target, fresh, server)
    return fresh
