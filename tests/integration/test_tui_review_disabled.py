"""The deletion review warns when the run deletes disabled selectors: a restore re-creates a selector by POST, which
cannot set it disabled, so it comes back enabled and tags objects again. The warning counts only what the run sends
(a disabled selector the dry run finds already gone is not counted), and is absent when none is disabled.

A newcomer undoing a cleanup found the disabled selectors of it enabled again, tagging objects; nothing had said so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Static

from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.review import ReviewScreen
from tests.support.selectors_run import big_tag_server, delete_now, plan_of, tag_selectors
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[DemoServer]:
    with big_tag_server(tmp_path) as server:
        yield server


async def _note(demo: DemoServer, review: ReviewScreen) -> str:
    """The review's restore warning once its dry run and impact answered ("" when hidden)."""
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.push_screen(review)
        await settle(pilot)
        assert review.previews is not None and review.impact is not None
        note = review.query_one("#review-restore-note", Static)
        return str(note.render()) if note.display else ""


async def test_the_review_says_disabled_selectors_come_back_enabled(demo: DemoServer) -> None:
    selectors = [selector for selector in tag_selectors(demo) if not selector.is_default]
    disabled = [selector for selector in selectors if selector.disabled_at is not None][:3]
    enabled = [selector for selector in selectors if selector.disabled_at is None][:2]
    delete_now(demo, disabled[0].id)  # gone before the run: not sent, not counted
    note = await _note(demo, ReviewScreen(plan_of(demo, [*disabled, *enabled])))
    assert note == "A restore brings the 2 disabled ones back enabled (POST can't disable)."


async def test_no_warning_without_disabled_selectors(demo: DemoServer) -> None:
    enabled = [s for s in tag_selectors(demo) if not s.is_default and s.disabled_at is None][:3]
    assert await _note(demo, ReviewScreen(plan_of(demo, enabled))) == ""
