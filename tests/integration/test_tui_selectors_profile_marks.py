"""Marks belong to a profile: switching profile forgets them, and the Tags list's `●N` badge goes with them (newcomer
walk, 2026-12-05: `Tier Zero … ●3` stayed after a switch to another profile and back, with nothing marked)."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.store.model import Profile, build_profile
from tests.support.selectors import on_cleanup
from tests.support.tui import settle

pytestmark = pytest.mark.anyio


def named(server: DemoServer, name: str) -> Profile:
    """An in-memory profile called `name` for the demo server."""
    return build_profile(
        name=name, base_url=server.base_url, token_id=server.token_id, token_key=server.token_key, storage="env"
    )


def badges(screen: object) -> dict[str, str]:
    """Tag row key -> its marks cell, for every row that shows one."""
    pane = screen.tags_pane  # type: ignore[attr-defined]
    if not pane.marks_width:
        return {}
    table = pane.table
    cells = {str(row.value): str(table.get_cell(row.value, "marked")) for row in table.rows}
    return {key: cell for key, cell in cells.items() if cell}


async def test_a_profile_switch_clears_the_tags_mark_badges(demo_server: DemoServer) -> None:
    async with on_cleanup(profile=named(demo_server, "alpha")) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        plain = [row for row, item in enumerate(screen.selector_table.items) if not item.is_default][:3]
        for row in plain:
            screen.selector_table.move_cursor(row=row, column=1)
            await pilot.press("space")
        await settle(pilot)
        assert badges(screen) == {str(tag.id): "●3"}
        await app.switch_profile(named(demo_server, "beta"))
        await settle(pilot)
        await settle(pilot)
        assert screen.marks.tags_with_marks() == {}
        assert badges(screen) == {}, "no row is marked: no badge"
        await app.switch_profile(named(demo_server, "alpha"))
        await settle(pilot)
        await settle(pilot)
        assert badges(screen) == {}
        assert screen.tags_pane.marked == {}
