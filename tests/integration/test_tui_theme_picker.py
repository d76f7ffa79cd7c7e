"""Pilot test of "Change theme": the highlighted theme is previewed, esc goes back, enter keeps and saves it."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from svctui.demo.server import DemoServer
from svctui.store.settings import load_settings
from tests.support.tui import on_events, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_change_theme_previews_on_the_cursor_reverts_on_esc_and_saves_on_enter(
    demo_server: DemoServer,
) -> None:
    async with on_events(demo_server) as (app, pilot, _screen):
        assert app.theme == "textual-dark"
        app.action_change_theme()
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert app.theme == "textual-dark", "opening the picker highlights the current theme: nothing changes yet"
        await pilot.press("down")
        await settle(pilot)
        first = app.theme
        assert first != "textual-dark", "the theme under the cursor is applied at once"
        await pilot.press("down")
        await settle(pilot)
        assert app.theme not in ("textual-dark", first)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, CommandPalette)
        assert app.theme == "textual-dark", "esc goes back to the theme from before the picker"
        assert load_settings().theme == "textual-dark", "previews are never saved"

        app.action_change_theme()
        await settle(pilot)
        await pilot.press(*"svctui-cvd")
        await settle(pilot)
        assert app.theme == "svctui-cvd", "the first match of the typed name is previewed"
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, CommandPalette)
        assert app.theme == "svctui-cvd"
        assert load_settings().theme == "svctui-cvd", "enter keeps the theme for the next start"
        assert app.settings is not None and app.settings.theme == "svctui-cvd"
