"""SVG snapshots of the cleanup run: in progress (DELETEs held at a gate) and finished with mixed outcomes.
Each at 80x24 and 160x45, dark and light, from one run (tests/support/matrix.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot

from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.run import RunScreen
from tests.support.matrix import compare_matrix
from tests.support.selectors_run import DeleteGate, delete_now, plan_of, tag_selectors
from tests.support.snapshots import fixed_ticker
from tests.support.tui import make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


async def test_run_in_progress(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, gate: DeleteGate, fixed_request_ids: None
) -> None:
    plain = [selector for selector in tag_selectors(big_demo) if not selector.is_default][:30]
    gate.held = {selector.id for selector in plain[6:]}
    plan = plan_of(big_demo, plain)

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        screen = RunScreen(plan, lambda tag_id, selector_id: None, ticker=fixed_ticker())
        pilot.app.push_screen(screen)
        while len(screen.results) < 6:
            await pilot.pause()
        await pilot.pause()

    # six answered, the rest held at the gate: waiting for the workers would wait for ever
    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path, wait_for_workers=False)


async def test_run_finished(
    snapshot: SnapshotAssertion, tmp_path: Path, big_demo: DemoServer, fixed_request_ids: None
) -> None:
    selectors = tag_selectors(big_demo)
    defaults = [selector for selector in selectors if selector.is_default][:2]
    plain = [selector for selector in selectors if not selector.is_default][:6]
    other_tag = tag_selectors(big_demo, 2)[0]
    delete_now(big_demo, plain[0].id)
    plan = plan_of(big_demo, [*defaults, *plain], unknown_ids=(other_tag.id,))

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.push_screen(RunScreen(plan, lambda tag_id, selector_id: None, ticker=fixed_ticker()))
        await settle(pilot)

    await compare_matrix(make_app(big_demo), run_before, snapshot, tmp_path)
