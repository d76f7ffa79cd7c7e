"""The Audit tab and the resume offer against the demo server and a real audit log left by an interrupted run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.cells import cell_len
from starlette.types import ASGIApp, Receive, Scope, Send
from textual.widget import Widget
from textual.widgets import Button, DataTable, Input, Static, TabbedContent
from textual.widgets.data_table import ColumnKey

from svctui.api.models import Selector
from svctui.demo.server import DemoServer
from svctui.ops.audit_lines import AuditContext, plan_line
from svctui.store.audit import append_audit, audit_path
from svctui.store.audit_read import read_audit
from svctui.store.read_only import READ_ONLY_ENV
from svctui.tui.launch import demo_profile
from svctui.tui.screens.selectors.audit_tab import INTERRUPTED, AuditTab
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from svctui.tui.screens.selectors.messages import ShowAuditTab
from svctui.tui.screens.selectors.outcome_table import OutcomeTable
from svctui.tui.screens.selectors.restore import RestoreScreen
from svctui.tui.screens.selectors.run import RunScreen
from svctui.tui.screens.selectors.screen import SelectorsScreen
from tests.support.cli import demo_env, run_binary
from tests.support.selectors import AuditHost, selectors_screen
from tests.support.selectors_run import (
    BIG_TAG_ID,
    DELETE_PATH,
    DeleteGate,
    big_tag_server,
    interrupted_log,
    remaining_ids,
    tag_selectors,
)
from tests.support.tui import make_app, settle, with_screen

pytestmark = pytest.mark.anyio

ANOTHER_TOKEN = "6e1f6ad4-5a0b-4a3c-9b3e-8a1d1c2b3e4f"  # another server: the same token id on loopback is the same demo


def column(table: DataTable[object], key: str) -> list[str]:
    """A column's cells as text."""
    return [str(cell) for cell in table.get_column(key)]


def run_ids(runs: DataTable[object]) -> list[str]:
    """The runs' ids, top to bottom (each row's key: the run column may show only an id's end)."""
    return [str(row.key.value) for row in runs.ordered_rows]


async def test_resume_is_offered_at_start_deletes_only_what_still_exists_and_names_every_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Newcomer audit too: the run sheet showed a blank name for every `not attempted` selector (the killed run
    wrote no intent line for them); the names the dialog's GET check fetched name those rows now."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:6]
        run_id = interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen), "offered on the Selectors screen, not before"
            await pilot.press("3")  # its first mount reads the audit log
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert run_id in dialog.body and " on demo server, " in dialog.body, "the server as the header names it"
            assert "1 deleted" in dialog.body and "5 selectors are unsettled" in dialog.body
            assert not dialog.query("#confirm-typed"), "up to 20: a plain confirm, no count to type"
            assert f"{selectors[1].id}  {selectors[1].name!r}" in "\n".join(dialog.listing), "named, from its intent"
            await pilot.press("tab", "enter")  # from Cancel to Resume
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RunScreen) and screen.report is not None
            assert column(screen.query_one("#run-table", DataTable), "outcome") == ["already gone", *["deleted"] * 4]
            rows = screen.query_one(OutcomeTable).values  # each row's whole values (the cells may be cut)
            assert [rows[str(selector.id)]["name"] for selector in selectors[1:]] == [s.name for s in selectors[1:]]
        assert remaining_ids(demo).isdisjoint(selector.id for selector in selectors)
        log = read_audit()
        assert log.get(run_id).resolved_by == screen.report.run_id
        assert log.last_interrupted() is None


async def test_after_a_resume_the_list_its_status_line_and_the_tag_counts_reload(tmp_path: Path) -> None:
    """Newcomer walk (issue 28, item 1): after a resume on the tag on screen the list was wrong until `r` (4 of 8
    remaining rows listed, `rows 1-4 of 244`; the tags pane said `Tier Zero 7` while the server had 8). After any
    run, a resume included, the page, its status line and the tags' counts are the server's."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:6]
        interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("tab", "enter")
            await settle(pilot)
            assert isinstance(app.screen, RunScreen) and app.screen.report is not None
            await pilot.press("escape")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, SelectorsScreen)
            left = sorted(remaining_ids(demo))
            assert screen.window.count == len(left), screen.window.count
            shown = [item.id for item in screen.selector_table.items]
            assert len(shown) == min(screen.window.limit, len(left)), len(shown)
            assert set(shown) <= set(left)
            assert screen.tags_pane.counts[BIG_TAG_ID] == len(left)
            assert f"of {len(left)}" in " · ".join(screen.status_parts())


async def test_an_interrupted_run_is_said_at_start_on_the_first_screen_with_its_key(tmp_path: Path) -> None:
    """Newcomer walk (issue 28, item 4): the resume was offered only once `3` was pressed (14 captures on Events
    showed nothing). At start, on whatever screen opens, a notice names the run and the key; another server's run
    is not said (its ids mean other selectors there)."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        run_id = interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            assert app.screen.id != "selectors" and not isinstance(app.screen, ConfirmScreen)
            said = [note for note in app.notes if run_id in note.message]
            assert len(said) == 1 and said[0].severity == "warning", [note.message for note in app.notes]
            assert "3 selectors unsettled: press 3 (Selector cleanup) to resume it" in said[0].message
        elsewhere = demo_profile(demo).model_copy(update={"base_url": "http://127.0.0.1:9", "token_id": ANOTHER_TOKEN})
        app = make_app(profile=elsewhere)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            assert not any(run_id in note.message for note in app.notes)


async def test_no_offer_when_nothing_is_interrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with big_tag_server(tmp_path) as demo:
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("3")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen) and not app.notes


async def test_an_unreadable_audit_log_is_said_at_the_first_mount(tmp_path: Path) -> None:
    """The audit log read fails (a directory where the file should be): a notification, no offer, no traceback."""
    with big_tag_server(tmp_path) as demo:
        audit_path().mkdir(parents=True)
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("3")
            await settle(pilot)
            assert app.is_running and not isinstance(app.screen, ConfirmScreen)
            notes = [note for note in app.notes if note.message.startswith("Reading the audit log failed: ")]
            assert len(notes) == 1 and "cannot read the audit log" in notes[0].message and notes[0].severity == "error"


