"""Pilot tests of the cleanup screen (key 3) against the demo server over loopback: browse, filter, mark."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.widgets import Button, Input, Static
from textual.widgets.data_table import ColumnKey

from svctui.api.filters import Filter
from svctui.demo.server import DemoServer
from svctui.store.model import build_profile
from svctui.store.settings import Settings
from svctui.tui.palette import export_records
from svctui.tui.screens.selectors.prompts import ConfirmMarks, TypeIds
from svctui.tui.screens.selectors.screen import MATCHING, SelectorsScreen
from svctui.tui.widgets.filter_editor import FilterEditor
from tests.support.recording_server import TOKEN_ID, TOKEN_KEY, Recorded, RecordingServer, Reply, envelope
from tests.support.selectors import gone_shown, on_cleanup, shown_ids
from tests.support.tui import settle, shown_state

pytestmark = pytest.mark.anyio
SMALL_PAGES = Settings(page_size=20)


def first_plain_row(screen: SelectorsScreen, *, skip: int = 0) -> int:
    """Row index of the first (after `skip`) selector that is not a default one."""
    rows = [index for index, item in enumerate(screen.selector_table.items) if not item.is_default]
    return rows[skip]


async def test_browse_shows_tags_counts_and_the_first_tags_selectors(demo_server: DemoServer) -> None:
    """Key 3: tags on the left with their selector counts; the first tag's first page on the right."""
    async with on_cleanup(demo_server) as (_app, _pilot, screen):
        pane = screen.tags_pane
        assert pane.tags
        assert set(pane.counts) == {tag.id for tag in pane.tags}
        assert screen.tag is not None and screen.tag.id == pane.tags[0].id
        assert len(shown_ids(screen)) == min(pane.counts[screen.tag.id], screen.window.limit)
        assert all(selector.asset_group_tag_id == screen.tag.id for selector in screen.selector_table.items)


async def test_filter_editor_and_detail(demo_server: DemoServer) -> None:
    """`/` opens the editor on the selectors' columns; a filter reloads; `p` shows every field and the seeds."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("slash")
        await settle(pilot)
        assert isinstance(app.screen, FilterEditor)
        hint = str(app.screen.query_one("#quick-hint", Static).render())
        assert "created_at=gt:-7d name=~eq:old" in hint and "id=gt:10" not in hint, "an example selectors accept"
        await pilot.press("escape")
        screen.set_filters([Filter("name", "~eq", "Hosts")])
        await settle(pilot)
        assert shown_ids(screen) and all("Hosts" in item.name for item in screen.selector_table.items)
        await pilot.press("p")
        await settle(pilot)
        body = str(screen.detail.query_one("#detail-body").render())
        assert "Seeds (" in body and "auto-certify" in body
        await pilot.press("escape")
        assert not screen.detail.is_open, "esc closes the detail pane"


async def test_c_on_a_shortened_name_copies_the_whole_name(demo_server: DemoServer) -> None:
    """The name cell is cut at its width with `…`; `c` copies the selector's whole name, not what the cell shows (at
    80 columns: wider, the names take the room they need)."""
    async with on_cleanup(demo_server, size=(80, 24)) as (_app, pilot, screen):
        table = screen.selector_table
        width = table.columns[ColumnKey("name")].width
        row = next(index for index, item in enumerate(table.items) if len(item.name) > width)
        table.move_cursor(
            row=row,
            column=table.ordered_columns.index(
                next(column for column in table.ordered_columns if column.key.value == "name")
            ),
        )
        await settle(pilot)
        name = table.items[row].name
        assert name[: width - 1] + "…" in table.render_line(row + 1).text  # drawn cut at the column's width
        assert table.current_cell_text() == name


async def test_space_marks_but_a_default_selector_is_refused(demo_server: DemoServer) -> None:
    """`space` marks a row; on a default selector it marks nothing and says why."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        table, tag = screen.selector_table, screen.tag
        assert tag is not None
        table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space")
        default_row = next(i for i, item in enumerate(table.items) if item.is_default)
        table.move_cursor(row=default_row, column=1)
        await pilot.press("space")
        await settle(pilot)
        assert screen.marks.ids(tag.id) == (table.items[first_plain_row(screen)].id,)
        assert table.marked == {str(table.items[first_plain_row(screen)].id)}
        assert any("default" in note.message for note in app.notes)
        assert "1 marked on 1 page" in screen.status_parts()
        assert export_records(screen) == ([table.items[first_plain_row(screen)]], True), "an export writes the mark"


