"""Collection client names in the dashboard: what each profile knows (client id -> name) and how it learns more.

Names come from `GET /api/v2/clients` where the server has it (enterprise), else from the `client_name` of the
completed tasks seen; both are kept in the per-profile cache of `svctui.store.client_names`, so a later session
(or a community server) starts with the names learnt before. The app imports this module at start-up, so the
API and store modules are imported inside the functions that use them. Screens load them through their `Loads` channel
"names" (`start_name_load`) and save names learnt from tasks on "names-save" (`save_learnt_names`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from svctui.tui.loading import Channel
from svctui.tui.widgets.row_table import cell_text

if TYPE_CHECKING:
    from svctui.tui.app import SvcTuiApp
    from svctui.tui.loading import Loads
    from svctui.tui.widgets.paged_table import PagedTable

NAMES_CHANNEL: Channel[tuple[str, dict[str, str]]] = Channel("names")  # (the profile, its names)
SAVE_CHANNEL: Channel[object] = Channel("names-save")  # nothing to show: only a failure is said


@dataclass
class ClientNames:
    """Client names per profile, and which profiles have had the server's client list (or the cache) read."""

    by_profile: dict[str, dict[str, str]] = field(default_factory=dict)
    fetched: set[str] = field(default_factory=set)

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


def start_name_load(app: SvcTuiApp, loads: Loads) -> bool:
    """Load the current profile's names on `loads` (channel "names") unless they were loaded already."""
    profile = app.profile
    if profile is None or profile.name in app.client_names.fetched:
        return False
    name = profile.name

    async def names() -> tuple[str, dict[str, str]]:
        from svctui.ops.client_names import fetch_client_names

        return name, await fetch_client_names(await app.api_client(), name)

    loads.start(NAMES_CHANNEL, names)
    return True


def names_loaded(app: SvcTuiApp, profile: str, names: Mapping[str, str]) -> bool:
    """Keep names a "names" load brought for `profile`; True when any was new."""
    app.client_names.fetched.add(profile)
    return bool(app.client_names.learn(profile, names))


def save_learnt_names(app: SvcTuiApp, loads: Loads, names: Mapping[str, str]) -> bool:
    """Remember names seen (e.g. tasks' `client_name`) for the current profile, and cache the new ones in a thread."""
    profile = app.profile
    if profile is None:
        return False
    changed = app.client_names.learn(profile.name, names)
    if not changed:
        return False
    name = profile.name

    def save() -> object:
        from svctui.store.client_names import learn_names

        return learn_names(name, changed)

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
