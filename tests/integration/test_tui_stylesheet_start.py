"""Showing a screen the first time does not re-parse every stylesheet; a theme change still restyles every screen."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.tui import events_screen, make_app, running, settle, unreachable_profile

pytestmark = pytest.mark.anyio


def counting(method: Callable[[], None], calls: list[int]) -> Callable[[], None]:
    """`method`, counting its calls in `calls`."""

    def counted() -> None:
        calls.append(1)
        method()

    return counted


async def test_first_screens_are_styled_without_reparsing_and_a_theme_change_restyles_them() -> None:
    app = make_app(profile=unreachable_profile())  # no server needed: the screens' styles are what is checked
    reparses: list[int] = []
    app.stylesheet.reparse = counting(app.stylesheet.reparse, reparses)  # type: ignore[method-assign]
    async with running(app) as pilot:
        events = events_screen(app)
        await pilot.press("2")
        await settle(pilot)
        tasks = app.screen
        assert tasks is not events and not reparses  # the events screen and the tasks screen: no re-parse
        before = (events.styles.background, tasks.styles.background)
        assert before[0] == before[1] and before[0].a > 0
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await settle(pilot)
        assert reparses  # the theme's variables: every stylesheet again, and every screen follows
        assert tasks.styles.background != before[1]
        await pilot.press("1")
        await settle(pilot)
        assert events.styles.background == tasks.styles.background != before[0]