async def test_tab_goes_between_the_tags_and_the_table_never_to_the_tab_strip(demo_server: DemoServer) -> None:
    """Newcomer audit: tab from the tags pane landed on the Selectors/Audit strip, where space marked nothing."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        table = screen.selector_table
        await pilot.press("tab")
        assert app.focused is not None and screen.tags_pane in app.focused.ancestors_with_self
        await pilot.press("tab")
        assert app.focused is table
        table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space")
        assert table.marked == {str(table.items[first_plain_row(screen)].id)}


async def test_a_screen_changed_after_the_quit_warning_asks_again_before_quitting(demo_server: DemoServer) -> None:
    """Issue 28 (misc 1): with a selector marked, q on Selector cleanup warned; `4` then `q` quit without a word — the
    first q's warning was taken as said. The marks live on the cleanup screen whatever screen is shown: q on Clients
    warns (a screen changed since the warning), and the next q there quits."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        screen.selector_table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space", "q")
        await pilot.pause()
        assert app.notes[-1].message == "1 marked selector is forgotten on quit: q again to quit."
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and app.current_mode == "clients"
        assert app.notes[-1].message == "1 marked selector is forgotten on quit: q again to quit."
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_unmarking_says_how_many_and_quitting_with_marks_asks_once(demo_server: DemoServer) -> None:
    """Newcomer audit: ctrl+u cleared marks silently, and q quit at once with 100 selectors marked (marks live only
    in the session). ctrl+u says what it cleared; q with marks says they would be lost, and the next q quits."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        table = screen.selector_table
        table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space", "j", "space", "ctrl+u")
        assert app.notes[-1].message == "Unmarked 2 selectors in this tag."
        await pilot.press("space", "1")
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running and app.notes[-1].message == "1 marked selector is forgotten on quit: q again to quit."
        await pilot.press("3", "j", "space", "q")  # one more mark: asked again
        await pilot.pause()
        assert app.is_running and app.notes[-1].message.startswith("2 marked selectors are forgotten on quit")
        await pilot.press("3", "ctrl+u", "space", "j", "space", "q")  # cleared, then as many marked: asked again
        await pilot.pause()
        assert app.is_running and app.notes[-1].message.startswith("2 marked selectors are forgotten on quit")
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_range_marks_survive_paging_sorting_refresh_and_tag_switches(demo_server: DemoServer) -> None:
    """`v` marks a range; marks stay through `]`, a sort, `r`, and another tag (kept per tag)."""
    async with on_cleanup(demo_server, settings=SMALL_PAGES) as (_app, pilot, screen):
        table, tag = screen.selector_table, screen.tag
        assert tag is not None
        table.move_cursor(row=0, column=1)
        await pilot.press("space", "down", "down", "down", "down", "v")
        first = set(screen.marks.ids(tag.id))
        plain = {item.id for item in table.items[:5] if not item.is_default}
        assert first == plain
        await pilot.press("right_square_bracket")
        await settle(pilot)
        table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space")
        assert screen.marks.of(tag.id).page_count == 2
        assert f"{len(plain) + 1} marked on 2 pages" in screen.status_parts()
        await pilot.press("s")  # sort by id under the cursor
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert len(screen.marks.ids(tag.id)) == len(plain) + 1
        assert table.marked == {str(i) for i in screen.marks.ids(tag.id)}
        screen.tags_pane.table.focus()
        await pilot.press("down")
        await settle(pilot)
        assert screen.tag is not None and screen.tag.id != tag.id
        assert not screen.marks.ids(screen.tag.id)
        assert any(part.startswith("other tags") for part in screen.status_parts())
        await pilot.press("up", "enter")
        await settle(pilot)
        assert table.marked == {str(i) for i in screen.marks.ids(tag.id)}
        assert table.has_focus
        await pilot.press("ctrl+u")
        await settle(pilot)
        assert not screen.marks.ids(tag.id) and not table.marked


async def test_mark_all_matching_across_pages_after_a_confirmed_count(demo_server: DemoServer) -> None:
    """`M` fetches every match (all pages), shows the count, and marks them all but the defaults and the ones an
    extension owns (issue 26)."""
    async with on_cleanup(demo_server, settings=SMALL_PAGES) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        screen.set_filters([Filter("name", "~eq", "s")])
        await settle(pilot)
        total = screen.window.count
        assert total is not None and total > screen.window.limit
        screen.action_mark_all_matching()  # as `M` does; the count is said in the status line while it runs
        assert "counting the selectors of" in " · ".join(screen.status_parts())
        await settle(pilot)
        assert isinstance(app.screen, ConfirmMarks)
        assert f"Matching name ∋ s: {total} selectors" in " ".join(app.screen.lines)
        assert not any("Counting" in note.message for note in app.notes), "no toast left beside the question"
        assert "counting" not in " · ".join(screen.status_parts())
        said = " ".join(app.screen.lines)
        assert "2 of them are owned by an extension: left out, as their extension re-creates them" in said
        await pilot.press("tab", "enter")  # from Cancel to Mark
        await settle(pilot)
        client = await app.api_client()
        every = (await client.selectors.list(tag.id, screen.current_query().page(0, -1))).data.selectors
        owned = {item.id for item in every if item.extension_owned}
        assert owned, "the demo's tag 1 holds selectors an extension owns: M leaves them out (issue 26)"
        assert set(screen.marks.ids(tag.id)) == {item.id for item in every if not item.is_default} - owned
        assert screen.marks.of(tag.id).page_count > 1
        assert "matching name ∋ s" in screen.marks.of(tag.id).reasons


async def test_m_says_it_counts_at_80_columns_and_a_second_m_does_not_count_again(demo_server: DemoServer) -> None:
    """Issue 28 (misc 4): `M` once showed nothing for 11 s before "Mark 392 selectors?", and a second `M` started the
    count over. At 80 columns the status line's `counting…` was the first part to give way (ranked as the rows, and
    to their right); it now stays, shortened before anything else goes, and a second `M` while counting is told so
    and does not start another count."""
    async with on_cleanup(demo_server, size=(80, 24), settings=SMALL_PAGES) as (app, pilot, screen):
        screen.action_mark_all_matching()  # as `M` does (two calls with no await between: the first still counts)
        first = screen.loads._workers[MATCHING]
        assert "counting" in str(screen.status_line.render())
        screen.action_mark_all_matching()
        assert screen.loads._workers[MATCHING] is first, "a second M started another count"
        assert app.notes[-1].message.startswith("Still counting")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmMarks)
        assert "counting" not in str(screen.status_line.render())


async def test_a_burst_of_one_key_shows_its_toast_once(demo_server: DemoServer) -> None:
    """Newcomer walk (issue 28, item 11): eight toasts stacked after a burst of keys at 80x24. The same toast still on
    show is not shown again (the app's record of notifications keeps every one)."""
    async with on_cleanup(demo_server, size=(80, 24)) as (app, pilot, _screen):
        for _ in range(8):
            await pilot.press("ctrl+d")
        await settle(pilot)
        assert len([note for note in app.notes if "Nothing is marked" in note.message]) == 8
        assert app.toasts == 1


async def test_palette_command_marks_every_match(demo_server: DemoServer) -> None:
    """The palette's 'Mark all matching selectors' does what `M` does."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Mark all matching")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmMarks)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.tag is not None and not screen.marks.ids(screen.tag.id)


async def test_typed_ids_mark_the_ones_in_the_tag_and_report_the_rest(demo_server: DemoServer) -> None:
    """`i`, `a b-c 999999`: ids of the tag are marked, defaults refused, the unknown id reported and not marked."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        items = screen.selector_table.items
        plain = [item.id for item in items if not item.is_default][:3]
        default = next(item.id for item in items if item.is_default)
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, TypeIds)
        await pilot.press(*"12x")
        await pilot.press("enter")
        assert "not a selector id" in str(app.screen.query_one("#ids-error").render())
        app.screen.query_one("#ids", Input).value = f"{plain[0]} {plain[1]},{plain[2]} {default} 999999"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.marks.ids(tag.id) == tuple(plain)
        assert not screen.marks.of(tag.id).unknown
        said = " ".join(note.message for note in app.notes)
        assert "not part of this tag (not marked): 999999" in said and f"not marked): {default}" in said
        plan = screen.cleanup_plan()
        assert plan is not None and plan.unknown_ids == ()
        assert [selector.id for selector in plan.selectors] == plain
        assert plan.filters_text == "" and plan.typed_ids == tuple(plain), "the why lists the typed ids marked"


