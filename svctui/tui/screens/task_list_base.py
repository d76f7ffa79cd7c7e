"""The data side of the Completed tasks screen: state, layout, page, status breakdown, history, known clients.

TasksScreen (tasks.py) adds the key bindings and the user intents on top. Workers (all `exclusive`, each posting
a message, none touching widgets; the reads themselves are in task_loaders):
- the page (ListScreen's worker, through `fetch`);
- the status breakdown: one `limit=1` count request per status with the current filters, when the page does not
  already hold every matching task;
- the client's history: newest first, unhydrated, capped, for the plot, the drops and the comparison;
- the known clients: the client ids of the events (enterprise only), merged with the recent choices.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.widgets import Static

from svctui.api.filters import COMPLETED_TASKS, EndpointSpec, SortKey
from svctui.api.limits import DASHBOARD_DEPRECATION_NOTICE, TaskEndpoint
from svctui.api.models import CompletedTask
from svctui.triage import (
    DEFAULT_DROP_THRESHOLD,
    Drop,
    StatusCount,
    chronological,
    drops_by_task,
    status_breakdown,
    tasks_with_drops,
)
from svctui.tui.messages import LoadFailed, PageLoaded
from svctui.tui.screens.list_screen import ListQuery, ListScreen
from svctui.tui.screens.task_bars import client_bar, history_text, quick_notice
from svctui.tui.screens.task_detail import TaskDetail, task_adapter
from svctui.tui.screens.task_loaders import (
    TasksQuery,
    fetch_breakdown,
    fetch_history,
    fetch_known_clients,
)
from svctui.tui.screens.task_messages import (
    BreakdownFailed,
    BreakdownLoaded,
    HistoryFailed,
    HistoryLoaded,
    KnownClientsLoaded,
)
from svctui.tui.widgets.app_header import AppHeader
from svctui.tui.widgets.client_picker import ClientPicker, KnownClient, merge_known
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.filter_chips import FilterChips
from svctui.tui.widgets.paged_table import RowAdapter
from svctui.tui.widgets.state_panel import error_view
from svctui.tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Page

DEFAULT_SORT = (SortKey("execution_time", descending=True),)


class TaskListBase(ListScreen[CompletedTask]):
    """Completed tasks of one client: what is loaded and shown (TasksScreen adds the keys)."""

    SPEC: ClassVar[EndpointSpec] = COMPLETED_TASKS
    NOUN: ClassVar[str] = "completed tasks"
    ITEM: ClassVar[str] = "task"
    MODE: ClassVar[str] = "tasks"
    DEFAULT_CSS = """
    TaskListBase #body { layout: vertical; }
    TaskListBase #body #main { height: 2fr; }
    TaskListBase #body TaskDetail { width: 1fr; height: 3fr; border-left: none; border-top: tall $panel-lighten-2; }
    TaskListBase #client-bar { height: 1; padding: 0 1; background: $boost; }
    TaskListBase .tasks-notice { height: auto; padding: 0 1; color: $warning; }
    TaskListBase .tasks-notice.-hidden { display: none; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.client_id: str | None = None
        self.endpoint: TaskEndpoint = "completed-tasks"
        self.quick: str | None = None
        self.threshold = DEFAULT_DROP_THRESHOLD
        self.history: list[CompletedTask] | None = None
        self.history_total = 0
        self.history_problem = ""
        self.drops: list[Drop] = []
        self.drops_by_task: dict[int, list[Drop]] = {}
        self.known_pairs: list[tuple[str, str]] = []
        self.known_problem = ""
        self.known_loading = False
        self.breakdown: tuple[StatusCount, ...] = ()
        self._history_seq = 0
        self._known_seq = 0
        self.seen_client_name = ""
        self.seen_names: dict[str, str] = {}

    # ----- ListScreen hooks -------------------------------------------------------------------------------
    def make_adapter(self) -> RowAdapter[CompletedTask]:
        """Task columns; the results column marks runs with drops."""
        return task_adapter(self.app, lambda task_id: self.drops_by_task.get(task_id, ()))

    def make_detail(self) -> DetailPane[CompletedTask]:
        """Domain results, plot, comparison, fields."""
        settings = self.dashboard.settings
        self.threshold = settings.drop_threshold if settings is not None else DEFAULT_DROP_THRESHOLD
        return TaskDetail(threshold=self.threshold)

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
            self.client_id or "",
            self.endpoint,
        )

    async def fetch(self, client: ApiClient, query: ListQuery) -> Page[CompletedTask]:
        """One page of the client's completed tasks or jobs."""
        assert isinstance(query, TasksQuery)
        return await client.tasks.list(query.client_id, query, endpoint=query.endpoint)

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
        return (f"This client has no {self.endpoint}", "Press C to choose another client, or e to switch endpoint.")

    def status_parts(self) -> list[str]:
        """The base parts, with the client-side view said plainly."""
        if self.quick == "drops":
            return [f"{self.window.shown:,} runs with drops (client-side)", "d or x returns to the server list"]
        return super().status_parts()

    # ----- layout -----------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """ListScreen's layout plus the client bar, the notices and the status breakdown bar."""
        for widget in super().compose():
            yield widget
            if isinstance(widget, AppHeader):
                yield Static("", id="client-bar")
                yield Static("", id="endpoint-notice", classes="tasks-notice", markup=False)
                yield Static("", id="quick-notice", classes="tasks-notice -hidden", markup=False)
            elif isinstance(widget, FilterChips):
                yield StatusBar(id="status-breakdown")

    def on_mount(self) -> None:
        """Start from the most recent client of the settings (runs before ListScreen's on_mount loads)."""
        settings = self.dashboard.settings
        if settings is not None and settings.recent_clients and self.client_id is None:
            self.client_id = settings.recent_clients[0].lower()
        self.detail.set_open(True)
        self._refresh_bars()

    @property
    def task_detail(self) -> TaskDetail:
        """The detail pane, typed."""
        return self.query_one(TaskDetail)

    def reload_if_stale(self) -> None:
        """On first show or after a profile switch: reset (newest first), load the page, history, known clients."""
        if self._generation == self.dashboard.generation:
            return
        self._generation = self.dashboard.generation
        self.quick = None
        self.history, self.drops, self.drops_by_task = None, [], {}
        self.known_pairs, self.known_problem, self.seen_names = [], "", {}
        self.filters, self.sort, self.window.skip, self.window.count = (), DEFAULT_SORT, 0, None
        self._show_breakdown((), "")
        self.table.set_sort(self.sort)
        self.table.show_items([])
        self.query_one(FilterChips).show_filters(())
        self.load()
        self.load_history()
        self.load_known_clients()

    def client_name(self) -> str:
        """The chosen client's name, from its tasks or the events ("" when unknown)."""
        if self.seen_client_name:
            return self.seen_client_name
        client = self.client_id or ""
        return next((name for cid, name in self.known_pairs if cid.lower() == client and name), "")

    def _note_client_name(self, tasks: Sequence[CompletedTask]) -> None:
        name = next((task.client_name for task in tasks if task.client_name), "")
        if name and self.client_id is not None:
            self.seen_names[self.client_id] = name  # the picker shows it (the events carry no names)
        if name and name != self.seen_client_name:
            self.seen_client_name = name
            self._refresh_bars()

    def _refresh_bars(self) -> None:
        loaded = len(self.history) if self.history is not None else None
        history = history_text(
            self.client_id is not None,
            loaded,
            self.history_total,
            len(self.drops),
            self.threshold,
            self.history_problem,
        )
        self.query_one("#client-bar", Static).update(
            client_bar(self.client_id, self.client_name(), self.endpoint, history)
        )
        deprecated = self.endpoint == "completed-tasks"
        notice = self.query_one("#endpoint-notice", Static)
        notice.update(DASHBOARD_DEPRECATION_NOTICE if deprecated else "")
        notice.set_class(not deprecated, "-hidden")
        text = quick_notice(self.quick, self.threshold, loaded or 0)
        quick = self.query_one("#quick-notice", Static)
        quick.update(text)
        quick.set_class(not text, "-hidden")

    # ----- loading ----------------------------------------------------------------------------------------
    def load(self) -> None:
        """Load the page, or show the client-side drops view; refresh the bars."""
        if self.quick == "drops":
            self._show_drops_view()
        else:
            super().load()
        if self.is_mounted:
            self._refresh_bars()

    def on_load_failed(self, message: LoadFailed) -> None:
        """Runs before ListScreen's handler (which shows the error): a 404 usually means an unknown client."""
        if message.request_seq != self._seq:
            return
        self._show_breakdown((), "")
        if getattr(message.error, "status", None) == 404:
            self.notify(f"The server answered 404 for client {self.client_id}: press C to choose another client.")

    def on_page_loaded(self, message: PageLoaded) -> None:
        """Runs before ListScreen's handler: breakdown from the page when it holds every match, else ask."""
        if message.request_seq != self._seq:
            return
        page = message.page
        self._note_client_name(page.data)
        query = self.current_query()
        if query.skip == 0 and page.count <= len(page.data):
            self._show_breakdown(status_breakdown(page.data), "matching, all on this page")
        else:
            self.query_one(StatusBar).set_breakdown(self.breakdown, "counting…" if self.breakdown else "")
            self._fetch_breakdown(message.request_seq, query, page.count)

    def _show_breakdown(self, breakdown: Sequence[StatusCount], scope: str) -> None:
        self.breakdown = tuple(breakdown)
        self.query_one(StatusBar).set_breakdown(self.breakdown, scope)

    @work(exclusive=True, group="tasks-breakdown", exit_on_error=False)
    async def _fetch_breakdown(self, seq: int, query: TasksQuery, total: int) -> None:
        try:
            client = await self.dashboard.api_client()
            breakdown = await fetch_breakdown(client, query, total)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # shown as a notification, never raised
            self.post_message(BreakdownFailed(seq, exc))
            return
        self.post_message(BreakdownLoaded(seq, breakdown))

    @on(BreakdownLoaded)
    def _breakdown_loaded(self, message: BreakdownLoaded) -> None:
        if message.request_seq == self._seq:
            self._show_breakdown(message.breakdown, "matching the filters")

    @on(BreakdownFailed)
    def _breakdown_failed(self, message: BreakdownFailed) -> None:
        if message.request_seq == self._seq:
            self._show_breakdown((), "")
            self.notify(f"Status breakdown unavailable: {error_view(message.error).title}", severity="warning")

    def load_history(self) -> None:
        """(Re)load the client's history for the plot, the drops and the comparison."""
        self._history_seq += 1
        self.history_problem = ""
        if self.client_id is None:
            self.history = None
            self.task_detail.set_history(None, [], "choose a client first")
            return
        if self.history is None:
            self.task_detail.set_history(None, [], "loading the client's task history…")
        self._fetch_history(self._history_seq, self.client_id, self.endpoint)

    @work(exclusive=True, group="tasks-history", exit_on_error=False)
    async def _fetch_history(self, seq: int, client_id: str, endpoint: TaskEndpoint) -> None:
        try:
            client = await self.dashboard.api_client()
            history = await fetch_history(client, client_id, endpoint, self.threshold)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the plot and the comparison say why
            self.post_message(HistoryFailed(seq, exc))
            return
        self.post_message(HistoryLoaded(seq, history))

    @on(HistoryLoaded)
    def _history_loaded(self, message: HistoryLoaded) -> None:
        if message.request_seq != self._history_seq:
            return
        history = message.history
        self.history, self.history_total, self.drops = history.tasks, history.total, history.drops
        self.drops_by_task = drops_by_task(history.drops)
        self._note_client_name(history.tasks[:1])
        self.task_detail.set_history(self.history, self.drops)
        if self.quick == "drops":
            self.load()
        else:
            self._refresh_results_column()
            self._refresh_bars()

    def _refresh_results_column(self) -> None:
        """Redraw only the results cells (they gain drop marks); the cursor and the scroll stay where they are."""
        column = self.table.adapter.column("results")
        if column is None:
            return
        for task in self.table.items:
            rendered = column.render(task)
            cell = rendered if isinstance(rendered, Text) else Text(rendered, end="")
            self.table.update_cell(str(task.id), "results", cell)

    @on(HistoryFailed)
    def _history_failed(self, message: HistoryFailed) -> None:
        if message.request_seq != self._history_seq:
            return
        view = error_view(message.error, "completed tasks")
        self.history_problem = view.title
        detail = " ".join(view.lines[:1])
        self.task_detail.set_history(None, [], f"the client's history could not be loaded: {view.title}. {detail}")
        self._refresh_bars()

    def _show_drops_view(self) -> None:
        """The client-side quick filter: runs with drops among the loaded history, newest first."""
        self._seq += 1  # any page in flight is now stale
        if self.history is None:
            self.state_panel.show_loading("the client's task history")
            self.show_state(True)
            return
        tasks = tasks_with_drops(list(reversed(chronological(self.history))), self.drops)
        self.window.skip, self.window.count, self.window.shown = 0, len(tasks), len(tasks)
        self.table.show_items(tasks)
        if tasks:
            self.state_panel.hide()
        else:
            self.state_panel.show_empty(
                f"No runs with drops beyond {self.threshold * 100:.0f} % in the {len(self.history):,} loaded tasks",
                "Press d or x to return to the server list.",
            )
        self.show_state(not tasks)
        self._show_breakdown(status_breakdown(tasks), "runs with drops")
        self._show_detail()

    # ----- known clients ----------------------------------------------------------------------------------
    def load_known_clients(self) -> None:
        """Collect client ids from the events (enterprise only) for the picker."""
        self.known_loading = True
        self._known_seq += 1
        self._fetch_known_clients(self._known_seq)

    @work(exclusive=True, group="tasks-clients", exit_on_error=False)
    async def _fetch_known_clients(self, seq: int) -> None:
        try:
            client = await self.dashboard.api_client()
            pairs = await fetch_known_clients(client)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the picker says why the list is short
            view = error_view(exc, "events")
            problem = f"{view.title}: only recent clients are listed; type a uuid."
            self.post_message(KnownClientsLoaded([], problem, request_seq=seq))
            return
        self.post_message(KnownClientsLoaded(pairs, request_seq=seq))

    @on(KnownClientsLoaded)
    def _known_loaded(self, message: KnownClientsLoaded) -> None:
        if message.request_seq != self._known_seq:
            return  # asked before a profile switch: another server's clients
        self.known_loading = False
        self.known_pairs, self.known_problem = message.pairs, message.problem
        self._refresh_bars()
        if isinstance(self.app.screen, ClientPicker):
            self.app.screen.set_known(self.known_clients(), self._picker_status())

    def known_clients(self) -> list[KnownClient]:
        """Recent choices first, then the events' clients."""
        settings = self.dashboard.settings
        recent = settings.recent_clients if settings is not None else []
        return merge_known(recent, self.known_pairs, self.seen_names)

    def _picker_status(self) -> str:
        if self.known_loading:
            return "loading clients from the events…"
        return self.known_problem