async def test_a_reload_keeps_the_chosen_run_and_a_new_run_is_shown(tmp_path: Path) -> None:
    """Review: the cursor was put back by row number after a reload, so with a run added at the top it sat on the
    run above the chosen one, and `s`/`u` acted on that. A reload keeps the chosen run, by its id; a new run is
    shown, with the cursor on it."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        older = interrupted_log(demo, selectors[:2], run_id="20261120T091500Z-1a2b")
        newer = interrupted_log(demo, selectors[2:4], run_id="20261124T101500Z-0abc")
        async with with_screen(demo, AuditHost(), size=(160, 44)) as (app, pilot):
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            runs.focus()
            await pilot.press("down")
            await settle(pilot)
            assert tab.chosen is not None and tab.chosen.run_id == older
            tab.action_reload()
            await settle(pilot)
            assert tab.chosen is not None and tab.chosen.run_id == older, "the chosen run stays chosen"
            assert run_ids(runs)[runs.cursor_row] == older
            assert run_ids(runs) == [newer, older]
            newest = "20261126T101500Z-9f9f"  # a run started meanwhile (its plan line written, nothing sent yet)
            context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
            append_audit(plan_line(newest, context, BIG_TAG_ID, "Tier Zero", [selectors[0].id], 1, resumes=None))
            tab.action_reload()
            await settle(pilot)
            assert tab.chosen is not None and tab.chosen.run_id == newest, "a new run is shown"
            assert run_ids(runs)[runs.cursor_row] == newest, "and the cursor is on it, not on the run above the old"


async def test_audit_tab_lists_runs_newest_first_and_resumes_the_interrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        run_id = interrupted_log(demo, selectors)
        async with with_screen(demo, AuditHost(), size=(160, 44)) as (app, pilot):
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            assert run_ids(runs) == [run_id]
            assert column(runs, "state") == [INTERRUPTED]
            assert "demo" in column(runs, "who")[0] and "tester" in column(runs, "who")[0]
            names = column(tab.query_one("#audit-selectors", DataTable), "name")
            assert names[:2] == [selectors[0].name, selectors[1].name]
            outcomes = column(tab.query_one("#audit-selectors", DataTable), "outcome")
            assert outcomes == ["deleted", "in doubt (no answer)", "not attempted", "not attempted"]
            line = tab.query_one("#audit-run-line", Static)
            assert "s to resume it" in str(line.render())
            assert app.profile is not None
            ours = app.profile
            app.profile = ours.model_copy(
                update={"base_url": "http://127.0.0.1:9", "token_id": ANOTHER_TOKEN}
            )  # another server's profile
            tab.show_run(tab.chosen)
            assert "s to resume it" not in str(line.render()), "s would be refused: the run was made elsewhere"
            assert f"made on {demo.base_url}: resume or restore it with that server's profile" in str(line.render())
            app.profile = ours
            tab.show_run(tab.chosen)
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
            assert states[0] == "finished" and states[1].startswith("resumed by "), "the words of svctui audit list"
            assert column(tab.query_one("#audit-runs", DataTable), "action") == ["delete", "delete"]
            assert "2 runs in the audit log" in str(tab.query_one("#audit-summary", Static).render())


async def test_resume_is_not_offered_read_only_nor_for_another_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:3]
        interrupted_log(demo, selectors)
        monkeypatch.setenv(READ_ONLY_ENV, "1")
        app = make_app(demo)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("3")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert any("resuming is off: SVCTUI_READ_ONLY is set" in note.message for note in app.notes)
        monkeypatch.delenv(READ_ONLY_ENV)
        elsewhere = demo_profile(demo).model_copy(update={"base_url": "http://127.0.0.1:9", "token_id": ANOTHER_TOKEN})
        app = make_app(profile=elsewhere)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("3")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert any("resume it with the profile for that server" in note.message for note in app.notes)
        assert len(remaining_ids(demo) & {selector.id for selector in selectors}) == 1  # the third is still there


async def delete_through_engine(demo: DemoServer, selectors: list[Selector]) -> str:
    """A finished deletion run of `selectors` by the engine (its own audit lines); its run id."""
    from svctui.api.client import ApiClient
    from svctui.api.signing import SignatureAuth
    from svctui.ops.selector_delete import AuditContext, delete_selectors

    context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
    async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
        report = await delete_selectors(
            client, BIG_TAG_ID, [selector.id for selector in selectors], context=context, tag_name="Tier Zero"
        )
    assert report.summary().startswith(f"{len(selectors)} deleted"), report.summary()
    return report.run_id


async def test_restore_from_the_audit_tab_recreates_the_deleted_selectors_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:3]
        run_id = await delete_through_engine(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(160, 44)) as pilot:
            await settle(pilot)
            await pilot.press("3")  # the real cleanup screen: its tag counts must follow the restore
            await settle(pilot)
            cleanup = selectors_screen(app)
            before = len(tag_selectors(demo))  # the server's count (the pane's may still be loading it)
            cleanup.post_message(ShowAuditTab())
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            assert "u to restore it" in str(tab.query_one("#audit-run-line", Static).render())
            tab.query_one("#audit-runs", DataTable).focus()
            await pilot.press("u")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert run_id in dialog.title_text and repr(selectors[0].name) in dialog.listing[0]
            assert dialog.focused is not None and dialog.focused.id == "cancel"
            await pilot.press("tab", "enter")  # from Cancel to Restore 3
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RestoreScreen) and screen.finished
            assert column(screen.query_one("#restore-table", DataTable), "outcome") == ["restored"] * 3
            await pilot.press("escape")
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            assert column(runs, "action") == ["restore", "delete"] and column(runs, "state") == ["finished"] * 2
            new_ids = [f"→ {read_audit().runs[-1].entries[old.id].new_id}" for old in selectors]
            for size in ((80, 24), (160, 45)):  # a restore row's one value needed, its new id, is never cut off
                await pilot.resize_terminal(*size)
                await settle(pilot)
                table = tab.query_one("#audit-selectors", DataTable)
                width = table.columns[ColumnKey("outcome")].width
                outcomes = column(table, "outcome")
                assert all(cell_len(cell) <= width for cell in outcomes), f"{outcomes} in {width} columns ({size})"
                assert [cell.removeprefix("restored ") for cell in outcomes] == new_ids, f"{size}: {outcomes}"
            # the restore run's counts are its outcomes, as `svctui audit list` says them (was: `nothing yet`)
            assert column(runs, "counts") == ["3 restored", "3 deleted"]
            # neither key fits a restore run: dimmed in the footer, and pressing it says why (never silent)
            assert not app.active_bindings["s"].enabled and not app.active_bindings["u"].enabled
            assert app.active_bindings["s"].binding.description == "Resume run"
            await pilot.press("s", "u")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            restore_run_id = run_ids(runs)[0]
            assert [note.message for note in app.notes[-2:]] == [
                f"Run {restore_run_id} is a restore run; only deletion runs can be resumed.",
                f"Run {restore_run_id} is a restore run: it can't be restored; only a deletion run (run {run_id}) can.",
            ]
            assert cleanup.tags_pane.counts[BIG_TAG_ID] == before + 3, "the tag's count follows the restore"
            restore_id = run_ids(runs)[0]
            runs.move_cursor(row=1)  # the deletion run again
            await settle(pilot)
            line = str(tab.query_one("#audit-run-line", Static).render())
            assert line.endswith(f"finished · restored by run {restore_id}") and "u to restore" not in line
            # nothing left to re-create: `u` is dimmed as for a restore run (it was bright; walk 3, item 10)
            assert not app.active_bindings["u"].enabled
            await pilot.press("u")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)  # nothing is left to re-create: said, not asked
            assert app.notes[-1].message == (
                f"Nothing to restore: all 3 selectors of run {run_id} were restored already (restore run {restore_id})."
            )
        now = {selector.name: selector for selector in tag_selectors(demo)}
        restore = read_audit().runs[-1]
        assert restore.plan["restores"] == run_id and not restore.interrupted
        for old in selectors:
            new = now[old.name]
            assert new.id != old.id and restore.entries[old.id].new_id == new.id
            assert (new.description, new.auto_certify, new.seeds) == (old.description, old.auto_certify, old.seeds)


async def test_restore_is_hidden_read_only_and_needs_the_typed_count_above_20(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:21]
        await delete_through_engine(demo, selectors)
        async with with_screen(demo, AuditHost(), size=(160, 44)) as (app, pilot):
            tab = app.screen.query_one(AuditTab)
            tab.query_one("#audit-runs", DataTable).focus()
            monkeypatch.setenv(READ_ONLY_ENV, "1")
            assert tab.check_action("restore", ()) is False
            await pilot.press("u")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert app.notes[-1].message == "Restoring is off: SVCTUI_READ_ONLY is set.", "hidden, yet not silent"
            monkeypatch.delenv(READ_ONLY_ENV)
            await pilot.press("u")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            confirm = dialog.query_one("#confirm", Button)
            box = dialog.query_one("#confirm-typed", Input)
            assert confirm.disabled and dialog.focused is box, "a count to type: the box has the focus"
            await pilot.press("shift+tab", "2", "0")  # typed while the focus is elsewhere: they go to the box
            assert box.value == "20" and dialog.focused is box and confirm.disabled
            await pilot.press("enter")  # the wrong count: said, nothing pressed
            assert app.screen is dialog and app.notes[-1].message == "Type 21 exactly to enable Restore 21."
            await pilot.press("backspace", "1")
            assert not confirm.disabled
            await pilot.press("escape")
            await settle(pilot)
        assert remaining_ids(demo).isdisjoint(selector.id for selector in selectors)  # nothing was re-created


async def test_selector_ids_are_shown_whole_when_another_run_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default]
        short = [selector for selector in plain if selector.id < 100][:2]
        long = [selector for selector in plain if selector.id >= 100][:2]
        interrupted_log(demo, short, "20261124T101500Z-0aaa")
        interrupted_log(demo, long, "20261124T111500Z-0bbb")
        async with with_screen(demo, AuditHost(), size=(160, 44)) as (app, pilot):
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            runs.focus()
            for key in ("down", "up"):  # the older run (2-digit ids), then the newer one (3-digit ids)
                await pilot.press(key)
                await settle(pilot)
            table = tab.query_one("#audit-selectors", DataTable)
            assert column(table, "id") == [str(selector.id) for selector in long]
            shown = "\n".join(line.text for line in table.render_lines(table.region.reset_offset))
            for selector in long:
                assert f" {selector.id} " in shown, shown


async def test_the_audit_tab_takes_the_keys_as_soon_as_it_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        interrupted_log(demo, selectors[:2], "20261124T101500Z-0aaa")
        interrupted_log(demo, selectors[2:], "20261124T111500Z-0bbb")
        app = make_app(demo)
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            await pilot.press("escape")  # the offer to resume: not now
            await settle(pilot)
            screen = selectors_screen(app)
            screen.post_message(ShowAuditTab())  # what `a` after a run does
            await settle(pilot)
            runs = screen.query_one("#audit-runs", DataTable)
            assert app.focused is runs
            assert runs.row_count == 2
            more = [selector for selector in tag_selectors(demo) if not selector.is_default][:2]
            interrupted_log(demo, more, "20261124T121500Z-0ccc")  # a run written while the tab is shown
            screen.post_message(ShowAuditTab())  # `a` after it: the tab is already active, the log is read again
            await settle(pilot)
            assert runs.row_count == 3 and app.focused is runs
            runs.move_cursor(row=0)
            await pilot.press("j")  # the vi keys move in every table
            assert runs.cursor_row == 1
            await pilot.press("k", "s")  # and the tab's own keys work at once
            await settle(pilot)
            assert isinstance(app.screen, ConfirmScreen)


async def test_a_opens_the_audit_tab_and_goes_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Newcomer audit (issue 16): the Audit tab is reachable by a key, not only by a click or after a run."""
    with big_tag_server(tmp_path) as demo:
        app = make_app(demo)
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            screen = selectors_screen(app)
            await pilot.press("a")
            await settle(pilot)
            assert app.focused is screen.query_one("#audit-runs", DataTable)
            await pilot.press("a")
            await settle(pilot)
            assert app.focused is screen.selector_table


