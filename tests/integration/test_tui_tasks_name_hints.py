"""Pilot tests of what a domain without a name says in the Task tab (issue 28): `H` is suggested only when names are
off; the drops view, whose runs are read without names, says so."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.tasks.detail import (
    NO_NAME_DROPS_VIEW,
    NO_NAME_FROM_SERVER,
    NO_NAME_NAMES_OFF,
    unnamed_hint,
)
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, query, text_of
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def test_the_hint_says_why_there_is_no_name() -> None:
    assert unnamed_hint(asked=False, names_on=False, drops_view=False) == NO_NAME_NAMES_OFF
    assert unnamed_hint(asked=False, names_on=True, drops_view=False) == NO_NAME_NAMES_OFF  # the page is reloading
    assert unnamed_hint(asked=True, names_on=True, drops_view=False) == NO_NAME_FROM_SERVER
    assert unnamed_hint(asked=True, names_on=True, drops_view=True) == NO_NAME_DROPS_VIEW
    assert unnamed_hint(asked=True, names_on=False, drops_view=True) == NO_NAME_NAMES_OFF
    assert "H " not in NO_NAME_FROM_SERVER and "H " not in NO_NAME_DROPS_VIEW


async def test_drops_view_with_names_on_does_not_offer_H(demo_server: DemoServer) -> None:
    """Newcomer's walk: FRA-03, `d`, `enter`, `T` said `(no name: H fetches names)` with names on; `H` then turned
    them off."""
    fra = str(query(demo_server, "SELECT id FROM clients WHERE name = ?", "SHARPHOUND-FRA-03")[0][0])
    async with on_tasks(demo_server, fra) as (_app, pilot, screen):
        assert screen.hydrate_domains and screen.hydrate_ous
        await pilot.press("d")
        await settle(pilot)
        assert screen.quick == "drops" and screen.table.items
        await pilot.press("enter", "T")
        await settle(pilot)
        fields = text_of(screen.task_detail.query_one("#task-fields", Static))
        assert "H fetches names" not in fields, fields
        assert NO_NAME_DROPS_VIEW in fields, "the drops view's runs are read without names"
        await pilot.press("d", "H")  # names off: now H is the way to names
        await settle(pilot)
        assert not screen.hydrate_domains
        await pilot.press("T")
        await settle(pilot)
        fields = text_of(screen.task_detail.query_one("#task-fields", Static))
        assert NO_NAME_NAMES_OFF in fields, fields
