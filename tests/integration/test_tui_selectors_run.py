"""The cleanup run screen against the demo server: mixed outcomes, cancel mid-run (300 deletions at 55 req/s, from
the keys on: test_tui_selectors_flow.py)."""

from __future__ import annotations

import asyncio
import itertools
import os
import sqlite3
import stat
from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, ProgressBar, Static

from svctui.ops.outcomes import Outcome
from svctui.store.audit import audit_path
from svctui.store.audit_read import read_audit
from svctui.tui.screens.selectors.messages import ShowAuditTab
from svctui.tui.screens.selectors.run import RunScreen
from tests.support.audit import audit_lines
from tests.support.selectors_run import (
    DeleteGate,
    as_dicts,
    big_tag_server,
    delete_now,
    plan_of,
    remaining_ids,
    tag_selectors,
)
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio


class BrowseStandIn(Screen[None]):
    """Stands in for the cleanup screen under the run: counts the requests to open its Audit tab."""

    asked_for_audit = 0

    def compose(self) -> ComposeResult:
        """Nothing to show."""
        yield Static("browse")

    def on_show_audit_tab(self, message: ShowAuditTab) -> None:
        """The run screen closed with `a`."""
        self.asked_for_audit += 1


def outcome_column(screen: RunScreen) -> list[str]:
    """The outcome of every row, in plan order."""
    return [str(cell) for cell in screen.query_one("#run-table", DataTable).get_column("outcome")]


async def test_run_with_mixed_outcomes_reports_each_and_tells_the_browse_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = tag_selectors(demo)
        defaults = [selector for selector in selectors if selector.is_default][:2]
        plain = [selector for selector in selectors if not selector.is_default][:6]
        other_tag = tag_selectors(demo, 2)[0]
        delete_now(demo, plain[0].id)
        plan = plan_of(demo, [*defaults, *plain], unknown_ids=(other_tag.id,))
        gone: list[tuple[int, int]] = []
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            host = BrowseStandIn()
            app.push_screen(host)
            app.push_screen(RunScreen(plan, lambda tag_id, selector_id: gone.append((tag_id, selector_id))))
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RunScreen) and screen.report is not None
            assert outcome_column(screen) == [
                "refused: default selector",
                "refused: default selector",
                "already gone",
                *["deleted"] * 5,
                "not part of tag",
            ]
            status = str(screen.query_one("#run-status", Static).render())
            assert f"Run {screen.report.run_id}: 5 deleted, 1 already gone" in status
            assert "a to open the Audit tab" in status
            await pilot.press("a")
            await settle(pilot)
            assert not isinstance(app.screen, RunScreen)
            assert host.asked_for_audit == 1
        assert sorted(gone) == sorted((1, selector.id) for selector in plain)
        assert remaining_ids(demo).isdisjoint(selector.id for selector in plain)
        run = read_audit().runs[-1]
        assert not run.interrupted and run.counts["deleted"] == 5


