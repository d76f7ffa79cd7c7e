"""Every yes/no dialog keeps one convention (svctui.tui.widgets.dialog.ConfirmDialog): Cancel left and focused (the
typed-count box when there is one), the action right, in $error when destructive; enter on open never confirms;
escape cancels; enter in the count box confirms only with the right count. Against a demo server and a real log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from svctui.api.client import ApiClient
from svctui.api.signing import SignatureAuth
from svctui.demo.server import DemoServer
from svctui.ops.selector_delete import AuditContext, delete_selectors
from svctui.store.audit_read import read_audit
from svctui.tui.screens.selectors.prompts import ConfirmMarks
from svctui.tui.screens.selectors.restore import RestoreScreen, start_restore
from svctui.tui.screens.selectors.resume import start_resume
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.screens.selectors.run import RunScreen
from svctui.tui.widgets.dialog import ConfirmDialog
from tests.support.selectors_run import BIG_TAG_ID, big_tag_server, interrupted_log, plan_of, tag_selectors
from tests.support.tui import RecordingApp, make_app, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def finished_run(demo: DemoServer, ids: list[int]) -> str:
    """A finished deletion run of `ids` by the engine (its own audit lines): a run the Audit tab can restore."""
    context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
    async with ApiClient(demo.base_url, SignatureAuth(demo.token_id, demo.token_key)) as client:
        report = await delete_selectors(client, BIG_TAG_ID, ids, context=context, tag_name="Tier Zero")
    return report.run_id


async def opened(pilot: Pilot[Any], push: Callable[[], object], *, destructive: bool = True) -> ConfirmDialog:
    """Open a dialog and check the convention: Cancel left, the action right (its variant), the focus."""
    push()
    await settle(pilot)
    dialog = pilot.app.screen
    assert isinstance(dialog, ConfirmDialog), type(dialog).__name__
    cancel, action = dialog.query_one(".dialog-buttons").query(Button)
    assert (str(cancel.label), cancel.id) == ("Cancel", dialog.CANCEL_ID), "Cancel on the left"
    assert action.id == dialog.ACTION_ID and action.variant == ("error" if destructive else "default")
    box = dialog.box()
    assert dialog.focused is (box if box is not None else cancel), "the safe choice (or the count box) has the focus"
    return dialog


async def enter_then_escape(
    pilot: Pilot[Any], push: Callable[[], object], answers: list[Any], *, destructive: bool = True
) -> None:
    """Enter on open does not confirm; escape cancels (each on a freshly opened dialog)."""
    app: RecordingApp = pilot.app  # type: ignore[assignment]
    dialog = await opened(pilot, push, destructive=destructive)
    await pilot.press("enter")
    await settle(pilot)
    if dialog.box() is not None:  # enter in the empty count box: said, the dialog stays
        assert app.screen is dialog and app.notes[-1].message.startswith("Type ")
        await pilot.press("escape")
        await settle(pilot)
    assert app.screen is not dialog and answers[-1] is False
    await opened(pilot, push, destructive=destructive)
    await pilot.press("escape")
    await settle(pilot)
    assert not isinstance(app.screen, ConfirmDialog) and answers[-1] is False


async def test_every_confirm_dialog_cancels_on_enter_and_escape_and_confirms_only_the_typed_count(
    tmp_path: Path,
) -> None:
    with big_tag_server(tmp_path) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default]
        run_id = interrupted_log(demo, plain[:3])
        restorable = await finished_run(demo, [selector.id for selector in plain[3:5]])
        big = plan_of(demo, plain[5:27])  # 22: the count is typed
        app = make_app(demo)
        answers: list[Any] = []
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            marks = ConfirmMarks("Mark 120 selectors?", ("Matching name ∋ s: 120 selectors",))
            await enter_then_escape(pilot, lambda: app.push_screen(marks, answers.append), answers, destructive=False)
            small = plan_of(demo, plain[5:8])
            await enter_then_escape(pilot, lambda: app.push_screen(ReviewScreen(small), answers.append), answers)
            await enter_then_escape(pilot, lambda: app.push_screen(ReviewScreen(big), answers.append), answers)

            def resume() -> None:
                start_resume(app, read_audit().get(run_id), on_closed=lambda: answers.append("resumed"))

            def restore() -> None:
                log = read_audit()
                start_restore(app, log, log.get(restorable), on_closed=lambda: answers.append("restored"))

            for push in (resume, restore):
                answers.append(False)  # these two say no by not running: nothing is appended
                await enter_then_escape(pilot, push, answers)
                assert not isinstance(app.screen, (RunScreen, RestoreScreen))
            assert read_audit().get(run_id).resolved_by is None and len(read_audit().runs) == 2, "nothing ran"

            review = await opened(pilot, lambda: app.push_screen(ReviewScreen(big), answers.append))
            await pilot.press("2", "1", "enter")  # the wrong count: said, nothing confirmed
            assert app.screen is review and app.notes[-1].message.startswith("Type 22 exactly")
            await pilot.press("backspace", "2", "enter")  # the right count, the dry run answered: confirmed
            await settle(pilot)
            assert app.screen is not review and answers[-1] is True
