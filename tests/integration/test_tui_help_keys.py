"""Issue 28: help (`?`) lists every key with a description, Textual's own keys (cursor moves, focus, the mouse
selection's copy) included, the same way on every screen."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.screens.help import collect_keys
from tests.support.tui import make_app, running, settle

pytestmark = pytest.mark.anyio
SCREENS = ("1", "2", "3", "4")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_every_key_help_lists_says_what_it_does_on_every_screen(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """Clients' help listed `←` (and `tab`) with no words and `super+c` on some screens only."""
    app = make_app(demo_server)
    async with running(app, size) as pilot:
        copy_keys: dict[str, bool] = {}
        for key in SCREENS:
            await pilot.press(key)
            await settle(pilot)
            for focus in ("", "tab"):  # the table's keys, then those of the part after it (tags, detail)
                if focus:
                    await pilot.press(focus)
                    await settle(pilot)
                rows = collect_keys(app, app.screen)
                bare = [row.keys for row in rows if not row.description.strip() or not row.tooltip.strip()]
                assert not bare, f"screen {key}{' after tab' if focus else ''}: keys without a description: {bare}"
                copy_keys[f"{key}{focus}"] = any("super+c" in row.keys for row in rows)
        assert len(set(copy_keys.values())) == 1, f"super+c listed on some screens only: {copy_keys}"
