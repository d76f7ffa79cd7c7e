"""Profiles in the dashboard: recent clients are kept per profile (not shared), and the profile switcher marks the
profile in use (choosing it again switches nothing)."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import OptionList

from svctui.demo.server import DemoServer
from svctui.store.model import Profile, build_profile
from svctui.store.settings import Settings, load_settings
from svctui.tui.palette import ProfilePicker, open_profile_picker
from svctui.tui.screens.clients import ClientsScreen
from svctui.tui.widgets.state_panel import StateKind
from tests.support.cli import add_profile
from tests.support.tasks import client_ids, open_picker, open_tasks, state_of, tasks_screen
from tests.support.tui import make_app, press_for, running, settle

pytestmark = pytest.mark.anyio


def named(server: DemoServer, name: str) -> Profile:
    """An in-memory profile called `name` for the demo server."""
    return build_profile(
        name=name, base_url=server.base_url, token_id=server.token_id, token_key=server.token_key, storage="env"
    )


async def test_recent_clients_are_kept_per_profile(demo_server: DemoServer) -> None:
    app = make_app(profile=named(demo_server, "alpha"), settings=Settings())
    async with running(app) as pilot:
        await open_tasks(pilot)
        chosen = client_ids(demo_server)[1]
        await open_picker(pilot)
        await pilot.press(*chosen[:8], "enter")
        await settle(pilot)
        assert tasks_screen(app).client_id == chosen
        assert load_settings().recent_for("alpha") == [chosen]
        await app.switch_profile(named(demo_server, "beta"))
        await settle(pilot)
        assert tasks_screen(app).client_id is None, "beta has no recent client to open on"
        assert state_of(app) is StateKind.IDLE and not tasks_screen(app).table.items, "alpha's rows are gone"
        picker = await open_picker(pilot)
        assert not any(client.recent for client in picker.shown), "alpha's choice is not beta's recent client"
        await pilot.press("escape")
        await app.switch_profile(named(demo_server, "alpha"))
        await settle(pilot)
        assert tasks_screen(app).client_id == chosen, "back on alpha, its most recent client"
        again = await open_picker(pilot)
        assert again.shown[0].client_id == chosen and again.shown[0].recent
    assert load_settings().recent_clients_by_profile == {"alpha": [chosen]}


async def test_the_profile_switcher_marks_the_profile_in_use(demo_server: DemoServer) -> None:
    for name in ("alpha", "beta"):
        assert add_profile(name, demo_server.base_url, demo_server.token_id, demo_server.token_key).exit_code == 0
    app = make_app(profile=named(demo_server, "beta"))
    async with running(app) as pilot:
        open_profile_picker(app)
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ProfilePicker)
        options = picker.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts == [f"  alpha  {demo_server.base_url}", f"● beta  {demo_server.base_url}  (in use)"]
        assert options.highlighted == 1
        await pilot.press("enter")  # the profile in use: nothing to switch
        await settle(pilot)
        assert not isinstance(app.screen, ProfilePicker) and app.profile is not None and app.profile.name == "beta"
        assert any("Already using profile beta" in note.message for note in app.notes)


@pytest.mark.parametrize("keys", [["down", "enter", "3"], ["down", "enter", "3", "4"], ["escape", "2"]])
async def test_keys_typed_after_the_profile_pick_in_one_burst_reach_the_dashboard(
    demo_server: DemoServer, keys: list[str]
) -> None:
    """A walker: keys typed right after choosing a profile were ignored (seen once). Reproduced in tmux at 80x24:
    `Down Enter 3 4` in one write switched the profile and dropped `3` and `4`: the picker's enter became a message
    behind the keys already queued for its list, which then went to the picker on its way out. Enter and the list's
    keys now act in the order typed, and what follows goes to the dashboard."""
    for name in ("alpha", "beta"):
        assert add_profile(name, demo_server.base_url, demo_server.token_id, demo_server.token_key).exit_code == 0
    app = make_app(profile=named(demo_server, "alpha"))
    async with running(app, (80, 24)) as pilot:
        open_profile_picker(app)
        await settle(pilot)
        assert isinstance(app.screen, ProfilePicker)
        for key in keys:  # one read of the terminal: every key queued before any is handled
            app.post_message(events.Key(key, key if len(key) == 1 else ("\r" if key == "enter" else None)))
        await settle(pilot)
        assert not isinstance(app.screen, ProfilePicker)
        assert app.profile is not None and app.profile.name == ("alpha" if "escape" in keys else "beta")
        wanted = {"2": "tasks", "3": "selectors", "4": "clients"}[keys[-1]]
        assert app.current_mode == wanted, f"{keys}: on {app.current_mode}"
        assert not [note.message for note in app.notes if note.severity == "error"]


async def test_the_clients_table_keeps_the_keys_after_a_profile_switch(demo_server: DemoServer) -> None:
    """A walker at 80x24: after `ctrl+p` `switch` and another profile, on Clients nothing had the keys (j j enter did
    nothing, help listed the table as elsewhere). The table, hidden under the loading panel while every client is
    fetched again, lost the focus and was never given it back when its rows returned."""
    for name in ("alpha", "beta"):
        assert add_profile(name, demo_server.base_url, demo_server.token_id, demo_server.token_key).exit_code == 0
    app = make_app(profile=named(demo_server, "alpha"))
    async with running(app, (80, 24)) as pilot:
        clients = await press_for(pilot, "4", ClientsScreen)
        await pilot.press("ctrl+p", *"switch")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ProfilePicker)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.profile is not None and app.profile.name == "beta" and app.screen_stack[-1] is clients
        assert app.focused is clients.table, f"the keys went to {app.focused}"
        await pilot.press("j", "j")
        assert clients.table.cursor_row == 2


async def test_o_on_clients_after_a_profile_switch_opens_the_client(demo_server: DemoServer) -> None:
    """A walker at 80x24: after a profile switch, the first `o` on Clients showed Completed tasks with no client
    chosen, `loading rows 1-100...` for good. The tasks screen's own restart for the new profile (on resume) came
    after the client it was told to open, and replaced it by the new profile's recent client (none)."""
    for name in ("alpha", "beta"):
        assert add_profile(name, demo_server.base_url, demo_server.token_id, demo_server.token_key).exit_code == 0
    app = make_app(profile=named(demo_server, "alpha"))
    async with running(app, (80, 24)) as pilot:
        await open_tasks(pilot)  # the tasks screen exists before the switch: it restarts when shown again
        await press_for(pilot, "4", ClientsScreen)
        open_profile_picker(app)
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.profile is not None and app.profile.name == "beta"
        clients = await press_for(pilot, "4", ClientsScreen)
        chosen = clients.current_key()
        assert chosen is not None
        await pilot.press("o")
        await settle(pilot)
        tasks = tasks_screen(app)
        assert app.screen is tasks and tasks.client_id == chosen.lower()
        assert state_of(app) is StateKind.HIDDEN and tasks.table.items, "the client's runs are listed"
        assert load_settings().recent_for("beta") == [chosen.lower()]