async def test_typed_ids_name_every_bad_token_at_once(demo_server: DemoServer) -> None:
    """Issue 28: `i` showed only the first bad token, so a list with three typos took three attempts."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, TypeIds)
        app.screen.query_one("#ids", Input).value = "12x 5 abc 9-2"
        await pilot.press("enter")
        await settle(pilot)
        said = str(app.screen.query_one("#ids-error").render())
        assert "3 ids refused" in said
        assert "'12x' is not a selector id" in said and "'abc' is not a selector id" in said
        assert "range '9-2' runs backwards" in said
        assert isinstance(app.screen, TypeIds) and screen.tag is not None and not screen.marks.ids(screen.tag.id)


async def test_typed_ids_are_checked_as_you_type(demo_server: DemoServer) -> None:
    """Newcomer walk: the `i` dialog named bad ids only on enter. They are named as they are typed (as the filter
    editor does); fixed, the message goes; nothing is marked or sent before enter."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        await pilot.press("i")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, TypeIds)
        before = demo_server.request_count
        await pilot.press(*"12x 5 9-2")
        await settle(pilot)
        said = str(dialog.query_one("#ids-error").render())
        assert "2 ids refused" in said and "'12x' is not a selector id" in said and "range '9-2' runs backwards" in said
        await pilot.press("backspace", "backspace", "backspace")
        await settle(pilot)
        said = str(dialog.query_one("#ids-error").render())
        assert "'12x' is not a selector id" in said and "9-2" not in said and "refused" not in said, "one left"
        dialog.query_one("#ids", Input).value = "12 5"
        await settle(pilot)
        assert str(dialog.query_one("#ids-error").render()).strip() == ""
        dialog.query_one("#ids", Input).value = ""
        await settle(pilot)
        assert str(dialog.query_one("#ids-error").render()).strip() == "", "empty: nothing to name until enter"
        assert app.screen is dialog and demo_server.request_count == before
        assert screen.tag is not None and not screen.marks.ids(screen.tag.id)


