"""The snapshot matrix of the Events screen (key 1): every state and its dialogs at 80x24 and 160x45, dark and light.

One start-up per state (tests/support/matrix.py resizes and re-themes the running app for the four pictures).
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
from tests.support.live import live_app
from tests.support.matrix import FAILING, SLOW, compare_matrix, gone_stale, nothing, settled_steps
from tests.support.tui import (
    detail_of_an_event_with_missing_ous,
    events_screen,
    make_app,
    settle,
    unreachable_profile,
    wrong_key_profile,
)

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


async def test_data(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(make_app(demo_server), settled_steps, snapshot, tmp_path)


async def test_loading(snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, tmp_path: Path) -> None:
    fresh_demo_server.faults = SLOW
    await compare_matrix(make_app(fresh_demo_server), nothing, snapshot, tmp_path, wait_for_workers=False)


async def test_empty(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        events_screen(pilot.app).set_filters([Filter("id", "gt", "100000")])  # type: ignore[arg-type]
        await settled_steps(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)


async def test_server_error(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    fresh_demo_server.faults = FAILING
    await compare_matrix(make_app(fresh_demo_server), settled_steps, snapshot, tmp_path)


async def test_network_down(snapshot: SnapshotAssertion, tmp_path: Path) -> None:
    await compare_matrix(make_app(None, profile=unreachable_profile()), settled_steps, snapshot, tmp_path)


async def test_auth_failure(
    snapshot: SnapshotAssertion, demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    app = make_app(None, profile=wrong_key_profile(demo_server))
    await compare_matrix(app, settled_steps, snapshot, tmp_path)


async def test_enterprise_only(snapshot: SnapshotAssertion, demo_server_community: DemoServer, tmp_path: Path) -> None:
    await compare_matrix(make_app(demo_server_community), settled_steps, snapshot, tmp_path)


async def test_stale(
    snapshot: SnapshotAssertion, fresh_demo_server: DemoServer, fixed_request_ids: None, tmp_path: Path
) -> None:
    app, clock = live_app(fresh_demo_server)

    async def marked(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("j", "j", "space")

    await compare_matrix(app, gone_stale(fresh_demo_server, clock, marked), snapshot, tmp_path)


async def test_detail_pane(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """An event with missing OU references (✗) in the detail pane."""

    async def steps(pilot: Pilot[Any]) -> None:
        await detail_of_an_event_with_missing_ous(pilot)
        await settled_steps(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)


async def test_filter_editor_inline_error(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"id=gt:abc")
        pilot.app.screen.query_one("#row-client_id").query_one(Input).value = "not-a-uuid"
        await pilot.press("enter")
        await settle(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)


async def test_help(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)
