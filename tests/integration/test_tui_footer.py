"""The list screens' footer (KeyFooter) shows the same keys while the bindings stay the same, drops the minor ones on
a narrow terminal and takes them back when wide; each key mounts in the footer's compact state."""

from __future__ import annotations

import pytest

from svctui.demo.server import DemoServer
from svctui.tui.textual_internals import FooterKey
from svctui.tui.widgets.key_footer import KeyFooter
from tests.support.tui import on_events, settle

pytestmark = pytest.mark.anyio


def footer_keys(footer: KeyFooter) -> list[FooterKey]:
    """The key widgets on screen, in order."""
    return list(footer.query(FooterKey))


def assert_compact_state(footer: KeyFooter, *, narrow: bool) -> None:
    """Every key as Textual's Footer leaves it: compact like the footer (the palette's key: always), class to match."""
    assert footer.compact is narrow
    for key in footer_keys(footer):
        palette = key.has_class("-command-palette")
        assert key.compact is (True if palette else narrow), key.key
        assert key.has_class("-compact") is key.compact, key.key


def shown_keys(footer: KeyFooter) -> list[tuple[str, str, bool]]:
    """What the footer shows: each key on display, its description and whether it is dimmed."""
    return [(key.key, key.description, key.disabled) for key in footer_keys(footer) if key.display]


async def test_the_footer_shows_the_same_keys_until_the_bindings_or_the_width_change(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (_app, pilot, screen):
        footer = screen.query_one(KeyFooter)
        keys = shown_keys(footer)
        assert "right_square_bracket" in [key for key, _description, _dimmed in keys]
        screen.refresh_bindings()  # what Textual does on every focus change: same bindings, same keys
        await settle(pilot)
        assert shown_keys(footer) == keys
        assert_compact_state(footer, narrow=False)
        await pilot.resize_terminal(90, 36)  # narrow: the minor keys go
        await settle(pilot)
        assert "right_square_bracket" not in [key.key for key in footer_keys(footer)]
        assert_compact_state(footer, narrow=True)
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert "right_square_bracket" in [key.key for key in footer_keys(footer)]
        assert_compact_state(footer, narrow=False)


async def test_the_footer_follows_its_screens_breakpoint_class(demo_server: DemoServer) -> None:
    """Issue 27: the footer is compact until its screen is `-wide` (HORIZONTAL_BREAKPOINTS, FULL_FOOTER_FROM), not
    by a width of its own: `-medium` (detail pane beside the table, compact footer) from 110, `-wide` from 120; a
    screen resized while another tab showed follows on its return (`-narrower` at 90: under 100 columns)."""
    async with on_events(demo_server, size=(115, 36)) as (_app, pilot, screen):
        footer = screen.query_one(KeyFooter)
        assert screen.has_class("-medium") and footer.compact
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert screen.has_class("-wide")
        assert_compact_state(footer, narrow=False)
        await pilot.press("2")  # another tab, resized narrow meanwhile
        await settle(pilot)
        await pilot.resize_terminal(90, 36)
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert screen.has_class("-narrower")  # under NARROW_TERMINAL (a list screen's `-narrow` below DETAIL_BELOW)
        assert_compact_state(footer, narrow=True)
        assert "right_square_bracket" not in [key.key for key in footer_keys(footer)]


async def test_the_widest_footers_fit_between_100_and_119_columns(demo_server: DemoServer) -> None:
    """Completed tasks' and Selector cleanup's full footers need ~118 columns: at 100 they cut off Help and Quit
    (the audit saw `… f i o d Quick fi▏^p palette`); under 120 columns the footer is compact and every key shows."""
    from svctui.store.settings import Settings
    from tests.support.tasks import drop_case

    settings = Settings(recent_clients=[drop_case(demo_server).client_id])
    async with on_events(demo_server, size=(100, 30), settings=settings) as (app, pilot, _events):
        for key in ("2", "3"):
            await pilot.press(key)
            await settle(pilot)
            footer = app.screen.query_one(KeyFooter)
            assert footer.compact
            keys = footer_keys(footer)
            assert {"question_mark", "q"} <= {key.key for key in keys}
            assert all(key.region.right <= 100 for key in keys), [(key.key, key.region) for key in keys]


def footer_line(app: object) -> str:
    """The footer's line as drawn (the screenshot's last row)."""
    import html
    import re

    from textual.app import App

    assert isinstance(app, App)
    rows: dict[float, list[tuple[float, str]]] = {}
    for found in re.finditer(r'<text[^>]*x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', app.export_screenshot()):
        text = html.unescape(re.sub(r"<[^>]+>", "", found.group(3))).replace("\xa0", " ")
        rows.setdefault(float(found.group(2)), []).append((float(found.group(1)), text))
    return "".join(text for _, text in sorted(rows[max(rows)])).rstrip()


@pytest.mark.parametrize(("size", "keys"), [((60, 20), ()), ((80, 24), ("L",))])
async def test_a_key_that_does_not_fit_is_left_out_whole(
    demo_server: DemoServer, size: tuple[int, int], keys: tuple[str, ...]
) -> None:
    """Newcomer walk: at 60x20 Completed tasks' footer ended `^p palettel`, at 80x24 in the Log tab it read
    `C Cl▏^p palette`. A key that would be cut (or run under the palette key) goes whole, with the keys after it."""
    from tests.support.tasks import client_ids, open_tasks, tasks_app

    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=size) as pilot:
        screen = await open_tasks(pilot)
        for pressed in keys:
            await pilot.press(pressed)
            await settle(pilot)
        line = footer_line(app)
        assert line.endswith("▏^p palette"), line
        footer = screen.query_one(KeyFooter)
        palette = next(key for key in footer_keys(footer) if key.has_class("-command-palette"))
        shown = [key for key in footer_keys(footer) if key.display and key is not palette and key.parent is footer]
        assert shown and all(key.region.right <= palette.region.x for key in shown), [
            (key.key, key.region, palette.region) for key in shown
        ]
        assert all(key.description in line for key in shown), "every key shown has its whole label"
        if keys:
            assert "C Cl▏" not in line and not line.removesuffix("▏^p palette").endswith("Cl")


