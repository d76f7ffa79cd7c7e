"""The cleanup review (pushed from a dashboard on a demo server): names, why, dry run, impact, typed count."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, DataTable, Input, Static

from svctui.demo.server import DemoServer
from svctui.store.read_only import READ_ONLY_ENV
from svctui.tui.screens.selectors.impact import kinds_text
from svctui.tui.screens.selectors.prompts import TypeIds
from svctui.tui.screens.selectors.review import CONFIRM_TYPED_ABOVE, ReviewScreen
from tests.support.demo_http import signed
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import BIG_TAG_ID, DeleteGate, big_tag_server, delete_now, plan_of, tag_selectors
from tests.support.tui import burst, make_app, settle, with_screen

pytestmark = pytest.mark.anyio


def member_counts(demo: DemoServer, selector_id: int) -> int:
    """The selector's `total_count` as the server answers it (plain HTTP, outside the app)."""
    return int(member_counts_body(demo, selector_id)["total_count"])


def member_kinds(demo: DemoServer, selector_id: int) -> dict[str, int]:
    """The selector's member count per object kind as the server answers it (plain HTTP, outside the app)."""
    return {kind: int(count) for kind, count in member_counts_body(demo, selector_id)["counts"].items()}


def member_counts_body(demo: DemoServer, selector_id: int) -> dict[str, Any]:
    """The `data` of the selector's `members/counts` answer."""
    with signed(demo) as http:
        body = http.get(f"/api/v2/asset-group-tags/{BIG_TAG_ID}/selectors/{selector_id}/members/counts").json()
    return dict(body["data"])


def text_of(screen: ReviewScreen, selector: str) -> str:
    """The text a Static shows."""
    return str(screen.query_one(selector, Static).render())


async def test_review_shows_the_dry_run_per_selector_and_confirms_only_with_the_typed_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = tag_selectors(demo)
        defaults = [selector for selector in selectors if selector.is_default][:2]
        plain = [selector for selector in selectors if not selector.is_default][:20]
        delete_now(demo, plain[0].id)
        plan = plan_of(demo, [*defaults, *plain], unknown_ids=(999_999,))
        answers: list[bool | None] = []
        async with with_screen(demo, ReviewScreen(plan), answered=answers.append) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            table = screen.query_one("#review-table", DataTable)
            column = [str(cell) for cell in table.get_column("preview")]
            assert column[:2] == ["would be refused: default selector"] * 2
            assert column[2] == "already gone", "listed when marked, gone now"
            assert column[3:22] == ["would delete"] * 19
            assert column[22] in ("not found", "not part of tag"), "never listed: nobody deleted it"
            assert "Why these: name ~ old" in text_of(screen, "#review-why")
            assert "Profile demo on demo server" in text_of(screen, "#review-where")
            assert "Impact:" in text_of(screen, "#review-impact")
            assert screen.focused is screen.query_one("#review-typed", Input), "a count to type: the box has the focus"
            delete = screen.query_one("#review-delete", Button)
            assert delete.disabled  # 23 marked: a count must be typed
            # the dry run settled 4 (2 defaults, 1 gone, the unknown id): 19 are to be sent; the count typed stays 23
            assert sorted(screen.left_out) == sorted([*(s.id for s in defaults), plain[0].id, 999_999])
            assert text_of(screen, "#review-title").startswith("Delete 19 of the 23 marked selectors")
            assert "The run sends 19 selectors; 4 left out (gone, default, another tag's)" in text_of(
                screen, "#review-left-out"
            )
            screen.query_one("#review-typed", Input).value = "19"  # what is sent: not the count asked for
            await pilot.pause()
            assert delete.disabled
            screen.query_one("#review-typed", Input).value = "23"  # every marked one, as the box asked on open
            await pilot.pause()
            assert not delete.disabled and str(delete.label) == "Delete 19"
            assert [selector.id for selector in screen.plan_to_send().selectors] == [s.id for s in plain[1:]]
            assert screen.plan_to_send().unknown_ids == ()
            await pilot.click("#review-delete")
            await settle(pilot)
        assert answers == [True]