async def test_rejected_typed_ids_are_not_marks_one_count_everywhere(fresh_demo_server: DemoServer) -> None:
    """Newcomer walk (issue 28): `i 7 13 25 6 99999` toasted "Marked 3; not part of this tag: 6 99999", the tags pane
    showed ●13, and the review said "Delete 13 of the 15 marked". Rejected ids (another tag's, none at all) are not
    marks: the counter, the tags pane, the review's title and button all say the same count."""
    from svctui.tui.screens.selectors.review import ReviewScreen
    from tests.support.selectors_run import tag_selectors

    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        plain = [item.id for item in screen.selector_table.items if not item.is_default][:2]
        other = next(selector.id for selector in tag_selectors(fresh_demo_server, 2) if not selector.is_default)
        await pilot.press("i")
        await settle(pilot)
        app.screen.query_one("#ids", Input).value = f"{plain[0]} {plain[1]} {other} 99999999"
        await pilot.press("enter")
        await settle(pilot)
        said = " ".join(note.message for note in app.notes)
        assert f"Marked 2 selectors; not part of this tag (not marked): {other} 99999999" in said, said
        assert screen.marks.ids(tag.id) == tuple(plain) and not screen.marks.of(tag.id).unknown
        assert screen.tags_pane.marked.get(tag.id) == 2
        status = " · ".join(screen.status_parts())
        assert "2 marked on 1 page" in status and "not in this tag" not in status, status
        await pilot.press("ctrl+d")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        title = str(review.query_one("#review-title", Static).render())
        assert title.startswith("Delete 2 selectors"), title
        await app.workers.wait_for_complete()
        await settle(pilot)
        title = str(review.query_one("#review-title", Static).render())
        assert title.startswith("Delete 2 selectors"), title
        assert str(review.query_one("#review-delete", Button).label) == "Delete 2"
        assert review.sending_ids() == plain