async def test_the_selector_list_keys_are_off_while_the_audit_tab_shows(demo_server: DemoServer) -> None:
    """On the Audit tab, `/`, `M` and ctrl+d acted on the selector list out of sight (and the footer listed them):
    now they do nothing there and the footer shows the tab's keys; `a` goes back and they work again."""
    from tests.support.selectors import on_cleanup

    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        footer_keys = {binding.action for _key, binding, enabled, _tooltip in app.active_bindings.values() if enabled}
        assert "mark_all_matching" not in footer_keys and "edit_filters" not in footer_keys
        await pilot.press("slash", "M", "ctrl+d")
        await settle(pilot)
        assert app.screen is screen and not screen.marks.of(screen.tag.id if screen.tag else 0).records
        await pilot.press("a", "slash")
        await settle(pilot)
        assert app.screen is not screen, "back on the Selectors tab, / opens the filter editor"


@pytest.mark.parametrize("why", ["no focus", "table asked for the keys"])
async def test_a_reload_landing_while_the_audit_tab_shows_keeps_the_tab(demo_server: DemoServer, why: str) -> None:
    """CI caught it: `a` after a run shows the Audit tab while the list reloads; when the rows landed, the list
    gave its table the focus, and focusing a widget on a hidden tab switches back to that tab."""
    from tests.support.selectors import on_cleanup

    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("a")
        await settle(pilot)
        runs = screen.query_one("#audit-runs", DataTable)
        assert app.focused is runs
        if why == "no focus":
            screen.set_focus(None)
        else:
            screen.focus_table_when_shown()
        screen.action_refresh()  # the rows land while the Audit tab shows
        await settle(pilot)
        assert screen.query_one(TabbedContent).active == "tab-audit"
        assert runs.region.height > 0
        await pilot.press("a")  # back on the Selectors tab, the table has the keys
        await settle(pilot)
        assert app.focused is screen.selector_table


