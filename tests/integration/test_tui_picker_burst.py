"""The client picker keeps every key of a burst (a paste, tmux send-keys, a fast typist on a busy machine) in the order
typed, and enter chooses from the text as it is when enter is read (newcomer walk, 2026-12-05: `lon`, three
backspaces and `FRA` in one burst left `lon` in the box and enter chose SHARPHOUND-LON-01)."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from svctui.demo.server import DemoServer
from svctui.tui.widgets.client_picker import ClientPicker
from tests.support.selectors import on_cleanup
from tests.support.tasks import NO_DEPRECATION_WARNING, on_tasks, open_picker, query
from tests.support.tui import settle

pytestmark = [pytest.mark.anyio, NO_DEPRECATION_WARNING]


def burst(picker: ClientPicker, keys: list[str]) -> None:
    """Queue every key before any is handled: one read of the terminal."""
    for key in keys:
        character = {"backspace": "\x7f", "enter": "\r"}.get(key, key if len(key) == 1 else None)
        picker.app.post_message(events.Key(key, character))


def client_named(server: DemoServer, name: str) -> str:
    return str(query(server, "SELECT id FROM clients WHERE name = ?", name)[0][0])


async def test_a_burst_with_backspaces_keeps_every_key(demo_server: DemoServer) -> None:
    async with on_tasks(demo_server) as (_app, pilot, _screen):
        picker = await open_picker(pilot)
        burst(picker, [*"lon", "backspace", "backspace", "backspace", *"FRA"])
        await settle(pilot)
        assert picker.query_one("#client-input", Input).value == "FRA"
        assert [client.name for client in picker.shown] == ["SHARPHOUND-FRA-03"]


async def test_enter_in_the_burst_chooses_the_client_typed(demo_server: DemoServer) -> None:
    wanted = client_named(demo_server, "SHARPHOUND-FRA-03")
    async with on_tasks(demo_server) as (app, pilot, screen):
        picker = await open_picker(pilot)
        burst(picker, [*"lon", "backspace", "backspace", "backspace", *"FRA", "enter"])
        await settle(pilot)
        assert not isinstance(app.screen, ClientPicker)
        assert screen.client_id == wanted


async def test_the_tag_id_prompt_keeps_a_burst_in_order(demo_server: DemoServer) -> None:
    """The cleanup screen's `t` prompt had the same plain Input: `12`, backspace, `3` in one burst left `12`."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("t")
        await settle(pilot)
        box = screen.tags_pane.query_one("#tag-id", Input)
        assert app.focused is box
        for key in ["1", "2", "backspace", "3"]:
            app.post_message(events.Key(key, "\x7f" if key == "backspace" else key))
        await settle(pilot)
        assert box.value == "13"
