"""Pilot tests of the cleanup screen (key 3) against the demo server over loopback: browse, filter, mark."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from tests.integration.selectors_support import on_cleanup, shown_ids

pytestmark = pytest.mark.anyio


async def test_browse_shows_tags_counts_and_the_first_tags_selectors(demo_server: DemoServer) -> None:
    """Key 3: tags on the left with their selector counts; the first tag's first page on the right."""
    async with on_cleanup(demo_server) as (_app, _pilot, screen):
        pane = screen.tags_pane
        assert pane.tags
        assert set(pane.counts) == {tag.id for tag in pane.tags}
        assert screen.tag is not None and screen.tag.id == pane.tags[0].id
        assert shown_ids(screen)
        assert all(selector.asset_group_tag_id == screen.tag.id for selector in screen.selector_table.items)
