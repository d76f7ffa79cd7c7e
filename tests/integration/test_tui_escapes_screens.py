"""Issue 25 item 1, the screens test_tui_escapes.py leaves out: a client's name, its runs' messages and domain
results, its schedules and a tag's name and description come from the server; each screen that shows them (the
tasks screen's client bar, table, domain results and log, the client picker, Events, Clients, the tags pane and the
status line) shows their control characters visibly, and no raw one reaches the screen or an exported file.

The client bar of Completed tasks once wrote a client's name raw: a name holding an OSC title retitled the terminal
and a `CSI 2J` wiped the dashboard (found by hand in tmux; this file's first test fails on that code). Found the
same way: a run listing one domain twice crashed the domain results (the last test)."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from svctui.demo.server import DemoServer
from svctui.tui.clipboard import copy_text
from svctui.tui.palette import export_view
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.widgets.client_picker import ClientPicker
from svctui.tui.widgets.domain_results import DomainResultsPane
from tests.integration.test_tui_escapes import SHOWN, assert_nothing_raw, screen_text
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import BIG_TAG_ID, plan_of, tag_selectors
from tests.support.tasks import drop_case, on_tasks, only_task
from tests.support.tui import events_screen, make_app, press_for, running, settle, with_screen

pytestmark = pytest.mark.anyio

ESC = "\x1b]0;pwned\x07\x1b[2J"
CLIENT = f"LAB {ESC} x"
CLIENT_SHOWN = f"LAB {SHOWN}␛[2J x"
LONG = " and a name far longer than any column of the table gives it"


def escape_the_demo(demo: DemoServer, payload: str = ESC) -> str:
    """Write terminal escapes (or another `payload`) into one client's name, its runs' messages and event titles,
    its schedules' titles, its domain results' names (each its own plus the payload: runs stay comparable) and
    messages, and tag 2's name and description; that client's id."""
    with sqlite3.connect(demo.db_path) as conn:
        client_id = str(
            conn.execute(
                "SELECT client_id FROM tasks GROUP BY client_id ORDER BY COUNT(*) DESC, client_id LIMIT 1"
            ).fetchone()[0]
        )
        conn.execute("UPDATE clients SET name = ? WHERE id = ?", (f"LAB {payload} x", client_id))
        conn.execute(
            "UPDATE tasks SET status_message = ?, event_title = ? WHERE client_id = ?",
            (f"msg {payload} m", f"ev {payload} e", client_id),
        )
        conn.execute("UPDATE events SET title = ? WHERE client_id = ?", (f"ev {payload} e", client_id))
        conn.execute("UPDATE domains SET name = 'dn ' || ? || name WHERE client_id = ?", (payload, client_id))
        conn.execute(
            "UPDATE ous SET name = 'ou ' || ? || name, distinguishedname = 'OU=' || ? || distinguishedname",
            (payload, payload),
        )
        conn.execute(
            "UPDATE domain_results SET domain_name = domain_name || ? || '.local', message = ?"
            " WHERE job_id IN (SELECT id FROM tasks WHERE client_id = ?)",
            (payload, f"dr {payload} r", client_id),
        )
        conn.execute(
            "UPDATE tags SET name = ?, description = ? WHERE id = 2", (f"Owned {payload} t", f"desc {payload}")
        )
    return client_id


async def shown_whole(pilot: Pilot[Any], *expected: str) -> str:
    """The screen's text once settled: each of `expected` in it, no raw control character drawn."""
    await settle(pilot)
    text = screen_text(pilot.app)  # type: ignore[arg-type]  # (and nothing raw drawn)
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
        await pilot.press("P")
        await shown_whole(pilot, f"{SHOWN}␛[2J.local")  # the plot's title names the domain
        await pilot.press("W")
        await shown_whole(pilot, f"{SHOWN}␛[2J.local")  # the comparison's column headings
        await pilot.press("L")
        await shown_whole(pilot, f"{SHOWN}␛[2J.local")
        await press_for(pilot, "C", ClientPicker)
        await shown_whole(pilot, f"LAB {SHOWN}")


async def test_events_and_clients_show_the_escaped_client_name(fresh_demo_server: DemoServer) -> None:
    escape_the_demo(fresh_demo_server)
    async with running(make_app(fresh_demo_server), (160, 44)) as pilot:
        await shown_whole(pilot, f"LAB {SHOWN}")  # Events: the client column
        await pilot.press("enter")
        # the detail: client, domains, in the one visible form (Content.styled once dropped the BEL: `␛]0;pwned␛[2J`)
        await shown_whole(pilot, f"LAB {SHOWN}", f"dn {SHOWN}␛[2J")
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
                assert f"LAB {SHOWN}␛[2J x" in written, "the client's whole name, not the cell cut to its column"
            else:
                assert json.loads(written), "it reads back"


def csv_cells(path: Path) -> list[str]:
    """Every cell of an exported CSV file."""
    with path.open(newline="", encoding="utf-8") as handle:
        return [cell for row in csv.reader(handle) for cell in row]