async def test_a_switch_during_a_page_load_leaves_no_loading_status(demo_server: DemoServer) -> None:
    """Completed tasks said `loading rows 1-100...` for good when a switch to a profile with no recent client came
    while a page of the client before was loading: the page was dropped, the screen left waiting for it."""
    app = make_app(profile=named(demo_server, "alpha"), settings=Settings())
    async with running(app, (80, 24)) as pilot:
        tasks = await open_tasks(pilot)
        tasks.choose_client(client_ids(demo_server)[0])
        await settle(pilot)
        tasks.load()  # a page on its way; the switch runs before its answer is handled (both queued on the app)
        app.call_later(app.switch_profile, named(demo_server, "beta"))
        await settle(pilot)
        assert tasks.client_id is None and state_of(app) is StateKind.IDLE
        assert "loading" not in str(tasks.status_line.content)


async def test_the_running_demo_stays_in_the_picker_after_a_switch_away(demo_server: DemoServer) -> None:
    """Walk 3, item 16: from `svctui --demo`, a switch to a stored profile left no way back: the picker lists the
    stored profiles, and the demo's is not stored. The running demo is listed (last, saying what it is) and
    choosing it switches back to it."""
    assert add_profile("lab", demo_server.base_url, demo_server.token_id, demo_server.token_key).exit_code == 0
    app = make_app(demo_server)
    assert app.profile is not None and app.profile.name == "demo"
    async with running(app) as pilot:

        def prompts() -> list[str]:
            picker = app.screen
            assert isinstance(picker, ProfilePicker)
            options = picker.query_one(OptionList)
            return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

        open_profile_picker(app)
        await settle(pilot)
        url = demo_server.base_url
        assert prompts() == [f"  lab  {url}", f"● demo  {url}  (in use, demo server, not stored)"]
        await pilot.press("home", "enter")
        await settle(pilot)
        assert app.profile is not None and app.profile.name == "lab"
        open_profile_picker(app)
        await settle(pilot)
        assert prompts() == [f"● lab  {url}  (in use)", f"  demo  {url}  (demo server, not stored)"]
        await pilot.press("end", "enter")
        await settle(pilot)
        assert app.profile is not None and app.profile.name == "demo" and app.profile.token_key is not None
        assert any(note.message.startswith("Now using profile demo") for note in app.notes)


async def test_a_demo_that_stops_while_another_profile_is_in_use_leaves_that_one_alone(
    demo_server: DemoServer,
) -> None:
    """With the demo now a switch away (item 16): the demo server stopping while another profile was in use refused
    that profile's requests (`The demo server stopped` for its server) and would have offered the dead demo. The
    other profile keeps its own answers; the picker no longer lists the demo."""
    from tests.support.tui import events_screen, shown_state, unreachable_profile

    assert add_profile("lab", demo_server.base_url, demo_server.token_id, demo_server.token_key).exit_code == 0
    app = make_app(demo_server)
    async with running(app, (80, 24)) as pilot:
        await app.switch_profile(unreachable_profile())
        await settle(pilot)
        app.demo_server_stopped("The demo server stopped (killed by signal 9)")
        assert app.demo_stopped == "", "the profile in use is not the demo's"
        await pilot.press("r")
        await settle(pilot)
        shown = shown_state(events_screen(app).state_panel)
        assert "demo server stopped" not in shown and "reach" in shown, shown
        open_profile_picker(app)
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ProfilePicker) and [name for name, _url in picker.names] == ["lab"]