async def test_a_leaves_the_audit_tab_after_a_run_without_flickering_back(fresh_demo_server: DemoServer) -> None:
    """Newcomer audit: after a run, `a` on the Audit tab showed Selectors, then Audit, then Selectors... and could
    end on Audit: the hidden run list handed the focus to its hidden sibling, and a focused widget's tab is shown."""
    from tests.support.selectors import on_cleanup

    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):  # it deletes: not the shared server
        await pilot.press("space", "ctrl+d")
        await settle(pilot)
        review = app.screen
        while review.query_one("#review-delete", Button).disabled:  # the dry run answers
            await pilot.pause(0.05)
        review.query_one("#review-delete", Button).press()
        await settle(pilot)
        while not (isinstance(app.screen, RunScreen) and app.screen.report is not None):
            await pilot.pause(0.05)
        await pilot.press("a")
        await settle(pilot)
        tabs = screen.query_one(TabbedContent)
        assert tabs.active == "tab-audit" and app.focused is screen.query_one("#audit-runs")
        shown: list[str] = []
        screen.watch(tabs, "active", lambda active: shown.append(active), init=False)
        await pilot.press("a")
        for _ in range(10):  # the flicker took a few rounds of the event loop
            await pilot.pause(0.05)
        assert shown == ["tab-selectors"] and app.focused is screen.selector_table