async def test_the_last_key_keeps_a_cell_from_the_palette_key(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 27): at 80 columns Completed tasks' footer ran `q Quit▏^p` with no gap; every key keeps
    its own margin clear of the palette key, and Quit still shows."""
    from tests.support.tasks import client_ids, open_tasks, tasks_app

    app = tasks_app(demo_server, client_ids(demo_server)[0])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_tasks(pilot)
        footer = screen.query_one(KeyFooter)
        palette = next(key for key in footer_keys(footer) if key.has_class("-command-palette"))
        shown = [key for key in footer_keys(footer) if key.display and key is not palette and key.parent is footer]
        assert "q" in {key.key for key in shown}
        gaps = [(key.key, palette.region.x - key.region.right) for key in shown]
        assert all(gap >= 1 for _, gap in gaps), gaps


async def test_while_zoomed_the_footer_shows_z_back_and_the_palette_offers_zoom(demo_server: DemoServer) -> None:
    """Newcomer walk: zoomed (`z`), the status line is hidden and nothing said how to get back; the palette offered
    Textual's "Maximize" (of whatever had the focus) beside `z`. The footer shows `z Back` while zoomed (gone after
    `z` or esc), and the palette offers Zoom, not Maximize, where `z` zooms."""
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, screen):
        footer = screen.query_one(KeyFooter)

        def keys() -> list[tuple[str, str]]:
            return [(key, description) for key, description, _dimmed in shown_keys(footer)]

        assert ("z", "Back") not in keys()
        titles = [command.title for command in app.get_system_commands(screen)]
        assert "Zoom" in titles and "Maximize" not in titles
        for leave in ("z", "escape"):
            await pilot.press("z")
            await settle(pilot)
            assert screen.maximized is not None and ("z", "Back") in keys()
            await pilot.press(leave)
            await settle(pilot)
            assert screen.maximized is None and ("z", "Back") not in keys(), leave
