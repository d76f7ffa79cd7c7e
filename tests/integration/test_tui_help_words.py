"""Issue 28 (newcomer's walk): help (`?`) names the parts of the screen in words a user knows (`the table`, `the
log`), never a class's name (`RowTable: Move the cursor down`), and lists the log's keys under "Log"."""

from __future__ import annotations

import re

import pytest
from textual.widget import Widget

from svctui.demo.server import DemoServer
from svctui.tui.screens.help import KeyRow, collect_keys, help_content
from svctui.tui.widgets.log_view import LogView
from tests.integration.test_tui_tasks_log import failed_domain_task
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, only_task
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]
PROPER_NAMES: set[str] = set()  # descriptions whose capitals are names, not title case


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def class_names(widgets: list[Widget]) -> set[str]:
    """The names of every class the screen's widgets are made of (Textual's and svctui's), longer than a word."""
    found = {cls.__name__ for widget in widgets for cls in type(widget).__mro__}
    return {name for name in found if re.search(r"[a-z][A-Z]", name)}


def class_names_said(rows: list[KeyRow], names: set[str]) -> list[str]:
    """The rows whose words hold a class's name."""
    said = [row for row in rows if names & set(re.findall(r"\w+", f"{row.description} {row.tooltip}"))]
    return [f"{row.keys} {row.description} {row.tooltip}" for row in said]


async def test_help_with_the_log_focused_says_the_table_and_lists_the_logs_keys_under_log(
    demo_server: DemoServer,
) -> None:
    """Completed tasks with the log focused: `j  Down  RowTable: Move the cursor down` under "Elsewhere on this
    screen", and the log's own keys under the heading "Table"."""
    client, task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (app, pilot, screen):
        await only_task(pilot, screen, task)
        names = class_names(list(screen.query("*")))
        rows = collect_keys(app, screen)
        assert not class_names_said(rows, names), class_names_said(rows, names)
        await pilot.press("L")
        await settle(pilot)
        assert isinstance(app.focused, LogView)
        rows = collect_keys(app, screen)
        assert not class_names_said(rows, names), class_names_said(rows, names)
        parts = {row.description: row.tooltip for row in rows if row.group == "parts"}
        assert parts["Down"].startswith("The table: "), parts
        log_ids = {row.binding_id for row in rows if row.binding_id.startswith("log.")}
        assert log_ids and {row.group for row in rows if row.binding_id in log_ids} == {"log"}, log_ids
        text = help_content(rows, "completed tasks").plain
        assert "\nLog " in text and "\nTable " not in text, "the focused log's keys under Log, no Table heading"


async def test_help_lists_no_sideways_page_keys_and_says_its_keys_in_sentence_case(demo_server: DemoServer) -> None:
    """The newcomer's walk: `^pgup Page Left — Scroll a page left` on a screen whose tables never scroll sideways,
    and `Page Left` beside `Page up`: help lists only keys that act, each said in sentence case."""
    client, _task, _domain, _message = failed_domain_task(demo_server)
    async with on_tasks(demo_server, client) as (app, _pilot, screen):
        rows = collect_keys(app, screen)
        said = {row.description for row in rows}
        assert not said & {"Page Left", "Page Right", "page_left", "page_right"}, said
        title_case = [text for text in said if re.search(r" [A-Z][a-z]", text) and text not in PROPER_NAMES]
        assert not title_case, title_case
