"""The review's lines follow both answers, whichever lands last: the impact and the dry run, on a demo server whose
GET of one typed selector is held until the impact is in (so the dry run lands second, every time)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from starlette.types import ASGIApp, Receive, Scope, Send
from textual.widgets import DataTable, Static

from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.review import LEFT_OUT_EXTENSION, ReviewScreen
from tests.support.audit import BIG_TAG
from tests.support.selectors_run import DELETE_PATH, plan_of, tag_selectors
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


class HeldLookup:
    """Holds the GET of the selectors in `held` (the dry run's look-up) until `release()`; the demo runs in a thread."""

    def __init__(self) -> None:
        self.held: set[int] = set()
        self.opened = threading.Event()

    def release(self) -> None:
        """Let the held GETs through."""
        self.opened.set()

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """The ASGI app that waits at the gate for a held GET, then hands over to `app`."""

        async def gated(scope: Scope, receive: Receive, send: Send) -> None:
            match = DELETE_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
            if match is not None and scope.get("method") == "GET" and int(match.group(2)) in self.held:
                await asyncio.to_thread(self.opened.wait, 60)
            await app(scope, receive, send)

        return gated


async def test_typed_ids_an_extension_owns_leave_the_impact_when_the_dry_run_lands_last(tmp_path: Path) -> None:
    """Review: with the impact in first, a dry run that found typed ids owned by an extension (left out unless the
    box is ticked) left the impact line counting their members: it said more than the run would touch."""
    gate = HeldLookup()
    demo = DemoServer(
        db_path=tmp_path / "demo.sqlite3", sizes=BIG_TAG, rate_limit=0, anchor=FIXED_ANCHOR, wrap=gate.wrap
    )
    with demo:
        selectors = tag_selectors(demo)
        owned = [s for s in selectors if s.extension_owned]
        plain = [s for s in selectors if not s.is_default and not s.extension_owned][:2]
        gate.held = {s.id for s in owned}
        screen = ReviewScreen(plan_of(demo, plain, unknown_ids=tuple(s.id for s in owned)))  # typed, unchecked
        app = make_app(demo)
        try:
            async with app.run_test(size=(140, 40)) as pilot:
                await settle(pilot)
                app.push_screen(screen)
                for _ in range(400):  # until the impact is in (the dry run waits at the gate)
                    if screen.impact is not None:
                        break
                    await pilot.pause(0.05)
                impact = screen.impact
                assert impact is not None and screen.previews is None, "the impact first"
                every = sum(sum(impact.per_selector[s.id].values()) for s in [*plain, *owned])
                assert str(screen.query_one("#review-impact", Static).render()).startswith(
                    f"Impact: {every:,} tagged objects"
                ), "before the dry run, nothing says the typed ids are an extension's"
                gate.release()
                await settle(pilot)
                assert screen.previews is not None and set(screen.owned) == gate.held
                previews = screen.query_one("#review-table", DataTable).get_column("preview")
                assert [str(cell) for cell in previews][2:] == [LEFT_OUT_EXTENSION] * 2
                sent = sum(sum(impact.per_selector[s.id].values()) for s in plain)
                assert sent < every
                line = str(screen.query_one("#review-impact", Static).render())
                assert line.startswith(f"Impact: {sent:,} tagged objects"), line
        finally:
            gate.release()
