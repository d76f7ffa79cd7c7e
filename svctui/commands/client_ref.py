"""A client named on the command line by uuid or by name (`tasks list SHARPHOUND-DC01`, `health --client ...`).

A uuid is taken as it is. A name is looked up, once connected, among the clients the dashboard's picker knows
(`fetch_client_names`: `GET /api/v2/clients` and the profile's cache of names): a whole, case-insensitive match.
A name that matches no client or more than one is exit 2, naming the candidates.
"""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from svctui.api.filters import VALUE_PATTERNS, Kind
from svctui.api.quoting import quote_input
from svctui.commands.common import CommandFailure, ExitCode, fail

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

SEE_ALL = "`svctui clients list` lists the clients, with their names and ids"
SHOWN = 5  # candidates named in a message


def is_uuid(text: str) -> bool:
    """Whether `text` (surrounding spaces aside) is a uuid."""
    return bool(VALUE_PATTERNS[Kind.UUID].fullmatch(text.strip()))


def check_client(text: str, what: str) -> None:
    """Exit 2 (before any request) when `text` can be neither a uuid nor a client's name; `what` names the input."""
    if not text.strip() or not text.isprintable():
        fail(f"{what} {quote_input(text)} is neither a client's uuid nor its name; {SEE_ALL}")


def match_client(given: str, names: Mapping[str, str], what: str) -> str:
    """The id of the one client named `given` (whole, any case) among `names` (id -> name); CommandFailure (exit 2)
    naming the candidates when no client or several have that name."""
    wanted = given.strip().casefold()
    found = sorted(client_id for client_id, name in names.items() if name.strip().casefold() == wanted)
    if len(found) == 1:
        return found[0]
    shown = quote_input(given)
    if found:
        ids = ", ".join(f"{client_id} ({names[client_id]})" for client_id in found[:SHOWN])
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        raise CommandFailure(
            f"{what} {shown} names {len(found)} clients: {ids}{more}; give the uuid instead ({SEE_ALL})",
            ExitCode.USAGE,
        )
    if not names:
        raise CommandFailure(
            f"{what} {shown}: this server lists no clients to look the name up in (community edition); "
            "give the client's uuid",
            ExitCode.USAGE,
        )
    every = sorted(set(names.values()), key=str.casefold)
    close = difflib.get_close_matches(given.strip().upper(), [name.upper() for name in every], SHOWN, 0.5)
    by_upper = {name.upper(): name for name in every}
    candidates = [by_upper[name] for name in close] or every[:SHOWN]
    label = "did you mean" if close else "clients include"
    raise CommandFailure(
        f"{what} {shown} is no client's name or uuid; {label}: {', '.join(candidates)} ({SEE_ALL})",
        ExitCode.USAGE,
    )


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
