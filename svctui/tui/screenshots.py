"""`python -m svctui.tui.screenshots DIR`: render SVGs of the dashboard's screens from the demo (`make screenshots`).

The demo data, the app clock and the time zone (UTC) are fixed, so the pictures only change when the interface
does; `tests/unit/test_screenshots_list.py` keeps SCENES and the files of `screenshots/` the same list. Each scene
is a name, the demo edition, a theme, a size and the keys that bring the screen into shape; the tasks scenes pick
a demo client with seeded drops (SHARPHOUND-FRA-03) by typing part of its name into the picker.
The app runs with a throwaway config directory, so choosing a client there touches no real settings.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Receive, Scope, Send
from textual.pilot import Pilot

if TYPE_CHECKING:
    from svctui.tui.launch import DemoHandle

SIZE = (120, 36)
SELECTOR_PATH = re.compile(r"/api/v2/asset-group-tags/\d+/selectors/(\d+)")
FIXED_TICKS = (0.0, 12.0)  # the run's monotonic clock: its start, then every later look (a steady rate and ETA)
ISOLATED_DIRS = ("SVCTUI_CONFIG_DIR", "SVCTUI_DATA_DIR", "SVCTUI_STATE_DIR")


@dataclass(frozen=True)
class Scene:
    """One screenshot: file name, edition, theme and the keys pressed (each followed by waiting for workers)."""

    name: str
    keys: Sequence[str] = ()
    edition: str = "enterprise"
    theme: str = "textual-dark"
    typed: str = ""
    after: Sequence[str] = field(default_factory=tuple)
    size: tuple[int, int] = SIZE
    hold_deletes_above: int | None = None  # a run in progress: DELETEs of selectors above this id wait
    run_results: int = 0  # with hold_deletes_above: the outcomes to wait for before the picture


class HeldDeletes:
    """An ASGI layer for the demo server: DELETEs of selectors with ids above `above` wait until `release()`, so a
    run stays in progress with a known set of outcomes in."""

    def __init__(self, above: int) -> None:
        self.above = above
        self.opened = threading.Event()

    def release(self) -> None:
        """Let the held DELETEs through."""
        self.opened.set()

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """`app` behind the gate."""

        async def gated(scope: Scope, receive: Receive, send: Send) -> None:
            path = str(scope.get("path", "")) if scope["type"] == "http" else ""
            match = SELECTOR_PATH.fullmatch(path)
            if match is not None and scope.get("method") == "DELETE" and int(match.group(1)) > self.above:
                await asyncio.to_thread(self.opened.wait)
            await app(scope, receive, send)

        return gated


SCENES: list[Scene] = [
    Scene("events"),
    Scene("events-detail", keys=("j", "j", "j", "p")),
    Scene("events-sorted", keys=("s", "s", "right", "right", "right", "s", "j", "space", "j", "space")),
    Scene("events-filter", keys=("slash",), typed="client_id=eq:nope session_collection=t"),
    Scene("events-help", keys=("question_mark",)),
    Scene("events-light", keys=("p",), theme="svctui-paper"),
    Scene("events-community", edition="community"),
    Scene("tasks", keys=("2", "C"), typed="SHARPHOUND-FRA", after=("enter", "j", "j", "j", "j", "j")),  # a partial run
    Scene("tasks-drops-plot", keys=("2", "C"), typed="SHARPHOUND-FRA", after=("enter", "d", "P")),
    Scene("selectors", keys=("3", "space", "j", "space", "j", "j", "space", "p")),  # three marked, the detail
    Scene("selectors-review", keys=("3", "space", "j", "space", "j", "j", "space", "ctrl+d")),  # the review
    Scene("tasks-compare", keys=("2", "C"), typed="SHARPHOUND-FRA", after=("enter", "d", "W")),  # vs previous run
    Scene(  # the newest not-OK run's log, zoomed: the headline, the summary line, its failed domain's part
        "tasks-log", keys=("2", "C"), typed="SHARPHOUND-FRA", after=("enter", "o", "L", "z")
    ),
    Scene("clients", keys=("4",)),  # the morning check
    Scene("clients-light", keys=("4",), theme="svctui-paper"),
    Scene("clients-small", keys=("4",), size=(80, 24)),
    Scene("events-small", size=(80, 24)),
    Scene("events-contrast", theme="svctui-contrast"),
    # the typed count: every selector of the tag marked (its 8 defaults never are), its number typed
    Scene("selectors-confirm", keys=("3", "M", "tab", "enter", "ctrl+d"), typed="392"),  # tab: Cancel -> Mark
    Scene(
        "selectors-run",  # a run in progress: 5 answered, 3 held at the server
        keys=("3", *(("space", "j") * 8), "ctrl+d", "tab"),
        after=("enter",),
        hold_deletes_above=20,
        run_results=5,
    ),
]


async def _settle(pilot: Pilot[Any]) -> None:
    for _ in range(2):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def render_scene(scene: Scene, demo: DemoHandle, target: Path) -> Path:
    """Run the app headless against a demo server, play the scene, write `<target>/<name>.svg`."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.store.settings import Settings
    from svctui.tui.app import SvcTuiApp
    from svctui.tui.launch import demo_profile

    profile = demo_profile(demo)
    app = SvcTuiApp(
        profile, settings=Settings(theme=scene.theme), clock=lambda: FIXED_ANCHOR, server_label="demo server"
    )
    ticks = itertools.chain([FIXED_TICKS[0]], itertools.repeat(FIXED_TICKS[1]))
    app.live.monotonic = lambda: next(ticks)
    async with app.run_test(size=scene.size) as pilot:
        await _settle(pilot)
        for key in scene.keys:
            await pilot.press(key)
            await _settle(pilot)
        if scene.typed:
            await pilot.press(*scene.typed)
            await _settle(pilot)
        for key in scene.after:
            await pilot.press(key)
            if scene.hold_deletes_above is None:
                await _settle(pilot)
        if scene.hold_deletes_above is not None:
            await _until_outcomes(pilot, scene.run_results)
        path = target / f"{scene.name}.svg"
        path.write_text(app.export_screenshot(title=f"svctui - {scene.name}"), encoding="utf-8")
    return path


