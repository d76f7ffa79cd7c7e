"""Reading the server's collection clients for their names: the one loop behind the CLI's and the dashboard's names."""

from __future__ import annotations

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