async def test_a_cancelled_run_is_resumed_from_the_audit_tab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Newcomer audit: a cancelled run (3 deleted, the rest skipped) could not be resumed from the dashboard — `s`
    was dimmed and silent — though `svctui selectors resume RUN_ID` resumes it; both now follow `resume_refusal`."""
    import asyncio

    from svctui.api.client import ApiClient
    from svctui.api.signing import SignatureAuth
    from svctui.ops.selector_delete import AuditContext, delete_selectors
    from svctui.store.audit import audit_path
    from tests.support.audit import audit_lines

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:8]
        cancel = asyncio.Event()
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
        async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
            report = await delete_selectors(
                client,
                BIG_TAG_ID,
                [selector.id for selector in selectors],
                context=context,
                concurrency=1,
                on_result=lambda result: cancel.set(),  # `esc` after the first answer
                cancel=cancel,
                tag_name="Tier Zero",
            )
        cancelled = report.run_id
        skipped = [result.selector_id for result in report.results if str(result.outcome) == "skipped"]
        assert str(report.stopped) == "cancelled" and skipped and len(skipped) < len(selectors)
        app = make_app(demo)
        async with app.run_test(size=(160, 44)) as pilot:
            await settle(pilot)
            await pilot.press("3")  # the real cleanup screen: its marks and counts must follow the resume
            await settle(pilot)
            cleanup = selectors_screen(app)
            by_id = {selector.id: selector for selector in selectors}
            cleanup.marks.mark(BIG_TAG_ID, [(by_id[selector_id], 0) for selector_id in skipped], "left by the run")
            before = len(tag_selectors(demo))  # the server's count (the pane's may still be loading it)
            cleanup.post_message(ShowAuditTab())
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            assert column(runs, "state") == ["stopped: cancelled"]
            # whole: it was a cell short (`stopped: cancell…`) while the later run and who columns showed
            assert runs.columns[ColumnKey("state")].width >= len("stopped: cancelled")
            line = str(tab.query_one("#audit-run-line", Static).render())
            assert line.endswith("stopped: cancelled · s to resume it · u to restore it"), line
            runs.focus()
            assert app.active_bindings["s"].enabled
            await pilot.press("s")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen) and dialog.title_text == "Resume run (stopped: cancelled)?"
            unsettled = f"{len(skipped)} selectors are" if len(skipped) > 1 else "1 selector is"
            assert f"{unsettled} unsettled" in dialog.body
            await pilot.press("tab", "enter")  # from Cancel to Resume: nothing is sent before
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RunScreen) and screen.report is not None
            assert column(screen.query_one("#run-table", DataTable), "outcome") == ["deleted"] * len(skipped)
            resumed = screen.report.run_id
            await pilot.press("escape")
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            states = column(runs, "state")  # the resume's id by its end where the column cuts it (`resumed by …fb66`)
            assert states[0] == "finished" and states[1].startswith("resumed by "), states
            assert resumed.endswith(states[1].removeprefix("resumed by ").removeprefix("…")), states
            assert not cleanup.marks.ids(BIG_TAG_ID), "the deleted selectors' marks are cleared"
            # the resume's deletions were taken off before the counts reloaded: none is left to be taken off again
            # after the server's count (a pending batch did, and the pane showed 7 fewer than the server had)
            assert cleanup.gone_timer is None and not cleanup.gone_pending
            assert cleanup.tags_pane.counts[BIG_TAG_ID] == before - len(skipped), "the tag's count follows"
            await pilot.press("s")  # the resume run: every selector settled, `s` dimmed and saying why
            await settle(pilot)
            assert app.notes[-1].message == f"Nothing to resume: every selector of run {resumed} is settled."
            runs.move_cursor(row=1)
            await settle(pilot)
            assert "s to resume" not in str(tab.query_one("#audit-run-line", Static).render())
            await pilot.press("s")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            assert app.notes[-1].message.startswith(f"Nothing to resume: run {cancelled} was resumed by run {resumed}")
        assert remaining_ids(demo).isdisjoint(selector.id for selector in selectors)
        lines = [line for line in audit_lines(audit_path()) if line.get("run") == resumed]
        assert lines[0]["event"] == "plan" and lines[0]["resumes"] == cancelled and lines[0]["ids"] == skipped
        for selector_id in skipped:  # each deletion recorded before it was sent, and again with its outcome
            events = [line["event"] for line in lines if line.get("selector_id") == selector_id]
            assert events == ["intent", "outcome"], (selector_id, events)
            (outcome,) = [line for line in lines if line.get("selector_id") == selector_id and "outcome" in line]
            assert outcome["outcome"] == "deleted" and outcome["status"] == 204
        assert lines[-1]["event"] == "end" and lines[-1]["counts"] == {"deleted": len(skipped)}


async def test_a_reload_fills_each_table_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review: a reload filled the selectors table two or three times (once for the loaded log, again for each row
    highlight the runs table's refill posted, for the run already shown). Each table is now filled once per reload,
    whether the chosen run stays or a new run is shown. Counted through the tables' public `clear`."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:4]
        older = interrupted_log(demo, selectors[:2], run_id="20261120T091500Z-1a2b")
        interrupted_log(demo, selectors[2:4], run_id="20261124T101500Z-0abc")
        async with with_screen(demo, AuditHost(), size=(160, 44)) as (app, pilot):
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            shown = tab.query_one("#audit-selectors", DataTable)
            fills: list[str] = []
            for table in (runs, shown):
                clear = table.clear

                def counting(
                    columns: bool = False, *, table: DataTable[object] = table, clear: Callable[[bool], object] = clear
                ) -> object:
                    fills.append(str(table.id))
                    return clear(columns)

                monkeypatch.setattr(table, "clear", counting)
            runs.focus()
            await pilot.press("down")
            await settle(pilot)
            assert tab.chosen is not None and tab.chosen.run_id == older
            fills.clear()
            tab.action_reload()
            await settle(pilot)
            assert tab.chosen is not None and tab.chosen.run_id == older
            assert sorted(fills) == ["audit-runs", "audit-selectors"], fills
            fills.clear()
            newest = "20261126T101500Z-9f9f"
            context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
            append_audit(plan_line(newest, context, BIG_TAG_ID, "Tier Zero", [selectors[0].id], 1, resumes=None))
            tab.action_reload()
            await settle(pilot)
            assert tab.chosen is not None and tab.chosen.run_id == newest
            assert sorted(fills) == ["audit-runs", "audit-selectors"], fills


async def test_a_run_that_ended_with_no_outcomes_says_how_it_ended(tmp_path: Path) -> None:
    """Review: a run whose end line holds no outcomes (it stopped, or finished, before sending any request) showed
    `nothing yet` in the counts column, as if it were still going. It says how it ended now; the end lines are the
    engine's own (end_line over no results), appended to the real audit log."""
    from svctui.ops.audit_lines import end_line
    from svctui.ops.outcomes import Stopped

    with big_tag_server(tmp_path) as demo:
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
        ids = [selector.id for selector in tag_selectors(demo)[:2]]
        stopped, empty = "20261124T101500Z-5t0p", "20261124T111500Z-e3p7"
        append_audit(plan_line(stopped, context, BIG_TAG_ID, "Tier Zero", ids, 4, resumes=None))
        append_audit(end_line(stopped, [], Stopped.UNREACHABLE))
        append_audit(plan_line(empty, context, BIG_TAG_ID, "Tier Zero", [], 4, resumes=None))
        append_audit(end_line(empty, [], None))
        async with with_screen(demo, AuditHost(), size=(240, 30)) as (app, _pilot):
            runs = app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable)
            counts = dict(zip(run_ids(runs), column(runs, "counts"), strict=True))
            assert counts == {
                empty: "no outcomes: the run planned no selectors",
                stopped: f"no outcomes: stopped ({Stopped.UNREACHABLE}) before any request",
            }
            line = str(app.screen.query_one("#audit-run-line", Static).render())
            assert line.startswith(f"Run {empty}: no outcomes: the run planned no selectors"), (
                "the run's line says it whole (the counts column may be cut on a narrow screen)"
            )


def inside(widget: Widget, height: int) -> bool:
    """True when the widget is laid out wholly within the screen's rows above the footer."""
    region = widget.region
    return region.height > 0 and region.y >= 0 and region.bottom <= height - 1


