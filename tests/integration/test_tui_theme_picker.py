"""Pilot tests of themes at run time: "Change theme" previews the highlighted theme, esc goes back, enter keeps
and saves it; marks take `$mark` and cells follow a theme change."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.content import Content

from svctui.demo.server import DemoServer
from svctui.store.settings import Settings, load_settings
from svctui.tui.theme import APP_VARIABLE_DEFAULTS
from svctui.tui.widgets.paged_table import MARK_COLUMN
from tests.support.tasks import drop_case, only_task, tasks_screen
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
        assert first == "svctui-contrast", "svctui's own themes come next (by name), before Textual's"
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


async def test_marks_take_the_theme_mark_colour_and_follow_a_theme_change(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        await pilot.press("space")
        await settle(pilot)
        key = next(iter(screen.table.marked))

        def mark_style() -> str:
            cell = screen.table.get_cell(key, MARK_COLUMN)
            assert isinstance(cell, Text) and cell.plain == "●"
            return str(cell.style)

        assert mark_style().lower() == f"bold {APP_VARIABLE_DEFAULTS['mark'].lower()}"
        app.theme = "svctui-contrast"
        await settle(pilot)
        assert mark_style().lower() == "bold #ffff00", "a theme change restyles cells whose base style changed"


async def test_every_theme_the_picker_offers_draws_every_screen(demo_server: DemoServer) -> None:
    """Textual's ANSI themes name terminal colours (`ansi_red`) that Rich cannot parse: status cells, domain results,
    marks and the plot must still draw (it froze the app on Completed tasks: Rich failed inside the error report)."""
    case = drop_case(demo_server)
    async with on_events(demo_server, settings=Settings(recent_clients=[case.client_id])) as (app, pilot, events):
        await pilot.press("space")  # a mark, in the theme's colour
        await pilot.press("2")
        await settle(pilot)
        await only_task(pilot, tasks_screen(app), case.task_id)
        await pilot.press("R")
        await settle(pilot)
        for mode, tab in (("tasks", "P"), ("tasks", "R"), ("selectors", ""), ("clients", ""), ("events", "")):
            app.switch_mode(mode)
            await settle(pilot)
            if tab:
                await pilot.press(tab)
            for theme in [name for name in sorted(app.available_themes) if name.startswith("ansi")]:
                app.theme = theme
                await pilot.pause()
            await settle(pilot)
            assert app.is_running and app.return_code is None, f"{mode} {tab}: the app stopped"
        assert events.table.marked == frozenset({"1"})


async def test_a_typed_theme_name_keeps_the_line_that_says_what_the_theme_is(demo_server: DemoServer) -> None:
    """The newcomer's walk: typing `textual-dark` in the picker dropped the description line the unfiltered list
    shows under each theme (Textual's search gives no help)."""
    async with on_events(demo_server) as (app, pilot, _screen):
        app.action_change_theme()
        await settle(pilot)
        await pilot.press(*"textual-dark")
        await settle(pilot)
        shown = app.screen.query_one(CommandList).get_option_at_index(0).prompt
        assert isinstance(shown, Content)
        assert shown.plain.split("\n") == ["textual-dark", "the current theme: dark, Textual's default, and svctui's"]
