"""Issue 28: what a narrow screen leaves out says so (a table's columns, the strip's glyphs, the breakdown's
statuses), and a wide one gives its room to names (the tags pane)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from textual.widgets import Static
from textual.widgets.data_table import ColumnKey

from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.help import HelpScreen
from svctui.tui.screens.selectors.tags_pane import TagsPane
from svctui.tui.widgets.status_bar import StatusBar
from tests.support.selectors import on_cleanup
from tests.support.tasks import drop_case, open_tasks
from tests.support.tui import make_app, on_events, running, settle

pytestmark = pytest.mark.anyio
NARROW, WIDE = (80, 24), (160, 45)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def line_of(screen: object) -> str:
    """The screen's status line as shown."""
    return str(screen.query_one("#status-line", Static).render())  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [NARROW, WIDE])
async def test_events_say_which_columns_a_narrow_table_leaves_out(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """At 80 columns kinds, domains and OUs were left out with no sign they exist."""
    async with on_events(demo_server, size=size) as (_app, pilot, screen):
        await settle(pilot)
        if size == NARROW:
            assert "+3 columns (p): kinds, domains, OUs" in line_of(screen)
        else:
            assert "columns (p)" not in line_of(screen) and not screen.table.left_out


@pytest.mark.parametrize("size", [NARROW, WIDE])
async def test_the_clients_strip_key_says_help_has_every_glyph(demo_server: DemoServer, size: tuple[int, int]) -> None:
    """At 80 columns the strip's key named only the glyphs on show (no `T timed out`, `? invalid`), silently."""
    app = make_app(demo_server)
    async with running(app, size) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen)
        assert bool(re.search(r"\?: \+\d+ glyphs", line_of(screen))) is (size == NARROW), line_of(screen)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        legend = str(app.screen.query_one("#help-legend", Static).render())
        assert "T  timed out" in legend and "?  invalid" in legend and "✗ failing: a not-OK run in" in legend


async def test_the_tasks_breakdown_says_how_many_statuses_it_leaves_out(demo_server: DemoServer) -> None:
    """At 80 columns Ingesting, Analyzing and Canceled were left out behind a bare `…`."""
    app = make_app(demo_server, settings=Settings(recent_clients=[drop_case(demo_server).client_id]))
    async with running(app, NARROW) as pilot:
        screen = await open_tasks(pilot)
        await settle(pilot)
        bar = screen.query_one(StatusBar)
        shown = bar.render().plain
        named = [item for item in bar.breakdown if item.count and item.label.split()[0][:6] in shown]
        left_out = sum(1 for item in bar.breakdown if item.count) - len(named)
        assert left_out >= 3 and f"+{left_out} more" in shown, shown


async def test_on_a_wide_terminal_tag_names_are_whole(demo_server: DemoServer) -> None:
    """At 160 columns `Break Glass A…` and `Service Accou…` were cut in a 14-cell column with room to spare."""
    async with on_cleanup(demo_server, size=WIDE) as (_app, pilot, screen):
        await settle(pilot)
        pane = screen.query_one(TagsPane)
        longest = max(len(tag.name) for tag in pane.tags)
        assert 14 < longest <= 24
        assert pane.table.columns[next(iter(pane.table.columns))].width == longest
        assert all(str(pane.table.get_row_at(row)[0]) == tag.name for row, tag in enumerate(pane.tags))


async def test_with_live_refresh_off_the_clients_line_says_when_it_was_updated(demo_server: DemoServer) -> None:
    """Issue 28: `r` on Clients gave no sign when live refresh was off (the same rows, the same line): the line
    says when the last round completed, to the second."""
    from tests.support.tui import NOW

    app = make_app(demo_server)
    async with running(app, NARROW) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ClientsScreen) and not app.live.on
        said = f"updated {NOW:%H:%M:%S}Z"
        assert said in line_of(screen), line_of(screen)
        app.clock = lambda: NOW + timedelta(seconds=75)
        await pilot.press("r")
        await settle(pilot)
        assert said not in line_of(screen) and f"updated {NOW + timedelta(seconds=75):%H:%M:%S}Z" in line_of(screen)