async def test_every_list_exports_whole_values_never_cut_to_a_column(
    fresh_demo_server: DemoServer, tmp_path: Path
) -> None:
    """Audit: the Events export wrote the client cell as drawn (`LAB ␛]0;pwned␇␛[2…`). Each list's CSV holds
    whole values, made visible: the Events client, the Completed tasks message, the Selectors name (in a narrow
    window, where the table cuts every one of them)."""
    client_id = escape_the_demo(fresh_demo_server)
    with sqlite3.connect(fresh_demo_server.db_path) as conn:
        conn.execute("UPDATE selectors SET name = name || ?", (LONG,))
    written: list[Path] = []
    async with running(make_app(fresh_demo_server), (80, 24)) as pilot:
        await settle(pilot)
        written.append(export_view(events_screen(pilot.app), "csv", tmp_path))  # type: ignore[arg-type]
        cells = csv_cells(written[-1])
        assert CLIENT_SHOWN in cells and not [cell for cell in cells if cell.endswith("…")], cells[:20]
    async with on_tasks(fresh_demo_server, client_id) as (_app, pilot, screen):
        written.append(export_view(screen, "csv", tmp_path))
        cells = csv_cells(written[-1])
        assert f"msg {SHOWN}␛[2J m" in cells and not [cell for cell in cells if cell.endswith("…")]
    async with on_cleanup(fresh_demo_server, size=(80, 24)) as (_app, pilot, cleanup):
        written.append(export_view(cleanup, "csv", tmp_path))
        cells = csv_cells(written[-1])
        assert [cell for cell in cells if cell.endswith(LONG)], "the long name whole"
        assert not [cell for cell in cells if cell.endswith("…")]
    assert len(set(written)) == 3, written
    for path in written:
        assert_nothing_raw(path.read_text(encoding="utf-8"))


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


@pytest.mark.parametrize("name", ["x [/nope] y", "[@click=app.quit]q[/]", "[bold]loud"])
async def test_a_tag_named_in_markup_is_shown_as_written_in_the_review(
    fresh_demo_server: DemoServer, name: str
) -> None:
    """The review's title quotes the tag's name; read as markup, a stray closing tag raised MarkupError (a traceback
    that ended the dashboard) and `[@click=…]` made the server's text a link that runs an action of the app."""
    with sqlite3.connect(fresh_demo_server.db_path) as conn:
        conn.execute("UPDATE tags SET name = ? WHERE id = ?", (name, BIG_TAG_ID))
    plan = plan_of(fresh_demo_server, tag_selectors(fresh_demo_server)[:2])
    async with with_screen(fresh_demo_server, ReviewScreen(plan), size=(160, 44)) as (_app, pilot):
        await shown_whole(pilot, f"from tag {BIG_TAG_ID} {name!r}")


async def test_a_toast_quoting_a_name_in_markup_shows_it_as_written(fresh_demo_server: DemoServer) -> None:
    """`c` on a cell says `Copied name: …` in a toast; a screen's notify passes markup=True. A name holding `[/x]`
    raised MarkupError when the toast was drawn (the dashboard ended in a traceback)."""
    app = make_app(fresh_demo_server)
    async with app.run_test(size=(160, 44), notifications=True) as pilot:
        await settle(pilot)
        copy_text(app, "x [/nope] y", "name")
        app.screen.notify("[@click=app.quit]q[/] [bold]loud", title="[/t]")
        await shown_whole(pilot, "Copied name: x [/nope] y", "[@click=app.quit]q[/] [bold]loud", "[/t]")


MARKUP = "[/nope] [@click=app.quit]q[/]"


async def test_server_text_in_markup_is_shown_as_written_on_every_screen(fresh_demo_server: DemoServer) -> None:
    """The same walk with text that reads as markup: shown as written (never a MarkupError, a style or a link)."""
    client_id = escape_the_demo(fresh_demo_server, MARKUP)
    async with on_tasks(fresh_demo_server, client_id) as (_app, pilot, screen):
        assert screen.table.items, "the client's runs"
        if not screen.detail.display:
            await pilot.press("p")
        await shown_whole(pilot, f"LAB {MARKUP} x (", f"{MARKUP}.local")
        await pilot.press("L")
        await shown_whole(pilot, f"{MARKUP}.local")
        await press_for(pilot, "C", ClientPicker)
        await shown_whole(pilot, f"LAB {MARKUP}")
    async with running(make_app(fresh_demo_server), (160, 44)) as pilot:
        await shown_whole(pilot, "LAB [/nope]")  # Events: the client column (cut)
        await press_for(pilot, "4", ClientsScreen)
        await shown_whole(pilot, "LAB [/nope]")
    async with on_cleanup(fresh_demo_server) as (_app, pilot, _screen):
        await shown_whole(pilot, f"Owned {MARKUP}"[:14])  # the tags pane (its name column cuts it)


async def test_the_comparisons_drop_line_shows_an_escaped_domain(fresh_demo_server: DemoServer) -> None:
    """`W` on a run with a drop names the dropped domain in its header line (found by hand: raw, it retitled tmux)."""
    case = drop_case(fresh_demo_server)
    with sqlite3.connect(fresh_demo_server.db_path) as conn:
        conn.execute(
            "UPDATE domain_results SET domain_name = domain_name || ? WHERE domain_name = ?"
            " AND job_id IN (SELECT id FROM tasks WHERE client_id = ?)",
            (ESC, case.domain_name, case.client_id),
        )
    async with on_tasks(fresh_demo_server, case.client_id) as (_app, pilot, screen):
        await only_task(pilot, screen, case.task_id)
        if not screen.detail.display:
            await pilot.press("p")
        await pilot.press("W")
        await shown_whole(pilot, f"{case.domain_name}{SHOWN}␛[2J ")  # the drop line: domain, then the count
