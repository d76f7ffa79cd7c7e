"""The snapshot matrix of the dashboard's own screens and dialogs: the first run (no profile yet, a bad URL), the raw
JSON of a row, the profile switcher and the theme picker, at 80x24 and 160x45, dark and light.

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

from svctui.demo.server import DemoServer
from svctui.store.model import build_profile
from svctui.tui.palette import open_profile_picker
from svctui.tui.widgets.raw_json import RawJson
from tests.support.cli import add_profile
from tests.support.matrix import compare_matrix, settled_steps
from tests.support.tui import make_app, settle

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("utc_zone")]


async def test_first_run_with_an_error(snapshot: SnapshotAssertion, tmp_path: Path) -> None:
    """No profile stored: the form, with the URL refused inline (the secret field stays empty)."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.screen.query_one("#first-base_url", Input).value = "ftp://nope"
        await pilot.press("ctrl+s")
        await settle(pilot)

    await compare_matrix(make_app(None), steps, snapshot, tmp_path)


async def test_raw_json(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("y")
        await settled_steps(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)


async def test_raw_json_long_line(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """The first event whose JSON has a line wider than the view at 80 columns (its rule): the line wraps (issue 28)."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for _row in range(40):
            await pilot.press("y")
            await settle(pilot)
            view = pilot.app.screen
            assert isinstance(view, RawJson)
            if max(len(line) for line in view.text.splitlines()) > 72:
                break
            await pilot.press("escape", "down")
        await settled_steps(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)


async def test_profile_switcher(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """Two stored profiles (at fixed addresses: the demo's port changes every run); the one in use is marked."""
    for name in ("lab", "prod"):
        url = f"https://bh-{name}.example.com"
        assert add_profile(name, url, demo_server.token_id, demo_server.token_key).exit_code == 0
    profile = build_profile(
        name="prod",
        base_url=demo_server.base_url,
        token_id=demo_server.token_id,
        token_key=demo_server.token_key,
        storage="env",
    )

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        open_profile_picker(pilot.app)  # type: ignore[arg-type]
        await settled_steps(pilot)

    await compare_matrix(make_app(profile=profile), steps, snapshot, tmp_path)


async def test_theme_picker(snapshot: SnapshotAssertion, demo_server: DemoServer, tmp_path: Path) -> None:
    """The palette's "Change theme": every shipped theme, the one under the cursor previewed."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        pilot.app.action_change_theme()
        await settled_steps(pilot)

    await compare_matrix(make_app(demo_server), steps, snapshot, tmp_path)