async def test_ctrl_d_opens_the_review_and_a_deleted_row_leaves(demo_server: DemoServer) -> None:
    """`ctrl+d` pushes the review with the plan; a deletion reported by the run removes the row and its mark."""
    from svctui.tui.screens.selectors.review import ReviewScreen

    async with on_cleanup(demo_server) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        await pilot.press("ctrl+d")
        assert any("Nothing is marked" in note.message for note in app.notes)
        screen.selector_table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space")
        gone = screen.marks.ids(tag.id)[0]
        await pilot.press("ctrl+d")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert [selector.id for selector in app.screen.plan.selectors] == [gone]
        await pilot.press("escape")
        await settle(pilot)
        count = screen.tags_pane.counts[tag.id]
        screen.selector_gone(tag.id, gone)
        assert not screen.marks.ids(tag.id), "the mark clears at once"
        assert gone in shown_ids(screen), "the row leaves with the next refresh, not per deletion"
        await gone_shown(pilot, screen)
        assert gone not in shown_ids(screen)
        assert screen.tags_pane.counts[tag.id] == count - 1


async def test_read_only_hides_delete(demo_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only session has no ctrl+d in the footer and the palette, and the key does nothing."""
    monkeypatch.setenv("SVCTUI_READ_ONLY", "1")
    async with on_cleanup(demo_server) as (app, pilot, screen):
        assert "delete_marked" not in {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        screen.selector_table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space", "ctrl+d")
        await settle(pilot)
        assert app.screen is screen
        assert "demo read-only" in str(screen.query_one("#app-header", Static).render()), "the header says it"


class NoTagList(RecordingServer):
    """A server without the tag list (community / older): 404 on GET /api/v2/asset-group-tags."""

    def route(self, recorded: Recorded) -> Reply:
        """The tag list is a 404; everything else as usual."""
        if recorded.path == "/api/v2/asset-group-tags":
            return Reply(404, envelope(404, "resource not found", "0c6f1f5e-1111-4222-8333-944445555666"))
        return super().route(recorded)


async def test_tag_list_404_asks_for_a_tag_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 404 to the tag list opens the tag-id prompt; a typed id browses that tag."""
    with NoTagList(selectors=6) as server:
        profile = build_profile(
            name="older", base_url=server.base_url, token_id=TOKEN_ID, token_key=TOKEN_KEY, storage="env"
        )
        async with on_cleanup(profile=profile) as (_app, pilot, screen):
            assert screen.tags_pane.has_class("-prompt")
            assert screen.tag is None
            prompt: Any = screen.tags_pane.query_one("#tag-id", Input)
            prompt.value = "1"
            await pilot.press("enter")
            await settle(pilot)
            assert screen.tag is not None and screen.tag.id == 1
            assert len(shown_ids(screen)) == 6


async def test_t_opens_a_tag_by_id_esc_goes_back_and_an_unknown_one_is_named(demo_server: DemoServer) -> None:
    """`t` with the list shown: neutral wording, esc back to the list; an id the server lacks is said plainly."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        pane = screen.tags_pane
        first = screen.tag
        await pilot.press("t")
        await settle(pilot)
        assert pane.has_class("-prompt")
        assert "Open a tag by its id" in str(pane.query_one("#tags-prompt", Static).render())
        await pilot.press("escape")
        await settle(pilot)
        assert not pane.has_class("-prompt") and app.focused is pane.table and screen.tag == first
        await pilot.press("t")
        prompt: Any = pane.query_one("#tag-id", Input)
        prompt.value = "99999"
        await pilot.press("enter")
        await settle(pilot)
        missing = [note.message for note in app.notes if "Tag 99999 does not exist on this server" in note.message]
        assert len(missing) == 1 and "(t opens another)" in missing[0]
        assert screen.tag == first, "back to the list's tag: no 404 left on screen for a live refresh to ask again"
        assert shown_ids(screen) and not pane.has_class("-prompt")
        screen.live_refresh()
        await settle(pilot)
        assert len([note for note in app.notes if "Tag 99999" in note.message]) == 1


async def test_a_missing_tag_without_a_tag_list_is_not_refreshed_and_says_t() -> None:
    """No tag list to go back to: the 404 stays, its hint says t (not r), and live refresh does not ask again."""
    with NoTagList(selectors=6) as server:
        profile = build_profile(
            name="older", base_url=server.base_url, token_id=TOKEN_ID, token_key=TOKEN_KEY, storage="env"
        )
        async with on_cleanup(profile=profile) as (app, pilot, screen):
            prompt: Any = screen.tags_pane.query_one("#tag-id", Input)
            prompt.value = "12345"
            await pilot.press("enter")
            await settle(pilot)
            body = str(screen.state_panel.query_one("#state-body", Static).render())
            assert "press t to open another tag" in body and "Press r to retry" not in body
            asked = sum("/asset-group-tags/12345/" in request.target for request in server.requests)
            assert asked == 1
            screen.live_refresh()
            await settle(pilot)
            assert sum("/asset-group-tags/12345/" in request.target for request in server.requests) == asked
            assert len([note for note in app.notes if "Tag 12345" in note.message]) == 1


async def test_tag_list_failure_is_a_state_and_r_retries(fresh_demo_server: DemoServer) -> None:
    """A 500 to the tag list is an error state with status and request id; `r` loads the tags once it's back."""
    from svctui.demo.config import Faults
    from svctui.tui.widgets.state_panel import StateKind

    fresh_demo_server.faults = Faults(error_rate=1.0)
    async with on_cleanup(fresh_demo_server) as (_app, pilot, screen):
        pane = screen.tags_pane
        assert pane.has_class("-failed") and pane.state.kind is StateKind.ERROR
        shown = shown_state(pane.state)
        assert "The server answered 500" in shown and re.search(r"request id \S+", shown), shown
        fresh_demo_server.faults = Faults()
        await pilot.press("r")
        await settle(pilot)
        assert pane.tags and screen.tag is not None and shown_ids(screen)


async def test_help_lists_the_cleanup_keys(demo_server: DemoServer) -> None:
    """`?` on screen 3 lists the marking keys and ctrl+d with their binding ids."""
    from svctui.tui.screens.help import HelpScreen

    async with on_cleanup(demo_server) as (app, pilot, _screen):
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        ids = {row.binding_id for row in app.screen.rows}
        assert {"selectors.mark_all", "selectors.ids", "selectors.clear", "selectors.delete", "table.range"} <= ids
        assert "list.hydrate" not in ids, "selectors have no hydration: H is not listed (newcomer audit)"


async def test_marked_rows_deleted_by_the_run_leave_the_table(fresh_demo_server: DemoServer) -> None:
    """Mark 3, ctrl+d, Delete: the run deletes them on the server; their rows leave and their marks clear."""
    from textual.widgets import Button

    from svctui.tui.screens.selectors.review import ReviewScreen
    from svctui.tui.screens.selectors.run import RunScreen

    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        screen.selector_table.move_cursor(row=first_plain_row(screen), column=1)
        await pilot.press("space")
        screen.selector_table.move_cursor(row=first_plain_row(screen, skip=1), column=1)
        await pilot.press("space")
        screen.selector_table.move_cursor(row=first_plain_row(screen, skip=2), column=1)
        await pilot.press("space")
        doomed = set(screen.marks.ids(tag.id))
        count = screen.tags_pane.counts[tag.id]
        await pilot.press("ctrl+d")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen)
        review.query_one("#review-delete", Button).press()
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, RunScreen)
        await gone_shown(pilot, screen)  # while the run's dialog is still open
        assert isinstance(app.screen, RunScreen)
        assert not doomed & set(shown_ids(screen))
        assert not screen.marks.ids(tag.id) and not screen.selector_table.marked
        client = await app.api_client()
        left = {
            item.id for item in (await client.selectors.list(tag.id, screen.current_query().page(0, -1))).data.selectors
        }
        assert not doomed & left
        assert screen.tags_pane.counts[tag.id] == count - 3