async def test_review_cancel_is_the_default_and_read_only_has_no_delete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        plan = plan_of(demo, [selector for selector in tag_selectors(demo) if not selector.is_default][:3])
        answers: list[bool | None] = []
        async with with_screen(demo, ReviewScreen(plan), answered=answers.append) as (app, pilot):
            assert not app.screen.query_one("#review-delete", Button).disabled  # 3: no typed count
            await pilot.press("enter")  # Cancel has the focus
            await settle(pilot)
            monkeypatch.setenv(READ_ONLY_ENV, "1")
            app.push_screen(ReviewScreen(plan), answers.append)
            await settle(pilot)
            assert not app.screen.query("#review-delete")
            assert "SVCTUI_READ_ONLY is set" in text_of(app.screen, "#review-readonly")  # type: ignore[arg-type]
            await pilot.press("escape")
            await settle(pilot)
        assert answers == [False, False]


async def test_review_shows_the_impact_per_selector_by_kind_and_the_total(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = {3: {"User": 5, "Computer": 2}, 4: {"Computer": 1}, 5: {}}
    with big_tag_server(tmp_path, gate=DeleteGate(member_counts=counts)) as demo:
        plan = plan_of(demo, [selector for selector in tag_selectors(demo) if selector.id in counts])
        async with with_screen(demo, ReviewScreen(plan)) as (app, _pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            table = screen.query_one("#review-table", DataTable)
            assert [str(cell) for cell in table.get_column("members")] == ["7", "1", "0"]
            assert [str(cell) for cell in table.get_column("kinds")] == ["User 5, Computer 2", "Computer 1", "0"]
            assert text_of(screen, "#review-impact") == "Impact: 8 tagged objects (User 5, Computer 3)"


async def test_review_says_when_the_server_has_no_member_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path, gate=DeleteGate(counts_missing=True)) as demo:
        plan = plan_of(demo, [selector for selector in tag_selectors(demo) if not selector.is_default][:2])
        async with with_screen(demo, ReviewScreen(plan)) as (app, _pilot):
            assert isinstance(app.screen, ReviewScreen)
            assert text_of(app.screen, "#review-impact") == "Impact: member counts not available on this server"


async def test_review_impact_skips_a_selector_of_another_tag_and_counts_the_rest(demo_server: DemoServer) -> None:
    """Newcomer audit: `i 55 1` on Tier One (1 is another tag's) said `Impact: incomplete (not available on this
    server); so far …`: the 404 `selector is not part of asset group tag` of members/counts stopped the count."""
    enabled = [s for s in tag_selectors(demo_server) if not s.is_default and s.disabled_at is None]
    mine = enabled[:2]  # a disabled one's counts answer 409 (its own test below)
    other = tag_selectors(demo_server, 2)[0]
    total = sum(member_counts(demo_server, selector.id) for selector in mine)  # the server's counts, over HTTP
    kinds = [member_kinds(demo_server, selector.id) for selector in mine]
    async with with_screen(demo_server, ReviewScreen(plan_of(demo_server, mine, (other.id,)))) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        table = screen.query_one("#review-table", DataTable)
        previews = [str(cell) for cell in table.get_column("preview")]
        assert previews == ["would delete", "would delete", "not part of tag"]
        assert [str(cell) for cell in table.get_column("kinds")] == [*map(kinds_text, kinds), ""]
        assert text_of(screen, "#review-impact") == (
            f"Impact: {total:,} tagged objects ({kinds_text(dict(sum(map(Counter, kinds), Counter())))}); "
            f"1 not part of the tag, skipped ({other.id})"
        )


async def test_nothing_that_would_be_deleted_keeps_delete_off_and_a_wrong_count_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = tag_selectors(demo)
        defaults = [selector for selector in selectors if selector.is_default][:1]
        gone = [selector for selector in selectors if not selector.is_default][:1]
        delete_now(demo, gone[0].id)
        other_tag = tag_selectors(demo, 2)[0]
        plan = plan_of(demo, [*defaults, *gone], unknown_ids=(other_tag.id,))
        async with with_screen(demo, ReviewScreen(plan)) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            assert "None of these would be deleted" in text_of(screen, "#review-left-out")
            button = screen.query_one("#review-delete", Button)
            assert button.disabled, "a run that can only fail is not offered"
            assert str(button.label) == "Delete 0", "the button names what would be sent: nothing (was `Delete 2`)"
        many = [selector for selector in selectors if not selector.is_default][1:23]
        async with with_screen(demo, ReviewScreen(plan_of(demo, many))) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            screen.query_one("#review-typed", Input).focus()
            await pilot.press(*"21", "enter")
            await pilot.pause()
            assert any("Type 22 exactly" in note.message for note in app.notes)


async def test_hundreds_of_typed_ids_leave_the_list_the_count_box_and_the_buttons_in_view_at_80x24(
    demo_server: DemoServer,
) -> None:
    """Newcomer audit: `i` with 500 ids (most not in the tag), then ctrl+d at 80x24: `Why these: typed ids 1 3 5 …`
    filled the dialog, and the list, the count box, Cancel and Delete were out of view (Down and Tab did not bring
    them back). Every line that grows is cut to fit (`… and N more`); the list keeps rows; the rest stays in view."""
    typed = " ".join(str(number) for number in range(1, 1000, 2))  # 500 ids, none next to another: 500 ranges
    async with on_cleanup(demo_server, size=(80, 24)) as (app, pilot, screen):
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, TypeIds)
        app.screen.query_one("#ids", Input).value = typed
        await pilot.press("enter")
        await settle(pilot)
        assert screen.tag is not None and len(screen.marks.ids(screen.tag.id)) > CONFIRM_TYPED_ABOVE
        assert not screen.marks.of(screen.tag.id).unknown, "ids not in the tag are rejected, not marks"
        await pilot.press("ctrl+d")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        shown, sheet = review.region, review.query_one(".sheet").region
        for part in ("#review-cancel", "#review-delete", "#review-typed", "#review-title"):
            region = review.query_one(part).region
            assert region.area and shown.contains_region(region), f"{part} at {region}, the screen is {shown}"
            assert sheet.contains_region(region), f"{part} at {region}, out of the dialog's {sheet}"
        why = text_of(review, "#review-why")
        assert why.startswith("Why these: typed ids ") and re.search(r"… and \d+ more$", why), why
        assert review.query_one("#review-why").region.height == 1
        table = review.query_one("#review-table", DataTable)
        assert table.region.height - 1 >= 3, f"the list shows {table.region.height - 1} rows"


