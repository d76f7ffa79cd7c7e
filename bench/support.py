"""Helpers shared by the benchmarks: isolated directories, the demo's client id, and a loop-lag monitor."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from svctui.demo.server import DemoServer
from svctui.startup import TUNINGS, tune_runtime

if TYPE_CHECKING:
    from textual.pilot import Pilot


def isolated_env(root: Path) -> dict[str, str]:
    """TERM, and every directory the app (or a library) could read or write, under `root`."""
    dirs = {
        "HOME": "home",
        "XDG_CONFIG_HOME": "xdg-config",
        "XDG_STATE_HOME": "xdg-state",
        "XDG_DATA_HOME": "xdg-data",
        "SVCTUI_CONFIG_DIR": "config",
        "SVCTUI_STATE_DIR": "state",
        "SVCTUI_DATA_DIR": "data",
    }
    env = {name: str(root / sub) for name, sub in dirs.items()}
    for path in env.values():
        Path(path).mkdir(parents=True, exist_ok=True)
    return {"TERM": "xterm-256color", "SVCTUI_NO_KEYRING": "1", **env}


@contextlib.contextmanager
def isolated_process(root: Path) -> Iterator[None]:
    """This process's environment isolated under `root` for the block (`isolated_env`), the old values back after
    it: a bench's in-process app writes its caches there, never in the user's own data dir (the fleet bench's 1,000
    client names, cached for the profile `demo`, showed as ghosts in the user's client picker)."""
    values = isolated_env(root)
    old = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def launched_as(kind: str) -> Iterator[None]:
    """This process tuned for the block as the `svctui` program tunes itself at launch as `kind` (DASHBOARD or
    BATCH: svctui.startup.tune_runtime), the collector as it was after it (the malloc arena limit stays: mallopt
    has no way back)."""
    thresholds = gc.get_threshold()
    tune_runtime(kind)
    try:
        yield
    finally:
        if TUNINGS[kind].freeze:
            gc.unfreeze()
        gc.set_threshold(*thresholds)


def demo_profile_env(root: Path, demo: DemoServer) -> dict[str, str]:
    """This process's environment, isolated under `root`, with `demo` as the environment-only profile."""
    env = {
        **os.environ,
        **isolated_env(root),
        "SVCTUI_BASE_URL": demo.base_url,
        "SVCTUI_TOKEN_ID": demo.token_id,
        "SVCTUI_TOKEN_KEY": demo.token_key,
    }
    env.pop("SVCTUI_PROFILE", None)
    return env


def only_client(demo: DemoServer) -> str:
    """The id of the demo's first client (the only one when generated with clients=1), read from its SQLite file."""
    assert demo.options.db_path is not None, "the demo server needs a db_path"
    with sqlite3.connect(str(demo.options.db_path)) as conn:
        row = conn.execute("SELECT id FROM clients ORDER BY id LIMIT 1").fetchone()
    return str(row[0])


class LagMonitor:
    """How late a 5 ms timer fires on the running event loop: the worst lateness since `reset()`.

    `start()` (from a coroutine on the loop to watch, e.g. a Pilot test's) runs a task that sleeps `interval`
    again and again and records how much later than asked each sleep ended: anything that holds the loop (a
    long handler, a synchronous parse, a big table update) shows as lateness. `worst()` also counts the sleep
    in progress, so a loop still blocked when the window closes is not missed.
    """

    def __init__(self, interval: float = 0.005) -> None:
        self.interval = interval
        self._worst = 0.0
        self._due = 0.0
        self._since = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            self._due = time.perf_counter() + self.interval
            await asyncio.sleep(self.interval)
            self._worst = max(self._worst, self._late())

    def _late(self) -> float:
        """How late the pending tick is now, counting only time since `reset()` (a tick due before the window
        opened, held up by something before it, is charged to the window for its part inside only)."""
        return time.perf_counter() - max(self._due, self._since)

    def start(self) -> None:
        """Start watching the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._tick())

    def reset(self) -> None:
        """Forget the lateness seen so far (open a new window)."""
        self._worst = 0.0
        self._since = time.perf_counter()

    def worst(self) -> float:
        """The worst lateness (seconds) since `reset()`, counting the sleep still pending."""
        return max(self._worst, self._late())

    async def stop(self) -> None:
        """Stop the timer task."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def idle(self, seconds: float) -> float:
        """The worst lateness over `seconds` of doing nothing else: the baseline for a stall."""
        self.reset()
        await asyncio.sleep(seconds)
        return self.worst()


SETTLE_LIMIT = 30.0  # seconds: a node that never gets to its messages fails the run instead of hanging it


async def screen_settled(pilot: Pilot[Any]) -> None:
    """Until the app and every widget of its screen have handled the messages queued now and then their idle work
    (a DataTable measures new and updated cells when idle); not `pilot.pause()`, which also waits for an idle CPU
    and so swamps a cheap measurement."""
    app = pilot.app
    pending = 0
    all_done = asyncio.Event()

    def one_done() -> None:
        nonlocal pending
        pending -= 1
        if pending == 0:
            all_done.set()

    for node in (app, *app.screen.walk_children(with_self=True)):
        # call_later: after the messages queued now; call_next from there: after the idle handlers that follow
        if node.call_later(node.call_next, one_done):
            pending += 1
    if pending:
        await asyncio.wait_for(all_done.wait(), SETTLE_LIMIT)


async def until(condition: Callable[[], bool], step: float = 0.001) -> None:
    """Poll `condition` every `step` seconds on the loop until it holds (app state the bench cannot await)."""
    while not condition():  # noqa: ASYNC110 - the app posts no event the bench could wait on
        await asyncio.sleep(step)
