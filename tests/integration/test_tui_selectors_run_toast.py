"""The toast refusing to quit during a deletion run leaves once the run ends (newcomer walk, 2026-12-05: after esc
cancelled the run, `A deletion run is going: esc cancels it first …` stayed next to the run's result)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen

from svctui.tui.screens.selectors.run import RunScreen
from tests.support.selectors_run import DeleteGate, big_tag_server, plan_of, tag_selectors
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio
REFUSAL = "A deletion run is going: esc cancels it first"


def toast_texts(screen: Screen[Any]) -> list[str]:
    """What the toasts a screen draws say (its rack and their holders shown)."""
    racks = [rack for rack in screen.query("#textual-toastrack") if rack.display]
    holders = [holder for rack in racks for holder in rack.query("ToastHolder") if holder.display]
    return [str(toast.render()) for holder in holders for toast in holder.query("Toast")]  # Textual exports no Toast


async def test_the_quit_refusal_toast_leaves_when_the_cancelled_run_ends(tmp_path: Path) -> None:
    gate = DeleteGate()
    with big_tag_server(tmp_path, gate=gate) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default][:20]
        gate.held = {selector.id for selector in plain[5:]}
        app = make_app(demo)
        async with app.run_test(size=(140, 40), notifications=True) as pilot:
            await settle(pilot)
            screen = RunScreen(plan_of(demo, plain), lambda tag_id, selector_id: None)
            app.push_screen(screen)
            while len(screen.results) < 5:
                await pilot.pause()
            await pilot.press("q")
            for _ in range(50):  # the rack mounts the toast a few refreshes on
                if toast_texts(screen):
                    break
                await pilot.pause()
            assert any(REFUSAL in text for text in toast_texts(screen)), "refused while the run is going"
            await pilot.press("escape")
            gate.release()
            await settle(pilot)
            assert screen.report is not None and not app.quit_refusals
            assert not any(REFUSAL in text for text in toast_texts(screen)), "the refusal left with the run"
            await pilot.press("q")  # a refusal again would show again (the toast is not remembered as on show)
            await pilot.pause()
            assert not app.is_running