async def test_a_resume_above_20_names_every_selector_and_needs_the_count_typed(tmp_path: Path) -> None:
    """Newcomer audit: `s` on a run killed mid-way said only `84 selectors are unsettled` with Cancel / Resume and
    deleted what nobody had reviewed. The dialog now lists each unsettled selector by name (or id) under its last
    state and what the resume does to it; above 20 the count is typed, as in a fresh deletion's review; it fits."""
    from svctui.ops.audit_lines import intent_line, outcome_line, selector_record
    from svctui.ops.outcomes import DeleteResult, Outcome
    from svctui.tui.screens.selectors.resume import start_resume

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:23]
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "root")
        run_id = "20261126T121731Z-5e1f"
        ids = [selector.id for selector in selectors]
        plan = plan_line(run_id, context, BIG_TAG_ID, "Tier Zero", ids, 1, resumes=None)
        append_audit({**plan, "ts": "2026-11-26T12:17:31.618Z"})
        for selector in selectors[:22]:  # the first deleted, 21 failed; the last never tried (no record: its id)
            append_audit(intent_line(run_id, BIG_TAG_ID, selector.id, selector_record(selector)))
            outcome = Outcome.DELETED if selector is selectors[0] else Outcome.FAILED
            append_audit(outcome_line(run_id, BIG_TAG_ID, DeleteResult(selector.id, outcome, status=500)))
        app = make_app(demo)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            start_resume(app, read_audit().get(run_id))
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert "started 2026-11-26 12:17:31Z by profile demo, user root on" in dialog.body, "no raw ISO time"
            assert "\n" not in dialog.body, "the question wraps to the dialog's width"
            failed, untried = selectors[1:22], selectors[22]
            assert dialog.listing[0].startswith("Checked with GET just now"), "a dry run, as the review's"
            assert dialog.listing[1] == "22 still there: will be deleted:"
            listed = "\n".join(dialog.listing)
            shown = dialog.query_one("#confirm-listing")  # issue 28: at 80x24 the view held id ranges, no names
            in_view = "\n".join(strip.text for strip in shown.query_one(Static).render_lines(shown.region.reset_offset))
            assert f"{selectors[1].id}  {selectors[1].name!r}" in in_view, in_view
            assert all(f"{selector.id}  {selector.name!r}" in listed for selector in [*failed, untried]), listed
            confirm = dialog.query_one("#confirm", Button)
            box = dialog.query_one("#confirm-typed", Input)
            assert str(confirm.label) == "Resume 22" and confirm.disabled
            assert dialog.focused is box, "a count to type: the box has the focus"
            for widget in (dialog.query_one(".confirm-title"), box, confirm, dialog.query_one("#cancel")):
                assert inside(widget, 24), f"{widget} is off the 80x24 screen: {widget.region}"
            await pilot.press("enter")  # in the empty box: said, nothing sent
            assert app.screen is dialog and app.notes[-1].message == "Type 22 exactly to enable Resume 22."
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen)
            start_resume(app, read_audit().get(run_id))
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            confirm = dialog.query_one("#confirm", Button)
            await pilot.press("2", "1", "enter")  # the wrong count: said, Resume stays off
            assert confirm.disabled and app.notes[-1].message == "Type 22 exactly to enable Resume 22."
            await pilot.press("backspace", "2")
            assert not confirm.disabled
            await pilot.resize_terminal(160, 45)  # the listing is fitted again: more of it shows, the buttons stay
            await settle(pilot)
            listing = dialog.query_one("#confirm-listing")
            assert listing.region.height > 4 and inside(confirm, 45) and inside(dialog.query_one(".confirm-title"), 45)
            await pilot.press("escape")
            await settle(pilot)
        assert read_audit().get(run_id).resolved_by is None and len(read_audit().runs) == 1, "nothing was resumed"


async def test_the_restore_dialog_folds_skipped_ids_into_ranges_and_fits_the_screen(tmp_path: Path) -> None:
    """Newcomer audit: `u` on a run with 40 `not part of tag` ids filled the dialog with one line per id, pushed the
    title and question off the screen and covered the footer: now one line per reason, ids as ranges."""
    from svctui.ops.audit_lines import intent_line, outcome_line, selector_record
    from svctui.ops.outcomes import DeleteResult, Outcome
    from svctui.text import id_ranges
    from tests.support.selectors_run import delete_now

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:3]
        outside = [*range(90_001, 90_039), 90_050, 90_060]
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "root")
        run_id = "20261126T121731Z-77aa"
        ids = [*(selector.id for selector in selectors), *outside]
        append_audit(plan_line(run_id, context, BIG_TAG_ID, "Tier Zero", ids, 1, resumes=None))
        for selector in selectors:
            append_audit(intent_line(run_id, BIG_TAG_ID, selector.id, selector_record(selector)))
            delete_now(demo, selector.id)
            append_audit(outcome_line(run_id, BIG_TAG_ID, DeleteResult(selector.id, Outcome.DELETED, status=204)))
        for selector_id in outside:
            append_audit(intent_line(run_id, BIG_TAG_ID, selector_id, None))
            append_audit(outcome_line(run_id, BIG_TAG_ID, DeleteResult(selector_id, Outcome.NOT_IN_TAG, status=404)))
        for size in ((80, 24), (160, 45)):
            async with with_screen(demo, AuditHost(), size=size) as (app, pilot):
                app.screen.query_one("#audit-runs", DataTable).focus()
                await pilot.press("u")
                await settle(pilot)
                dialog = app.screen
                assert isinstance(dialog, ConfirmScreen)
                disabled = [selector.id for selector in selectors if selector.disabled_at]
                comes = "comes" if len(disabled) == 1 else "come"
                reasons = (
                    "  40 skipped, not deleted by the run (not part of tag): 90001-90038, 90050, 90060",
                    *(
                        [f"  {len(disabled)} disabled when deleted {comes} back enabled: {id_ranges(disabled)}"]
                        * bool(disabled)
                    ),
                )
                assert dialog.listing[-len(reasons) :] == reasons
                # before them, each selector to re-create with its seeds (issue 25: every seed, whole)
                heads = [line for line in dialog.listing[: -len(reasons)] if not line.startswith("      ")]
                assert heads == [
                    f"  {s.id} {s.name!r}: {len(s.seeds)} seed{'s' * (len(s.seeds) != 1)}" for s in selectors
                ]
                assert "\n" not in dialog.body
                for widget in (dialog.query_one(".confirm-title"), dialog.query_one("#confirm")):
                    assert inside(widget, size[1]), f"{widget} is off the {size} screen: {widget.region}"
                await pilot.press("escape")
                await settle(pilot)