async def _until_outcomes(pilot: Pilot[Any], count: int) -> None:
    """Wait (at most ~30 s) until the run on screen shows `count` outcomes, then let the screen draw them."""
    from svctui.tui.screens.selectors.run import RunScreen

    for _ in range(600):
        screen = pilot.app.screen
        if isinstance(screen, RunScreen) and len(screen.results) >= count:
            break
        await pilot.pause(0.05)
    else:
        raise RuntimeError(f"the run never showed {count} outcomes")
    await pilot.pause(0.3)  # the outcomes are drawn in batches


@contextmanager
def isolated_environment(scratch: Path) -> Iterator[None]:
    """UTC and throwaway config/data/state directories while rendering; the old environment afterwards."""
    changes = {"TZ": "UTC", **{name: str(scratch / name.lower()) for name in ISOLATED_DIRS}}
    saved = {name: os.environ.get(name) for name in changes}
    os.environ.update(changes)
    time.tzset()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()


def render_all(target: Path, scenes: Sequence[Scene] = tuple(SCENES)) -> list[Path]:
    """Render every scene against a throwaway demo server of its own; returns the files written."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="svctui-shots-") as scratch, isolated_environment(Path(scratch)):
        for scene in scenes:
            gate = HeldDeletes(scene.hold_deletes_above) if scene.hold_deletes_above is not None else None
            demo = DemoServer(
                edition=scene.edition,
                db_path=Path(scratch) / f"{scene.name}.sqlite3",  # a run deletes: each scene has its own data
                rate_limit=0,
                anchor=FIXED_ANCHOR,
                wrap=gate.wrap if gate is not None else None,
            )
            with demo:
                try:
                    shot = render_scene(scene, demo, target)
                    written.append(asyncio.run(shot))
                finally:
                    if gate is not None:
                        gate.release()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: one argument, the output directory."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print("usage: python -m svctui.tui.screenshots DIR", file=sys.stderr)
        return 2
    for path in render_all(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
