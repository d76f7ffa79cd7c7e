"""The Audit tab and the resume offer against the demo server and a real audit log left by an interrupted run."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Static

from svctui.store.audit_read import read_audit
from svctui.store.model import READ_ONLY_ENV
from svctui.tui.screens.selectors.audit_tab import INTERRUPTED, AuditTab
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.resume import offer_resume
from svctui.tui.screens.selectors.run import RunScreen
from tests.integration.selectors_run_support import big_tag_server, interrupted_log, remaining_ids, tag_selectors
from tests.integration.tui_support import make_app, settle

pytestmark = pytest.mark.anyio


class AuditHost(Screen[None]):
    """A screen holding only the Audit tab (as the cleanup screen's Audit tab does)."""

    def compose(self) -> ComposeResult:
        """The tab."""
        yield AuditTab()


def column(table: DataTable[object], key: str) -> list[str]:
    """A column's cells as text."""
    return [str(cell) for cell in table.get_column(key)]


async def test_resume_is_offered_at_start_and_deletes_only_what_still_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path, monkeypatch) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:6]
        run_id = interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            offer_resume(app)
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert run_id in dialog.body and demo.base_url.rstrip("/") in dialog.body
            assert "1 deleted" in dialog.body and "5 selector(s) are unsettled" in dialog.body
            await pilot.press("tab", "enter")  # from Cancel to Resume
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RunScreen) and screen.report is not None
            assert column(screen.query_one("#run-table", DataTable), "outcome") == ["already gone", *["deleted"] * 4]
        assert remaining_ids(demo).isdisjoint(selector.id for selector in selectors)
        log = read_audit()
        assert log.get(run_id).resolved_by == screen.report.run_id
        assert log.last_interrupted() is None


async def test_no_offer_when_nothing_is_interrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with big_tag_server(tmp_path, monkeypatch) as demo:
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            offer_resume(app)
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)


async def test_audit_tab_lists_runs_newest_first_and_resumes_the_interrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path, monkeypatch) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        run_id = interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(160, 44)) as pilot:
            await settle(pilot)
            app.push_screen(AuditHost())
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            assert column(runs, "run") == [run_id]
            assert column(runs, "state") == [INTERRUPTED]
            assert "demo" in column(runs, "who")[0] and "tester" in column(runs, "who")[0]
            names = column(tab.query_one("#audit-selectors", DataTable), "name")
            assert names[:2] == [selectors[0].name, selectors[1].name]
            outcomes = column(tab.query_one("#audit-selectors", DataTable), "outcome")
            assert outcomes == ["deleted", "in doubt (no answer)", "not attempted", "not attempted"]
            runs.focus()
            await pilot.press("s")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("tab", "enter")
            await settle(pilot)
            assert isinstance(app.screen, RunScreen)
            await pilot.press("escape")
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            states = column(tab.query_one("#audit-runs", DataTable), "state")
            assert states[0] == "done" and states[1].startswith("resumed by ")
            assert "2 run(s)" in str(tab.query_one("#audit-summary", Static).render())


async def test_resume_is_not_offered_read_only_nor_for_another_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path, monkeypatch) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:3]
        interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            monkeypatch.setenv(READ_ONLY_ENV, "1")
            offer_resume(app)
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert any("resuming is off: SVCTUI_READ_ONLY is set" in note.message for note in app._notifications)
            monkeypatch.delenv(READ_ONLY_ENV)
            assert app.profile is not None
            app.profile = app.profile.model_copy(update={"base_url": "http://127.0.0.1:9"})
            offer_resume(app)
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert any("resume it with the profile for that server" in note.message for note in app._notifications)
        assert len(remaining_ids(demo) & {selector.id for selector in selectors}) == 1  # the third is still there