class LookupGate(DeleteGate):
    """Holds every GET of one selector (the resume dialog's check) until `release()`."""

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """The ASGI app that holds selector lookups at the gate."""

        async def gated(scope: Scope, receive: Receive, send: Send) -> None:
            path = scope.get("path", "") if scope["type"] == "http" else ""
            if DELETE_PATH.match(path) and scope.get("method") == "GET":
                await asyncio.to_thread(self.opened.wait)
            await app(scope, receive, send)

        return gated


async def test_resume_stays_off_until_the_check_with_get_has_answered(tmp_path: Path) -> None:
    """The resume dialog's dry run must answer before Resume can be pressed (as the review's Delete)."""
    from svctui.tui.screens.selectors.resume import start_resume

    gate = LookupGate()
    with big_tag_server(tmp_path, gate=gate) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:6]
        run_id = interrupted_log(demo, selectors)
        app = make_app(demo)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            start_resume(app, read_audit().get(run_id))
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert dialog.listing[0].startswith("Checking each with GET…")
            assert dialog.query_one("#confirm", Button).disabled, "no count to type (5), yet the check has not answered"
            gate.release()
            await settle(pilot)
            assert dialog.listing[0].startswith("Checked with GET just now")
            assert "1 gone already: settled without a DELETE" in dialog.listing[1]
            assert not dialog.query_one("#confirm", Button).disabled


async def test_the_audit_tabs_restore_never_recreates_an_extensions_selector_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: `u` on a run that deleted an extension-owned and a disabled selector re-creates the disabled one
    only; the dialog says why the other is left; a run of the extension's selector alone says why in one line."""
    with big_tag_server(tmp_path) as demo:
        every = tag_selectors(demo)
        owned = [selector for selector in every if selector.extension_owned]
        disabled = next(s for s in every if s.disabled_at is not None and not s.is_default)
        alone = await delete_through_engine(demo, owned[1:])
        run_id = await delete_through_engine(demo, [owned[0], disabled])
        app = make_app(demo)
        async with app.run_test(size=(160, 44)) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            selectors_screen(app).post_message(ShowAuditTab())
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            runs.focus()
            assert run_ids(runs)[:2] == [run_id, alone]
            await pilot.press("u")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen) and "Re-create 1 selector" in dialog.title_text
            listing = " ".join(dialog.listing)
            assert (
                f"1 skipped, owned by an extension (extension 1, rule {owned[0].rule_key}): the extension " in listing
            )
            assert "re-creates it at its next sync" in listing
            await pilot.press("tab", "enter")
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, RestoreScreen) and screen.finished
            assert column(screen.query_one("#restore-table", DataTable), "outcome") == ["restored"]
            await pilot.press("escape")
            await settle(pilot)
            runs = app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable)
            runs.focus()
            runs.move_cursor(row=run_ids(runs).index(alone), animate=False)
            await settle(pilot)
            await pilot.press("u")
            await settle(pilot)
            said = app.notes[-1].message
            assert said.startswith(f"Nothing to restore in run {alone}: 1 can't be re-created ({owned[1].id}): owned")
            assert "the extension re-creates it at its next sync" in said
        now = tag_selectors(demo)
        assert [selector.name for selector in now].count(disabled.name) == 1
        namesakes = [selector.rule_key for selector in now if selector.name == owned[0].name]
        assert namesakes == [owned[0].rule_key], "no plain copy: the extension's sync (the tag list) made its own"


async def test_a_restore_waiting_for_another_restores_lock_says_so(tmp_path: Path) -> None:
    """Issue 28: a restore waiting for another restore's lock (another svctui restoring) showed nothing while it
    waited: the sheet's status line says so, then the restore goes on once the lock is free."""
    from svctui.ops.selector_restore import plan_restore
    from svctui.store.audit import try_lock_restores, unlock_restores
    from svctui.tui.screens.selectors.restore import WAITING_FOR_LOCK

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:2]
        run_id = await delete_through_engine(demo, selectors)
        before = len(tag_selectors(demo))
        held = try_lock_restores()
        assert held is not None
        app = make_app(demo)
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                sheet = RestoreScreen(plan_restore(read_audit(), run_id))
                app.push_screen(sheet)
                status: Static | None = None
                for _ in range(100):
                    await pilot.pause(0.05)
                    status = sheet.query_one("#restore-status", Static)
                    if str(status.render()) == WAITING_FOR_LOCK:
                        break
                assert status is not None and str(status.render()) == WAITING_FOR_LOCK
                assert len(tag_selectors(demo)) == before, "nothing is sent while it waits"
                unlock_restores(held)
                held = None
                await settle(pilot)
                assert sheet.finished and "2 restored" in str(status.render())
                assert len(tag_selectors(demo)) == before + 2
        finally:
            if held is not None:
                unlock_restores(held)