async def test_the_typed_count_is_the_number_to_delete_and_digits_reach_its_box_from_cancel(
    fresh_demo_server: DemoServer,
) -> None:
    """Newcomer audit: 24 marked and 46 typed ids of nothing asked to type 70, and digits typed while the focus was
    on Cancel (where it starts) went nowhere. Now the count is of the selectors to delete, and digits go to it."""
    from svctui.store.audit import audit_path
    from svctui.tui.screens.selectors.review import ReviewScreen
    from svctui.tui.screens.selectors.run import RunScreen
    from tests.support.audit import audit_lines
    from tests.support.selectors_run import as_dicts, tag_selectors

    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):
        tag = screen.tag
        assert tag is not None
        plain = [item.id for item in screen.selector_table.items if not item.is_default][:22]
        others = [selector.id for selector in tag_selectors(fresh_demo_server, 2) if not selector.is_default][:3]
        await pilot.press("i")
        await settle(pilot)
        app.screen.query_one("#ids", Input).value = " ".join(map(str, [*plain, *others]))
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+d")
        await settle(pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.previews is not None
        assert app.focused is review.query_one("#review-typed", Input)
        delete = review.query_one("#review-delete", Button)
        await pilot.press("2", "5")  # every marked id: not the count to type any more
        await settle(pilot)
        assert review.query_one("#review-typed", Input).value == "25" and delete.disabled
        assert "type 22 to enable Delete" in str(review.query_one("#review-typed-label", Static).render())
        await pilot.press("backspace", "backspace", "2", "2")
        await settle(pilot)
        assert not delete.disabled and str(delete.label) == "Delete 22"
        delete.press()
        await settle(pilot)
        run = app.screen
        assert isinstance(run, RunScreen) and run.report is not None
        assert {str(outcome): count for outcome, count in run.report.counts.items()} == {"deleted": 22}
        await pilot.press("escape")
        await settle(pilot)
        assert not screen.marks.ids(tag.id)
    intents = as_dicts(audit_lines(audit_path()), "intent")
    assert sorted(line["selector_id"] for line in intents) == sorted(plain), "nothing was sent for the others"


async def test_the_tags_pane_follows_the_terminal_width_and_keeps_the_chosen_tag(demo_server: DemoServer) -> None:
    """Started narrow (name, count; marks only while some are), widened past NARROW_TERMINAL: kind and position come
    back, the chosen tag and the cursor stay; narrowed again: the narrow columns."""
    async with on_cleanup(demo_server, size=(80, 24)) as (_app, pilot, screen):
        pane = screen.tags_pane

        def labels() -> list[str]:
            return [str(column.label) for column in pane.table.columns.values()]

        assert pane.has_class("-narrow") and labels() == ["name", "sel"]
        pane.table.focus()
        await pilot.press("down")
        await settle(pilot)
        chosen = pane.chosen
        assert chosen is not None and chosen.id == pane.tags[1].id and screen.tag == chosen
        await pilot.resize_terminal(160, 45)
        await settle(pilot)
        assert not pane.has_class("-narrow") and labels() == ["name", "kind", "sel", "pos"]
        assert pane.chosen == chosen and screen.tag == chosen and pane.table.cursor_row == 1
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert pane.has_class("-narrow") and labels() == ["name", "sel"] and screen.tag == chosen


async def test_a_resize_keeps_a_tag_opened_by_id_while_the_list_cursor_is_elsewhere(demo_server: DemoServer) -> None:
    """Newcomer audit: cursor on the list's second tag, `t 1 enter` opened tag 1; a resize across NARROW_TERMINAL
    rebuilt the pane's columns, put the cursor back and its highlight opened the second tag again."""
    async with on_cleanup(demo_server, size=(160, 45)) as (_app, pilot, screen):
        pane = screen.tags_pane
        pane.table.focus()
        await pilot.press("down")
        await settle(pilot)
        second, first = pane.tags[1], pane.tags[0]
        assert screen.tag == second
        await pilot.press("t")
        prompt: Any = pane.query_one("#tag-id", Input)
        prompt.value = str(first.id)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.tag is not None and screen.tag.id == first.id
        for size in ((80, 24), (160, 45)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert screen.tag is not None and screen.tag.id == first.id, f"still tag {first.id} at {size}"


async def test_the_marks_stay_on_the_status_line_at_80_columns(demo_server: DemoServer) -> None:
    """The count of marked selectors is what the line must keep before ctrl+d (it was cut off at 80x24)."""
    async with on_cleanup(demo_server, size=(80, 24)) as (_app, pilot, screen):
        screen.selector_table.focus()
        row = first_plain_row(screen)
        screen.selector_table.move_cursor(row=row)
        await pilot.press("space")
        await settle(pilot)
        line = str(screen.query_one("#status-line", Static).render())
        assert line.endswith("1 marked on 1 page") or "1 marked" in line, line
        # the columns left out are named before the tag's words (the tags pane beside the table names the tag)
        assert len(line) <= 78 and line.startswith("rows ") and "columns (p)" in line, line


async def test_a_page_emptied_by_a_run_is_loaded_again_not_left_blank(fresh_demo_server: DemoServer) -> None:
    """Newcomer walk: deleting every row on show left a blank table; the page is loaded again (here the filter now
    matches nothing: its empty state says so)."""
    from svctui.tui.screens.selectors.review import ReviewScreen
    from svctui.tui.screens.selectors.run import RunScreen
    from svctui.tui.widgets.state_panel import StateKind

    async with on_cleanup(fresh_demo_server) as (app, pilot, screen):
        target = screen.selector_table.items[first_plain_row(screen)]
        screen.set_filters([Filter("name", "eq", target.name)])
        await settle(pilot)
        assert [item.name for item in screen.selector_table.items] == [target.name]
        screen.selector_table.move_cursor(row=0, column=1)
        await pilot.press("space", "ctrl+d")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        app.screen.query_one("#review-delete", Button).press()
        await settle(pilot)
        await settle(pilot)
        assert isinstance(app.screen, RunScreen)
        await gone_shown(pilot, screen)
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert screen.state_panel.kind is StateKind.EMPTY, [item.name for item in screen.selector_table.items]
        assert "No selectors match these filters" in shown_state(screen.state_panel)


@pytest.mark.parametrize("typed", ["1\u3000", "1\x1c", "\u0661"])
async def test_t_takes_a_tag_id_of_ascii_digits_only(demo_server: DemoServer, typed: str) -> None:
    """Issue 25 item 5 in the dashboard: `1` followed by U+3000 or U+001C (str.strip() takes both for spaces) opened
    tag 1; an id is ASCII digits, anything else is refused by name and the tag shown stays."""
    async with on_cleanup(demo_server) as (app, pilot, screen):
        first = screen.tag
        await pilot.press("t")
        prompt: Any = screen.tags_pane.query_one("#tag-id", Input)
        prompt.value = typed
        await pilot.press("enter")
        await settle(pilot)
        assert [note.message for note in app.notes if "is not a tag id" in note.message], app.notes
        assert screen.tag == first


async def test_a_tag_list_naming_one_tag_twice_shows_it_once() -> None:
    """A server answer listing a tag twice crashed the tags pane (DuplicateKey, a traceback that ended the
    dashboard; found auditing issue 25's "never a traceback"): the tag is one row, the list usable."""
    with RecordingServer(selectors=3) as server:
        server.tags.append(dict(server.tags[1]))
        profile = build_profile(
            name="twice", base_url=server.base_url, token_id=TOKEN_ID, token_key=TOKEN_KEY, storage="env"
        )
        async with on_cleanup(profile=profile) as (app, _pilot, screen):
            assert app.is_running
            assert [tag.id for tag in screen.tags_pane.tags] == [1, 2] and screen.tags_pane.table.row_count == 2
            assert screen.tag is not None and screen.tag.id == 1 and len(shown_ids(screen)) == 3


async def test_rows_a_run_took_out_of_the_page_do_not_leave_a_page_count_behind(demo_server: DemoServer) -> None:
    """A newcomer's walk at 160x45: while a deletion run's sheet ran, the line behind it read `rows 1-10 of 267 ·
    page 1/3` (10 rows cannot be 3 pages). Rows a run deleted leave the page without refilling it: the line says
    which rows are shown of how many, and names no page until the page is read again."""
    async with on_cleanup(demo_server, size=(160, 45)) as (_app, pilot, screen):
        tag = screen.tag
        assert tag is not None and screen.window.count is not None and screen.window.count > 200
        total = screen.window.count
        for selector_id in shown_ids(screen)[10:]:
            screen.selector_gone(tag.id, selector_id)
        await gone_shown(pilot, screen)
        line = str(screen.status_line.content)
        assert f"rows 1\u201310 of {total - 90:,}" in line and "page 1/" not in line, line
        screen.load()
        await settle(pilot)
        line = str(screen.status_line.content)
        assert f"rows 1\u2013100 of {total:,}" in line and "page 1/" in line, "read again: the server's page"
