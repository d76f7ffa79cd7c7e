"""The Selector cleanup screen (key 3): tags on the left, the chosen tag's selectors on the right, marks per tag.

Browsing is the generic ListScreen (server paging, sort, filter editor, detail pane); this screen adds the tag
pane, the marks model (svctui.tui.screens.selectors.marks) and the ways to mark: `space`, `v`, every selector
matching the filters (`M`, counted and confirmed first), typed ids (`i`). Every background load runs through
svctui.tui.loading.Loads; a failure is a state or a notification with its status and request id, and `r` retries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, ClassVar

from textual import events, getters, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import DataTable, TabbedContent, TabPane, Tabs

from svctui.api.filters import SELECTORS, EndpointSpec
from svctui.api.models import AssetGroupTag, Selector
from svctui.ops.outcomes import DeleteReport, Outcome
from svctui.tui import status_line as status
from svctui.tui.breakpoints import (
    DETAIL_BELOW,
    FULL_FOOTER_FROM,
    NARROW_TERMINAL,
    narrow_below,
    set_breakpoint_class,
)
from svctui.tui.loading import Channel, Loaded, LoadFailed
from svctui.tui.screens.list_screen import ListQuery, ListScreen
from svctui.tui.screens.selectors.audit_export import audit_commands
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.columns import SelectorDetail, selector_adapter, tag_label
from svctui.tui.screens.selectors.commands import Command, SelectorCommands, selector_commands
from svctui.tui.screens.selectors.keys import SELECTOR_BINDINGS
from svctui.tui.screens.selectors.loaders import (
    Matching,
    TypedLookup,
    all_matching,
    listed_counts,
    selector_counts,
    selector_page,
    typed_lookup,
)
from svctui.tui.screens.selectors.marks import Marks
from svctui.tui.screens.selectors.messages import AuditStatus, SelectorGone, SelectorsChanged, ShowAuditTab
from svctui.tui.screens.selectors.plan import CleanupPlan
from svctui.tui.screens.selectors.prompts import ConfirmMarks, TypeIds
from svctui.tui.screens.selectors.resume import resumable_run, start_resume
from svctui.tui.screens.selectors.review import ReviewScreen
from svctui.tui.screens.selectors.run import RunScreen
from svctui.tui.screens.selectors.session import read_only_why
from svctui.tui.screens.selectors.table import SelectorTable
from svctui.tui.screens.selectors.tags_pane import TagChosen, TagsPane
from svctui.tui.screens.selectors.wording import (
    NOTHING_MARKED,
    matching_lines,
    plan_from_marks,
    plural,
    typed_summary,
)
from svctui.tui.status_line import StatusPart
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.paged_table import RowAdapter

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.filters import SortKey
    from svctui.api.models import Page
    from svctui.store.audit_read import AuditRun

BY_HAND = "marked by hand"
RESUME: Channel[AuditRun | None] = Channel("resume")  # the audit log read at the first mount: a run to resume
TAGS: Channel[list[AssetGroupTag]] = Channel("tags")  # the tag list (with its counts where the server gives them)
COUNTS: Channel[dict[int, int]] = Channel("counts")  # selectors per tag, asked tag by tag
MATCHING: Channel[Matching] = Channel("matching")  # every selector matching the filters (`M`)
TYPED: Channel[TypedLookup] = Channel("typed")  # typed ids checked against the tag's list (`i`)
GONE_REFRESH_SECONDS = 1.0


class SelectorsScreen(ListScreen[Selector]):
    """Browse a tag's selectors and mark the ones to delete."""

    SPEC: ClassVar[EndpointSpec] = SELECTORS
    MODE: ClassVar[str] = "selectors"
    COMMANDS = ListScreen.COMMANDS | {SelectorCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *SELECTOR_BINDINGS,
        # ctrl+d while deleting is off (hidden read-only): says why, never nothing (action_delete_marked does)
        Binding(
            "ctrl+d",
            "delete_off",
            show=False,
            id="selectors.delete_off",
            tooltip="Read-only: says why deleting is off",
        ),
        # The Audit tab's keys while the focus is outside it (the tags pane): they act on the tab's chosen run, or
        # say why not, as in the tab; off on the Selectors tab. (`r` there is the list's refresh, see action_refresh:
        # a binding of `r` here would replace the list screen's.)
        Binding(
            "s",
            "audit_key('resume')",
            "Resume run",
            show=False,
            id="selectors.audit_resume",
            tooltip="Resume the Audit tab's chosen run (from the tags pane)",
        ),
        Binding(
            "u",
            "audit_key('restore')",
            "Restore run",
            show=False,
            id="selectors.audit_restore",
            tooltip="Restore the Audit tab's chosen run (from the tags pane)",
        ),
    ]
    # `-narrower` under NARROW_TERMINAL (the tags pane's narrow columns; beside the Audit tab it gives way), `-narrow`
    # under DETAIL_BELOW as every dashboard screen (the detail pane under the table: ListScreen's rules name both),
    # `-wide` from FULL_FOOTER_FROM as every list screen (the full footer)
    HORIZONTAL_BREAKPOINTS = narrow_below(DETAIL_BELOW, narrower_below=NARROW_TERMINAL, wide_from=FULL_FOOTER_FROM)
    DEFAULT_CSS = """
    SelectorsScreen #outer { height: 1fr; }
    SelectorsScreen #tabs { width: 1fr; height: 1fr; }
    SelectorsScreen #tabs TabPane { padding: 0; height: 1fr; }
    SelectorsScreen #tabs ContentSwitcher { height: 1fr; }
    SelectorsScreen.-audit FilterChips { display: none; }
    SelectorsScreen.-audit.-narrower #tags-pane { display: none; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.tag: AssetGroupTag | None = None
        self.missing_tag_id: int | None = None  # a tag typed by id that the server answered 404 for
        self.marks = Marks()
        self.gone_pending: dict[int, set[int]] = {}  # tag id -> selectors a run deleted, not yet out of the table
        self.gone_timer: Timer | None = None
        self.counting = ""  # the status line's `counting the selectors of … that match…` while M counts

    # ----- what the list screen asks ----------------------------------------------------------------------
    def make_adapter(self) -> RowAdapter[Selector]:
        """id, name, default/disabled, auto-certify, seeds, times, author."""
        return selector_adapter(self.theme_color)

    def make_detail(self) -> DetailPane[Selector]:
        """Every field and the seeds."""
        return SelectorDetail()

    async def fetch(self, client: ApiClient, query: ListQuery) -> Page[Selector]:
        """One page of the chosen tag's selectors."""
        assert self.tag is not None  # blocked_reason keeps loads from starting without a tag
        return await selector_page(client, self.tag.id, query)

    def blocked_reason(self) -> tuple[str, ...] | None:
        """Nothing loads until a tag is chosen."""
        if self.tag is None:
            return ("Choose a tag", "The tags are on the left (tab moves there); t opens a tag by its id.")
        return None

    def empty_lines(self) -> tuple[str, str]:
        """Empty results name the tag."""
        if self.filters or self.tag is None:
            return super().empty_lines()
        return (f"Tag {tag_label(self.tag)} has no selectors", "Press r to reload.")

    def make_table(self) -> SelectorTable:
        """The paged table with marks kept in step with the marks model."""
        return SelectorTable(self.make_adapter(), self._table_marked, id="table")

    def compose_body(self) -> ComposeResult:
        """Tags | (Selectors tab: the list screen's table and detail; Audit tab)."""
        with Horizontal(id="outer"):
            yield TagsPane(id="tags-pane")
            with TabbedContent(id="tabs"):
                with TabPane("Selectors", id="tab-selectors"):
                    yield from super().compose_body()
                with TabPane("Audit", id="tab-audit"):
                    yield AuditTab()

    tags_pane = getters.query_one(TagsPane)  # the left pane
    selector_table = getters.query_one("#table", SelectorTable)  # the table, typed

    def on_mount(self) -> None:
        """Once: the audit log is read for a run to offer to resume (Textual runs the list screen's on_mount as well);
        the keys follow the tab from the moment it changes."""
        self.loads.start_in_thread(RESUME, resumable_run)
        self.app.warn_on_quit(self, self.quit_warning)
        self.watch(self.query_one(TabbedContent), "active", self._focus_tab, init=False)
        # The tab strip is no focus stop: tab goes between the tags and the tab's table (on the strip, space and j
        # did nothing, so a newcomer marking rows after one tab too many lost the keys); `a` or a click switches it.
        self.query_one("#tabs", TabbedContent).query_one(Tabs).can_focus = False

    def on_unmount(self) -> None:
        """A screen gone (a profile switch builds new ones) has no marks to warn about."""
        self.app.quit_warnings.pop(self, None)

    def on_resize(self, event: events.Resize) -> None:
        """The tags pane's columns for the new width (Textual runs the list and dashboard screens' on_resize after
        this one, so the breakpoint class the pane follows is set here first)."""
        set_breakpoint_class(self, event.size.width)
        self.tags_pane.fit_terminal()

    def _focus_tab(self, active: str) -> None:
        """The shown tab's table takes the focus at once, as the tab changes (a key, a click, a run's `a`); the
        screen is `-audit` while the Audit tab shows (its CSS: no filter chips; on a narrow terminal the tags pane
        gives way, the runs' table keeping tag, action and counts, which beside it showed time and state only).

        Done in the watcher, before the old tab's widgets get their Hide event: a focused widget that is hidden
        hands the focus to a sibling on the same (hidden) tab, and focusing a widget on a hidden tab switches back
        to that tab, so `a` on the Audit tab flickered between the tabs and could end on the Audit tab.
        """
        if active == "tab-audit":
            self.query_one("#audit-runs").focus()
        elif active == "tab-selectors":
            self.selector_table.focus()
        self.set_class(active == "tab-audit", "-audit")

    @on(ShowAuditTab)
    def _show_audit(self) -> None:
        tabs = self.query_one(TabbedContent)
        if tabs.active == "tab-audit":  # already shown: no Show event, so read the log (the run just written) here
            self.query_one(AuditTab).action_reload()
            self._focus_tab("tab-audit")
        tabs.active = "tab-audit"

    def table_in_view(self) -> bool:
        """The selectors table shows only on its tab: a reload landing while the Audit tab shows keeps it there."""
        tabs = self.query(TabbedContent)
        return not tabs or tabs.first().active in ("", "tab-selectors")

    def action_switch_tab(self) -> None:
        """`a`: the Audit tab, or back to the Selectors tab from it (the tab's table takes the keys)."""
        tabs = self.query_one(TabbedContent)
        tabs.active = "tab-selectors" if tabs.active == "tab-audit" else "tab-audit"

    @on(SelectorGone)
    def _selector_gone(self, message: SelectorGone) -> None:
        """A resume from the Audit tab deleted a selector (or found it gone)."""
        self.selector_gone(message.tag_id, message.selector_id)

    @on(SelectorsChanged)
    def _selectors_changed(self) -> None:
        """A restore re-created selectors, or a resume deleted some: the page, its status line and the tags' counts
        are stale (as after a run of this screen's own)."""
        self._after_run()

    def flush_gone(self) -> None:
        """Take out the deletions still pending now, before a reload: the server's counts then land on a table with
        nothing left to subtract (a pending batch applied after them would take the same selectors off twice)."""
        if self.gone_timer is not None:
            self.gone_timer.stop()
            self.show_gone()

    @on(TabbedContent.TabActivated)
    def _tab_keys(self) -> None:
        """The footer shows the keys of the tab (the focus and the `-audit` class moved with the tab already, see
        `_focus_tab`); the status line is the Selectors tab's, the Audit tab has its own status."""
        self.refresh_bindings()
        self._update_status()

    @on(AuditStatus)
    def _audit_status(self) -> None:
        if self.audit_shown():
            self._update_status()

    def audit_shown(self) -> bool:
        """True while the Audit tab is the one shown."""
        return not self.table_in_view()

    def action_audit_key(self, action: str) -> None:
        """`s` or `u` on the Audit tab with the focus in the tags pane: the tab's own key (resume or restore the
        chosen run, or say why not)."""
        tab = self.query_one(AuditTab)
        if action == "resume":
            tab.action_resume()
        else:
            tab.action_restore()

    def system_commands(self) -> Iterable[SystemCommand]:
        """The palette: the list's commands on the Selectors tab; on the Audit tab the tab's own (reload the log,
        export its runs), not the selectors page out of sight."""
        if self.is_mounted and self.audit_shown():
            return audit_commands(self.app, self.query_one(AuditTab))
        return super().system_commands()

    def help_renames(self) -> dict[str, tuple[str, str] | None]:
        """What help says a table's keys do here: enter opens nothing on the Audit tab's tables (None: not listed),
        and `r` reads the audit log there."""
        if self.audit_shown():
            return {"select_cursor": None, "refresh": ("Reload log", "Read the audit log again")}
        return {}

    # ----- loading ----------------------------------------------------------------------------------------
    def reset(self, sort: tuple[SortKey, ...] = ()) -> None:
        """Another profile (or the first mount): forget tag and marks, then load the tags."""
        self.tag = None
        self.marks = Marks()
        self.tags_pane.chosen = None
        self.selector_table.show_marks(())
        self.tags_pane.show_marked({})  # the Tags list's `●N` badges go with the marks
        super().reset(sort)
        self.load_tags()

    def load_tags(self) -> None:
        """Load the tag list (its selector counts follow)."""
        self.tags_pane.show_loading(self.app.header_info.server)

        async def tags() -> list[AssetGroupTag]:
            return await (await self.app.api_client()).tags.list(counts=True)

        self.loads.start(TAGS, tags)

    def _load_counts(self, tags: Sequence[AssetGroupTag]) -> None:
        async def counts() -> dict[int, int]:
            return await selector_counts(await self.app.api_client(), [tag.id for tag in tags])

        self.loads.start(COUNTS, counts)

    def on_loaded(self, message: Loaded[object]) -> None:
        """A background load finished: tags, counts, every match, the list to place typed ids, or the interrupted
        run to offer to resume."""
        if message.channel is self.page or not self.loads.is_current(message):
            return
        if TAGS.answers(message):
            self.tags_pane.show_tags(message.value)
            listed = listed_counts(message.value)  # counts=true answered them: no request per tag
            if listed is None:
                self._load_counts(message.value)
            else:
                self.tags_pane.show_counts(listed)
        elif COUNTS.answers(message):
            self.tags_pane.show_counts(message.value)
        elif MATCHING.answers(message):
            self._confirm_matching(message.value)
        elif TYPED.answers(message):
            self._mark_typed(message.value)
        elif RESUME.answers(message) and message.value is not None:
            start_resume(self.app, message.value, self.selector_gone, on_closed=self._after_run)

    def page_failed(self, error: BaseException) -> None:
        """A 404 for a tag typed by id: say the tag is not there, once. With a tag list, the screen goes back to the
        list's highlighted tag; without one the error stays (its hint says t, not r) and live refresh leaves it."""
        if getattr(error, "status", None) != 404 or self.tag is None:
            return
        if any(tag.id == self.tag.id for tag in self.tags_pane.tags):
            return
        self.missing_tag_id = self.tag.id
        back = self.tags_pane.highlighted_tag()
        if back is None:
            self.notify(f"Tag {self.tag.id} does not exist on this server: press t to open another.")
            return
        self.notify(f"Tag {self.tag.id} does not exist on this server: back to {tag_label(back)} (t opens another).")
        self.tags_pane.choose(back)

    def error_hints(self, error: BaseException) -> tuple[str, ...] | None:
        """A tag that does not exist: asking again won't help, another id will."""
        if getattr(error, "status", None) == 404 and self.showing_missing_tag():
            return ("This tag id does not exist here: press t to open another tag.",)
        return None

    def showing_missing_tag(self) -> bool:
        """True while the chosen tag is one a 404 said does not exist."""
        return self.tag is not None and self.tag.id == self.missing_tag_id

    def live_refresh(self) -> None:
        """Live refresh, except for a tag the server said does not exist (its 404 would come back every time)."""
        if not self.showing_missing_tag():
            super().live_refresh()

    def on_load_failed(self, message: LoadFailed) -> None:
        """Tags, counts, matches, typed ids and the audit log read fail here; a failed page is the list screen's."""
        if message.channel is self.page or not self.loads.is_current(message):
            return
        if message.channel is TAGS:
            self.tags_pane.show_failure(message.error)
            return
        what: dict[Channel[object], str] = {
            COUNTS: "Selector counts",
            MATCHING: "Counting the matches",
            TYPED: "Checking the typed ids",
            RESUME: "Reading the audit log",
        }
        if message.channel is MATCHING:
            self.counting = ""
            self._update_status()
        text = getattr(message.error, "user_message", lambda: str(message.error))()
        said = what.get(message.channel, message.channel.name)
        self.notify(f"{said} failed: {text}", severity="error", markup=False)

    def action_refresh(self) -> None:
        """Reload the page; also the tags when their list failed, and the counts. On the Audit tab (`r` with the
        focus in the tags pane) the tab's `r`: read the audit log again."""
        if self.is_mounted and self.audit_shown():
            self.query_one(AuditTab).action_reload()
            return
        if not self.tags_pane.tags and not self.tags_pane.has_class("-prompt"):
            self.load_tags()
        elif self.tags_pane.tags:
            self._load_counts(self.tags_pane.tags)
        super().action_refresh()

    # ----- tags -------------------------------------------------------------------------------------------
    @on(TagChosen)
    def _tag_chosen(self, message: TagChosen) -> None:
        self.tag = message.tag
        self.window.skip, self.window.count = 0, None
        self.selector_table.show_marks(str(selector_id) for selector_id in self.marks.ids(message.tag.id))
        self.load()

    @on(DataTable.RowSelected, "#tags")
    def _tag_entered(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.selector_table.focus()  # enter on a tag: on to its selectors

    def action_tag_id(self) -> None:
        """Open a tag by its id (servers without a tag list, or a tag the list hides)."""
        self.tags_pane.action_ask_tag_id()

    # ----- marks ------------------------------------------------------------------------------------------
    def marked_records(self) -> list[Selector]:
        """The marked selectors of the tag shown (every page, typed ids and mark-all included), in mark order."""
        return list(self.marks.of(self.tag.id).records.values()) if self.tag is not None else []

    def _table_marked(self, records: Sequence[Selector], keys: Sequence[str], marked: bool) -> None:
        """`space` / `v` / the table's clear: keep the model in step."""
        if self.tag is None:
            return
        if marked:
            page = self.window.skip // max(self.window.limit, 1)
            self.marks.mark(self.tag.id, [(record, page) for record in records], BY_HAND)
        else:
            self.marks.unmark(self.tag.id, [int(key) for key in keys])
        self._marks_shown()

    def _marks_shown(self) -> None:
        self.app.quit_warning_stale()
        if self.tag is not None:
            self.selector_table.show_marks(str(selector_id) for selector_id in self.marks.ids(self.tag.id))
        self.tags_pane.show_marked(self.marks.tags_with_marks())
        self._update_status()

    def status_parts(self) -> list[str]:
        """The list screen's parts with the tag named and the marks counted per tag; the Audit tab's own parts while
        it shows (how many runs, which one is chosen)."""
        if self.is_mounted and self.audit_shown():
            return self.query_one(AuditTab).status_parts()
        parts = [part for part in super().status_parts() if not part.endswith(" marked")]
        if self.tag is not None:
            parts.insert(0, StatusPart(f"tag {tag_label(self.tag)}", status.TAG))
            if self.counting:  # never given up (at 80 columns it went first, and M looked lost): shortened instead
                parts.append(StatusPart(self.counting, status.KEEP_ALWAYS, short="counting…", short_rank=status.TAG))
            counter = self.marks.counter(self.tag.id)
            if counter:
                parts.append(counter)
        return parts

    def action_clear_marks(self) -> None:
        """Unmark every selector of this tag (other tags keep theirs), and say how many."""
        cleared = 0 if self.tag is None else self.marks.clear(self.tag.id)
        if not cleared:
            self.notify("Nothing is marked in this tag.")
            return
        self._marks_shown()
        others = self.marks.total()
        kept = f"; {plural(others, 'mark')} in other tags kept" if others else ""
        self.notify(f"Unmarked {plural(cleared, 'selector')} in this tag{kept}.", markup=False)

    def quit_warning(self) -> str | None:
        """What quitting would lose: the marks (they live only in this session), or None."""
        total = self.marks.total()
        return (
            f"{plural(total, 'marked selector')} {'is' if total == 1 else 'are'} forgotten on quit" if total else None
        )

    def action_mark_all_matching(self) -> None:
        """Fetch every selector matching the filters (all pages), then show the count and ask before marking."""
        tag = self.tag
        if tag is None:
            self.notify("Choose a tag first.", severity="warning")
            return
        if self.counting and self.loads.busy(MATCHING):  # a second M (the first seemed lost): the count goes on
            self.notify("Still counting the matches: the question comes when the count is done.", markup=False)
            return
        filters, sort = self.filters, self.sort

        async def matching() -> Matching:
            return await all_matching(await self.app.api_client(), tag.id, filters, sort)

        # said in the status line, not a toast: a toast outlived the count and stood beside the question it led to
        self.counting = f"counting the selectors of {tag_label(tag)} that match…"
        self._update_status()
        self.loads.start(MATCHING, matching)

    def _confirm_matching(self, found: Matching) -> None:
        self.counting = ""
        self._update_status()
        limit = max(self.window.limit, 1)
        markable, lines = matching_lines(found, self.marks, limit)
        if not markable:
            self.notify(" ".join(("Nothing to mark:", *lines[:-1])), markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.marks.mark_listed(found.tag_id, found.selectors, limit, found.why, skip_extension=True)
                self._marks_shown()

        self.app.push_screen(ConfirmMarks(f"Mark {plural(markable, 'selector')}?", lines), answered)

    def action_type_ids(self) -> None:
        """Ask for ids and ranges, then check them against the tag's list and mark the ones found."""
        tag = self.tag
        if tag is None:
            self.notify("Choose a tag first.", severity="warning")
            return

        def typed(ids: list[int] | None) -> None:
            if not ids:
                return

            async def lookup() -> TypedLookup:
                return await typed_lookup(await self.app.api_client(), tag.id, ids)

            self.loads.start(TYPED, lookup)

        self.app.push_screen(TypeIds(), typed)

    def _mark_typed(self, lookup: TypedLookup) -> None:
        if lookup.no_access:  # ETAC: nothing could be checked here; ctrl+d's dry run tries each id
            self.marks.keep_unchecked(lookup.tag_id, lookup.typed)
            self.notify(
                f"{plural(len(lookup.typed), 'typed id')} marked unchecked: this user cannot browse selectors on this "
                "server (environment access control); ctrl+d reviews them, and the server may still allow deleting.",
                severity="warning",
                markup=False,
            )
            self._marks_shown()
            return
        result, unknown = self.marks.mark_typed(lookup.tag_id, lookup.selectors, self.window.limit, lookup.typed)
        warn = bool(unknown or result.refused_default)
        self.notify(typed_summary(result, unknown), severity="warning" if warn else "information", markup=False)
        self._marks_shown()

    def selector_gone(self, tag_id: int, selector_id: int) -> None:
        """A run deleted the selector (or found it gone): its mark clears now; its row leaves the table at the
        next refresh (at most every GONE_REFRESH_SECONDS: the table sits behind the run's dialog, and redrawing it
        per deletion would cost more than the deletions)."""
        self.marks.unmark(tag_id, [selector_id])
        self.gone_pending.setdefault(tag_id, set()).add(selector_id)
        if self.gone_timer is None:
            self.gone_timer = self.set_timer(GONE_REFRESH_SECONDS, self.show_gone)

    def show_gone(self) -> None:
        """Take the rows of deleted selectors out of the table and the tag counts, in one redraw."""
        self.gone_timer = None
        gone, self.gone_pending = self.gone_pending, {}
        ids = gone.get(self.tag.id, set()) if self.tag is not None else set()
        left = [item for item in self.selector_table.items if item.id not in ids]
        removed = len(self.selector_table.items) - len(left)
        if removed and not left:  # the page emptied: the next rows move up, or the tag (or filter) is empty now
            self.load()  # newcomer walk: the table was left blank, neither rows nor "has no selectors"
        elif removed:
            self.selector_table.show_items(left)
            self.window.shown = len(left)
            self.window.count = max(0, (self.window.count or removed) - removed)
        counts = self.tags_pane.counts
        self.tags_pane.show_counts({tag: max(0, counts[tag] - len(ids)) for tag, ids in gone.items() if tag in counts})
        self._marks_shown()

    def read_only_reason(self) -> str | None:
        """Why deletion is hidden here (`--read-only`, SVCTUI_READ_ONLY, a read-only profile), or None."""
        return read_only_why(self.app)

    def palette_commands(self) -> list[Command]:
        """What the command palette offers on this screen now."""
        return selector_commands(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Destructive actions are hidden (not merely disabled) on a read-only profile; while the Audit tab shows,
        the selector list's keys are hidden and do nothing (they acted on the list out of sight); and what the list
        screen hides (`H`: selectors have no hydration)."""
        if action == "delete_marked" and self.read_only_reason() is not None:
            return False
        if action in ("audit_key", "refresh") and self.is_mounted and self.audit_shown():
            return True
        if action == "audit_key":
            return False
        if not super().check_action(action, parameters):
            return False
        return not (action in LIST_ACTIONS and self.is_mounted and self.query_one(TabbedContent).active == "tab-audit")

    def cleanup_plan(self) -> CleanupPlan | None:
        """The plan of the current tag's marks (None when nothing is marked)."""
        return None if self.tag is None else plan_from_marks(self.tag, self.marks.of(self.tag.id))

    def action_delete_off(self) -> None:
        """`ctrl+d` while Delete is hidden (read-only): the reason, naming its source."""
        self.action_delete_marked()

    def action_delete_marked(self) -> None:
        """`ctrl+d`: the review of the marked selectors; after its confirmation, the run."""
        why_not = self.read_only_reason()
        if why_not is not None:
            self.notify(f"Deleting is off: {why_not}.", severity="warning", markup=False)
            return
        plan = self.cleanup_plan()
        if plan is None:
            self.notify(NOTHING_MARKED, severity="warning")
            return

        review = ReviewScreen(plan)

        def reviewed(confirmed: bool | None) -> None:
            if not confirmed:
                return
            # what the dry run settled is not sent: ids that are gone or another tag's lose their marks now
            self.marks.unmark(plan.tag.id, review.left_out)
            self._marks_shown()
            self.app.push_screen(RunScreen(review.plan_to_send(), self.selector_gone), self._after_run)

        self.app.push_screen(review, reviewed)

    def _after_run(self, report: DeleteReport | None = None) -> None:
        """The run screen closed: typed ids the server said are not part of the tag lose their marks (a second
        ctrl+d would only send them again), then the page and counts reload."""
        if report is not None and self.tag is not None:
            refused = [result.selector_id for result in report.results if result.outcome is Outcome.NOT_IN_TAG]
            self.marks.unmark(self.tag.id, refused)
            self._marks_shown()
        self.flush_gone()  # the reloads below are the server's word: no pending guess on top
        self.load()
        if self.tags_pane.tags:
            self._load_counts(self.tags_pane.tags)


def _binding_actions(*holders: type[ListScreen[Selector]]) -> frozenset[str]:
    """The actions (without parameters) the classes bind keys to."""
    bindings = [binding for holder in holders for binding in holder.BINDINGS if isinstance(binding, Binding)]
    return frozenset(binding.action.split("(")[0] for binding in bindings)


# the keys that act on the selector list: off while the Audit tab shows (`a` goes back, and help still answers)
LIST_ACTIONS = _binding_actions(ListScreen, SelectorsScreen) - {"switch_tab", "audit_key"}
