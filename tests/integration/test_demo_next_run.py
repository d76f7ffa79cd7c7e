"""The demo server keeps `next_scheduled_at` from the rule: sorting events by it orders the dashboard's "next run"
column, also when the server's clock is a day past the data's anchor (a database reused the next day)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from svctui.api.models import Event
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.schedule import next_run_words, parse_schedule
from svctui.tui.launch import demo_profile
from tests.support.demo_http import all_items, own_server, signed
from tests.support.tui import RecordingApp, events_screen, running, settle

# The server's clock and the dashboard's: 30 h 25 min after the data was generated (hourly and daily runs are due).
LATER = FIXED_ANCHOR + timedelta(hours=30, minutes=25)


@pytest.fixture(scope="module")
def later_server(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoServer]:
    """A demo server on the generated data whose clock reads LATER."""
    with own_server(demo_template_db, tmp_path_factory.mktemp("later"), rate_limit=0, anchor=LATER) as demo:
        yield demo


def next_runs_in_order(rules: list[str], now: datetime) -> list[datetime]:
    """The next run (as the dashboard computes it) of every rule that has a DTSTART, in the given order."""
    runs = [parse_schedule(rule).next_run(now) for rule in rules if parse_schedule(rule).has_start]
    return [run for run in runs if run is not None]


def test_sorting_by_next_scheduled_at_orders_the_next_runs(later_server: DemoServer) -> None:
    with signed(later_server) as client:
        items = all_items(client, "/api/v2/events", [("sort_by", "next_scheduled_at")])
        rules = [str(item["rrule"]) for item in items]
        runs = next_runs_in_order(rules, LATER)
        assert len(runs) >= 0.9 * len(items) and runs == sorted(runs)
        assert runs[0] > LATER  # nothing stays behind the clock
        legacy = [rule for rule in rules if not parse_schedule(rule).has_start]
        assert 1 <= len(legacy) <= 0.1 * len(items), len(legacy)  # a few legacy RRULE-only rows remain
        due_soon = client.get(
            "/api/v2/events", params={"next_scheduled_at": f"lt:{(LATER + timedelta(hours=1)).isoformat()}"}
        )
        assert due_soon.status_code == 200 and due_soon.json()["count"] >= 1  # the hourly ones, kept current
        reverse = all_items(client, "/api/v2/events", [("sort_by", "-next_scheduled_at")])
        assert next_runs_in_order([str(item["rrule"]) for item in reverse], LATER) == runs[::-1]


@pytest.mark.anyio
async def test_the_next_run_column_is_ordered_when_sorted_by_it(later_server: DemoServer) -> None:
    app = RecordingApp(demo_profile(later_server), clock=lambda: LATER, server_label="demo server")
    async with running(app) as pilot:
        screen = events_screen(app)
        await pilot.press("right", "right", "right", "s")  # the "next run" column, ascending
        await settle(pilot)
        assert [key.render() for key in screen.sort] == ["next_scheduled_at"]
        column = [next_run_words(event.rrule, LATER) for event in screen.table.items]
        shown = [text[:17] for text in column if not text.startswith("-")]  # `2026-03-03 19:18Z`
        assert len(shown) >= 90 and shown == sorted(shown), column
        assert all(isinstance(event, Event) for event in screen.table.items)
