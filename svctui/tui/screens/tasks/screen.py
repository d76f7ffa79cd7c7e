"""The Completed tasks screen (key 2): triage a client's collection runs and their per-domain results.

Keys and intents: choose the client (C), switch the endpoint (e: `completed-jobs`, the server's default, or
`completed-tasks`, deprecated), quick filters (f failed in the last 24 h, i partially complete, o not OK, d runs
with drops, the last one client-side; each is also a palette command), the detail tabs (R results, P plot, W
compare with the previous run, T fields, L the run's log: log_tab.py) and the plotted count (n / N). Paging,
sort, the filter editor, chips, hydration, states and the page's load come from ListScreen.

Besides the page, four loads run through `self.loads` (svctui.tui.loading), each on its own channel: "breakdown"
(per-status counts when the page does not hold every match), "history" (the client's runs for the plot, the drops
and the comparison), "clients" (client ids of the events, for the picker), "remember" (the chosen client saved
to the settings, in a thread) and "names" / "names-save" (client names from GET /api/v2/clients or the cache, and
names learnt from the tasks' `client_name`, see svctui.tui.client_names). The reads themselves are in loaders.py;
what they bring is kept in state.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, getters, on
from textual.actions import SkipAction
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static, TabbedContent

from svctui.api.compact import share_repeats
from svctui.api.filters import COMPLETED_TASKS, TASKS_NEWEST_FIRST, EndpointSpec, Filter, SortKey
from svctui.api.limits import (
    DASHBOARD_DEPRECATION_NOTICE,
    DEPRECATED_TASK_ENDPOINT,
    REPLACEMENT_TASK_ENDPOINT,
    TaskEndpoint,
)
from svctui.api.models import CompletedTask
from svctui.triage import QUICK_FILTERS, QUICK_FILTERS_BY_NAME, StatusCount, status_breakdown
from svctui.tui.breakpoints import narrow_terminal, set_breakpoint_class
from svctui.tui.client_names import (
    CACHED_CHANNEL,
    NAMES_CHANNEL,
    SAVE_CHANNEL,
    is_names_answer,
    names_loaded,
    save_learnt_names,
    start_name_load,
)
from svctui.tui.live import announce_failures
from svctui.tui.loading import Channel, Loaded, LoadFailed
from svctui.tui.screens.list_screen import ListQuery, ListScreen
from svctui.tui.screens.tasks.bars import client_bar, history_text, quick_notice
from svctui.tui.screens.tasks.detail import TABS, TaskDetail, refresh_results_column, task_adapter, unnamed_hint
from svctui.tui.screens.tasks.drops_view import drops_view
from svctui.tui.screens.tasks.loaders import (
    Fingerprint,
    History,
    TasksQuery,
    fetch_breakdown,
    fetch_fingerprint,
    fetch_history,
    fetch_known_clients,
)
from svctui.tui.screens.tasks.state import ClientHistory, KnownClients
from svctui.tui.widgets.client_picker import ClientPicker
from svctui.tui.widgets.count_plot import CountPlot
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.domain_results import DomainResultsPane
from svctui.tui.widgets.filter_chips import FilterChips
from svctui.tui.widgets.paged_table import RowAdapter
from svctui.tui.widgets.state_panel import error_view
from svctui.tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Page
    from svctui.store.settings import Settings

DEFAULT_SORT = TASKS_NEWEST_FIRST
SEEK_PAGES = 4  # pages read on past the first for the run behind a Clients verdict (newest first: rarely needed)
ONE_PAGE = "The drops view is computed client-side: it has one page."
BREAKDOWN: Channel[list[StatusCount]] = Channel("breakdown")  # the page's matches counted per status
HISTORY: Channel[History] = Channel("history")  # the client's newest runs, their drops and fingerprint
HISTORY_CHECK: Channel[Fingerprint] = Channel("history-check")  # the history's fingerprint on the server now
CLIENTS: Channel[list[tuple[str, str]]] = Channel("clients")  # the clients the events name, for the picker
REMEMBER: Channel[Settings] = Channel("remember")  # the settings with the chosen client first among the recent
QUICK = Binding.Group("Quick filter")  # the footer shows `f i o d Quick filter`; help lists each key


def _quick_bindings() -> list[BindingType]:
    return [
        Binding(
            quick.key,
            f"quick('{quick.name}')",
            quick.title,
            id=f"tasks.quick.{quick.name}",
            tooltip=quick.description,
            group=QUICK,
        )
        for quick in QUICK_FILTERS
    ]


ENDPOINT_SWITCH = f"{DEPRECATED_TASK_ENDPOINT} ⇄ {REPLACEMENT_TASK_ENDPOINT}"  # the `e` key's tooltip


class TasksScreen(ListScreen[CompletedTask]):
    """Completed tasks of one client, with domain results and triage aids."""

    SPEC: ClassVar[EndpointSpec] = COMPLETED_TASKS
    MODE: ClassVar[str] = "tasks"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("C", "choose_client", "Client", id="tasks.client", tooltip="Choose the client: known or a typed uuid"),
        Binding("e", "switch_endpoint", "Endpoint", id="tasks.endpoint", tooltip=ENDPOINT_SWITCH),
        Binding("E", "show_event", "Event", show=False, id="tasks.event", tooltip="Jump to this run's event"),
        *_quick_bindings(),
        Binding("R", "show_tab('results')", "Results", show=False, id="tasks.tab.results", tooltip="Domain results"),
        Binding("P", "show_tab('plot')", "Plot", show=False, id="tasks.tab.plot", tooltip="Plot the domain's counts"),
        Binding("W", "show_tab('compare')", "Compare", show=False, id="tasks.tab.compare", tooltip="vs previous run"),
        Binding("T", "show_tab('fields')", "Fields", show=False, id="tasks.tab.fields", tooltip="Every field"),
        Binding("L", "open_log", "Log", id="tasks.log", tooltip="The run's log (at the domain under the cursor)"),
        Binding("n", "plot_field(1)", "Next count", show=False, id="tasks.plot.next", tooltip="Plot the next count"),
        Binding(
            "N", "plot_field(-1)", "Prev count", show=False, id="tasks.plot.prev", tooltip="Plot the previous count"
        ),
    ]
    DEFAULT_CSS = """
    TasksScreen #body { layout: vertical; }
    TasksScreen #body #main { height: 2fr; }
    TasksScreen #body TaskDetail { width: 1fr; height: 3fr; border-left: none; border-top: tall $panel-lighten-2; }
    TasksScreen.-narrow #body TaskDetail, TasksScreen.-narrower #body TaskDetail { height: 3fr; }  /* not 45% */
    TasksScreen #body TaskDetail.-maximized { height: 1fr; border-top: none; }
    TasksScreen #client-bar { height: 1; padding: 0 1; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    TasksScreen .tasks-notice { height: auto; padding: 0 1; color: $warning; }
    TasksScreen .tasks-notice.-hidden { display: none; }
    TasksScreen FilterChips.-inactive { text-opacity: 45%; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.client_id: str | None = None
        self.client_profile: str | None = None  # the profile client_id was chosen with
        self.endpoint: TaskEndpoint | None = None  # chosen with `e`; None: the server's (svctui.api TasksResource)
        self.quick: str | None = None
        self.quick_under_drops: str | None = None  # the server-side quick filter the drops view was entered from
        self.missing_client: str | None = None  # a client the server answered 404 for (not live-refreshed)
        self.wanted_run: int | None = None  # the run behind a Clients verdict: the cursor goes to it when listed
        self.wanted_pages = 0  # pages read on past the first looking for it
        self.runs = ClientHistory()
        self.clients = KnownClients()
        self.breakdown: tuple[StatusCount, ...] = ()
        self.seen_client_name = ""

    # ----- ListScreen hooks -------------------------------------------------------------------------------
    def make_adapter(self) -> RowAdapter[CompletedTask]:
        """Task columns; the results column marks runs with drops."""
        return task_adapter(self.app, lambda task_id: self.runs.drops_by_task.get(task_id, ()))

    def make_detail(self) -> DetailPane[CompletedTask]:
        """Domain results, plot, comparison, fields."""
        settings = self.app.settings
        if settings is not None:
            self.runs.threshold = settings.drop_threshold
        detail = TaskDetail(threshold=self.runs.threshold)
        detail.client_of = self.app.api_client
        return detail

    def compose_under_header(self) -> ComposeResult:
        """The client bar and the notices (deprecated endpoint, quick filter)."""
        yield Static("", id="client-bar")
        yield Static("", id="endpoint-notice", classes="tasks-notice", markup=False)
        yield Static("", id="quick-notice", classes="tasks-notice -hidden", markup=False)

    def compose_under_chips(self) -> ComposeResult:
        """The per-status breakdown of the matching tasks."""
        yield StatusBar(id="status-breakdown")

    def current_query(self) -> TasksQuery:
        """The page request, with the client and the endpoint."""
        base = super().current_query()
        return TasksQuery(
            base.filters,
            base.sort,
            base.skip,
            base.limit,
            base.hydrate_domains,
            base.hydrate_ous,
            self.endpoint,
            self.client_id or "",
        )

    async def fetch(self, client: ApiClient, query: ListQuery) -> Page[CompletedTask]:
        """One page of the client's completed tasks or jobs."""
        assert isinstance(query, TasksQuery)
        page = await client.tasks.list(query.client_id, query)
        await asyncio.to_thread(share_repeats, page.data)  # ~70 % less memory a kept task (svctui.api.compact)
        return page

    def blocked_reason(self) -> tuple[str, ...] | None:
        """Nothing loads until a client is chosen."""
        if self.client_id is None:
            return (
                "Choose a client",
                "Completed tasks are listed per collection client.",
                "Press C to pick a known client (from the events, or one you chose before) or type its uuid.",
            )
        return None

    def empty_lines(self) -> tuple[str, str]:
        """Empty result: say which client and how to widen."""
        if self.filters:
            return (
                "No completed tasks match these filters",
                "Press x to clear them all, or click a chip to remove it.",
            )
        return (
            "This client has no completed runs",
            f"Press C to choose another client, or e to read {other_endpoint(self.shown_endpoint())} instead.",
        )

    def status_parts(self) -> list[str]:
        """The base parts, with the client-side view said plainly."""
        if self.quick == "drops":
            live, shown = self.app.live, self.window.shown
            return [
                *self.freshness.stale_parts(),
                f"{shown:,} {_runs(shown)} with drops (client-side)",
                "d or x returns to the server list",
                *self.freshness.age_parts(live.now(), live.seconds),
            ]
        return super().status_parts()

    def page_arrived(self, page: Page[CompletedTask], query: ListQuery) -> None:
        """Breakdown from the page when it holds every match, else ask the server (one count per status)."""
        self._note_client_name(page.data)
        assert isinstance(query, TasksQuery)
        if self.wanted_run is not None:
            self.call_later(self._go_to_wanted_run)  # once the page is in the table (it is shown after this hook)
        if query.client_id:  # a not-OK run first seen in a refresh of the same page is announced, once
            watch = self.app.live.failures
            fresh = watch.new_failures(query.client_id, page.data, announce=self.arrived_by_refresh)
            announce_failures(self.app, self.client_name() or query.client_id, fresh)
        if query.skip == 0 and page.count <= len(page.data):
            self._show_breakdown(status_breakdown(page.data), "matching, all on this page" if page.data else "")
            return
        self.query_one(StatusBar).set_breakdown(self.breakdown, "counting…" if self.breakdown else "")

        async def breakdown() -> list[StatusCount]:
            return await fetch_breakdown(await self.app.api_client(), query, page.count)

        self.loads.start(BREAKDOWN, breakdown)

    def _go_to_wanted_run(self) -> None:
        """The cursor on the run behind the Clients verdict; not on this page: the next pages (up to SEEK_PAGES) are
        read for it, and the screen says where it is, or that it was not found."""
        run_id = self.wanted_run
        if run_id is None:
            return
        page = self.window.skip // max(self.window.limit, 1) + 1
        if str(run_id) in self.table.rows:
            self.wanted_run = None
            self.table.move_cursor(row=self.table.get_row_index(str(run_id)), animate=False)
            if page > 1:
                self.notify(f"Run {run_id}, behind the client's verdict, is on page {page}: the cursor is on it.")
            return
        skip = self.window.next_skip()
        if skip is not None and self.wanted_pages < SEEK_PAGES:
            self.wanted_pages += 1
            self.window.skip = skip
            self.load()
            return
        self.wanted_run = None
        self.notify(
            f"Run {run_id}, behind the client's verdict, is not in the first {page} page{'s' if page > 1 else ''} "
            "of the list ([ and ] page; / filters by id).",
            severity="warning",
        )

    def page_failed(self, error: BaseException) -> None:
        """A 404 usually means an unknown client: say how to choose another (once: live refresh leaves it)."""
        self._show_breakdown((), "no breakdown: the page did not load")
        if getattr(error, "status", None) == 404 and self.missing_client != self.client_id:
            self.missing_client = self.client_id
            self.notify(f"The server answered 404 for client {self.client_id}: press C to choose another client.")

    def error_hints(self, error: BaseException) -> tuple[str, ...] | None:
        """An unknown client: asking again won't help, another client will."""
        if getattr(error, "status", None) == 404 and self.missing_client == self.client_id:
            return ("No such client on this server (or not one that lists tasks): press C to choose another.",)
        return None

    def reset(self, sort: tuple[SortKey, ...] = DEFAULT_SORT) -> None:
        """On first show or after a profile switch: newest first, then load the page, history, known clients
        (after a switch, of the new profile's most recent client: recent clients are kept per profile)."""
        profile = self.app.profile.name if self.app.profile is not None else ""
        if self.client_profile is not None and profile != self.client_profile:
            recent = self.recent_clients()
            self.client_id = recent[0].lower() if recent else None
        self.client_profile = profile
        self.quick = self.quick_under_drops = None
        self.runs.clear()
        self.clients.clear()
        self._show_breakdown((), "")
        super().reset(sort)
        self.load_history()
        self.load_known_clients()
        start_name_load(self.app, self.loads)

    # ----- layout and bars ----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        """Start from the most recent client of the settings (runs before ListScreen's on_mount loads)."""
        recent = self.recent_clients()
        if recent and self.client_id is None:
            self.client_id = recent[0].lower()
        self.detail.set_open(True)
        self._refresh_bars()

    task_detail = getters.query_one(TaskDetail)  # the detail pane, typed

    def client_name(self) -> str:
        """The chosen client's name, from its tasks, the events or the client names ("" when unknown)."""
        client_id = self.client_id or ""
        return self.seen_client_name or self.clients.name_of(client_id) or self.app.client_name(client_id)

    def _note_client_name(self, tasks: Sequence[CompletedTask]) -> None:
        name = next((task.client_name for task in tasks if task.client_name), "")
        if name and self.client_id is not None:
            self.clients.seen_names[self.client_id] = name  # the picker shows it (the events carry no names)
            save_learnt_names(self.app, self.loads, {self.client_id: name})  # and later sessions
        if name and name != self.seen_client_name:
            self.seen_client_name = name
            self._refresh_bars()

    def on_resize(self, event: events.Resize) -> None:
        """The client bar fits its text to the width (Textual runs the list and dashboard screens' on_resize after
        this one, so the breakpoint class the quick notice follows is set here first)."""
        set_breakpoint_class(self, event.size.width)
        self._refresh_bars()

    def _refresh_bars(self) -> None:
        runs = self.runs
        loaded = len(runs.tasks) if runs.tasks is not None else None
        facts = (self.client_id is not None, loaded, runs.total, len(runs.drops), runs.threshold, runs.problem)
        history, short_history = history_text(*facts), history_text(*facts, short=True)
        self.query_one("#client-bar", Static).update(
            client_bar(
                self.client_id,
                self.client_name(),
                self.shown_endpoint(),
                history,
                self.app.size.width - 2,
                short_history,
            )
        )
        deprecated = self.shown_endpoint() == DEPRECATED_TASK_ENDPOINT
        notice = self.query_one("#endpoint-notice", Static)
        notice.update(DASHBOARD_DEPRECATION_NOTICE if deprecated else "")
        notice.set_class(not deprecated, "-hidden")
        text = quick_notice(self.quick, runs.threshold, loaded or 0, short=narrow_terminal(self))
        quick = self.query_one("#quick-notice", Static)
        quick.update(text)
        quick.set_class(not text, "-hidden")
        self.query_one(FilterChips).set_class(self.quick == "drops", "-inactive")  # kept for later, not applied now

    def _show_breakdown(self, breakdown: Sequence[StatusCount], scope: str) -> None:
        self.breakdown = tuple(breakdown)
        self.query_one(StatusBar).set_breakdown(self.breakdown, scope)

    # ----- loads --------------------------------------------------------------------------------------------
    def refresh_detail(self) -> None:
        """The detail pane, its nameless domains and OUs saying why they have no name for the rows shown: the page's
        query (names asked or not) or the drops view (read without names), whatever `H` says now."""
        shown = self._shown_query
        asked = (shown.hydrate_domains is not False, shown.hydrate_ous is not False) if shown else (True, True)
        drops = self.quick == "drops"
        self.task_detail.unnamed = (
            unnamed_hint(asked[0], self.hydrate_domains, drops),
            unnamed_hint(asked[1], self.hydrate_ous, drops),
        )
        super().refresh_detail()

    def load(self) -> None:
        """Load the page, or show the client-side drops view; refresh the bars."""
        if self.quick == "drops":
            self.loads.invalidate(self.page)  # any page in flight is now stale
            shown = drops_view(self, self.runs)
            if shown is not None:
                self._show_breakdown(status_breakdown(shown), f"{_runs(len(shown))} with drops")
        else:
            self.loads.invalidate(BREAKDOWN)  # a count for the page before must not land on this one
            super().load()
        if self.is_mounted:
            self._refresh_bars()

    def load_history(self, fingerprint: Fingerprint | None = None) -> None:
        """(Re)load the client's history for the plot, the drops and the comparison (`fingerprint`: the server's,
        just asked by a check, so the load does not ask it again)."""
        self.runs.problem = ""
        self.loads.invalidate(HISTORY_CHECK)  # a check in flight asked about the history this load replaces
        if self.client_id is None:
            self.loads.invalidate(HISTORY)
            self.runs.tasks = None
            self.task_detail.set_history(None, [], "choose a client first")
            return
        if self.runs.tasks is None:
            self.task_detail.set_history(None, [], "loading the client's task history…")
        client_id, endpoint, threshold = self.client_id, self.endpoint, self.runs.threshold

        async def history() -> History:
            return await fetch_history(await self.app.api_client(), client_id, endpoint, threshold, fingerprint)

        self.loads.start(HISTORY, history)

    def load_known_clients(self) -> None:
        """Collect client ids from the events (enterprise only) for the picker."""
        self.clients.loading = True

        async def clients() -> list[tuple[str, str]]:
            return await fetch_known_clients(await self.app.api_client())

        self.loads.start(CLIENTS, clients)

    @on(Loaded)
    def _tasks_loaded(self, message: Loaded[object]) -> None:
        if message.channel is self.page or not self.loads.is_current(message):
            return  # the page is ListScreen's; a stale answer (another client, another server) is dropped
        if BREAKDOWN.answers(message):
            self._show_breakdown(message.value, "matching the filters")
        elif HISTORY.answers(message):
            self.runs.apply(message.value)
            self._note_client_name(self.runs.tasks[:1] if self.runs.tasks else [])
            self.task_detail.set_history(self.runs.tasks, self.runs.drops, series=self.runs.series)
            if self.quick == "drops":
                self._set_stale("")
                self.freshness.updated_at = self.app.live.now()
                self.load()
            else:
                refresh_results_column(self.table)
                self._refresh_bars()
        elif HISTORY_CHECK.answers(message):
            if message.value != self.runs.fingerprint:
                self.load_history(message.value)  # a run was added, removed or updated: the drops computed again
            else:
                self._set_stale("")
                self.freshness.updated_at = self.app.live.now()
                self._update_status()
        elif CLIENTS.answers(message):
            self.clients.loading, self.clients.pairs, self.clients.problem = False, message.value, ""
            self._known_changed()
        elif REMEMBER.answers(message):
            self.app.settings = message.value
        elif is_names_answer(message) and names_loaded(self.app, message):
            self._known_changed()

    @on(LoadFailed)
    def _tasks_failed(self, message: LoadFailed) -> None:
        if message.channel is self.page or not self.loads.is_current(message):
            return
        view = error_view(message.error, "events" if message.channel is CLIENTS else "completed tasks")
        if message.channel is BREAKDOWN:
            self._show_breakdown((), f"status breakdown unavailable: {view.title}")
            self.notify(f"Status breakdown unavailable: {view.title}", severity="warning")
            self.app.note_failure(message.error)
        elif message.channel in (HISTORY, HISTORY_CHECK) and self.quick == "drops" and self.runs.tasks:
            self.app.note_failure(message.error)  # a refresh of the drops view failed: its rows stay, stale
            self._set_stale(view.title)
            self._update_status()
        elif message.channel in (HISTORY, HISTORY_CHECK):
            self.app.note_failure(message.error)
            self.runs.problem = view.title
            detail = " ".join(view.lines[:1])
            self.task_detail.set_history(None, [], f"the client's history could not be loaded: {view.title}. {detail}")
            self._refresh_bars()
        elif message.channel is CLIENTS:
            self.clients.loading, self.clients.pairs = False, []
            self.clients.problem = f"{view.title}: only recent clients are listed; type a uuid."
            self._known_changed()
        elif message.channel is REMEMBER:
            self.notify(f"Could not remember the client: {message.error}", severity="warning", markup=False)
        elif message.channel in (NAMES_CHANNEL, CACHED_CHANNEL, SAVE_CHANNEL):
            self.notify(f"Client names cache: {message.error}", severity="warning", markup=False)

    def _known_changed(self) -> None:
        self._refresh_bars()
        if isinstance(self.app.screen, ClientPicker):
            self.app.screen.set_known(self.known_clients(), self.picker_status())

    def known_clients(self) -> list[Any]:
        """Recent choices the server still has first, then the events' clients and every client whose name is known
        (the server's client list once read, the cache of this server until then)."""
        profile = self.app.profile.name if self.app.profile is not None else ""
        known = self.app.client_names
        return self.clients.merged(known.existing(profile, self.recent_clients()), known.names(profile))

    def picker_status(self) -> str:
        """The picker's line under its list: the events still loading, a failure, names from the last visit."""
        profile = self.app.profile.name if self.app.profile is not None else ""
        return " · ".join(part for part in (self.clients.picker_status(), self.app.client_names.note(profile)) if part)

    def recent_clients(self) -> list[str]:
        """The clients recently chosen with the profile in use, most recent first (each profile has its own)."""
        settings, profile = self.app.settings, self.app.profile
        return settings.recent_for(profile.name if profile is not None else "") if settings is not None else []

    # ----- intents ------------------------------------------------------------------------------------------
    def action_choose_client(self) -> None:
        """Open the client picker."""

        def chosen(client_id: str | None) -> None:
            if client_id is not None:
                self.choose_client(client_id)

        picker = ClientPicker(self.known_clients(), current=self.client_id, status=self.picker_status())
        self.app.push_screen(picker, chosen)

    def show_event_runs(self, client_id: str, event_id: int) -> None:
        """Jump here from an event: its client's runs of that event only (`event_id=eq:N`, x clears), in the server
        list (the filters are replaced: a quick filter or the drops view is left)."""
        self.quick = self.quick_under_drops = None
        self.show_filters([Filter.build(COMPLETED_TASKS, "event_id", "eq", str(event_id))])
        self.choose_client(client_id, keep_event=True)
        self.notify(f"Runs of event {event_id} (x clears the filter).", timeout=4)

    async def action_show_event(self) -> None:
        """The Events screen, filtered to this run's event, its detail open."""
        task = self.table.current_item if self.client_id is not None else None
        if task is None:
            self.notify(no_run_reason(self.client_id is not None), severity="warning")
            return
        if task.event_id is None:
            self.notify("This run has no event (it was started by hand).", severity="warning")
            return
        await self.app.show_event(task.event_id)

    def open_client(self, client_id: str, *, endpoint: TaskEndpoint | None = None, run_id: int | None = None) -> None:
        """Clients' enter: the client's whole story, every run, the cursor on `run_id` (the run its verdict came from:
        the failure, the drop). Filters and a quick filter left from before (an event's `event_id`, `o`) would hide
        that run, so they go, and the screen says so."""
        cleared = sorted({f.column for f in self.filters})
        self.quick = self.quick_under_drops = None
        self.show_filters([])
        self.choose_client(client_id, endpoint=endpoint)
        self.wanted_run, self.wanted_pages = run_id, 0
        if cleared:
            self.notify(f"Filters cleared ({', '.join(cleared)}): every run of the client is listed.", timeout=6)

    def choose_client(self, client_id: str, *, keep_event: bool = False, endpoint: TaskEndpoint | None = None) -> None:
        """Show `client_id`'s tasks (filters and sort kept, first page) and remember the choice. Another client
        drops an `event_id` filter (an event belongs to one client: it would match nothing), unless `keep_event`.
        Choosing a client (picker, Clients, Events) opens the server list: the drops view is left, back to the
        quick filter it was entered from (the drops view is `d` on the client already shown, never a landing).
        `endpoint` lists from that endpoint (Clients opens the one its verdicts were read from)."""
        client_id = client_id.lower()
        self.wanted_run = None  # a run looked for in another list is not in this one
        if self.maximized is not None and client_id != self.client_id:
            self.minimize()  # another client's runs start on the list: a zoomed pane hid it (newcomer walk)
        if endpoint is not None and endpoint != self.endpoint:
            self.endpoint = endpoint
            self.runs.clear()  # the history was read from the other endpoint
        if self.quick == "drops":
            self.quick, self.quick_under_drops = self.quick_under_drops, None
        if client_id != self.client_id:
            if not keep_event and any(f.column == "event_id" for f in self.filters):
                self.show_filters([f for f in self.filters if f.column != "event_id"])
                self.notify("The event filter is gone: an event belongs to one client.", timeout=4)
            self.client_id = client_id
            self.seen_client_name = self.clients.seen_names.get(client_id, "")
            self.runs.clear()
            self.table.show_items([])
            self.window.count, self.window.shown = None, 0
            self._show_breakdown((), "")
        self.window.skip = 0
        profile = self.app.profile.name if self.app.profile is not None else ""
        self.loads.start_in_thread(REMEMBER, lambda: remember_client(client_id, profile))
        self.load()
        self.load_history()
        self.focus_table_when_shown()  # the keys (j/k, paging, filters) belong to the new list, not the lower pane

    def set_filters(self, filters: Sequence[Filter]) -> None:
        """Any explicit filter change leaves a quick filter."""
        self.quick = self.quick_under_drops = None
        super().set_filters(filters)

    def action_quick(self, name: str) -> None:
        """Toggle a quick filter (server-side ones replace the filters; drops is a client-side view)."""
        quick = QUICK_FILTERS_BY_NAME[name]
        if self.client_id is None:
            self.notify("Choose a client first (C).", severity="warning")
            return
        if self.quick == name:
            if quick.server_side:
                self.set_filters(())
            else:
                self.leave_drops()
            return
        if quick.server_side:
            self.set_filters(quick.filters(self.app.clock()))
            self.quick = name
            self._refresh_bars()
        else:
            self.quick_under_drops = self.quick  # its filters stay (dimmed) and are back, with it, on leaving
            self.quick = name
            self.load()

    def leave_drops(self) -> None:
        """Back from the client-side drops view to the list, with the quick filter it was entered from (if any)."""
        self.quick, self.quick_under_drops = self.quick_under_drops, None
        self.loads.invalidate(HISTORY_CHECK)  # the drops view's refresh: its answer is for a view now gone
        self.load()

    def system_commands(self) -> Iterable[SystemCommand]:
        """A list's palette commands, then one per quick filter (the same toggle as its key)."""
        yield from super().system_commands()
        for quick in QUICK_FILTERS:
            yield SystemCommand(
                f"Quick filter: {quick.title} ({quick.key})",
                quick.description,
                lambda name=quick.name: self.action_quick(name),
            )

    def action_clear_filters(self) -> None:
        """`x` removes every filter; in the client-side drops view it is `d` (its hint says `d or x: back`): back to
        the list with the filters and the quick filter it was entered from."""
        if self.quick == "drops":
            self.leave_drops()
            return
        super().action_clear_filters()

    def shown_endpoint(self) -> TaskEndpoint:
        """The endpoint the list is read from: the one chosen with `e`, else the server's (completed-jobs unless the
        server answered it with the router's 404: then completed-tasks, remembered for the profile)."""
        client = self.app.client_if_open
        return self.endpoint or (client.task_endpoint if client is not None else REPLACEMENT_TASK_ENDPOINT)

    def action_switch_endpoint(self) -> None:
        """Switch between completed-tasks (deprecated) and completed-jobs; reload page and history."""
        self.endpoint = other_endpoint(self.shown_endpoint())
        self.notify(f"Now listing {self.endpoint}.")
        self.window.skip = 0
        self.load()
        if self.client_id is not None:
            self.load_history()

    def live_refresh(self) -> None:
        """Live refresh: the server list reloads its page; the client-side drops view reloads the client's
        history it is computed from."""
        if self.client_id is not None and self.client_id == self.missing_client:
            return  # the server said 404 for this client: its answer would come back every time
        if self.quick != "drops":
            super().live_refresh()
        elif self.client_id is not None:
            self.freshness.started_at = self.app.live.now()
            self.check_history()

    def check_history(self) -> None:
        """Reload the history only if the server's has changed since it was loaded (its fingerprint: one `limit=1`
        request), not its thousands of runs every tick: a live drops view costs one small request a tick."""
        if self.client_id is None or self.runs.fingerprint is None:
            self.load_history()
            return
        client_id, endpoint = self.client_id, self.endpoint

        async def fingerprint() -> Fingerprint:
            return await fetch_fingerprint(await self.app.api_client(), client_id, endpoint)

        self.app.probe_if_troubled()  # the server may be back: the header asks again alongside the check
        self.loads.start(HISTORY_CHECK, fingerprint)

    def action_refresh(self) -> None:
        """Reload the page and the history."""
        super().action_refresh()
        self.load_history()

    def action_next_page(self) -> None:
        """Paging is server-side; the drops view has a single page."""
        if self.quick == "drops":
            self.notify(ONE_PAGE)
            return
        super().action_next_page()

    def action_previous_page(self) -> None:
        """Paging is server-side; the drops view has a single page."""
        if self.quick == "drops":
            self.notify(ONE_PAGE)
            return
        super().action_previous_page()

    def action_show_tab(self, name: str) -> None:
        """Open the detail pane on a tab: the domain results take the keys (↑/↓ move the domains; L opens the log at
        the one chosen); a focus left in a pane now hidden goes back to the runs (the whole screen's when zoomed)."""
        if not self.detail.is_open:
            self.action_toggle_detail()
        detail = self.task_detail
        if name == "results":
            detail.show_tab(name, focus=self.query_one(DomainResultsPane).table)
            return
        detail.show_tab(name)
        focused, shown = self.focused, detail.query_one(f"#{TABS[name]}")
        if focused is not None and detail in focused.ancestors and shown not in focused.ancestors:
            self.set_focus(self.table if self.maximized is None else None)

    def action_close_detail(self) -> None:
        """`esc` closes the detail pane; with nothing to close, it goes back to Clients when this client's runs were
        opened from there (enter on Clients)."""
        try:
            super().action_close_detail()
        except SkipAction:
            if not self.app.go_back():
                raise

    def zoom_target(self) -> Widget:
        """What `z` gives the whole screen: the run's detail (its tabs)."""
        return self.task_detail

    def action_open_log(self) -> None:
        """`L`: the selected run's log in the detail pane; from the domain results, at that domain's lines."""
        if not self.detail.is_open:
            self.action_toggle_detail()
        detail = self.task_detail
        on_results = detail.query_one(TabbedContent).active == TABS["results"]
        if not detail.open_log(detail.domain_name if on_results else None):
            self.notify(no_run_reason(self.client_id is not None, "No run to open the log of"), timeout=3)

    def action_plot_field(self, step: int) -> None:
        """Plot the next or previous of the 12 counts."""
        self.action_show_tab("plot")
        self.query_one(CountPlot).cycle_field(step)


def other_endpoint(endpoint: TaskEndpoint) -> TaskEndpoint:
    """The endpoint `e` switches to from `endpoint`."""
    return REPLACEMENT_TASK_ENDPOINT if endpoint == DEPRECATED_TASK_ENDPOINT else DEPRECATED_TASK_ENDPOINT


def remember_client(client_id: str, profile: str) -> Settings:
    """Put `client_id` first among the recent clients of `profile` in the settings (blocking: runs in a thread)."""
    from svctui.store.settings import load_settings, save_settings

    settings = load_settings().with_recent_client(client_id, profile)
    save_settings(settings)
    return settings


def no_run_reason(client_chosen: bool, lead: str = "No run under the cursor") -> str:
    """Why `E` (or `L`) has no run to act on: no client chosen yet, or an empty list."""
    if not client_chosen:
        return f"{lead}: choose a client first (C)."
    return f"{lead} (the list is empty)."


def _runs(count: int) -> str:
    """`run` or `runs`, for `1 run with drops` / `3 runs with drops`."""
    return "run" if count == 1 else "runs"
