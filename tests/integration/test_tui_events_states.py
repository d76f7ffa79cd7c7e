"""Pilot tests of the dashboard's states and shell: community edition, auth failure, network down, first run,
theme files, export, profile switch and the command palette."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from svctui.demo.server import DemoServer
from svctui.store.model import Profile
from svctui.store.paths import config_dir, data_dir
from svctui.store.profiles import ProfileStore
from svctui.store.settings import Settings, load_settings
from svctui.tui.app import SETTINGS_PROBLEM_SECONDS
from svctui.tui.launch import demo_profile
from svctui.tui.palette import dashboard_commands, export_view
from svctui.tui.screens.first_run import FirstRunScreen
from svctui.tui.widgets.state_panel import StateKind
from tests.support.bad_server import BadServer, Misbehaviour
from tests.support.cli import invoke
from tests.support.tui import (
    events_screen,
    make_app,
    on_events,
    running,
    settle,
    state_of,
    unreachable_profile,
    wrong_key_profile,
)

pytestmark = pytest.mark.anyio


def event_pages(server: BadServer) -> list[str]:
    """The request lines of the events screen's first page the server received (not the edition probe's)."""
    return [line for line in server.requests if line.startswith("GET /api/v2/events") and "skip=0&limit=100" in line]


def panel_text(app: object) -> str:
    return str(events_screen(app).state_panel.query_one("#state-body", Static).render())  # type: ignore[arg-type]


async def test_community_edition_says_enterprise_feature(demo_server_community: DemoServer) -> None:
    async with on_events(demo_server_community) as (app, _pilot, _screen):
        assert state_of(app) is StateKind.ENTERPRISE_ONLY
        assert "Events are an enterprise feature" in panel_text(app)
        assert "Completed tasks work on both editions: press 2." in panel_text(app)
        assert app.header_info.edition == "community"


async def test_auth_failure_shows_the_server_message_and_a_way_out(demo_server: DemoServer) -> None:
    async with on_events(profile=wrong_key_profile(demo_server)) as (app, _pilot, screen):
        assert state_of(app) is StateKind.AUTH_FAILURE
        text = panel_text(app)
        assert "Authentication failed" in text and "HTTP 401" in text
        assert "digest validation failed" in text and "request id" in text and "Switch profile" in text
        assert "not-the-key" not in text
        assert "Check the token with: svctui profile test wrongkey" in text  # the profile in use, not the default
        assert app.header_info.problem == "auth failed (401)"
        titles = [command.title for command in dashboard_commands(app, screen)]
        assert "Switch profile" in titles


async def test_network_down_keeps_the_app_up_and_retries(demo_server: DemoServer) -> None:
    """A server that hangs up on every request cannot be reached; the requests are counted where they arrive: `r`
    sends the events page again, as many times (retries included)."""
    with BadServer(default=Misbehaviour("hang_up")) as down:
        gone = unreachable_profile().model_copy(update={"base_url": down.base_url})
        async with on_events(profile=gone) as (app, pilot, screen):
            assert state_of(app) is StateKind.ERROR
            assert "Cannot reach the server" in panel_text(app) and "Press r to retry" in panel_text(app)
            sent = len(event_pages(down))
            await pilot.press("r")
            await settle(pilot)
            assert len(event_pages(down)) == 2 * sent > 0 and app.is_running
            await app.switch_profile(demo_profile(demo_server))
            await settle(pilot)
            assert state_of(app) is StateKind.HIDDEN and len(screen.table.items) == 100
            assert app.header_info.profile == "demo" and app.header_info.edition == "enterprise"


async def test_server_gone_mid_session_is_an_error_state_and_retry_brings_it_back(
    fresh_demo_server: DemoServer,
) -> None:
    async with on_events(fresh_demo_server) as (app, pilot, screen):
        assert state_of(app) is StateKind.HIDDEN and len(screen.table.items) == 100
        fresh_demo_server.stop()
        await pilot.press("r")
        await settle(pilot)
        assert app.is_running and state_of(app) is StateKind.ERROR
        assert "Cannot reach the server" in panel_text(app) and "Press r to retry" in panel_text(app)
        fresh_demo_server.start()  # back at the same address with the same data
        await pilot.press("r")
        await settle(pilot)
        assert state_of(app) is StateKind.HIDDEN and len(screen.table.items) == 100
        assert app.header_info.problem is None


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("malformed", "The server's answer is not the API's"),
        ("html", "The server answered 502"),
        ("truncated", "The server's answer was cut short"),
    ],
)
async def test_garbage_answers_are_an_error_state_never_an_empty_list(
    fresh_demo_server: DemoServer, kind: str, said: str
) -> None:
    from svctui.demo.config import Faults

    fresh_demo_server.faults = Faults(kinds={kind: 1.0})
    async with on_events(fresh_demo_server) as (app, pilot, screen):
        assert state_of(app) is StateKind.ERROR and app.is_running
        assert said in panel_text(app) and "Press r to retry" in panel_text(app)
        assert not screen.table.items
        fresh_demo_server.faults = Faults()
        await pilot.press("r")
        await settle(pilot)
        assert state_of(app) is StateKind.HIDDEN and len(screen.table.items) == 100


async def test_server_errors_show_status_message_and_request_id(fresh_demo_server: DemoServer) -> None:
    from svctui.demo.config import Faults

    fresh_demo_server.faults = Faults(error_rate=1.0)
    async with on_events(fresh_demo_server) as (app, pilot, _screen):
        assert state_of(app) is StateKind.ERROR
        text = panel_text(app)
        assert "The server answered 500" in text and "request id" in text and "Press r to retry" in text
        assert "HTTP 500" not in text, "the status is said once"
        assert app.header_info.problem == "HTTP 500"
        fresh_demo_server.faults = Faults()
        await pilot.press("r")
        await settle(pilot)
        assert state_of(app) is StateKind.HIDDEN
        assert app.header_info.problem is None and app.header_info.edition == "enterprise", "the header asks again"


async def test_first_run_validates_like_the_cli_and_saves(demo_server: DemoServer) -> None:
    app = make_app(None)
    async with running(app) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        screen.query_one("#first-base_url", Input).value = "ftp://nope"
        screen.query_one("#first-token_id", Input).value = demo_server.token_id
        screen.query_one("#first-secret", Input).value = demo_server.token_key
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = str(screen.query_one("#first-error", Static).render())
        assert "server URL" in error and "http:// or https://" in error
        assert ProfileStore().load().profiles == {}
        screen.query_one("#first-name", Input).value = "lab"
        screen.query_one("#first-base_url", Input).value = demo_server.base_url
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert list(ProfileStore().load().profiles) == ["lab"]
        assert app.current_mode == "events" and len(events_screen(app).table.items) == 100


async def test_a_wrong_secret_saved_at_first_run_is_entered_again_in_the_app(demo_server: DemoServer) -> None:
    """Issue 28: a wrong secret typed on the first-run screen left a 401 and no way to fix it in the app. The panel
    says how (`Edit profile`), and the form, the profile's fields kept and its secret empty, saves the new one."""
    app = make_app(None)
    async with running(app) as pilot:
        first = app.screen
        assert isinstance(first, FirstRunScreen)
        first.query_one("#first-name", Input).value = "lab"
        first.query_one("#first-base_url", Input).value = demo_server.base_url
        first.query_one("#first-token_id", Input).value = demo_server.token_id
        first.query_one("#first-secret", Input).value = "not-the-key"
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = events_screen(app)
        assert state_of(app) is StateKind.AUTH_FAILURE
        assert "Wrong secret? ctrl+p, then 'Edit profile': enter it again." in panel_text(app)
        commands = {command.title: command for command in dashboard_commands(app, screen)}
        commands["Edit profile"].callback()
        await settle(pilot)
        form = app.screen
        assert isinstance(form, FirstRunScreen) and form.editing is not None
        assert form.query_one("#first-name", Input).value == "lab" and form.query_one("#first-name", Input).disabled
        assert form.query_one("#first-base_url", Input).value == demo_server.base_url
        assert form.query_one("#first-token_id", Input).value == demo_server.token_id
        secret = form.query_one("#first-secret", Input)
        assert secret.value == "" and secret.has_focus and not form.query("#demo")
        await pilot.press(*demo_server.token_key, "enter")
        await settle(pilot)
        assert app.screen is screen and len(screen.table.items) == 100
    stored = ProfileStore().load().profiles
    assert list(stored) == ["lab"]
    token_key = ProfileStore().resolve("lab").token_key
    assert token_key is not None and token_key.get_secret_value() == demo_server.token_key


