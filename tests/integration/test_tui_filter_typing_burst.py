"""A long burst of typing in the filter editor is cheap: the form is validated once the keys are handled, not once
per key (a 1,000-key paste froze the editor for 11 s: every key re-validated the whole form, its text included),
and the inline error is still shown, before any request, once typing pauses.

A newcomer typed `rrule=~eq:` and 1,000 `A`s with tmux send-keys and waited 11.6 s for the keys to show."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from svctui.demo.server import DemoServer
from svctui.tui.widgets.filter_editor import FilterEditor
from tests.support.tui import burst, on_events, settle

pytestmark = pytest.mark.anyio

TYPED = 2_000


async def test_a_burst_of_typing_is_validated_a_bounded_number_of_times(
    demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    validations: list[int] = []
    real_collect = FilterEditor.collect

    def counted(editor: FilterEditor, *args: object) -> object:
        validations.append(1)
        return real_collect(editor, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(FilterEditor, "collect", counted)
    async with on_events(demo_server, size=(80, 24)) as (app, pilot, _):
        await pilot.press("slash")
        editor = app.screen
        assert isinstance(editor, FilterEditor)
        validations.clear()
        burst(pilot, *"id=eq:", *("9" * TYPED))
        await settle(pilot)
        assert editor.query_one("#quick", Input).value == "id=eq:" + "9" * TYPED
        assert len(validations) <= 20, f"{len(validations)} validations for {TYPED} keys"
        error = str(editor.query_one("#quick-error", Static).render())
        assert "is out of range for a 64-bit integer" in error
        assert f"cut from {TYPED:,} characters" in error, error
        assert app.screen is editor
