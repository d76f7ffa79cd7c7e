"""Collection client names in the dashboard: what each profile knows (client id -> name) and how it learns more.

Names come from `GET /api/v2/clients` where the server has it (enterprise), else from the `client_name` of the
completed tasks seen; both are kept in the per-profile cache of `svctui.store.client_names`, so a later session
(or a community server) starts with the names learnt before. The cache is the server's (base URL and token id): it
shows at once (channel "names-cached", marked as from the last visit) until the server's own list arrives (channel
"names") and replaces it, so the picker never offers a client this server does not have. The app imports this
module at start-up, so the API and store modules are imported inside the functions that use them. Screens start
the loads with `start_name_load` and save names learnt from tasks on "names-save" (`save_learnt_names`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard

from svctui.tui.loading import Channel
from svctui.tui.widgets.row_table import cell_text

if TYPE_CHECKING:
    from svctui.ops.client_names import ClientList
    from svctui.tui.app import SvcTuiApp
    from svctui.tui.loading import Loaded, Loads
    from svctui.tui.widgets.paged_table import PagedTable

NAMES_CHANNEL: Channel[tuple[str, ClientList]] = Channel("names")  # (the profile, the server's list of names)
CACHED_CHANNEL: Channel[tuple[str, ClientList]] = Channel("names-cached")  # (the profile, its cache for the server)
CACHED_NOTE = "names from the last visit; refreshing from the server…"
UNREAD_NOTE = "names from the last visit: the server's client list could not be read"
SAVE_CHANNEL: Channel[object] = Channel("names-save")  # nothing to show: only a failure is said


@dataclass
class ClientNames:
    """Client names per profile, which profiles have had the server's client list read (or, on a community server,
    the cache), which show only their cache so far, and the ids of the server's clients when its whole list was read."""

    by_profile: dict[str, dict[str, str]] = field(default_factory=dict)
    fetched: set[str] = field(default_factory=set)
    cached_only: set[str] = field(default_factory=set)  # names from the last visit on show, the server's not yet in
    unread: set[str] = field(default_factory=set)  # the server's list could not be read: the cache's names stay
    server_ids: dict[str, frozenset[str]] = field(default_factory=dict)  # the server's every client id, when known

    def get(self, profile: str, client_id: str) -> str:
        """The client's name for `profile` ("" when unknown)."""
        return self.by_profile.get(profile, {}).get(client_id.lower(), "")

    def names(self, profile: str) -> dict[str, str]:
        """Every known name of `profile` (a copy)."""
        return dict(self.by_profile.get(profile, {}))

    def learn(self, profile: str, names: Mapping[str, str]) -> dict[str, str]:
        """Keep `names` for `profile`; returns those that were new or changed (empty when nothing was)."""
        known = self.by_profile.setdefault(profile, {})
        changed = {key.lower(): name for key, name in names.items() if name and known.get(key.lower()) != name}
        known.update(changed)
        return changed

    def replace(self, profile: str, names: Mapping[str, str], ids: frozenset[str]) -> bool:
        """The server's whole client list is `profile`'s names (others go); True when anything changed."""
        fresh = {key.lower(): name for key, name in names.items() if name}
        changed = self.by_profile.get(profile) != fresh or self.server_ids.get(profile) != ids
        self.by_profile[profile], self.server_ids[profile] = fresh, ids
        return changed

    def existing(self, profile: str, client_ids: list[str]) -> list[str]:
        """Those of `client_ids` the server has (all of them while its client list is unknown)."""
        ids = self.server_ids.get(profile)
        return client_ids if ids is None else [client_id for client_id in client_ids if client_id.lower() in ids]

    def note(self, profile: str) -> str:
        """What the picker says of the names: from the last visit until the server's list replaced them."""
        if profile in self.cached_only:
            return CACHED_NOTE
        return UNREAD_NOTE if profile in self.unread and self.by_profile.get(profile) else ""


def start_name_load(app: SvcTuiApp, loads: Loads) -> bool:
    """Load the current profile's names on `loads` unless they were loaded already: the cache of this server at once
    (channel "names-cached", a file), the server's list after (channel "names")."""
    profile = app.profile
    if profile is None or profile.name in app.client_names.fetched:
        return False
    name = profile.name

    async def cached() -> tuple[str, ClientList]:
        from svctui.ops.client_names import cached_client_names

        return name, await cached_client_names(await app.api_client(), name)

    async def names() -> tuple[str, ClientList]:
        from svctui.ops.client_names import fetch_client_list

        return name, await fetch_client_list(await app.api_client(), name)

    loads.start(CACHED_CHANNEL, cached)
    loads.start(NAMES_CHANNEL, names)
    return True


def is_names_answer(message: Loaded[object]) -> TypeGuard[Loaded[tuple[str, ClientList]]]:
    """True for an answer of a names load (the cache's or the server's)."""
    return NAMES_CHANNEL.answers(message) or CACHED_CHANNEL.answers(message)


def names_loaded(app: SvcTuiApp, message: Loaded[tuple[str, ClientList]]) -> bool:
    """Keep the names a names load brought; True when any changed. The server's whole list replaces what was known
    (a client gone from it goes); the cache only adds to what the session knows until the server's list is in."""
    profile, listing = message.value
    known = app.client_names
    if CACHED_CHANNEL.answers(message):
        if profile in known.fetched:
            return False  # the server's list came first
        if not listing.names:
            return False  # nothing cached for this server: nothing to mark
        known.cached_only.add(profile)
        known.learn(profile, listing.names)
        return True  # the picker's note changes even when no name did
    known.fetched.add(profile)
    known.cached_only.discard(profile)
    if listing.ids is not None:
        known.replace(profile, listing.names, listing.ids)  # clients the cache had may go
    else:
        known.learn(profile, listing.names)
    if listing.failed:
        known.unread.add(profile)
    return True  # the note changes


def save_learnt_names(app: SvcTuiApp, loads: Loads, names: Mapping[str, str]) -> bool:
    """Remember names seen (e.g. tasks' `client_name`) for the current profile, and cache the new ones in a thread."""
    profile = app.profile
    if profile is None:
        return False
    changed = app.client_names.learn(profile.name, names)
    if not changed:
        return False
    name = profile.name
    client = app.client_if_open
    server = None
    if client is not None:
        from svctui.ops.client_names import cache_key

        server = cache_key(client)

    def save() -> object:
        from svctui.store.client_names import learn_names

        return learn_names(name, changed, server=server)

    loads.start_in_thread(SAVE_CHANNEL, save)
    return True


def redraw_column(table: PagedTable[Any], column_key: str) -> None:
    """Redraw one column's cells (names arrived); the cursor, marks and scroll stay where they are."""
    column = table.adapter.column(column_key)
    if column is None:
        return
    for item in table.items:
        rendered = column.render(item)
        cell = cell_text(rendered)
        table.update_cell(table.adapter.key(item), column_key, cell)
    table.refit()  # a name is wider or narrower than the id it replaced (the columns fit their cells)
