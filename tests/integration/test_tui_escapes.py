"""Nothing from the server drives the terminal: a selector whose name, description and Cypher seed hold terminal
escapes (an OSC title, a clear screen, a C1 CSI) is shown with its control characters visible on every surface of
the dashboard (table, detail pane, raw JSON, toast, filter chip, confirm dialog, error panel, status line, Audit tab,
run sheet), and no raw control character reaches the screen."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.store.model import build_profile
from svctui.tui.app import SvcTuiApp
from svctui.tui.clipboard import copy_text
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.screens.selectors.run import RunScreen
from svctui.tui.widgets.raw_json import RawJson
from svctui.tui.widgets.state_panel import StateKind
from tests.support.cli import demo_env, run_binary
from tests.support.demo_http import signed
from tests.support.recording_server import TOKEN_ID, TOKEN_KEY, Recorded, RecordingServer, Reply, envelope
from tests.support.selectors import AuditHost, on_cleanup, open_cleanup, shown_ids
from tests.support.selectors_run import plan_of, tag_selectors
from tests.support.tui import SIZE, events_screen, make_app, running, settle, with_screen

pytestmark = pytest.mark.anyio

ESC_NAME = "esc \x1b]0;pwned\x07\x1b[2J title"
ESC_DESCRIPTION = "first line\nsecond \x1b]0;pwned\x07\x1b[2J line \x9b31m red"
ESC_SEED = "MATCH (n:User)\n// \x1b]0;pwned\x07\x1b[2J\nRETURN n"
SHOWN = "␛]0;pwned␇"
RAW = ("\x1b", "\x07", "\x9b")


def create_escaped_selector(demo: DemoServer, tag: int = 1) -> int:
    """POST a selector with escapes in its name, description and Cypher seed; its id."""
    body = {
        "name": ESC_NAME,
        "description": ESC_DESCRIPTION,
        "seeds": [{"type": 2, "value": ESC_SEED}],
    }
    with signed(demo) as client:
        answer = client.post(f"/api/v2/asset-group-tags/{tag}/selectors", json=body)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["data"]["id"])


def drawn_raw(app: App[Any]) -> set[str]:
    """The raw control characters in what every widget on screen draws now (its lines' segments: what goes to the
    terminal). The SVG picture leaves ESC out, so a check of it alone misses a raw `ESC ]0;…`."""
    found: set[str] = set()
    for widget in app.screen.query("*"):
        width, height = widget.size
        if not (widget.display and width and height):
            continue
        for strip in widget.render_lines(Region(0, 0, width, height)):
            found |= {ch for segment in strip for ch in segment.text if ch in RAW or ch == "\x1b"}
    return found


def screen_text(app: SvcTuiApp) -> str:
    """What the terminal shows now, from the screen's SVG picture: the text of every cell drawn (toasts included),
    the picture's runs of text joined (a line's styled runs in order), its spaces as spaces. First, that no widget
    draws a raw control character (the picture alone would not show an ESC)."""
    raw = drawn_raw(app)
    assert not raw, f"raw control characters drawn: {raw!r}"
    runs = re.findall(r"<text[^>]*>([^<]*)</text>", app.export_screenshot())
    return html.unescape("".join(runs)).replace("\xa0", " ")


def assert_nothing_raw(text: str) -> None:
    """No control character a terminal acts on is in `text`."""
    found = sorted({ch for ch in text if ch in RAW})
    assert not found, f"raw control characters reached the screen: {found!r}"


async def escaped_selector_on_show(pilot: Pilot[Any], screen: Any, selector_id: int, value: str = "esc ") -> None:
    """Filter the table to the escaped selector (name ~eq `value`) and put the cursor on it."""
    screen.set_filters([Filter("name", "~eq", value)])
    await settle(pilot)
    assert shown_ids(screen) == [selector_id]


async def test_the_selector_table_detail_pane_and_chip_show_the_escapes(fresh_demo_server: DemoServer) -> None:
    selector_id = create_escaped_selector(fresh_demo_server)
    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):
        screen.set_filters([Filter("name", "~eq", "esc \x1b]0;pwned\x07")])  # a pasted filter value
        await settle(pilot)
        chip = screen_text(app)
        assert "name ∋ esc ␛]0;pwned␇ ✕" in chip, "the filter chip"
        assert_nothing_raw(chip)
        await escaped_selector_on_show(pilot, screen, selector_id)
        text = screen_text(app)
        assert SHOWN in text, "the table's name cell"
        assert_nothing_raw(text)
        await pilot.press("p")
        await settle(pilot)
        body = str(screen.detail.query_one("#detail-body").render())
        assert "second ␛]0;pwned␇␛[2J line \\x9b31m red" in body, body
        assert "// ␛]0;pwned␇␛[2J" in body, "the Cypher seed, its lines kept"
        assert_nothing_raw(body)
        assert_nothing_raw(screen_text(app))


async def test_the_raw_json_view_escapes_every_control(fresh_demo_server: DemoServer) -> None:
    selector_id = create_escaped_selector(fresh_demo_server)
    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):
        await escaped_selector_on_show(pilot, screen, selector_id)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, RawJson)
        assert "\\u009b31m" in app.screen.text and "\\u001b]0;pwned\\u0007" in app.screen.text
        assert_nothing_raw(app.screen.text)
        assert_nothing_raw(screen_text(app))


async def test_a_toast_quoting_the_name_shows_the_escapes(fresh_demo_server: DemoServer) -> None:
    """`c` on a name cell copies it (OSC 52, base64: inert) and says so in a toast that quotes the name."""
    create_escaped_selector(fresh_demo_server)
    app = make_app(fresh_demo_server)
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # toasts drawn (run_test hides them)
        await open_cleanup(pilot)
        copy_text(app, ESC_NAME, "name")
        app.notify("from the server", title=ESC_NAME)
        await settle(pilot)
        text = screen_text(app)
        assert "Copied name: esc ␛]0;pwned␇␛[2J" in text
        assert text.count(SHOWN) >= 2, "the toast's message and the other's title"
        assert_nothing_raw(text)


class EscapingServer(RecordingServer):
    """Every events page fails with a body whose words hold terminal escapes: the API's error envelope (message and
    request id) or a proxy's 502 page (its <title>)."""

    def __init__(self, reply: Reply) -> None:
        super().__init__()
        self.reply = reply

    def route(self, recorded: Recorded) -> Reply:
        """The scripted failure for the events list, the usual answers for the rest."""
        return self.reply if recorded.path == "/api/v2/events" else super().route(recorded)


