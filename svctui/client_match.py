"""A client named by its name, matched among the known clients (id -> name): one rule for the command line
(`tasks list NAME`, `-f client_id=NAME`, `health --client`) and the dashboard's filter editor.

A whole, case-insensitive match of exactly one client; otherwise `NoSuchClient` says why (no client or several
have that name, or there are no names to look in) and names the candidates.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from svctui.api.quoting import quote_input

SHOWN = 5  # candidates named in a message


class NoSuchClient(ValueError):
    """A name that matches no client or several; `see_all` when pointing at the full list helps."""

    def __init__(self, message: str, *, see_all: bool = True) -> None:
        super().__init__(message)
        self.see_all = see_all


def find_client(given: str, names: Mapping[str, str]) -> str:
    """The id of the one client named `given` (whole, any case) among `names` (id -> name); NoSuchClient, whose
    message starts with the quoted name, when no client or several have it."""
    wanted = given.strip().casefold()
    found = sorted(client_id for client_id, name in names.items() if name.strip().casefold() == wanted)
    if len(found) == 1:
        return found[0]
    shown = quote_input(given)
    if found:
        ids = ", ".join(f"{client_id} ({names[client_id]})" for client_id in found[:SHOWN])
        more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
        raise NoSuchClient(f"{shown} names {len(found)} clients: {ids}{more}; give the uuid instead")
    if not names:
        raise NoSuchClient(
            f"{shown}: this server lists no clients to look the name up in (community edition); give the client's uuid",
            see_all=False,
        )
    every = sorted(set(names.values()), key=str.casefold)
    close = difflib.get_close_matches(given.strip().upper(), [name.upper() for name in every], SHOWN, 0.5)
    by_upper = {name.upper(): name for name in every}
    candidates = [by_upper[name] for name in close] or every[:SHOWN]
    label = "did you mean" if close else "clients include"
    rest = len(every) - len(candidates) if not close else 0  # `clients include` named 5 of 7 as if they were all
    more = f" and {rest} more" if rest else ""
    raise NoSuchClient(f"{shown} is no client's name or uuid; {label}: {', '.join(candidates)}{more}")
