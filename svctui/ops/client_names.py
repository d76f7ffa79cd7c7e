"""Reading the server's collection clients for their names: the one loop behind the CLI's and the dashboard's names,
and the profile's cache of them kept up to date (the dashboard's picker and the CLI's client-by-name)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from svctui.api.errors import ApiError
from svctui.api.limits import MAX_PAGE_SIZE
from svctui.api.query import ListQuery

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

CLIENT_NAMES_LIMIT = 5000  # the most named clients read for their names


async def read_client_names(client: ApiClient) -> dict[str, str]:
    """Client id (lowercase) -> name of the server's named clients, at most CLIENT_NAMES_LIMIT, in pages of
    MAX_PAGE_SIZE, unhydrated. A server without the listing (EnterpriseOnly on the community edition) or one that
    fails it gives the names read before the failure (none at all on a community server)."""
    names: dict[str, str] = {}
    try:
        async for item in client.clients.iter(
            ListQuery(hydrate_domains=False, hydrate_ous=False), page_size=MAX_PAGE_SIZE
        ):
            if item.name:
                names[item.id.lower()] = item.name
            if len(names) >= CLIENT_NAMES_LIMIT:
                break
    except ApiError:
        pass
    return names


async def fetch_client_names(client: ApiClient, profile: str) -> dict[str, str]:
    """The profile's cached names, updated from `GET /api/v2/clients` when the server has it (and cached again).

    A server without the listing (community edition) or one that fails it leaves the cached names; a cache file
    that cannot be read raises its StoreError.
    """
    from svctui.store.client_names import learn_names, load_names

    cached = await asyncio.to_thread(load_names, profile)
    # EnterpriseOnly on a community server gives none; any other failure shows on the screen's own loads
    learnt = await read_client_names(client)
    if not learnt:
        return cached
    return await asyncio.to_thread(learn_names, profile, learnt)
