"""Client names in the dashboard: the events' client column, the picker (typing a name finds it), the client bar.

Names come from GET /api/v2/clients (enterprise), else from the tasks seen; both are cached per profile and server,
and the server's list replaces the cache: the picker never offers a client the server does not have (issue 28).
"""

from __future__ import annotations

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.store.client_names import learn_names, load_names
from svctui.store.settings import Settings
from svctui.tui.client_names import CACHED_NOTE, UNREAD_NOTE
from svctui.tui.screens.events.detail import EventDetail
from svctui.tui.widgets.client_picker import ClientPicker
from tests.support.tasks import (
    NO_DEPRECATION_WARNING,
    drop_case,
    on_tasks,
    open_picker,
    open_tasks,
    query,
    text_of,
)
from tests.support.tui import SIZE, make_app, on_events, press_for, settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]
PROFILE = "demo"  # the in-memory profile of make_app(server)


def names(server: DemoServer) -> dict[str, str]:
    return {str(row[0]): str(row[1]) for row in query(server, "SELECT id, name FROM clients")}


async def test_events_client_column_shows_names_and_copies_the_id(demo_server: DemoServer) -> None:
    known = names(demo_server)
    async with on_events(demo_server) as (_app, _pilot, screen):
        table = screen.table
        column = table.adapter.column("client")
        assert column is not None and column.copy_text is not None
        event = table.items[0]
        assert str(column.render(event)) == known[event.client_id]
        assert column.copy_text(event) == event.client_id, "`c` on the column still copies the id"
        cells = {str(table.get_cell(str(item.id), "client")) for item in table.items}
        assert cells <= set(known.values()) and len(cells) > 1
        fields = dict(screen.query_one(EventDetail).sections(event)[0].fields)
        assert (str(fields["client"]), fields["client id"]) == (known[event.client_id], event.client_id)
    assert load_names(PROFILE) == known, "cached for the next session"


async def test_picker_finds_a_client_by_typing_part_of_its_name(demo_server: DemoServer) -> None:
    known = names(demo_server)
    wanted = next(client_id for client_id, name in known.items() if name == "SHARPHOUND-LON-01")
    async with on_tasks(demo_server) as (_app, pilot, screen):
        picker = await open_picker(pilot)
        assert {client.client_id: client.name for client in picker.shown} == known, "every client, named"
        await pilot.press(*"lon-0")
        assert [client.client_id for client in picker.shown] == [wanted]
        await pilot.press("enter")
        await settle(pilot)
        assert screen.client_id == wanted
        assert f"Client SHARPHOUND-LON-01 ({wanted})" in text_of(screen.query_one("#client-bar", Static))


async def test_community_names_come_from_the_tasks_and_the_cache(demo_server_community: DemoServer) -> None:
    known = names(demo_server_community)
    case = drop_case(demo_server_community)
    other = next(client_id for client_id in known if client_id != case.client_id)
    learn_names(PROFILE, {other: "collector-from-last-week"})  # learnt in an earlier session
    async with on_tasks(demo_server_community, case.client_id) as (_app, pilot, screen):
        assert known[case.client_id] in text_of(screen.query_one("#client-bar", Static))
        picker = await open_picker(pilot)
        await pilot.press(*"last-week")
        assert [(client.client_id, client.name) for client in picker.shown] == [(other, "collector-from-last-week")]
        await pilot.press("enter")
        await settle(pilot)
        assert screen.client_id == other
    assert load_names(PROFILE) == {
        case.client_id: known[case.client_id],
        other: known[other],
    }, "the names the tasks carried replace the cached ones, and are kept"


# Issue 28: another demo (1,000 clients) under the same profile name had filled the cache; the picker offered them.
STRANGERS = {f"00000000-0000-4000-8000-{n:012d}": f"SHARPHOUND-LAB-{n}" for n in range(10, 110)}


def stranger_settings(real: str) -> Settings:
    """Recent choices of the profile: two clients of the other demo, then one of this server."""
    gone = list(STRANGERS)[:2]
    return Settings(recent_clients_by_profile={PROFILE: [*gone, real]})


async def test_events_picker_lists_only_this_servers_clients_whatever_the_cache_held(demo_server: DemoServer) -> None:
    known = names(demo_server)
    real = sorted(known)[0]
    learn_names(PROFILE, STRANGERS)  # the cache file as another run left it (no server said: any server's)
    async with on_events(demo_server, settings=stranger_settings(real)) as (_app, pilot, screen):
        picker = await press_for(pilot, "C", ClientPicker)
        assert {client.client_id: client.name for client in picker.known} == known, "no client the server lacks"
        assert [client.client_id for client in picker.known if client.recent] == [real], "recent: chosen and here"
        assert text_of(picker.query_one("#client-status", Static)) == "", "the server's own list: no cached note"
        assert screen.filter_client_names() == known, "the filter's client names are the same fresh list"
        await pilot.press(*"lab-10")
        assert picker.shown == []
        await pilot.press("escape")
    assert load_names(PROFILE) == known, "clients gone from the server are dropped from the cache"


