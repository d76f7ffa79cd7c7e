"""`python -m svctui.tui.screenshots DIR`: render SVGs of the dashboard's screens from the demo (`make screenshots`).

The demo data, the app clock and the time zone (UTC) are fixed, so the pictures only change when the interface
does; `tests/unit/test_screenshots_list.py` keeps SCENES and the files of `screenshots/` the same list. Each scene
is a name, the demo edition, a theme, a size and the keys that bring the screen into shape; the tasks scenes pick
a demo client with seeded drops (SHARPHOUND-FRA-03) by typing part of its name into the picker.
The app runs with a throwaway config directory, so choosing a client there touches no real settings.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

SIZE = (120, 36)
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
    Scene("clients", keys=("4",)),  # the morning check
    Scene("clients-light", keys=("4",), theme="svctui-paper"),
    Scene("clients-small", keys=("4",), size=(80, 24)),
    Scene("events-small", size=(80, 24)),
    Scene("events-contrast", theme="svctui-contrast"),
]


async def _settle(pilot: Pilot[Any]) -> None:
    for _ in range(2):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def render_scene(scene: Scene, base_url: str, token_id: str, token_key: str, target: Path) -> Path:
    """Run the app headless against a demo server, play the scene, write `<target>/<name>.svg`."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.store.model import build_profile
    from svctui.store.settings import Settings
    from svctui.tui.app import SvcTuiApp

    profile = build_profile(name="demo", base_url=base_url, token_id=token_id, token_key=token_key, storage="env")
    app = SvcTuiApp(
        profile, settings=Settings(theme=scene.theme), clock=lambda: FIXED_ANCHOR, server_label="demo server"
    )
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
            await _settle(pilot)
        path = target / f"{scene.name}.svg"
        path.write_text(app.export_screenshot(title=f"svctui - {scene.name}"), encoding="utf-8")
    return path


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
    """Render every scene against throwaway demo servers (one per edition); returns the files written."""
    from svctui.demo.config import FIXED_ANCHOR
    from svctui.demo.server import DemoServer

    target.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="svctui-shots-") as scratch, isolated_environment(Path(scratch)):
        for edition in sorted({scene.edition for scene in scenes}):
            db_path = Path(scratch) / f"{edition}.sqlite3"
            with DemoServer(edition=edition, db_path=db_path, rate_limit=0, anchor=FIXED_ANCHOR) as demo:
                for scene in (scene for scene in scenes if scene.edition == edition):
                    path = asyncio.run(render_scene(scene, demo.base_url, demo.token_id, demo.token_key, target))
                    written.append(path)
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