async def test_cancel_mid_run_finishes_in_flight_requests_and_skips_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = DeleteGate()
    with big_tag_server(tmp_path, gate=gate) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default][:40]
        gate.held = {selector.id for selector in plain[5:]}
        plan = plan_of(demo, plain)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            clock = itertools.count(step=10)  # 10 s a reading: a rate and an ETA from the first results on
            screen = RunScreen(plan, lambda tag_id, selector_id: None, ticker=lambda: next(clock))
            app.push_screen(screen)
            while len(screen.results) < 5:
                await pilot.pause()
            assert "ETA" in str(screen.query_one("#run-rate", Static).render())
            for key in ("q", "ctrl+q", "ctrl+c", "1"):  # quitting now would lose the end line: refused, from any screen
                await pilot.press(key)
                await pilot.pause()
                assert app.is_running, key
            await app.run_action("quit")  # the palette's Quit
            assert app.is_running and app.quit_refusals
            assert "A deletion run is going: esc cancels it first" in app.notes[-1].message
            await pilot.press("3")
            await pilot.pause()
            assert app.screen is screen
            await pilot.press("escape")  # cancel: the 4 held requests are in flight
            gate.release()
            await settle(pilot)
            assert screen.report is not None
            counts = {str(outcome): count for outcome, count in screen.report.counts.items()}
            assert counts["deleted"] == 9 and counts["skipped"] == 31
            assert outcome_column(screen)[:9] == ["deleted"] * 9
            assert outcome_column(screen)[9:] == ["skipped"] * 31
            bar = screen.query_one("#run-progress", ProgressBar)  # the done fraction, not 100% (skipped ≠ done)
            assert (bar.progress, bar.total) == (9, 40) and bar.percentage is not None and bar.percentage < 0.25
            rate = str(screen.query_one("#run-rate", Static).render())
            assert rate.startswith("9/40 · ") and "ETA" not in rate and rate.endswith("— 9 deleted, 31 skipped")
            assert not app.quit_refusals, "the refusal goes with the run"
            await pilot.press("ctrl+c")  # finished: ctrl+c quits (like q) from the run screen too
            await pilot.pause()
            assert not app.is_running
        lines = audit_lines(audit_path())
        intents = {line["selector_id"] for line in as_dicts(lines, "intent")}
        outcomes = {line["selector_id"] for line in as_dicts(lines, "outcome")}
        assert intents == outcomes == {selector.id for selector in plain[:9]}
        (end,) = as_dicts(lines, "end")
        assert end["stopped"] == "cancelled" and end["counts"] == {"deleted": 9, "skipped": 31}
        assert not read_audit().runs[-1].interrupted


def _run_status(screen: RunScreen) -> str:
    return str(screen.query_one("#run-status", Static).render())


def _ids_in_db(demo: object, ids: list[int]) -> set[int]:
    db = demo.db_path  # type: ignore[attr-defined]
    with sqlite3.connect(db) as conn:
        marks = ",".join("?" * len(ids))
        return {row[0] for row in conn.execute(f"SELECT id FROM selectors WHERE id IN ({marks})", ids)}


async def test_server_gone_mid_run_stops_it_and_the_log_says_deleted_only_for_what_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = DeleteGate()
    with big_tag_server(tmp_path, gate=gate) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default][:40]
        ids = [selector.id for selector in plain]
        gate.held = set(ids[5:])
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            screen = RunScreen(plan_of(demo, plain), lambda tag_id, selector_id: None)
            app.push_screen(screen)
            while len(screen.results) < 5:
                await pilot.pause()
            gate.release()  # the held requests are answered, then the server goes away
            await asyncio.to_thread(demo.stop)
            while screen.report is None:
                await pilot.pause()
            await settle(pilot)
            report = screen.report
            assert str(report.stopped) == "server unreachable" and app.is_running
            assert "(stopped: server unreachable)" in _run_status(screen)
            assert report.counts[Outcome.SKIPPED] > 0 and report.counts[Outcome.NO_ANSWER] >= 3
        there = _ids_in_db(demo, ids)
        run = read_audit().runs[-1]
        deleted = {entry.selector_id for entry in run.entries.values() if entry.outcome == "deleted"}
        assert len(deleted) >= 5 and not deleted & there
        in_doubt = {entry.selector_id for entry in run.entries.values() if entry.in_doubt}
        assert set(ids) - there - deleted <= in_doubt
        assert run.unsettled_ids(), "the Audit tab can resume it"


async def test_a_full_disk_for_the_audit_log_sends_nothing_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = audit_path()
    log.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mknod(log, stat.S_IFCHR | 0o600, os.makedev(1, 7))  # /dev/full: every write fails with ENOSPC
        reason = "No space left on device"
    except PermissionError:  # no privilege for device nodes: a directory in the log's place is just as unwritable
        log.mkdir()
        reason = "Is a directory"
    gate = DeleteGate()
    with big_tag_server(tmp_path, gate=gate) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default][:10]
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            screen = RunScreen(plan_of(demo, plain), lambda tag_id, selector_id: None)
            app.push_screen(screen)
            while screen.report is None:
                await pilot.pause()
            await settle(pilot)
            status = _run_status(screen)
            assert "(stopped: audit log not writable)" in status and reason in status
            assert "nothing more was sent" in status
            assert set(outcome_column(screen)) == {"skipped"}
        assert 204 not in gate.statuses, "no DELETE reached the server"
        assert _ids_in_db(demo, [selector.id for selector in plain]) == {selector.id for selector in plain}
