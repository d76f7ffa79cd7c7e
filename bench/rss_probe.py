"""Run by bench_rss in a fresh process: the dashboard headless on the tasks screen, then its peak memory.

`python -m bench.rss_probe first|all CLIENT_ID PAGE_SIZE` with SVCTUI_BASE_URL / TOKEN_ID / TOKEN_KEY set: shows
the client's first page (`first`), or pages with `]` until the last page (`all`), then prints one line of JSON
with VmHWM and VmRSS (KiB) from /proc/self/status and the pages shown.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from bench.bench_stall import applied, shown
from bench.support import launched_as
from svctui.startup import DASHBOARD
from svctui.store.model import build_profile
from svctui.store.settings import Settings
from svctui.tui.screens.tasks.screen import TasksScreen
from tests.support.tui import make_app, settle


def status_kib() -> dict[str, int]:
    """VmHWM and VmRSS of this process, in KiB."""
    fields: dict[str, int] = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmHWM", "VmRSS"):
            fields[name] = int(value.split()[0])
    return fields


async def probe(mode: str, client_id: str, page_size: int) -> dict[str, int]:
    """Show the first page or every page of the client's tasks; the memory figures and the pages shown."""
    profile = build_profile(
        name="bench",
        base_url=os.environ["SVCTUI_BASE_URL"],
        token_id=os.environ["SVCTUI_TOKEN_ID"],
        token_key=os.environ["SVCTUI_TOKEN_KEY"],
        storage="env",
    )
    app = make_app(profile=profile, settings=Settings(page_size=page_size, recent_clients=[client_id]))
    pages = 1
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await app.switch_mode("tasks")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TasksScreen), screen
        assert screen.table.row_count == page_size, screen.table.row_count
        while mode == "all" and screen.window.next_skip() is not None:
            before = applied(screen)
            await pilot.press("right_square_bracket")
            await shown(pilot, screen, before)
            pages += 1
        await settle(pilot)
    return {**status_kib(), "pages": pages}


if __name__ == "__main__":
    with launched_as(DASHBOARD):  # as `svctui` tunes itself at launch
        print(json.dumps(asyncio.run(probe(sys.argv[1], sys.argv[2], int(sys.argv[3])))))
