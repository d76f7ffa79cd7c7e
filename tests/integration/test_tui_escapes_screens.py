"""Issue 25 item 1, the screens test_tui_escapes.py leaves out: a client's name, its runs' messages and domain
results, its schedules and a tag's name and description come from the server; each screen that shows them (the
tasks screen's client bar, table, domain results and log, the client picker, Events, Clients, the tags pane and the
status line) shows their control characters visibly, and no raw one reaches the screen or an exported file.

The client bar of Completed tasks once wrote a client's name raw: a name holding an OSC title retitled the terminal
and a `CSI 2J` wiped the dashboard (found by hand in tmux; this file's first test fails on that code). Found the
same way: a run listing one domain twice crashed the domain results (the last test)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.demo.server import DemoServer
from svctui.tui.palette import export_view
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.widgets.client_picker import ClientPicker
from svctui.tui.widgets.domain_results import DomainResultsPane
from tests.integration.test_tui_escapes import SHOWN, assert_nothing_raw, screen_text
from tests.support.selectors import on_cleanup
from tests.support.tasks import on_tasks, only_task
from tests.support.tui import events_screen, make_app, press_for, running, settle

pytestmark = pytest.mark.anyio

ESC = "\x1b]0;pwned\x07\x1b[2J"
CLIENT = f"LAB {ESC} x"
TAG = f"Owned {ESC} t"


def escape_the_demo(demo: DemoServer) -> str:
    """Write terminal escapes into one client's name, its runs' messages and event titles, its schedules' titles,
    its domain results' names and messages (each name its own: a run's domains stay distinct), and tag 2's name and
    description; that client's id."""
    with sqlite3.connect(demo.db_path) as conn:
        client_id = str(
            conn.execute(
                "SELECT client_id FROM tasks GROUP BY client_id ORDER BY COUNT(*) DESC, client_id LIMIT 1"
            ).fetchone()[0]
        )
        conn.execute("UPDATE clients SET name = ? WHERE id = ?", (CLIENT, client_id))
        conn.execute(
            "UPDATE tasks SET status_message = ?, event_title = ? WHERE client_id = ?",
            (f"msg {ESC} m", f"ev {ESC} e", client_id),
        )
        conn.execute("UPDATE events SET title = ? WHERE client_id = ?", (f"ev {ESC} e", client_id))
        conn.execute(
            "UPDATE domain_results SET domain_name = 'd' || id || ? || '.local', message = ?"
            " WHERE job_id IN (SELECT id FROM tasks WHERE client_id = ?)",
            (ESC, f"dr {ESC} r", client_id),
        )
        conn.execute("UPDATE tags SET name = ?, description = ? WHERE id = 2", (TAG, f"desc {ESC}"))
    return client_id


async def shown_whole(pilot: Pilot[Any], *expected: str) -> str:
    """The screen's text once settled: each of `expected` in it, no raw control character."""
    await settle(pilot)
    text = screen_text(pilot.app)  # type: ignore[arg-type]
    for part in expected:
        assert part in text, f"{part!r} not on screen: {text}"
    assert_nothing_raw(text)
    return text


async def test_the_tasks_screen_its_client_bar_domain_results_and_log_show_the_escapes(
    fresh_demo_server: DemoServer,
) -> None:
    client_id = escape_the_demo(fresh_demo_server)
    async with on_tasks(fresh_demo_server, client_id) as (_app, pilot, screen):
        assert screen.table.items, "the client's runs"
        await shown_whole(pilot, f"LAB {SHOWN}␛[2J x (", f"msg {SHOWN}")  # the client bar and the table
        if not screen.detail.display:
            await pilot.press("p")
        await shown_whole(pilot, f"{SHOWN}␛[2J.local")  # the domain results (the message column: wider screens)
        await pilot.press("L")
        await shown_whole(pilot, f"{SHOWN}␛[2J.local")
        await press_for(pilot, "C", ClientPicker)
        await shown_whole(pilot, f"LAB {SHOWN}")


