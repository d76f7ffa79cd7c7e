"""The first-run form at 80x24, where it is taller than the screen: a refused save is seen (a toast, the first bad
field focused and scrolled into view), and tab brings each field into view."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from svctui.demo.server import DemoServer
from svctui.store.profiles import ProfileStore
from svctui.tui.screens.first_run import FirstRunScreen
from tests.support.tui import make_app, running, settle

pytestmark = pytest.mark.anyio
SMALL = (80, 24)


def seen(widget: Widget, within: Region) -> bool:
    """Whether all of `widget` is on screen inside `within` (the form's visible part)."""
    region = widget.region
    return bool(region.area) and within.contains_region(region)


def form_view(screen: FirstRunScreen) -> Region:
    return screen.query_one("#first-dialog").content_region


async def test_a_refused_save_is_seen_at_80x24(demo_server: DemoServer) -> None:
    app = make_app(None)
    async with app.run_test(size=SMALL, notifications=True) as pilot:  # run_test hides toasts unless asked
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        assert screen.query_one("#first-dialog").virtual_size.height > form_view(screen).height, "taller than 24"
        screen.query_one("#first-name", Input).value = "bad name!"
        screen.query_one("#first-base_url", Input).value = "ftp://nope"
        screen.query_one("#first-secret", Input).focus()  # at the bottom of the form: the top is scrolled away
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert ProfileStore().load().profiles == {}
        assert "name:" in str(screen.query_one("#first-error", Static).render())
        assert app.focused is screen.query_one("#first-name", Input), "the first bad field"
        assert seen(app.focused, form_view(screen))
        toasts = [toast for toast in screen.query("Toast") if "server URL:" in str(toast.render())]
        assert toasts and seen(toasts[0], screen.region), "the message is on screen"
        assert "name:" in str(toasts[0].render())


async def test_a_missing_secret_focuses_the_secret(demo_server: DemoServer) -> None:
    app = make_app(None)
    async with running(app, SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        screen.query_one("#first-base_url", Input).value = demo_server.base_url
        screen.query_one("#first-token_id", Input).value = demo_server.token_id
        screen.query_one("#first-name", Input).focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.focused is screen.query_one("#first-secret", Input)
        assert seen(app.focused, form_view(screen))
        assert ProfileStore().load().profiles == {}


async def test_tab_brings_each_field_into_view_at_80x24() -> None:
    app = make_app(None)
    async with running(app, SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        names = []
        for _ in range(9):  # name, URL, auth, token id, secret, two buttons, and round again
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            assert focused is not None
            names.append(focused.id)
            assert seen(focused, form_view(screen)), f"{focused.id} is out of view"
        assert "first-token_id" in names and "save" in names and names[-1] != names[-2]


async def test_an_empty_form_names_every_empty_field_at_once() -> None:
    """Newcomer walk: a save with the form empty (80x24) named the server URL only; the token id and the secret were
    named on the next tries. Every empty or bad field is named at once, in the form's order, in the form and the
    toast; the first of them is focused and nothing is saved."""
    app = make_app(None)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        screen.query_one("#first-secret", Input).focus()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert ProfileStore().load().profiles == {}
        error = " ".join(str(screen.query_one("#first-error", Static).render()).split())
        named = [error.find(label) for label in ("server URL:", "token id:", "token key:")]
        assert all(at >= 0 for at in named) and named == sorted(named), error
        assert app.focused is screen.query_one("#first-base_url", Input), "the first bad field"
        toasts = [" ".join(str(toast.render()).split()) for toast in screen.query("Toast")]
        assert any(all(label in toast for label in ("server URL:", "token id:", "token key:")) for toast in toasts)
        screen.query_one("#first-name", Input).value = "bad name!"  # a bad name is named with the rest
        screen.query_one("#first-token_id", Input).value = "nope"
        await pilot.press("ctrl+s")
        await settle(pilot)
        error = " ".join(str(screen.query_one("#first-error", Static).render()).split())
        assert "name:" in error and "server URL:" in error and "'nope' is not a UUID" in error and "token key:" in error
        assert app.focused is screen.query_one("#first-name", Input)


async def test_an_empty_bearer_form_names_the_url_and_the_jwt(demo_server: DemoServer) -> None:
    app = make_app(None)
    async with running(app, SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        screen.query_one("#first-auth", Select).value = "bearer"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        error = " ".join(str(screen.query_one("#first-error", Static).render()).split())
        assert "server URL:" in error and "JWT:" in error and "token id" not in error, error
        assert ProfileStore().load().profiles == {}


async def test_the_demos_name_is_refused_with_the_name_focused(demo_server: DemoServer) -> None:
    """`demo` is `svctui --demo`'s own profile: a stored one would share its caches. The form says so, focuses the
    name, and stores nothing (any other name then saves)."""
    app = make_app(None)
    async with running(app, SMALL) as pilot:
        screen = app.screen
        assert isinstance(screen, FirstRunScreen)
        screen.query_one("#first-name", Input).value = "demo"
        screen.query_one("#first-base_url", Input).value = demo_server.base_url
        screen.query_one("#first-token_id", Input).value = demo_server.token_id
        screen.query_one("#first-secret", Input).value = demo_server.token_key
        screen.query_one("#first-secret", Input).focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert ProfileStore().load().profiles == {}
        assert "reserved for `svctui --demo`" in str(screen.query_one("#first-error", Static).render())
        assert app.focused is screen.query_one("#first-name", Input)
        app.focused.value = "demo-server"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert list(ProfileStore().load().profiles) == ["demo-server"]