async def test_tasks_picker_lists_only_this_servers_clients_whatever_the_cache_held(demo_server: DemoServer) -> None:
    known = names(demo_server)
    real = sorted(known)[0]
    learn_names(PROFILE, STRANGERS)
    app = make_app(demo_server, settings=stranger_settings(real))
    async with app.run_test(size=SIZE) as pilot:
        await open_tasks(pilot)
        picker = await open_picker(pilot)
        assert {client.client_id for client in picker.known} == set(known)
        assert {client.client_id: client.name for client in picker.known if client.name} == known
        assert [client.client_id for client in picker.known if client.recent] == [real]


async def test_a_cache_of_another_server_never_shows(demo_server: DemoServer) -> None:
    """The same profile name on another server (or token): its cache is not this server's, even before the list."""
    from svctui.store.client_names import server_key

    learn_names(PROFILE, STRANGERS, server=server_key("https://elsewhere.example.com", demo_server.token_id))
    async with on_events(demo_server) as (app, _pilot, _screen):
        assert app.client_names.names(PROFILE) == names(demo_server)
    assert load_names(PROFILE) == names(demo_server), "the file now holds this server's clients only"


async def test_the_cache_shows_marked_until_the_servers_list_replaces_it(demo_server: DemoServer) -> None:
    """The server's client list dripping in slowly (the fault proxy): the picker shows this server's cached names at
    once, says they are from the last visit, and the server's list replaces them in the open picker when it lands."""
    from svctui.store.client_names import server_key
    from svctui.store.model import build_profile
    from tests.support.fault_proxy import FaultProxy, Rule

    known = names(demo_server)
    real = sorted(known)[0]
    with FaultProxy(demo_server.base_url) as proxy:
        proxy.add(Rule("drip", path="/api/v2/clients", interval=0.1, chunk=1024))
        cached = {real: "name from last week", "00000000-0000-4000-8000-000000000010": "SHARPHOUND-LAB-10"}
        learn_names(PROFILE, cached, server=server_key(proxy.base_url, demo_server.token_id))
        profile = build_profile(
            name=PROFILE,
            base_url=proxy.base_url,
            token_id=demo_server.token_id,
            token_key=demo_server.token_key,
            storage="env",
        )
        app = make_app(profile=profile)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(2000):  # until the cache's load is in (a local file); the server's list drips for seconds
                if PROFILE in app.client_names.cached_only or PROFILE in app.client_names.fetched:
                    break
                await pilot.pause()
            assert PROFILE not in app.client_names.fetched, "the server's list came first: the drip is too short"
            await pilot.press("C")
            await pilot.pause()
            assert isinstance(app.screen, ClientPicker)
            picker = app.screen
            assert {client.client_id: client.name for client in picker.known} == cached
            assert text_of(picker.query_one("#client-status", Static)) == CACHED_NOTE
            await settle(pilot)  # the dripped list lands
            assert app.screen is picker
            assert {client.client_id: client.name for client in picker.known} == known
            assert text_of(picker.query_one("#client-status", Static)) == ""
    assert load_names(PROFILE, server=server_key(proxy.base_url, demo_server.token_id)) == known


async def test_a_client_list_that_cannot_be_read_leaves_the_cache_said_so(demo_server: DemoServer) -> None:
    """The server's client list answered with garbage (the fault proxy): the picker keeps this server's cached names
    and says they are from the last visit and why; the cache is left as it was."""
    from svctui.store.client_names import server_key
    from svctui.store.model import build_profile
    from tests.support.fault_proxy import FaultProxy, Rule

    with FaultProxy(demo_server.base_url) as proxy:
        proxy.add(Rule("garbage", path="/api/v2/clients"))
        server = server_key(proxy.base_url, demo_server.token_id)
        cached = {sorted(names(demo_server))[0]: "name from last week"}
        learn_names(PROFILE, cached, server=server)
        profile = build_profile(
            name=PROFILE,
            base_url=proxy.base_url,
            token_id=demo_server.token_id,
            token_key=demo_server.token_key,
            storage="env",
        )
        async with on_events(profile=profile) as (_app, pilot, _screen):
            picker = await press_for(pilot, "C", ClientPicker)
            assert {client.client_id: client.name for client in picker.known} == cached
            assert text_of(picker.query_one("#client-status", Static)) == UNREAD_NOTE
        assert proxy.kinds_seen("garbage") >= 1
    assert load_names(PROFILE, server=server) == cached


async def test_at_80_columns_every_known_client_is_one_line(demo_server: DemoServer) -> None:
    """Newcomer walk: at 80 columns a recent client's `34 events · recent` wrapped onto a second line (a ragged
    list). Each option is one line; `recent` comes first, what does not fit is cut with `…`."""
    from textual.widgets import OptionList

    real = str(query(demo_server, "SELECT client_id FROM events GROUP BY client_id ORDER BY count(*) DESC")[0][0])
    app = make_app(demo_server, settings=stranger_settings(real))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_tasks(pilot)
        picker = await open_picker(pilot)
        await settle(pilot)
        options = picker.query_one(OptionList)
        assert options.option_count >= 7 and any(client.recent for client in picker.known)
        assert options.virtual_size.height == options.option_count, "one line per client"
        assert "  recent · " in str(options.get_option_at_index(0).prompt), "the recent one first, `recent` first"
