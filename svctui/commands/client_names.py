"""Client names for `-o table` of `events list` and `tasks list`: the CLIENT column shows a name, not a uuid.

Names come from the profile's cache (svctui.store.client_names), from the tasks' own `client_name`, and from
`GET /api/v2/clients` — asked at most once per command, and only when a page names a client the cache does not
know (a community server has no such listing: the cache and the tasks are all there is). Names learnt are cached
for the next command and the dashboard.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel

from svctui.ops.client_names import read_client_names
from svctui.store.client_names import learn_names, load_names
from svctui.store.errors import StoreError

if TYPE_CHECKING:
    from svctui.api.client import ApiClient


class ClientNameBook:
    """What one command knows of client names: the profile's cache plus what it learns while listing."""

    def __init__(self, profile: str) -> None:
        self.profile = profile
        try:
            self.names: dict[str, str] = load_names(profile)
        except (StoreError, ValueError, OSError):
            self.names = {}  # a cache that cannot be read: the ids show instead of names
        self.learnt: dict[str, str] = {}
        self.asked = False

    def name_of(self, client_id: str) -> str:
        """The client's name ("" when unknown)."""
        return self.names.get(client_id.lower(), "")

    def _keep(self, client_id: str, name: str) -> None:
        key = client_id.lower()
        if name and self.names.get(key) != name:
            self.names[key] = self.learnt[key] = name

    async def learn_page(self, client: ApiClient, items: Sequence[BaseModel]) -> None:
        """Learn the names the items carry; ask the server's client list once if a client is still unnamed."""
        for item in items:
            self._keep(str(getattr(item, "client_id", "")), str(getattr(item, "client_name", None) or ""))
        unnamed = [item for item in items if not self.name_of(str(getattr(item, "client_id", "")))]
        if not unnamed or self.asked:
            return
        self.asked = True
        for client_id, name in (await read_client_names(client)).items():  # none on a community server
            self._keep(client_id, name)

    def save(self) -> None:
        """Cache the names learnt (a cache that cannot be written is left as it was)."""
        if self.learnt:
            with contextlib.suppress(StoreError, ValueError, OSError):  # unwritable: the next command asks again
                learn_names(self.profile, self.learnt)