async def test_events_and_clients_show_the_escaped_client_name(fresh_demo_server: DemoServer) -> None:
    escape_the_demo(fresh_demo_server)
    async with running(make_app(fresh_demo_server), (160, 44)) as pilot:
        await shown_whole(pilot, f"LAB {SHOWN}")  # Events: the client column
        await pilot.press("enter")
        await shown_whole(pilot, f"LAB {SHOWN}")
        screen = await press_for(pilot, "4", ClientsScreen)
        await settle(pilot)
        row = next(index for index, member in enumerate(screen.ordered_members()) if member.name == CLIENT)
        screen.table.move_cursor(row=row)
        await shown_whole(pilot, f"LAB {SHOWN}␛[2J x")  # the row and, whole, the detail pane


async def test_the_tags_pane_and_the_status_line_show_an_escaped_tag_name(fresh_demo_server: DemoServer) -> None:
    escape_the_demo(fresh_demo_server)
    async with on_cleanup(fresh_demo_server) as (_app, pilot, screen):
        screen.tags_pane.table.focus()
        for _ in range(len(screen.tags_pane.tags)):
            if screen.tag is not None and screen.tag.id == 2:
                break
            await pilot.press("down")
            await settle(pilot)
        assert screen.tag is not None and screen.tag.id == 2
        await shown_whole(pilot, f"Owned {SHOWN}", f"tag Owned {SHOWN}")


async def test_an_export_of_the_view_writes_no_raw_control_character(
    fresh_demo_server: DemoServer, tmp_path: Path
) -> None:
    """The palette's export (CSV: the cells shown; JSON: the records) is a file a person `cat`s: the CSV shows the
    escapes as the table does, the JSON keeps them as `\\u` escapes."""
    escape_the_demo(fresh_demo_server)
    async with running(make_app(fresh_demo_server), (160, 44)) as pilot:
        await settle(pilot)
        screen = events_screen(pilot.app)  # type: ignore[arg-type]
        for fmt in ("csv", "json"):
            written = export_view(screen, fmt, tmp_path).read_text(encoding="utf-8")
            assert_nothing_raw(written)
            if fmt == "csv":
                assert f"LAB {SHOWN}" in written, "the client cell, as shown"
            else:
                assert json.loads(written), "it reads back"


async def test_a_run_that_lists_one_domain_twice_shows_both_rows(fresh_demo_server: DemoServer) -> None:
    """A server answer with two results for one domain (the demo's data edited so) crashed the dashboard with a
    DuplicateKey traceback in the domain results; it shows a row for each, and the comparison a column for each."""
    with sqlite3.connect(fresh_demo_server.db_path) as conn:
        task_id, client_id = conn.execute(
            "SELECT job_id, client_id FROM domain_results JOIN tasks ON tasks.id = job_id"
            " GROUP BY job_id HAVING COUNT(*) >= 2 ORDER BY job_id DESC LIMIT 1"
        ).fetchone()
        twice = conn.execute("SELECT MIN(domain_name) FROM domain_results WHERE job_id = ?", (task_id,)).fetchone()[
            0
        ]  # a name its earlier runs have: the comparison has a baseline
        conn.execute("UPDATE domain_results SET domain_name = ? WHERE job_id = ?", (twice, task_id))
    async with on_tasks(fresh_demo_server, client_id) as (_app, pilot, screen):
        await only_task(pilot, screen, task_id)
        if not screen.detail.display:
            await pilot.press("p")
        text = await shown_whole(pilot)
        assert text.count(twice) >= 2, "a row for each result"
        pane = screen.query_one(DomainResultsPane)
        chosen = []
        for row in (0, 1):
            pane.table.move_cursor(row=row)
            await settle(pilot)
            chosen.append(pane.selected_result())
        assert None not in chosen and chosen[0] is not chosen[1], "each row its own result"
        await pilot.press("W")
        assert "Count" in await shown_whole(pilot, twice), "the comparison's table"
