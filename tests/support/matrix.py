"""The snapshot matrix: one run of the dashboard brought to a state, pictured at 80x24 and 160x45 in two themes.

Each case costs one start-up; the four pictures come from resizing the running app and switching its theme, as a
person would, so a screen that does not re-lay itself out on a resize or a theme change shows it in the pictures.
The SVGs are compared with syrupy's `snapshot` (the extension pytest-textual-snapshot uses; `--snapshot-update`
rewrites them). On a mismatch the new pictures are written next to the test's tmp_path to look at.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pytest_textual_snapshot import SVGImageExtension
from syrupy.assertion import SnapshotAssertion
from textual.pilot import Pilot

from svctui.demo.config import Faults
from svctui.demo.server import DemoServer
from svctui.tui.app import SvcTuiApp
from tests.support.live import HandClock, refresh_now
from tests.support.snapshots import steady_cursor
from tests.support.tui import settle

SIZES: dict[str, tuple[int, int]] = {"80x24": (80, 24), "160x45": (160, 45)}
THEMES = ("textual-dark", "svctui-paper")
Steps = Callable[[Pilot[Any]], Awaitable[None]]
SLOW = Faults(latency_ms=8000)  # every answer later than the four pictures take: the loading state
FAILING = Faults(error_rate=1.0)  # the 500 envelope with a request id
NOT_THE_API = Faults(kinds={"html": 1.0})  # a 200 of HTML: what makes a refresh fail and the rows stale


async def nothing(pilot: Pilot[Any]) -> None:
    """No steps: the picture as the app starts."""


async def settled_steps(pilot: Pilot[Any]) -> None:
    """Start-up settled, notifications cleared."""
    await settle(pilot)
    pilot.app.clear_notifications()
    await settle(pilot)


def pressing_only(key: str) -> Steps:
    """Press `key` and let one frame pass, without waiting for what it loads."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.press(key)
        await pilot.pause()

    return steps


def under_faults(server: DemoServer, faults: Faults, then: Steps) -> Steps:
    """Settle the start-up, give `server` `faults`, then take `then` (a screen opened while the server fails)."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        server.faults = faults
        await then(pilot)

    return steps


def gone_stale(server: DemoServer, clock: HandClock, then: Steps) -> Steps:
    """Take `then` (the screen shown, rows marked), then a live refresh that fails: the rows kept and marked stale."""

    async def steps(pilot: Pilot[Any]) -> None:
        await then(pilot)
        server.faults = NOT_THE_API
        await refresh_now(pilot, clock)

    return steps


async def picture(pilot: Pilot[Any], *, settle_first: bool = True) -> str:
    """The app's screen as an SVG, once the workers (unless told not to wait) and animations are done."""
    if settle_first:
        await settle(pilot)
    else:
        await pilot.pause()
    await steady_cursor(pilot)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    return await steady_screenshot(pilot)


async def steady_screenshot(pilot: Pilot[Any], rounds: int = 5) -> str:
    """The screen once two screenshots a pause apart agree: a layout still settling after a resize (a scroll
    offset, a scrollbar thumb) on a busy machine gave a picture of the moment, not of the screen."""
    svg = pilot.app.export_screenshot()
    for _ in range(rounds):
        await pilot.pause(0.05)
        again = pilot.app.export_screenshot()
        if again == svg:
            return svg
        svg = again
    return svg


def keep_pictures(out: Path, pictures: dict[str, str]) -> None:
    """Write `pictures` (name -> SVG) into `out`, to look at after a mismatch."""
    if pictures:
        out.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures.items():
        (out / f"{name}.svg").write_text(svg, encoding="utf-8")


async def compare_matrix(
    app: SvcTuiApp,
    steps: Steps,
    snapshot: SnapshotAssertion,
    out: Path,
    *,
    start: tuple[int, int] = SIZES["160x45"],
    wait_for_workers: bool = True,
) -> None:
    """Run `app` at `start`, take `steps`, then compare a picture at each size in each theme; fail with the names
    (and where the new pictures are) of every one that differs."""
    svg_snapshot = snapshot.use_extension(SVGImageExtension)
    differing: dict[str, str] = {}
    async with app.run_test(size=start) as pilot:
        await steps(pilot)
        for size_name, (width, height) in SIZES.items():
            await pilot.resize_terminal(width, height)
            for theme in THEMES:
                app.theme = theme
                name = f"{size_name}-{theme}"
                svg = await picture(pilot, settle_first=wait_for_workers)
                matched = svg_snapshot(name=name) == svg  # syrupy records (or, updating, writes) the picture here
                if not matched:
                    differing[name] = svg
    keep_pictures(out, differing)
    assert not differing, f"pictures differ: {', '.join(differing)} (new ones in {out})"
