"""The whole cleanup from screen 3 at the demo's default rate limit: mark 300, review, type the count, run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input

from svctui.store.audit import audit_path
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.screens.selectors.run import RunScreen
from tests.support.audit import audit_lines
from tests.support.selectors import open_cleanup, shown_ids
from tests.support.selectors_run import DeleteGate, as_dicts, big_tag_server, remaining_ids, tag_selectors
from tests.support.tui import make_app, settle

pytestmark = pytest.mark.anyio
HANG_GUARD = 300.0  # seconds: a guard against a hung run, not an assertion on speed
LAYOUT_GUARD = 30.0  # seconds: a guard against a tab that never shows (a focus that switched it back did once)


@pytest.mark.slow
async def test_300_selectors_deleted_from_the_dashboard_at_55_requests_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counter = DeleteGate()  # holds nothing: counts the server's answers
    with big_tag_server(tmp_path, rate_limit=55, gate=counter) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default][:300]
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            screen = await open_cleanup(pilot)
            assert screen.tag is not None and screen.tag.id == 1
            await pilot.press("i")
            await settle(pilot)
            app.screen.query_one("#ids", Input).value = " ".join(str(selector.id) for selector in plain)
            await pilot.press("enter")
            await settle(pilot)
            assert set(screen.marks.ids(1)) == {selector.id for selector in plain}
            await pilot.press("ctrl+d")
            await settle(pilot)
            review = app.screen
            assert isinstance(review, ReviewScreen) and len(review.ids) == 300
            delete = review.query_one("#review-delete", Button)
            assert delete.disabled and app.focused is review.query_one("#review-typed", Input)
            await pilot.press(*"300")
            while delete.disabled:  # the dry run answers
                await settle(pilot)
            assert isinstance(app.screen, ReviewScreen)
            started = time.monotonic()
            await pilot.press("enter")  # the right count in the box: Delete
            while not (isinstance(app.screen, RunScreen) and app.screen.report is not None):
                assert time.monotonic() - started < HANG_GUARD, "the run never finished"
                await settle(pilot)  # the run screen mounts, then its worker runs: on a busy machine, more rounds
            run = app.screen
            assert isinstance(run, RunScreen) and run.report is not None
            wall = time.monotonic() - started
            assert {str(outcome): count for outcome, count in run.report.counts.items()} == {"deleted": 300}
            print(
                f"300 from screen 3: {demo.request_count} requests in the session, {counter.statuses[429]} answered "
                f"429, the run {wall:.1f} s"
            )
            await pilot.press("a")  # close the run, open the Audit tab: the run is there, newest first
            await settle(pilot)
            runs = screen.query_one(AuditTab).query_one("#audit-runs", DataTable)
            shown_at = time.monotonic()
            while not (runs.is_attached and runs.region.height > 0):  # on a busy machine the layout takes more rounds
                assert time.monotonic() - shown_at < LAYOUT_GUARD, "the Audit tab never showed its runs"
                await settle(pilot)
            assert str(runs.ordered_rows[0].key.value) == run.report.run_id, "the newest run first"
            assert not set(shown_ids(screen)) & {selector.id for selector in plain}
            assert not screen.marks.ids(1)
        assert remaining_ids(demo).isdisjoint(selector.id for selector in plain)
        lines = audit_lines(audit_path())
        assert len(as_dicts(lines, "intent")) == len(as_dicts(lines, "outcome")) == 300
        (end,) = as_dicts(lines, "end")
        assert end["counts"] == {"deleted": 300} and end["stopped"] is None
