"""Reading the server's collection clients for their names: the one loop behind the CLI's and the dashboard's names,
and the profile's cache of them kept up to date (the dashboard's picker and the CLI's client-by-name).

The server's whole client list replaces the cache (a client gone from the server is forgotten); the cache is kept
per server (base URL and token id), so another server under the same profile name never lends it its clients.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from svctui.api.errors import ApiError, EnterpriseOnly
from svctui.api.limits import MAX_PAGE_SIZE
from svctui.api.query import ListQuery

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

CLIENT_NAMES_LIMIT = 5000  # the most named clients read for their names


@dataclass(frozen=True)
class ClientList:
    """Client names (id -> name) and, when the server's whole client list was read, every client's id."""

    names: dict[str, str]
    ids: frozenset[str] | None = None  # None: not the whole list (community server, a failure, the limit, a cache)
    failed: bool = False  # the server lists its clients but the list could not be read (names: the cache's)


async def read_client_list(client: ApiClient) -> ClientList:
    """The server's named clients (id in lower case -> name), at most CLIENT_NAMES_LIMIT of them, in pages of
    MAX_PAGE_SIZE, unhydrated, and every id when the whole list was read. A server without the listing
    (EnterpriseOnly on the community edition) or one that fails it gives the names read before the failure (none at
    all on a community server) and no ids."""
    names: dict[str, str] = {}
    ids: set[str] = set()
    try:
        async for item in client.clients.iter(
            ListQuery(hydrate_domains=False, hydrate_ous=False), page_size=MAX_PAGE_SIZE
        ):
            ids.add(item.id.lower())
            if item.name:
                names[item.id.lower()] = item.name
            if len(names) >= CLIENT_NAMES_LIMIT:
                return ClientList(names)  # not the whole list: the cache is added to, not replaced
    except EnterpriseOnly:
        return ClientList(names)
    except ApiError:
        return ClientList(names, failed=True)
    return ClientList(names, frozenset(ids))


async def read_client_names(client: ApiClient) -> dict[str, str]:
    """Client id (lowercase) -> name of the server's named clients (see `read_client_list`)."""
    return (await read_client_list(client)).names


def cache_key(client: ApiClient) -> str:
    """The key of the server `client` talks to in the names cache (base URL and token id, digested)."""
    from svctui.store.client_names import server_key

    return server_key(client.base_url, client.account)


async def cached_client_names(client: ApiClient, profile: str) -> ClientList:
    """The names cached for `profile` on the server `client` talks to (none for another server's cache)."""
    from svctui.store.client_names import load_names

    return ClientList(await asyncio.to_thread(load_names, profile, server=cache_key(client)))


async def fetch_client_list(client: ApiClient, profile: str) -> ClientList:
    """The server's client names when it lists its clients (they replace the profile's cache), else the cached
    names of this server updated with those read (ids None; `failed` when the server lists its clients but the list
    could not be read). A cache file that cannot be read raises its StoreError.
    """
    from svctui.store.client_names import learn_names, load_names, replace_names

    server = cache_key(client)
    listing = await read_client_list(client)
    if listing.ids is not None:
        return ClientList(await asyncio.to_thread(replace_names, profile, listing.names, server), listing.ids)
    if not listing.names:  # EnterpriseOnly on a community server, or a failure (said as the names' note)
        return ClientList(await asyncio.to_thread(load_names, profile, server=server), failed=listing.failed)
    return ClientList(
        await asyncio.to_thread(learn_names, profile, listing.names, server=server), failed=listing.failed
    )


async def fetch_client_names(client: ApiClient, profile: str) -> dict[str, str]:
    """The names of `fetch_client_list`: the server's when it lists its clients, else this server's cached ones."""
    return (await fetch_client_list(client, profile)).names