async def test_edit_profile_says_a_demo_profile_has_nothing_stored(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, _pilot, screen):
        commands = {command.title: command for command in dashboard_commands(app, screen)}
        commands["Edit profile"].callback()
        assert app.screen is screen
        assert "nothing stored to edit" in app.notes[-1].message


async def test_first_run_offers_no_secret_input_while_textual_log_is_on(
    demo_server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXTUAL_LOG", str(tmp_path / "textual.log"))
    app = make_app(None)
    async with running(app) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        secret = screen.query_one("#first-secret", Input)
        assert secret.disabled and "TEXTUAL_LOG" in secret.placeholder
        said = str(screen.query_one("#first-secret-blocked", Static).render())
        assert "can't be typed here while TEXTUAL_LOG is set" in said and "--secret-stdin" in said
        screen.query_one("#first-base_url", Input).value = demo_server.base_url
        screen.query_one("#first-token_id", Input).value = demo_server.token_id
        await pilot.click("#first-secret")
        await pilot.press(*"zq9x")
        assert secret.value == ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "TEXTUAL_LOG" in str(screen.query_one("#first-error", Static).render())
        assert ProfileStore().load().profiles == {}


async def test_first_run_can_start_the_demo(demo_server: DemoServer) -> None:
    app = make_app(None, demo_profile_factory=lambda: demo_profile(demo_server))
    async with running(app) as pilot:
        assert isinstance(app.screen, FirstRunScreen)
        await pilot.click("#demo")
        await settle(pilot)
        assert app.profile is not None and app.profile.name == "demo"
        assert len(events_screen(app).table.items) == 100
        assert ProfileStore().load().profiles == {}, "the demo profile is never written"


async def test_broken_theme_files_in_one_notification_and_fallback(demo_server: DemoServer) -> None:
    themes = config_dir() / "themes"
    themes.mkdir(parents=True)
    (themes / "a.toml").write_text('name = "a"\nprimary = "#zzz"\n')
    (themes / "b.toml").write_text("not toml at all = = =\n")
    (themes / "good.toml").write_text('name = "good"\nprimary = "#336699"\n')
    async with on_events(demo_server, settings=Settings(theme="missing-theme")) as (app, _pilot, _screen):
        messages = [note.message for note in app.notes]
        broken = [message for message in messages if "broken theme files" in message]
        assert len(broken) == 1 and "a.toml" in broken[0] and "b.toml" in broken[0]
        assert any("'missing-theme' is not installed" in message for message in messages)
        assert app.theme == "textual-dark"
        assert "good" in app.available_themes and "svctui-paper" in app.available_themes


async def test_theme_from_settings_and_app_variables(demo_server: DemoServer) -> None:
    async with on_events(demo_server, settings=Settings(theme="svctui-paper")) as (app, _pilot, _screen):
        assert app.theme == "svctui-paper"
        assert app.theme_variables["status-failed"].upper() == "#C0283E"
        assert "status-running" in app.theme_variables


async def test_export_view_csv_and_json(demo_server: DemoServer, tmp_path: Path) -> None:
    async with on_events(demo_server) as (_app, _pilot, screen):
        csv_path = export_view(screen, "csv", tmp_path)
        rows = list(csv.reader(csv_path.open(encoding="utf-8")))
        assert rows[0][:3] == ["id", "client_id", "rrule"]  # the columns of `svctui events list -o csv` (data)
        assert len(rows) == 101 and rows[1][0] == "1"
        json_path = export_view(screen, "json", tmp_path)
        records = json.loads(json_path.read_text(encoding="utf-8"))
        assert len(records) == 100 and records[0]["id"] == 1 and "rrule" in records[0]


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def read_json(path: Path) -> list[dict[str, object]]:
    return list(json.loads(read_text(path)))


async def test_export_writes_the_marked_rows_and_saves_in_the_settings_directory(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    where = tmp_path / "not yet" / "exports"
    async with on_events(demo_server, settings=Settings(export_dir=str(where))) as (app, pilot, screen):
        commands = {command.title: command for command in dashboard_commands(app, screen)}
        commands["Export view as CSV"].callback()  # no marks: the page, as before
        assert app.notes[-1].message.startswith("Exported 100 rows (this page; none marked): ")
        await pilot.press("space", "j", "j", "space", "right_square_bracket")
        await settle(pilot)
        await pilot.press("space")  # a mark on page 2: marks keep their records across pages
        commands["Export view as CSV"].callback()
        message = app.notes[-1].message
        assert message.startswith("Exported 3 marked rows: ")
        path = Path(message.removeprefix("Exported 3 marked rows: "))
        assert path.is_absolute() and path.parent == where.resolve() and path.suffix == ".csv"
        assert [row[0] for row in read_csv(path)] == ["id", "1", "3", "101"]
        commands["Export view as JSON"].callback()
        path = Path(app.notes[-1].message.removeprefix("Exported 3 marked rows: "))
        assert [record["id"] for record in read_json(path)] == [1, 3, 101]
        commands["Save screenshot"].callback()
        shot = Path(app.notes[-1].message.removeprefix("Screenshot saved: "))
        assert shot.parent == where.resolve() and shot.suffix == ".svg" and "<svg" in read_text(shot)


async def test_without_export_dir_exports_go_to_the_data_dir_not_the_current_one(
    demo_server: DemoServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: with no `export_dir` an export landed in the current directory (the repository under `make demo`).
    Now in `exports/` of the data dir, private (0700), which `svctui locate exports` prints."""
    here = tmp_path / "repo"
    here.mkdir()
    monkeypatch.chdir(here)
    async with on_events(demo_server, settings=Settings()) as (app, _pilot, screen):
        commands = {command.title: command for command in dashboard_commands(app, screen)}
        assert "(data dir)" in commands["Save screenshot"].help
        commands["Export view as CSV"].callback()
        path = Path(app.notes[-1].message.removeprefix("Exported 100 rows (this page; none marked): "))
        commands["Save screenshot"].callback()
        shot = Path(app.notes[-1].message.removeprefix("Screenshot saved: "))
    check_default_exports(here, path, shot)


def check_default_exports(here: Path, *written: Path) -> None:
    """Every file written is in the data dir's private exports/, none in `here`; `locate exports` names it."""
    where = (data_dir() / "exports").resolve()
    assert all(path.parent == where and path.is_file() for path in written)
    assert where.stat().st_mode & 0o777 == 0o700
    assert list(here.iterdir()) == []
    located = invoke(["locate", "exports"])
    assert located.exit_code == 0 and Path(located.stdout.strip()).resolve() == where


async def test_palette_commands(demo_server: DemoServer) -> None:
    async with on_events(demo_server) as (app, pilot, screen):
        commands = {command.title: command for command in app.get_system_commands(screen)}
        for title in (
            "Switch profile",
            "Refresh",
            "Toggle hydration",
            "Change theme",
            "Export view as CSV",
            "Export view as JSON",
            "Save screenshot",
            "Sort by deleted_at ▼ descending",
        ):
            assert title in commands
        commands["Sort by created_at ▼ descending"].callback()
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["-created_at"]
        commands["Toggle OU hydration"].callback()
        await settle(pilot)
        assert screen.hydrate_domains and not screen.hydrate_ous


async def test_first_run_demo_that_fails_to_start_is_reported() -> None:
    def broken() -> Profile:
        raise RuntimeError("the demo server did not start")

    app = make_app(None, demo_profile_factory=broken)
    async with running(app) as pilot:
        await pilot.click("#demo")
        await settle(pilot)
        assert isinstance(app.screen, FirstRunScreen) and app.is_running
        assert any("did not start" in note.message for note in app.notes)


async def test_a_theme_picked_in_the_app_is_kept(demo_server: DemoServer) -> None:
    async with on_events(demo_server, settings=Settings()) as (app, pilot, _screen):
        app.theme = "nord"  # the theme picker previews the themes it passes...
        app.theme = "svctui-paper"  # ...and the one it stops on is written, once
        for _ in range(100):  # a deadline, not a timing assertion: the write waits for the choice to settle
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()
            if load_settings().theme != "textual-dark":
                break
        assert load_settings().theme == "svctui-paper"
        assert app.settings is not None and app.settings.theme == "svctui-paper"


async def test_keymap_problems_are_reported_once(demo_server: DemoServer) -> None:
    settings = Settings(keymap={"list.refresh": "R", "no.such.binding": "z"})
    async with on_events(demo_server, settings=settings) as (app, _pilot, _screen):
        notes = [note for note in app.notes if note.title == "Keymap in settings.toml"]
        assert len(notes) == 1
        assert (
            "unknown binding id(s): no.such.binding" in notes[0].message and "'R' does two things" in notes[0].message
        )
        assert notes[0].timeout == SETTINGS_PROBLEM_SECONDS, "newcomer walk: gone in 5 s, before it was read"


async def test_a_theme_that_is_not_installed_is_said_long_enough_to_read(demo_server: DemoServer) -> None:
    async with on_events(demo_server, settings=Settings(theme="no-such-theme")) as (app, _pilot, _screen):
        notes = [note for note in app.notes if note.title == "Themes"]
        assert [note.message for note in notes] == ["Theme 'no-such-theme' is not installed; using textual-dark."]
        assert notes[0].timeout == SETTINGS_PROBLEM_SECONDS


async def test_first_run_at_80x24_scrolls_the_focused_field_into_view() -> None:
    app = make_app(None)
    async with running(app, size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        secret = screen.query_one("#first-secret", Input)
        for _ in range(8):
            if app.focused is secret:
                break
            await pilot.press("tab")
        assert app.focused is secret
        await pilot.pause()
        assert secret.region.height > 0 and screen.region.contains_region(secret.region), "the secret is on screen"
        await pilot.press(*"ab")
        assert secret.value == "ab"
        save = screen.query_one("#save")
        for _ in range(4):
            if app.focused is save:
                break
            await pilot.press("tab")
        await pilot.pause()
        assert app.focused is save and screen.region.contains_region(save.region), "the Save button is on screen"


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_the_tags_panes_auth_failure_panel_is_never_cut_off(
    demo_server: DemoServer, size: tuple[int, int]
) -> None:
    """The Selector cleanup tags pane capped its state panel at 12 rows: a 401's panel lost its bottom border and
    its last lines (`Press r to retry.`, the profile test command) at 80x24 and 160x45. The panel takes the pane's
    height, and scrolls when even that is too little."""
    from svctui.tui.screens.selectors.screen import SelectorsScreen

    async with running(make_app(profile=wrong_key_profile(demo_server)), size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, SelectorsScreen)
        panel = screen.tags_pane.state
        body = panel.query_one("#state-body", Static)
        assert panel.kind is StateKind.AUTH_FAILURE
        assert body.region.width <= panel.region.width, "the right border is drawn"
        assert body.outer_size.height <= panel.virtual_size.height, "the whole panel is there"
        if size == (160, 45):
            assert panel.region.contains_region(body.region), "at 160x45 it fits: both borders on screen"
        else:
            assert panel.max_scroll_y > 0 and "profile test wrongkey" in str(body.render()), "it scrolls"
