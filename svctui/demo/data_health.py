"""The demo's fleet as the morning check sees it: one client of each health state, the others healthy.

With at least FLEET_MIN_CLIENTS clients (the default 6), the last 24 hours before the anchor are shaped so that
`svctui health` and the Clients screen show every verdict:
- the first client is **failing since yesterday**: every finished run in the last 30 h failed;
- the third is **stale**: its runs stop 3 days before the anchor (the last 3 days' runs happen 3 days earlier),
  so its last check-in is that old;
- the fourth has **a drop** in the last 24 h (recorded in `seeded_drops` like the others) and no failure;
- the others are **healthy**: no failed, timed-out or partially complete run in the last 24 h;
- one more client, FLEET_NEW_CLIENT (an AzureHound collector; the others are SharpHound), was registered but
  **never ran** (no schedule, no task).
Runs still in progress (the newest few) keep their status. Everything uses the run list `plan_runs` made, so the
same seed gives the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from svctui.api.fields import COUNT_NAMES
from svctui.api.models import NOT_OK_STATUSES
from svctui.demo.config import DemoSizes

if TYPE_CHECKING:
    from svctui.demo.data import Client
    from svctui.demo.data_tasks import Run

FLEET_MIN_CLIENTS = 5
FLEET_NEW_CLIENT = "AZUREHOUND-NEW-01"
HOUR = 3600 * 1_000_000  # micros
FAILING, STALE, DROPS = 0, 2, 3  # client positions
STALE_DAYS = 3
FINISHED = (-1, 2, 3, 4, 5, 8)


def shapes_fleet(clients: Sequence[Client], sizes: DemoSizes) -> bool:
    """True when the data set is big enough to show every health state (the default sizes are)."""
    return len(clients) >= FLEET_MIN_CLIENTS and sizes.tasks >= 50


def shape_fleet(runs: list[Run], client_ids: Sequence[str], anchor: int) -> list[Run]:
    """Statuses of the recent runs set per client role; the stale client's last 3 days of runs moved 3 days back
    (the task count stays what the sizes say); ids renumbered in time order."""
    if len(client_ids) < FLEET_MIN_CLIENTS:
        return runs
    failing, stale = client_ids[FAILING], client_ids[STALE]
    window = anchor - 24 * HOUR
    for run in runs:  # the stale client's last 3 days happen 3 days earlier: the same number of tasks, none since
        if run.client.id == stale and run.execution >= anchor - STALE_DAYS * 24 * HOUR:
            run.execution -= STALE_DAYS * 24 * HOUR
    kept = sorted(runs, key=lambda run: run.execution)
    for number, run in enumerate(kept, start=1):
        run.id = number
    for run in kept:
        if run.status not in FINISHED:
            continue  # waiting, running, ingesting, analyzing: the newest runs stay as they are
        if run.client.id == failing and run.execution >= anchor - 30 * HOUR:
            run.status = 5
        elif run.client.id != failing and run.execution >= window and run.status in NOT_OK_STATUSES:
            run.status = 2
    return kept


def drop_in_window(runs: list[Run], client_id: str, since: int, floor: int) -> tuple[Run, int, str, int] | None:
    """The newest successful result of `client_id` since `since` with a like-for-like predecessor and a count of
    at least `floor` on both sides: (run, result index, count name, the predecessor's value)."""
    last_success: dict[tuple[str, tuple[int, ...]], list[object]] = {}
    found: tuple[Run, int, str, int] | None = None
    for run in runs:
        if run.client.id != client_id:
            continue
        for index, result in enumerate(run.results):
            if not result[1]:
                continue
            key = (str(result[0]), run.flags)
            before = last_success.get(key)
            if before is not None and run.status == 2 and run.execution >= since:
                for offset, name in enumerate(COUNT_NAMES):
                    previous, current = before[3 + offset], result[3 + offset]
                    if isinstance(previous, int) and isinstance(current, int) and min(previous, current) >= floor:
                        found = (run, index, name, previous)
                        break
            last_success[key] = result
    return found