async def test_a_resume_of_many_scattered_selectors_shows_names_at_80x24(tmp_path: Path) -> None:
    """Issue 28: at 80x24 the resume dialog listed ids instead of names: the group heading carried every id as ranges
    (`39 still there: will be deleted (3, 5, 8, …)`), which wrapped over the few lines the listing has. The heading
    now says the count; the lines under it name each selector, and the first ones are in view."""
    from svctui.ops.audit_lines import intent_line, outcome_line, selector_record
    from svctui.ops.outcomes import DeleteResult, Outcome
    from svctui.tui.screens.selectors.resume import start_resume

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:160:4]  # scattered ids
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "root")
        run_id = "20261126T121731Z-7c0d"
        plan = plan_line(
            run_id, context, BIG_TAG_ID, "Tier Zero", [selector.id for selector in selectors], 1, resumes=None
        )
        append_audit({**plan, "ts": "2026-11-26T12:17:31.618Z"})
        for selector in selectors:  # every one failed: all unsettled, all still there
            append_audit(intent_line(run_id, BIG_TAG_ID, selector.id, selector_record(selector)))
            append_audit(outcome_line(run_id, BIG_TAG_ID, DeleteResult(selector.id, Outcome.FAILED, status=500)))
        app = make_app(demo)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            start_resume(app, read_audit().get(run_id))
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            shown = dialog.query_one("#confirm-listing")
            in_view = "\n".join(strip.text for strip in shown.query_one(Static).render_lines(shown.region.reset_offset))
            assert f"{selectors[0].id}  {selectors[0].name!r}" in in_view, in_view
            assert f"{len(selectors)} still there: will be deleted:" in in_view


async def test_restoring_a_resumed_run_from_the_audit_tab_says_what_its_resumes_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: the Audit tab's restore of a run a resume finished re-creates what the resume deleted too, and
    its listing says so first."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:6]
        run_id = interrupted_log(demo, selectors)
        resumed = run_binary(["selectors", "resume", run_id, "--yes"], env=demo_env(demo))
        assert resumed.code == 0, resumed.stderr
        resume_id = read_audit().runs[-1].run_id
        app = make_app(demo)
        async with app.run_test(size=(160, 44)) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            selectors_screen(app).post_message(ShowAuditTab())
            await settle(pilot)
            runs = app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable)
            assert run_ids(runs) == [resume_id, run_id]
            runs.focus()
            await pilot.press("down", "u")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen) and run_id in dialog.title_text
            # the first deleted, the second sent and done (no answer: the resume found it gone), 4 the resume deleted
            assert dialog.listing[0] == f"  2 deleted by this run, 4 by its resumes {resume_id}"
            assert "not deleted by the run" not in "\n".join(dialog.listing)


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_a_resumed_run_names_its_resume_by_its_end_and_counts_in_the_restore_words(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The Audit tab cut a state to `resumed by…` (80 columns) or `resumed by 20261205…` (160), the part every run of
    a day shares; its counts (`1 deleted, 1 in doubt, 4 not attempted`) and the restore's `2 deleted by this run,
    4 by its resumes R` read as two stories under `Re-create 6 selectors deleted by run R0?`. The state keeps the
    resume's end (`resumed by …c47a`, the suffix `svctui audit show` takes); the run line and the restore say who
    deleted what in the same words, and the restore's title names the resumes."""
    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:6]
        run_id = interrupted_log(demo, selectors)
        resumed = run_binary(["selectors", "resume", run_id, "--yes"], env=demo_env(demo))
        assert resumed.code == 0, resumed.stderr
        resume_id = read_audit().runs[-1].run_id
        app = make_app(demo)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            selectors_screen(app).post_message(ShowAuditTab())
            await settle(pilot)
            tab = app.screen.query_one(AuditTab)
            runs = tab.query_one("#audit-runs", DataTable)
            assert run_ids(runs) == [resume_id, run_id]
            state = column(runs, "state")[1]
            assert state.startswith("resumed by …") and resume_id.endswith(state.removeprefix("resumed by …")), state
            assert len(state) >= len("resumed by …") + 4 and cell_len(state) <= runs.columns[ColumnKey("state")].width
            assert {"tag", "counts"} <= {str(key.value) for key in runs.columns}  # still what a run is chosen by
            runs.focus()
            await pilot.press("down")
            await settle(pilot)
            line = str(tab.query_one("#audit-run-line", Static).render()).replace("\n", " ")
            assert f"resumed by {resume_id}: 2 deleted by this run, 4 by its resumes" in line, line
            await pilot.press("u")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert f"deleted by run {run_id} and its resumes?" in dialog.title_text
            assert dialog.body.startswith(f"Run {run_id} and its resumes deleted these selectors"), dialog.body
            assert dialog.listing[0] == f"  2 deleted by this run, 4 by its resumes {resume_id}"


async def test_a_stopped_state_is_whole_at_80_columns_where_the_counts_lose_no_line(tmp_path: Path) -> None:
    """At 80 columns `stopped: cancelled` read `stopped: c…` (then `stopped: cancel…`) beside counts given the room
    first, though `1 deleted,` / `7 skipped` took two lines at either width: the counts give the state the cells
    they do not need."""
    from svctui.ops.audit_lines import end_line, intent_line, outcome_line, selector_record
    from svctui.ops.outcomes import DeleteResult, Outcome, Stopped
    from svctui.table_fit import wrapped

    with big_tag_server(tmp_path) as demo:
        selectors = [selector for selector in tag_selectors(demo) if not selector.is_default][:8]
        context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
        run_id = "20261124T101500Z-0abc"
        ids = [selector.id for selector in selectors]
        append_audit(plan_line(run_id, context, BIG_TAG_ID, "Tier Zero", ids, 1, resumes=None))
        deleted = DeleteResult(selectors[0].id, Outcome.DELETED, status=204, request_id="r-1")
        append_audit(intent_line(run_id, BIG_TAG_ID, selectors[0].id, selector_record(selectors[0])))
        append_audit(outcome_line(run_id, BIG_TAG_ID, deleted))
        skipped = [DeleteResult(selector.id, Outcome.SKIPPED) for selector in selectors[1:]]
        append_audit(end_line(run_id, [deleted, *skipped], Stopped.CANCELLED))
        app = make_app(demo)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.push_screen(AuditHost())
            await settle(pilot)
            runs = app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable)
            widths = {str(key.value): column.width for key, column in runs.columns.items()}
            assert column(runs, "state") == ["stopped: cancelled"] and widths["state"] >= len("stopped: cancelled")
            assert {"when", "action", "tag", "counts"} <= set(widths), widths
            counts = read_audit().get(run_id).counts_text
            assert len(wrapped(counts, widths["counts"])) == len(wrapped(counts, widths["counts"] + 2)), counts