async def test_a_wrong_count_enter_and_backspaces_in_one_burst_keep_the_keys_typed_after(tmp_path: Path) -> None:
    """Issue 28's W5, reproduced in tmux at 80x24: `73` enter, backspace twice, `22` sent together left `73` in the
    count box. The backspaces are bound keys: a plain Input runs them after the digits queued behind them, which they
    ate. The box runs each key in the order typed."""
    with big_tag_server(tmp_path) as demo:
        many = [selector for selector in tag_selectors(demo) if not selector.is_default][:22]
        async with with_screen(demo, ReviewScreen(plan_of(demo, many))) as (app, pilot):
            review = app.screen
            assert isinstance(review, ReviewScreen)
            box = review.query_one("#review-typed", Input)
            box.focus()
            await settle(pilot)
            burst(pilot, *"73", "enter", "backspace", "backspace", *"22")
            await settle(pilot)
            assert box.value == "22"
            assert app.screen is review, "enter with `73` confirms nothing, whatever was typed after it"
            assert any("Type 22 exactly" in note.message for note in app.notes), "the wrong count was said"
            assert not review.query_one("#review-delete", Button).disabled


async def test_the_count_to_type_stays_the_count_marked_when_the_dry_run_finds_ids_gone(tmp_path: Path) -> None:
    """A walker typed the count the review asked for while its dry run ran; when the dry run found ids gone, the
    count asked for changed under their eyes (25 to 23) and their 25 was refused. The count to type is the count
    marked, asked once; what the dry run found is said apart (its line, the title, the button: what is sent)."""
    with big_tag_server(tmp_path) as demo:
        plain = [selector for selector in tag_selectors(demo) if not selector.is_default][:25]
        for selector in plain[:2]:
            delete_now(demo, selector.id)  # gone since they were marked
        answers: list[bool | None] = []
        app = make_app(demo)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            app.push_screen(ReviewScreen(plan_of(demo, plain)), answers.append)
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            label = text_of(screen, "#review-typed-label")
            assert "type 25 to enable Delete" in label, label
            await pilot.press(*"25")  # typed at once (the dry run may be under way still)
            await settle(pilot)
            assert screen.previews is not None, "the dry run answered"
            assert text_of(screen, "#review-typed-label") == label, "the count asked for did not change"
            assert screen.query_one("#review-typed", Input).value == "25"
            assert "The run sends 23 selectors; 2 left out" in text_of(screen, "#review-left-out")
            assert text_of(screen, "#review-title").startswith("Delete 23 of the 25 marked selectors")
            delete = screen.query_one("#review-delete", Button)
            assert not delete.disabled and str(delete.label) == "Delete 23"
            await pilot.press("enter")
            await settle(pilot)
            assert [selector.id for selector in screen.plan_to_send().selectors] == [s.id for s in plain[2:]]
        assert answers == [True]
