"""The snapshot matrix of the Selector cleanup screen (key 3): its states and the dialogs on it at 80x24 and 160x45,
dark and light (pages of 20 selectors, so the pictures stay readable).

One start-up per state (tests/support/matrix.py resizes and re-themes the running app for the four pictures). The
review, run, restore and audit dialogs have their own files (test_selectors_*_snapshots.py).
Review changed SVGs before accepting them with `--snapshot-update` (/tmp/svgtext.py prints their text rows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot
from textual.widgets import Input

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.store.settings import Settings
from svctui.tui.app import SvcTuiApp
from tests.support.live import live_app
from tests.support.matrix import (
    FAILING,
    SLOW,
    Steps,
    compare_matrix,
    gone_stale,
    pressing_only,
    settled_steps,
    under_faults,
)
from tests.support.selectors import open_cleanup, selectors_screen
from tests.support.tui import make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


def cleanup_app(server: DemoServer) -> SvcTuiApp:
    """A dashboard paging 20 selectors at a time."""
    return make_app(server, settings=Settings(page_size=20))


def on_cleanup(*keys: str, filters: tuple[Filter, ...] = ()) -> Steps:
    """Open screen 3, optionally filter, press `keys`; notifications cleared."""

    async def steps(pilot: Pilot[Any]) -> None:
        screen = await open_cleanup(pilot)
        if filters:
            screen.set_filters(list(filters))
            await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        await settled_steps(pilot)

    return steps


async def test_data(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(cleanup_app(demo_server), on_cleanup(), snapshot, tmp_path)


async def test_loading(snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, tmp_path: Path) -> None:
    steps = under_faults(fresh_demo_server, SLOW, pressing_only("3"))
    await compare_matrix(cleanup_app(fresh_demo_server), steps, snapshot, tmp_path, wait_for_workers=False)


async def test_empty(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    steps = on_cleanup(filters=(Filter("name", "eq", "no such selector"),))
    await compare_matrix(cleanup_app(demo_server), steps, snapshot, tmp_path)


async def test_server_error(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    steps = under_faults(fresh_demo_server, FAILING, on_cleanup())
    await compare_matrix(cleanup_app(fresh_demo_server), steps, snapshot, tmp_path)


async def test_stale(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    app, clock = live_app(fresh_demo_server, page_size=20)

    await compare_matrix(app, gone_stale(fresh_demo_server, clock, on_cleanup("j", "space")), snapshot, tmp_path)


async def test_detail_pane(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(cleanup_app(demo_server), on_cleanup("p"), snapshot, tmp_path)


async def test_filter_editor(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(cleanup_app(demo_server), on_cleanup("slash"), snapshot, tmp_path)


async def test_typed_ids_prompt(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """`i`, ids typed with one that is not a number: the inline error."""

    async def steps(pilot: Pilot[Any]) -> None:
        await on_cleanup("i")(pilot)
        pilot.app.screen.query_one("#ids", Input).value = "1 6-7 12x"
        await pilot.press("enter")
        await settle(pilot)

    await compare_matrix(cleanup_app(demo_server), steps, snapshot, tmp_path)


async def test_mark_all_matching_question(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """`M` on a filter: the question of marking every match, not only this page."""

    async def steps(pilot: Pilot[Any]) -> None:
        await on_cleanup()(pilot)
        selectors_screen(pilot.app).set_filters([Filter("name", "~eq", "s")])  # type: ignore[arg-type]
        await settle(pilot)
        await pilot.press("M")
        await settle(pilot)

    await compare_matrix(cleanup_app(demo_server), steps, snapshot, tmp_path)