ERROR_REPLIES = {
    "envelope": Reply(500, envelope(500, f"boom {ESC_NAME}", "rid-\x1b]0;pwned\x07\x9b2J")),
    "proxy page": Reply(
        502, f"<html><head><title>Bad gateway {ESC_NAME}</title></head><body>x</body></html>", content_type="text/html"
    ),
}


@pytest.mark.parametrize("kind", list(ERROR_REPLIES))
async def test_an_error_panel_and_status_line_show_the_servers_escapes(kind: str) -> None:
    with EscapingServer(ERROR_REPLIES[kind]) as server:
        profile = build_profile(
            name="escapes", base_url=server.base_url, token_id=TOKEN_ID, token_key=TOKEN_KEY, storage="env"
        )
        app = make_app(profile=profile)
        async with running(app) as pilot:
            await settle(pilot)
            assert events_screen(app).state_panel.kind is StateKind.ERROR
            text = screen_text(app)
            assert SHOWN in text, "the server's words, shown"
            if kind == "envelope":
                assert "rid-␛]0;pwned␇\\x9b2J" in text, "the request id, shown"
            assert_nothing_raw(text)


async def test_the_audit_tab_shows_an_escaped_name_from_the_log(fresh_demo_server: DemoServer) -> None:
    """The audit log keeps the name whole; the Audit tab's selector table shows it visibly."""
    selector_id = create_escaped_selector(fresh_demo_server)
    deleted = run_binary(["selectors", "delete", "1", str(selector_id), "--yes"], env=demo_env(fresh_demo_server))
    assert deleted.code == 0, deleted.stderr
    async with with_screen(fresh_demo_server, AuditHost(), size=(160, 44)) as (app, pilot):
        await settle(pilot)
        text = screen_text(app)
        assert "esc ␛]0;pwned␇" in text, "the run's selector, by name"
        assert_nothing_raw(text)


async def test_the_review_dialog_and_the_run_sheet_show_an_escaped_name(fresh_demo_server: DemoServer) -> None:
    """The deletion's review (its table and confirm) and the run sheet (its outcome table) name the selector."""
    selector_id = create_escaped_selector(fresh_demo_server)
    escaped = [selector for selector in tag_selectors(fresh_demo_server) if selector.id == selector_id]
    plan = plan_of(fresh_demo_server, escaped)
    async with with_screen(fresh_demo_server, ReviewScreen(plan), size=(160, 44)) as (app, pilot):
        await settle(pilot)
        text = screen_text(app)
        assert "esc ␛]0;pwned␇" in text, "the review's table"
        assert_nothing_raw(text)
    async with with_screen(fresh_demo_server, RunScreen(plan, lambda tag_id, selector_id: None), size=(160, 44)) as (
        app,
        pilot,
    ):
        await settle(pilot)
        text = screen_text(app)
        assert "esc ␛]0;pwned␇" in text and "deleted" in text, "the run sheet's outcome table"
        assert_nothing_raw(text)


async def test_the_audit_tabs_restore_dialog_shows_an_escaped_name_and_seed(fresh_demo_server: DemoServer) -> None:
    """`u` on a run of the Audit tab lists what the restore would re-create, name and Cypher seed in full."""
    selector_id = create_escaped_selector(fresh_demo_server)
    deleted = run_binary(["selectors", "delete", "1", str(selector_id), "--yes"], env=demo_env(fresh_demo_server))
    assert deleted.code == 0, deleted.stderr
    async with with_screen(fresh_demo_server, AuditHost(), size=(160, 44)) as (app, pilot):
        app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable).focus()
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        text = screen_text(app)
        assert "'esc \\x1b]0;pwned\\x07\\x1b[2J title'" in text, "the name, quoted as Python does"
        assert "// ␛]0;pwned␇␛[2J" in text, "the seed, its lines kept"
        assert_nothing_raw(text)
