"""A walker at 80x24: the review's box for extension-owned selectors was cut (its label ended `it re-creates them
at`, the rest unseen). The box and its whole label, and the buttons, are in view at 80x24, even with every line the
review can show (typed count, unknown ids, the restore note), and tab reaches the box."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button, Checkbox

from svctui.tui.screens.selectors.review import ReviewScreen, extension_choice_label
from tests.support.selectors_run import big_tag_server, plan_of, tag_selectors
from tests.support.tui import settle, with_screen

pytestmark = pytest.mark.anyio
NARROW = (80, 24)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def seen(widget: Widget, screen: Any) -> bool:
    """True when the whole of `widget` is drawn: inside the screen and inside every container's visible part."""
    region = widget.region
    if not region or not Region(0, 0, *screen.size).contains_region(region):
        return False
    return all(
        ancestor.scrollable_content_region.contains_region(region)
        for ancestor in widget.ancestors
        if isinstance(ancestor, Widget) and ancestor is not screen
    )


def drawn_text(widget: Widget) -> str:
    """The text `widget` draws, its lines joined by spaces."""
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return " ".join(line.text.strip() for line in lines)


@pytest.mark.parametrize("many", [False, True], ids=["few", "typed-count"])
async def test_the_extension_box_and_its_label_are_whole_at_80x24(tmp_path: Path, many: bool) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = tag_selectors(demo)
        owned = [s for s in selectors if s.extension_owned]
        plain = [s for s in selectors if not s.is_default and not s.extension_owned]
        disabled = [s for s in plain if s.disabled_at is not None][:1]
        plain = [s for s in plain if s.disabled_at is None][: 25 if many else 3]
        plan = plan_of(demo, [*disabled, *plain, *owned], unknown_ids=(999_999,) if many else ())
        async with with_screen(demo, ReviewScreen(plan), size=NARROW) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            box = screen.query_one("#review-extension", Checkbox)
            assert box.display
            label = extension_choice_label([s.id for s in owned])
            for button in screen.query(Button).results():
                assert seen(button, screen), f"{button.id} at {button.region}"
            for _ in range(8):  # tab reaches the box
                if box.has_focus:
                    break
                await pilot.press("tab")
                await settle(pilot)
            assert box.has_focus, app.focused
            assert seen(box, screen), f"the box at {box.region}, the screen {screen.size}"
            assert " ".join(drawn_text(box).split()).endswith(" ".join(label.split())), drawn_text(box)
            for button in screen.query(Button).results():
                assert seen(button, screen), f"{button.id} at {button.region} with the box focused"
