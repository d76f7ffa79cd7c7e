"""SVG snapshots of the cleanup review: the dry run and impact of a few selectors, and the typed-count confirm.
Each at 80x24 and 160x45, dark and light, from one run (tests/support/matrix.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot
from textual.widgets import Input

from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.review import ReviewScreen
from tests.support.matrix import compare_matrix
from tests.support.selectors_run import DeleteGate, delete_now, plan_of, tag_selectors
from tests.support.snapshots import steady_cursor
from tests.support.tui import make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


async def test_review_dry_run(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, gate: DeleteGate, fixed_request_ids: None
) -> None:
    selectors = tag_selectors(big_demo)
    defaults = [selector for selector in selectors if selector.is_default][:2]
    plain = [selector for selector in selectors if not selector.is_default][:5]
    kinds = ("User", "Computer", "Group")
    gate.member_counts = {
        selector.id: {kind: (selector.id * (n + 3)) % 17 for n, kind in enumerate(kinds)} for selector in selectors
    }
    delete_now(big_demo, plain[0].id)
    plan = plan_of(big_demo, [*defaults, *plain], unknown_ids=(999_999,), why="filter: name contains 'old'")

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen(plan))
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_review_typed_count(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, gate: DeleteGate, fixed_request_ids: None
) -> None:
    gate.counts_missing = True  # a server without members/counts
    plain = [selector for selector in tag_selectors(big_demo) if not selector.is_default][:25]
    plan = plan_of(big_demo, plain, why="marked: all matching 'disabled = true'")

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen(plan))
        await settle(pilot)
        pilot.app.screen.query_one("#review-typed", Input).focus()
        await pilot.press(*"25")
        await settle(pilot)
        await steady_cursor(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_review_twenty_disabled(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, fixed_request_ids: None
) -> None:
    """Issue 26: the server answers 409 to a disabled selector's member counts; the impact is complete (0)."""
    disabled = [s for s in tag_selectors(big_demo) if s.disabled_at is not None and not s.is_default][:20]
    plan = plan_of(big_demo, disabled, why="marked: all matching 'disabled_at neq null'")

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen(plan))
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_review_extension_owned(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, gate: DeleteGate, fixed_request_ids: None
) -> None:
    """Issue 26: selectors an extension owns are left out unless the box under the dry run is ticked."""
    selectors = tag_selectors(big_demo)
    owned = [s for s in selectors if s.extension_owned]
    plain = [s for s in selectors if not s.is_default and not s.extension_owned][:3]
    gate.member_counts = {s.id: {"User": s.id % 13, "Group": s.id % 5} for s in selectors}
    plan = plan_of(big_demo, [*plain, *owned], why="marked by hand")

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen(plan))
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)


async def test_review_filters_and_typed_ids(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, fixed_request_ids: None
) -> None:
    """Issue 28: at 80x24 the filters filled `Why these` and cut the typed ids off; they now have a line of their own
    (at 160 columns both fit on one)."""
    from dataclasses import replace

    plain = [selector for selector in tag_selectors(big_demo) if not selector.is_default][:6]
    why = "matching name ∋ Accounts, created_at > 2018-09-17T18:15:44Z, is_default = false"
    plan = replace(plan_of(big_demo, plain, why=why), typed_ids=tuple(selector.id for selector in plain[3:]))

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(ReviewScreen(plan))
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)