async def test_the_tags_pane_width_follows_a_resize_made_on_another_screen(demo_server: DemoServer) -> None:
    """Issue 28: the Tags pane kept its launch width after a resize (reported; the narrow class did follow): its
    width and its name column follow a resize made while another screen showed, both ways."""
    async with on_cleanup(demo_server, size=WIDE) as (_app, pilot, screen):
        pane = screen.query_one(TagsPane)
        assert not pane.has_class("-narrow")
        await pilot.press("1")
        await settle(pilot)
        await pilot.resize_terminal(*NARROW)
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert pane.has_class("-narrow") and pane.outer_size.width < 40, pane.outer_size
        await pilot.press("1")
        await pilot.resize_terminal(*WIDE)
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert not pane.has_class("-narrow") and pane.table.columns[next(iter(pane.table.columns))].width > 14


@pytest.mark.parametrize("size", [NARROW, (60, 20)])
async def test_at_80_columns_tag_names_are_whole_and_the_pane_gives_way_only_as_needed(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """Issue 28: at 80 columns the tags pane cut `Break Glass…` in a fixed 12-cell name column. Names first there
    too: the name column fits the names where the selectors keep their id, name and flags beside it (80 columns),
    and gives way to them only as far as needed (60 columns); a resize fits it again."""
    async with on_cleanup(demo_server, size=size) as (_app, pilot, screen):
        await settle(pilot)
        pane = screen.query_one(TagsPane)

        def whole() -> bool:
            width = dict((key, width) for _, key, width in pane.tag_columns)["name"]
            return all(len(tag.name) <= width for tag in pane.tags) and pane.table.row_count == len(pane.tags)

        table = screen.selector_table
        shown = [str(key.value) for key in table.columns]
        assert {"id", "name"} <= set(shown), shown
        if size == NARROW:
            assert whole(), "every name whole at 80 columns"
            assert "flags" in shown, shown
        else:
            assert not whole(), "at 60 columns the selectors need the room"
            assert pane.outer_size.width <= 30, pane.outer_size
        await pilot.resize_terminal(*(NARROW if size != NARROW else (60, 20)))
        await settle(pilot)
        assert whole() is (size != NARROW), "refitted on a resize"


async def test_at_80_columns_the_tags_pane_keeps_no_blank_marks_column_while_names_are_cut(
    demo_server: DemoServer,
) -> None:
    """A newcomer's walk: the pane kept a 4-cell marks column (and its padding) blank while the selector names beside
    it were cut. With nothing marked the column is left out and the selectors' names have its room; a mark brings
    it back, as wide as its marks, and the names give the room back."""
    async with on_cleanup(demo_server, size=NARROW) as (_app, pilot, screen):
        await settle(pilot)
        pane, table = screen.query_one(TagsPane), screen.selector_table
        assert "marked" not in {str(key.value) for key in pane.table.columns}
        pane_width, name = pane.outer_size.width, table.columns[ColumnKey("name")].width
        plain = next(index for index, selector in enumerate(table.items) if not selector.is_default)
        table.focus()
        table.move_cursor(row=plain, column=1)
        await pilot.press("space")
        await settle(pilot)
        marks = pane.table.columns[ColumnKey("marked")].width
        assert marks == len("●1"), marks
        assert pane.outer_size.width == pane_width + marks + 2, (pane.outer_size, pane_width)
        assert table.columns[ColumnKey("name")].width < name
        await pilot.press("space")
        await settle(pilot)
        assert "marked" not in {str(key.value) for key in pane.table.columns}
        assert (pane.outer_size.width, table.columns[ColumnKey("name")].width) == (pane_width, name)
