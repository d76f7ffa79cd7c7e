"""A client named on the command line by uuid or by name (`tasks list SHARPHOUND-DC01`, `health --client ...`).

A uuid is taken as it is. A name is looked up, once connected, among the clients the dashboard's picker knows
(`fetch_client_names`: `GET /api/v2/clients` and the profile's cache of names): a whole, case-insensitive match.
A name that matches no client or more than one is exit 2, naming the candidates.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from svctui.api.filters import VALUE_PATTERNS, Kind
from svctui.api.quoting import quote_input
from svctui.client_match import NoSuchClient, find_client
from svctui.commands.common import CommandFailure, ExitCode, fail

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

SEE_ALL = "`svctui clients list` lists the clients, with their names and ids"


def is_uuid(text: str) -> bool:
    """Whether `text` (surrounding spaces aside) is a uuid."""
    return bool(VALUE_PATTERNS[Kind.UUID].fullmatch(text.strip()))


def check_client(text: str, what: str) -> None:
    """Exit 2 (before any request) when `text` can be neither a uuid nor a client's name; `what` names the input."""
    if not text.strip() or not text.isprintable():
        fail(f"{what} {quote_input(text)} is neither a client's uuid nor its name; {SEE_ALL}")


def match_client(given: str, names: Mapping[str, str], what: str) -> str:
    """The id of the one client named `given` (whole, any case) among `names` (id -> name); CommandFailure (exit 2)
    naming the candidates when no client or several have that name (svctui.client_match, as the dashboard)."""
    try:
        return find_client(given, names)
    except NoSuchClient as exc:
        tail = f" ({SEE_ALL})" if exc.see_all else ""
        raise CommandFailure(f"{what} {exc}{tail}", ExitCode.USAGE) from None


async def resolve_clients(client: ApiClient, profile: str, given: Sequence[str], what: str) -> list[str]:
    """`given` as client ids: a uuid as it is (lower case), a name looked up among the clients the dashboard's
    picker knows (the server's client list and the profile's cache, read once and only when a name is given)."""
    if all(is_uuid(text) for text in given):
        return [text.strip().lower() for text in given]
    from svctui.ops.client_names import fetch_client_names  # the picker's reader

    names = await fetch_client_names(client, profile)
    if not names:  # none read and none cached: a community server, or a failure the reader keeps to itself
        from svctui.api.errors import EnterpriseOnly
        from svctui.api.query import ListQuery

        with contextlib.suppress(EnterpriseOnly):  # a community server: match_client says to give the uuid
            await client.clients.list(ListQuery(limit=1))  # raises what kept the names away (unreachable, 401, …)
    return [text.strip().lower() if is_uuid(text) else match_client(text, names, what) for text in given]


def named_client(given: str, what: str) -> Callable[[ApiClient, str], Awaitable[tuple[object, ...]]] | None:
    """For a list command's leading argument: None for a uuid (nothing to look up), else what looks the name up
    once connected (client, profile name -> the arguments: the client's id)."""
    if is_uuid(given):
        return None

    async def lookup(client: ApiClient, profile: str) -> tuple[object, ...]:
        return tuple(await resolve_clients(client, profile, [given], what))

    return lookup
