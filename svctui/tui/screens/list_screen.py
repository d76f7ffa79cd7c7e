"""ListScreen: the generic server-paged list screen (filters, chips, sort, paging, detail pane, states).

A concrete screen gives the endpoint spec, a RowAdapter, a DetailPane and how to fetch one page:

    class EventsScreen(ListScreen[Event]):
        SPEC = EVENTS  # its name and item say what the records are called ("events", "event")
        MODE = "events"
        def make_adapter(self) -> RowAdapter[Event]: ...
        def make_detail(self) -> DetailPane[Event]: ...
        async def fetch(self, client: ApiClient, query: ListQuery) -> Page[Event]:
            return await client.events.list(query)

Every load goes through svctui.tui.loading.Loads (the screen's `page` channel): a new load cancels the one in flight
and an answer that is not the latest is dropped, so a slow old response can never overwrite a newer one. The table
is refreshed by keyed diff, so the cursor and marks stay put. Hooks for a concrete screen: `page_arrived`,
`page_failed`, `compose_under_header`, `compose_under_chips`, `reset` (on first show and after a profile switch).

Live refresh (svctui.tui.live) reloads the same query when due: rows new or changed flash for a moment, and
a live refresh that fails keeps the rows on screen, dimmed and marked stale with the reason (`r` retries).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar, cast

from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Tabs

from svctui.api.filters import EndpointSpec, Filter, SortKey
from svctui.api.query import ListQuery
from svctui.table_fit import left_out_hint
from svctui.tui import status_line as status
from svctui.tui.breakpoints import DETAIL_BELOW, FULL_FOOTER_FROM, NARROW_TERMINAL, narrow_below
from svctui.tui.clipboard import copy_text
from svctui.tui.live import Freshness
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.messages import ColumnsFitted, FilterRemoved, MarksChanged, RowFocused, SortChanged
from svctui.tui.palette import list_commands
from svctui.tui.screens.dashboard import DashboardScreen
from svctui.tui.status_line import StatusPart
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.filter_chips import FilterChips, chip_text
from svctui.tui.widgets.filter_editor import FilterEditor
from svctui.tui.widgets.key_footer import KeyFooter
from svctui.tui.widgets.paged_table import PagedTable, PageWindow, RowAdapter
from svctui.tui.widgets.raw_json import RawJson
from svctui.tui.widgets.state_panel import StateKind, StatePanel, error_view

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Page

T = TypeVar("T")
PAGES = Binding.Group("Page")  # the footer shows `[ ] Page`; help lists each key
DRAW_AHEAD_MIN_ROWS = 200  # from this many rows, a page's new lines are drawn in slices before its frame
__all__ = ["ListQuery", "ListScreen"]


class ListScreen(DashboardScreen, Generic[T]):
    """A screen showing one server-side page of an endpoint with filters, sort, paging and a detail pane."""

    SPEC: ClassVar[EndpointSpec]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "edit_filters", "Filter", id="list.filter", tooltip="Edit filters (one request on apply)"),
        Binding("x", "clear_filters", "Clear", show=False, id="list.clear", tooltip="Remove every filter"),
        Binding("left_square_bracket", "previous_page", "Prev", id="list.prev", tooltip="Previous page", group=PAGES),
        Binding("right_square_bracket", "next_page", "Next", id="list.next", tooltip="Next page", group=PAGES),
        Binding("r", "refresh", "Refresh", id="list.refresh", tooltip="Reload this page from the server"),
        Binding("p", "toggle_detail", "Detail", id="list.detail", tooltip="Show or hide the detail pane (or enter)"),
        Binding("escape", "close_detail", "Close detail", show=False, id="list.close", tooltip="Close the detail pane"),
        # `z` shown in the footer only while zoomed (check_action), the way back; first: the footer shows a key's first
        # binding that is not hidden
        Binding("z", "zoom_detail('back')", "Back", id="list.zoom.back", tooltip="Zoomed: bring the table back"),
        Binding("z", "zoom_detail", "Zoom", show=False, id="list.zoom", tooltip="Detail pane full screen, or back"),
        Binding("y", "raw_json", "JSON", show=False, id="list.json", tooltip="Raw JSON of the row under the cursor"),
        Binding(
            "c", "copy_cell", "Copy", show=False, id="list.copy", tooltip="Copy the cell under the cursor (OSC 52)"
        ),
        Binding(
            "H", "toggle_hydration", "Names", show=False, id="list.hydrate", tooltip="Domain and OU names (hydration)"
        ),
    ]
    # the detail pane under the table under DETAIL_BELOW (`-narrow`, and `-narrower` under NARROW_TERMINAL: the
    # tables' narrow columns, breakpoints.narrow_terminal); the footer compact (KeyFooter) until `-wide`
    HORIZONTAL_BREAKPOINTS = narrow_below(DETAIL_BELOW, narrower_below=NARROW_TERMINAL, wide_from=FULL_FOOTER_FROM)
    DEFAULT_CSS = """
    ListScreen #body { height: 1fr; }
    ListScreen.-narrow #body, ListScreen.-narrower #body { layout: vertical; }
    ListScreen #main { width: 1fr; height: 1fr; }
    ListScreen #main PagedTable { height: 1fr; }
    ListScreen #main.-state PagedTable { display: none; }
    ListScreen #main StatePanel.-hidden { display: none; }
    ListScreen #body.-state DetailPane { display: none; }
    ListScreen DetailPane { width: 50%; height: 1fr; }
    ListScreen.-narrow #body DetailPane, ListScreen.-narrower #body DetailPane {
        width: 1fr; height: 45%; border-left: none; border-top: tall $panel-lighten-2;
    }
    ListScreen #status-line { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    ListScreen PagedTable.-stale { text-opacity: 55%; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.filters: tuple[Filter, ...] = ()
        self.sort: tuple[SortKey, ...] = ()
        self.window = PageWindow()
        self.hydrate_domains = True
        self.hydrate_ous = True
        self.last_ms: float | None = None  # the latest page's round trip, for the status line
        self.loads = Loads(self)
        self.page: Channel[Page[T]] = Channel("page")  # the Loads channel of the page
        self._asked: ListQuery | None = None  # the query of the latest page load (a current answer is its answer)
        self._loading = False
        self._generation = -1
        self._shown_query: ListQuery | None = None
        self._table_takes_focus = False
        self._focused_before_zoom: Widget | None = None  # what had the keys before `z` (they go back to it)
        self._shown_skip = 0  # the skip of the rows on screen (window.skip moves ahead while the next page loads)
        self.freshness = Freshness()
        self.arrived_by_refresh = False  # the page being shown reloads the query on screen (page_arrived may ask)

    # ----- what a concrete screen provides ----------------------------------------------------------------
    def make_adapter(self) -> RowAdapter[T]:
        """The columns of the table."""
        raise NotImplementedError

    def make_detail(self) -> DetailPane[T]:
        """The detail pane for one record."""
        return DetailPane()

    async def fetch(self, client: ApiClient, query: ListQuery) -> Page[T]:
        """Fetch one page for `query`."""
        raise NotImplementedError

    def blocked_reason(self) -> tuple[str, ...] | None:
        """Lines explaining why nothing can load yet (e.g. no client chosen), or None."""
        return None

    def page_arrived(self, page: Page[T], query: ListQuery) -> None:
        """A page for the latest request is about to be shown (e.g. to count its statuses)."""

    def page_failed(self, error: BaseException) -> None:
        """The latest page request failed; the error state is shown right after this."""

    def help_noun(self) -> str:
        """What help (`?`) calls the records: the endpoint's name, e.g. "events"."""
        return self.SPEC.name

    def error_hints(self, error: BaseException) -> tuple[str, ...] | None:
        """What to do about `error` when the usual hint (`Press r to retry.`) does not fit; None keeps it."""
        return None

    def compose_under_header(self) -> ComposeResult:
        """Extra widgets between the header and the filter chips (e.g. a client bar)."""
        yield from ()

    def compose_under_chips(self) -> ComposeResult:
        """Extra widgets between the filter chips and the table (e.g. a status breakdown)."""
        yield from ()

    def empty_lines(self) -> tuple[str, str]:
        """Message and hint for an empty result."""
        noun = self.SPEC.name
        if self.filters:
            return (f"No {noun} match these filters", "Press x to clear them all, or click a chip to remove it.")
        return (f"There are no {noun} on this server", "Press r to reload.")

    def theme_color(self, name: str) -> str:
        """The current theme's value of an app variable (e.g. `status-missing`), for Rich cell styles."""
        from svctui.tui.widgets.status_colors import theme_color  # (it imports the API models: after the first frame)

        return theme_color(self.app, name, "error")

    def marked_records(self) -> list[T]:
        """The records of the marked rows (every page), in mark order: what an export writes when there are marks."""
        return self.table.marked_items

    def record_key(self, record: T) -> str:
        """The row key of a record."""
        return self.table.adapter.key(record)

    def system_commands(self) -> Iterable[SystemCommand]:
        """The palette's commands for this list: refresh, export, hydration, sort."""
        return list_commands(self.app, self)

    # ----- layout -----------------------------------------------------------------------------------------
    @property
    def table(self) -> PagedTable[T]:
        """The table widget."""
        return cast("PagedTable[T]", self.query_one("#table", PagedTable))

    @property
    def detail(self) -> DetailPane[T]:
        """The detail pane."""
        return cast("DetailPane[T]", self.query_one("#detail", DetailPane))

    def compose_main(self) -> ComposeResult:
        """Chips, table (or state panel) with the detail pane (between the header and the status line)."""
        yield from self.compose_under_header()
        yield FilterChips(self.SPEC, id="chips")
        yield from self.compose_under_chips()
        yield from self.compose_body()

    def make_footer(self) -> Widget:
        """The footer of the list screens (compact until the screen is `-wide`)."""
        return KeyFooter()

    def follow_breakpoint(self) -> None:
        """The footer follows the screen's breakpoint class (compact or full)."""
        self.query_one(KeyFooter).follow_breakpoint()

    def compose_body(self) -> ComposeResult:
        """The table (or the state panel in its place) beside the detail pane; a screen may wrap it."""
        with Horizontal(id="body"):
            with Vertical(id="main"):
                yield StatePanel(id="state")
                yield self.make_table()
            detail = self.make_detail()
            detail.id = "detail"
            yield detail

    def make_table(self) -> PagedTable[T]:
        """The table widget (id `table`); a screen may return a subclass."""
        return PagedTable(self.make_adapter(), id="table")

    def on_mount(self) -> None:
        """Apply settings, follow the header info, load the first page."""
        self.window.limit = self.app.page_size
        self.app.theme_changed_signal.subscribe(self, self._restyle_cells)
        self.table.focus()
        self.reload_if_stale()

    def restart(self) -> None:
        """First show, or another profile: forget filters, paging and rows, load the first page."""
        self.reset()

    def reset(self, sort: tuple[SortKey, ...] = ()) -> None:
        """Forget filters, paging and rows (another server's), start with `sort`, load the first page."""
        self.filters, self.sort, self.window.skip, self.window.count = (), sort, 0, None
        self.freshness = Freshness()
        self._set_stale("")
        self.table.set_sort(sort)
        self.table.show_items([])
        self.query_one(FilterChips).show_filters(())
        self.load()

    def _restyle_cells(self, *_: object) -> None:
        """Cells styled from theme variables are rebuilt (keyed diff) when the theme changes."""
        self.table.show_items(self.table.items)

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the status line to the new width (the detail pane goes under the table by the `-narrow` class)."""
        self.call_after_refresh(self._update_status)  # the line's own width is known once laid out

    def show_state(self, shown: bool) -> None:
        """Show the state panel instead of the table (and no detail pane: there is no row to detail)."""
        self.query_one("#main").set_class(shown, "-state")
        self.query_one("#body").set_class(shown, "-state")
        if shown or not self.is_current or not self.table_in_view():
            return  # a table on a hidden tab never takes the keys: focusing it would switch the tab back
        if self._table_takes_focus or self.focused is None or not self.focused.display:
            self._table_takes_focus = False
            self.table.focus()  # rows are back (e.g. after x cleared a filter that matched nothing): keys work again

    def table_in_view(self) -> bool:
        """True when the table's part of the screen shows (a screen with tabs says when it does not)."""
        return True

    def focus_table_when_shown(self) -> None:
        """Give the table the keyboard now, or as soon as rows replace the state panel (e.g. another client)."""
        self._table_takes_focus = True
        if self.state_panel.kind is StateKind.HIDDEN:
            self.show_state(False)

    # ----- loading ----------------------------------------------------------------------------------------
    def current_query(self) -> ListQuery:
        """The query the screen state describes now."""
        return ListQuery(
            self.filters, self.sort, self.window.skip, self.window.limit, self.hydrate_domains, self.hydrate_ous
        )

    def load(self) -> None:
        """Start loading the page the state describes (cancels any load in flight)."""
        blocked = self.blocked_reason()
        if blocked is not None:
            self.loads.invalidate(self.page)
            self._loading = False  # a page in flight was for before (another profile's client): not on its way now
            self.state_panel.show_message(*blocked)
            self.show_state(True)
            self._update_status()
            self.app.first_page_settled()
            return
        self._loading = True
        self.freshness.started_at = self.app.live.now()
        self.app.probe_if_troubled()  # the server may be back: the header asks again alongside this load
        query = self.current_query()
        if not self.table.row_count or self.state_panel.kind is not StateKind.HIDDEN:
            self.state_panel.show_loading(self.SPEC.name, self.app.header_info.server)
            self.show_state(True)
        self._update_status()

        async def fetch_page() -> Page[T]:
            page = await self.fetch(await self.app.api_client(), query)
            await self.table.prepare(page.data)  # the rows' cells, rendered in a thread
            return page

        self._asked = query
        self.loads.start(self.page, fetch_page)

    @on(Loaded)
    def _page_loaded(self, message: Loaded[object]) -> None:
        """Show a page (unless a newer request was made since)."""
        if not self.page.answers(message) or not self.loads.is_current(message) or self._asked is None:
            return
        page, query = message.value, self._asked
        records: Sequence[T] = page.data
        if not records and page.count > 0 and self.window.skip > 0:
            self.window.skip = max(0, (page.count - 1) // self.window.limit * self.window.limit)
            self.load()
            return
        self._loading = False
        self.last_ms = message.elapsed_ms
        self.window.count, self.window.shown = page.count, len(records)
        self._shown_skip = self.window.skip
        same_query = self._shown_query == query
        refreshed = same_query and self.rows_on_screen()
        self._shown_query = query
        self.arrived_by_refresh = refreshed
        self.page_arrived(page, query)
        changed = self.table.show_items(records, follow_row=same_query)
        if refreshed:
            self.table.flash(changed)
        self._set_stale("")
        self.freshness.updated_at = self.app.live.now()
        if records:
            self.state_panel.hide()
        else:
            self.state_panel.show_empty(*self.empty_lines())
        self.show_state(not records)
        self.refresh_detail()
        self._update_status()
        if len(records) >= DRAW_AHEAD_MIN_ROWS:
            self.table.draw_ahead()  # the new lines drawn in slices before the frame (PagedTable.draw_ahead)
        self.app.first_page_settled()

    @on(LoadFailed)
    def _page_failed(self, message: LoadFailed) -> None:
        """Show the error as a state (the app stays up; `r` retries)."""
        if message.channel is not self.page or not self.loads.is_current(message):
            return
        self._loading = False
        refresh = message.seq == self.freshness.live_seq or bool(self.freshness.stale)
        self.app.first_page_settled()
        if refresh and self._asked == self._shown_query and self.rows_on_screen():
            self.app.note_failure(message.error)  # a refresh failed: the rows stay, marked stale
            self._set_stale(error_view(message.error, self.SPEC.name).title)
            self._update_status()
            return
        self._set_stale("")
        self.window.count, self.window.shown = None, 0  # the rows of an earlier page are not on screen any more
        self.last_ms = None  # nor is the latency of an answer that is not the latest
        self.app.note_failure(message.error)  # the header says when the server is gone or not the API
        self.page_failed(message.error)
        self.state_panel.show_error(message.error, noun=self.SPEC.name, hints=self.error_hints(message.error))
        self.show_state(True)
        self._update_status()

    # ----- live refresh (svctui.tui.live) ------------------------------------------------------------------
    def live_refresh(self) -> None:
        """Reload the query on screen (a failure keeps the rows, marked stale)."""
        if self.blocked_reason() is not None:
            return
        self.load()
        self.freshness.live_seq = self.loads.seq(self.page)

    def show_freshness(self) -> None:
        """Redraw the status line (its `updated … ago` ticks)."""
        self._update_status()

    def rows_on_screen(self) -> bool:
        """True when the table (not the state panel) is shown and holds rows."""
        return self.state_panel.kind is StateKind.HIDDEN and self.table.row_count > 0

    def status_parts(self) -> list[str]:
        """Pieces of the status line (screens may add their own); they describe the rows on screen.

        While a page loads, the rows of the page before stay on screen: the line names those and says which rows
        are loading (`rows 1-100 of 702  ·  loading rows 101-200…`), never the coming range as if it were shown.
        """
        shown = replace(self.window, skip=self._shown_skip) if self._loading else self.window
        parts: list[str] = []
        if not self._loading or self.rows_on_screen():
            rows = shown.label()  # `no rows` ranks as a screen's own part (below the tag and `r to retry`)
            parts.append(StatusPart(rows, status.OWN if rows == "no rows" else status.ROWS))
        # a page a deletion run took rows out of (not read again yet) is no server page: no `page 1/3` for 10 rows
        if shown.count and parts and shown.shown >= min(shown.limit, shown.count - shown.skip):
            pages = (shown.count + shown.limit - 1) // shown.limit
            parts.append(StatusPart(f"page {shown.skip // shown.limit + 1}/{pages}", status.PAGE))
        if parts and self.rows_on_screen() and (hint := self.left_out_hint()):
            counted = self.left_out_hint(counted=True)  # the names give way before the page (status_line.NOTE)
            parts.append(StatusPart(hint, status.LEFT_OUT, short=counted, short_rank=status.NOTE))
        if self.sort:
            parts.append(StatusPart(sort_words(self.sort), status.SORT))
        if self.filters:
            count = f"{len(self.filters)} filter" + ("s" if len(self.filters) > 1 else "")
            parts.append(StatusPart(count, status.FILTERS))
        if self.SPEC.hydration and not (self.hydrate_domains and self.hydrate_ous):
            off = [name for name, on_ in (("domains", self.hydrate_domains), ("OUs", self.hydrate_ous)) if not on_]
            parts.append(StatusPart("no names (H): " + ", ".join(off), status.NAMES))
        if self.table.marked:
            parts.append(StatusPart(f"{len(self.table.marked)} marked", status.KEEP_ALWAYS))
        if self._loading:
            parts.append(StatusPart(self._loading_label(), status.ROWS))
        elif self.last_ms is not None and not self.app.frozen:
            parts.append(StatusPart(f"{self.last_ms:.0f} ms", status.TIMING))
        live = self.app.live
        return self.freshness.stale_parts() + parts + self.freshness.age_parts(live.now(), live.seconds)

    def left_out_hint(self, *, counted: bool = False) -> str:
        """`+3 columns (p): kinds, domains, OUs`: the columns the table leaves out at this width and the key that
        shows them (the detail pane); only the count when more than three, or when `counted`."""
        left_out = self.table.left_out
        if not left_out:
            return ""
        bindings = (active.binding for active in self.active_bindings.values())
        key = next((self.app.get_key_display(item) for item in bindings if item.action == "toggle_detail"), "p")
        return left_out_hint(left_out, key, counted=counted)

    def _loading_label(self) -> str:
        """`loading rows 101-200…` (the range asked for; capped by the total when only the page changed)."""
        first = self.window.skip + 1
        last = self.window.skip + self.window.limit
        paging = self._shown_query is not None and replace(self._shown_query, skip=self.window.skip) == (
            self.current_query()
        )
        if paging and self.window.count is not None and self.window.count >= first:
            last = min(last, self.window.count)
        return f"loading rows {first:,}\u2013{last:,}…"

    def _update_status(self) -> None:
        self.show_status(self.status_parts())

    # ----- user intents -----------------------------------------------------------------------------------
    def set_filters(self, filters: Sequence[Filter]) -> None:
        """Replace the filters, go to the first page, load."""
        self.show_filters(filters)
        self.window.skip = 0
        self.load()

    def show_filters(self, filters: Sequence[Filter]) -> None:
        """Replace the filters and their chips (no load: the caller loads, e.g. with another client)."""
        self.filters = tuple(filters)
        self.query_one(FilterChips).show_filters(self.filters, self.filter_client_names())

    def filter_client_names(self) -> Mapping[str, str] | None:
        """The known clients (id -> name) where `client_id` takes a client's name and its chip shows it (None: a
        uuid only)."""
        return None

    def set_sort(self, sort: Sequence[SortKey]) -> None:
        """Replace the sort keys, go to the first page, load."""
        self.sort = tuple(sort)
        self.table.set_sort(self.sort)
        self.window.skip = 0
        self.load()

    def action_edit_filters(self) -> None:
        """Open the filter editor; applying sends one request (applying nothing new says so and sends none)."""

        def applied(result: tuple[Filter, ...] | None) -> None:
            if result is None:
                return
            if set(result) != set(self.filters):
                self.set_filters(result)
            elif not result:
                self.notify("No filter entered: nothing to apply.")
            else:
                self.notify("The filters are unchanged: nothing was sent.")

        editor = FilterEditor(self.SPEC, self.filters, clock=self.app.clock, client_names=self.filter_client_names())
        self.app.push_screen(editor, applied)

    def action_clear_filters(self) -> None:
        """Remove every filter."""
        if not self.filters:
            self.notify("No filters to clear.")
            return
        self.set_filters(())

    @on(FilterRemoved)
    def _filter_removed(self, message: FilterRemoved) -> None:
        self.set_filters([active for active in self.filters if active != message.removed])
        words = chip_text(message.removed, self.SPEC, self.filter_client_names()).removesuffix(" ✕")
        self.notify(f"Filter {words} removed (x clears all).", timeout=4, markup=False)
        self.focus_table_when_shown()  # the chip is gone: the keys go back to the rows

    @on(SortChanged)
    def _sort_changed(self, message: SortChanged) -> None:
        self.sort = message.sort
        self.window.skip = 0
        self.load()

    def action_next_page(self) -> None:
        """Load the next page."""
        skip = self.window.next_skip()
        if skip is None:
            self.notify("This is the last page.")
            return
        self.window.skip = skip
        self.load()

    def action_previous_page(self) -> None:
        """Load the previous page."""
        skip = self.window.previous_skip()
        if skip is None:
            self.notify("This is the first page.")
            return
        self.window.skip = skip
        self.load()

    def action_refresh(self) -> None:
        """Reload the current page."""
        self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hydration's key (`H`) is hidden, in the footer and in help, where the endpoint has none (selectors); `z`'s
        `Back` shows only while zoomed."""
        if action == "zoom_detail" and parameters:
            return self.maximized is not None
        return not (action == "toggle_hydration" and not self.SPEC.hydration)

    def action_toggle_hydration(self) -> None:
        """Turn hydration of domains and OUs off or on (fewer server lookups when off). Never runs where the endpoint
        has none: `check_action` refuses it (the key, a rebound key, `run_action`) and the palette does not offer it."""
        value = not (self.hydrate_domains and self.hydrate_ous)
        self.set_hydration(value, value)

    def set_hydration(self, domains: bool, ous: bool) -> None:
        """Set hydration of domains and OUs and reload."""
        self.hydrate_domains, self.hydrate_ous = domains, ous
        state = "on" if domains and ous else "off" if not (domains or ous) else "partly on"
        self.notify(
            f"Names (hydration) {state}: domains {'on' if domains else 'off'}, OUs {'on' if ous else 'off'}."
            + ("" if domains and ous else " Off: ids only, fewer lookups on the server; H again for names.")
        )
        self.load()

    def action_toggle_detail(self) -> None:
        """Show or hide the detail pane."""
        self.detail.set_open(not self.detail.is_open)
        self.refresh_detail()  # the table's resize keeps the cursor's row in view (RowTable.on_resize)

    def maximize(self, widget: Widget, container: bool = True) -> bool:
        """Textual's maximize; the footer's `z Back` shows."""
        maximized = super().maximize(widget, container)
        self.refresh_bindings()
        return maximized

    def minimize(self) -> None:
        """Textual's minimize (`z`, or esc: Textual's own); the footer's `z Back` goes."""
        super().minimize()
        self.refresh_bindings()

    def action_zoom_detail(self, _back: str = "") -> None:
        """`z`: the detail pane (opened if closed) takes the whole screen; again, or esc, brings the table back."""
        if self.maximized is not None:
            self.minimize()
            self._focus_after_zoom()
            return
        if self.query_one("#body").has_class("-state"):
            self.notify(f"Nothing to zoom: no {self.SPEC.item} on screen.", timeout=3)
            return  # the pane is hidden with the table: zoomed, it would fill the screen with nothing
        if not self.detail.is_open:
            self.action_toggle_detail()
        target = self.zoom_target()
        self._focused_before_zoom = self.focused
        if self.focused is None or target not in self.focused.ancestors_with_self:
            zoom_focus(self, target).focus()  # the zoomed pane takes the keys: the table hides (Textual picked a chip)
        self.maximize(target, container=False)

    def _focus_after_zoom(self) -> None:
        """Back from `z`: the keys go where they were before the zoom (the table, usually), never to a chip."""
        before, self._focused_before_zoom = self._focused_before_zoom, None
        if before is not None and before.is_attached and before.display and before is not self.table:
            before.focus()
        elif self.table.display and not self.query_one("#main").has_class("-state"):
            self.table.focus()

    def zoom_target(self) -> Widget:
        """What `z` gives the whole screen: the detail pane."""
        return self.detail

    def action_close_detail(self) -> None:
        """`esc` closes the detail pane when it is open (the table takes the focus back); otherwise esc goes on."""
        if not self.detail.is_open:
            raise SkipAction()
        focus_table = self.focused is None or self.detail in self.focused.ancestors_with_self
        self.action_toggle_detail()
        if focus_table and self.table.display:
            self.table.focus()

    @on(DataTable.CellSelected)
    def _cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        self.action_toggle_detail()

    @on(MarksChanged)
    @on(ColumnsFitted)
    def _marks_changed(self) -> None:
        self._update_status()

    @on(RowFocused)
    def _row_focused(self) -> None:
        self.refresh_detail()

    def refresh_detail(self) -> None:
        """Show the record under the cursor in the detail pane (or nothing when there is none)."""
        if self.detail.is_open:
            self.detail.show_item(self.table.current_item)
        self._update_status()

    def action_raw_json(self) -> None:
        """Show the raw JSON of the record under the cursor."""
        record = self.table.current_item
        if record is None:
            self.notify("No row under the cursor.", severity="warning")
            return
        self.app.push_screen(RawJson(f"{self.SPEC.item.capitalize()} {self.record_key(record)}", record))

    def action_copy_cell(self) -> None:
        """Copy the cell under the cursor with OSC 52."""
        column = self.table.current_column
        copy_text(self.app, self.table.current_cell_text(), column.label if column else "cell")


def zoom_focus(screen: DashboardScreen, target: Widget) -> Widget:
    """What takes the keys when `target` is zoomed: itself when focusable, else the first part of it that is (a
    tab strip last: the tab's content is what the keys are for)."""
    if target.focusable:
        return target
    inside = [widget for widget in screen.focus_chain if target in widget.ancestors]
    return next((widget for widget in inside if not isinstance(widget, Tabs)), inside[0] if inside else target)


def sort_words(sort: Sequence[SortKey]) -> str:
    """The sort in words, as the other screens say theirs: `sorted by execution time ▼, id ▲` (not the API's
    `-execution_time,id`)."""
    return "sorted by " + ", ".join(f"{key.column.replace('_', ' ')} {'▼' if key.descending else '▲'}" for key in sort)
