"""The Completed tasks screen (key 2): triage a client's collection runs and their per-domain results.

The keys and intents: choose the client (C), switch the endpoint (e: `completed-tasks`, deprecated, or
`completed-jobs`), quick filters (f failed in the last 24 h, i partially complete, d runs with drops, the last one
client-side), the detail tabs (R results, P plot, W compare with the previous run, T fields) and the plotted count
(n / N). Paging, sort, the filter editor, chips, hydration, states and the stale-response guard come from
ListScreen; what is loaded and how is in TaskListBase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import work
from textual.binding import Binding, BindingType

from svctui.api.filters import Filter
from svctui.triage import QUICK_FILTERS, QUICK_FILTERS_BY_NAME
from svctui.tui.screens.task_list_base import TaskListBase
from svctui.tui.widgets.client_picker import ClientPicker
from svctui.tui.widgets.count_plot import CountPlot

ONE_PAGE = "The drops view is computed client-side: it has one page."
QUICK = Binding.Group("Quick filter")  # the footer shows `f i d Quick filter`; help lists each key


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


class TasksScreen(TaskListBase):
    """Completed tasks of one client, with domain results and triage aids."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("C", "choose_client", "Client", id="tasks.client", tooltip="Choose the client: known or a typed uuid"),
        Binding("e", "switch_endpoint", "Endpoint", id="tasks.endpoint", tooltip="completed-tasks ⇄ completed-jobs"),
        *_quick_bindings(),
        Binding("R", "show_tab('results')", "Results", show=False, id="tasks.tab.results", tooltip="Domain results"),
        Binding("P", "show_tab('plot')", "Plot", show=False, id="tasks.tab.plot", tooltip="Plot the domain's counts"),
        Binding("W", "show_tab('compare')", "Compare", show=False, id="tasks.tab.compare", tooltip="vs previous run"),
        Binding("T", "show_tab('fields')", "Fields", show=False, id="tasks.tab.fields", tooltip="Every field"),
        Binding("n", "plot_field(1)", "Next count", show=False, id="tasks.plot.next", tooltip="Plot the next count"),
        Binding(
            "N", "plot_field(-1)", "Prev count", show=False, id="tasks.plot.prev", tooltip="Plot the previous count"
        ),
    ]

    def action_choose_client(self) -> None:
        """Open the client picker."""

        def chosen(client_id: str | None) -> None:
            if client_id is not None:
                self.choose_client(client_id)

        picker = ClientPicker(self.known_clients(), current=self.client_id, status=self._picker_status())
        self.app.push_screen(picker, chosen)

    def choose_client(self, client_id: str) -> None:
        """Show `client_id`'s tasks (filters and sort kept, first page) and remember the choice."""
        client_id = client_id.lower()
        if client_id != self.client_id:
            self.client_id = client_id
            self.seen_client_name = self.seen_names.get(client_id, "")
            self.history, self.drops, self.drops_by_task = None, [], {}
            self.table.show_items([])
            self.window.count, self.window.shown = None, 0
            self._show_breakdown((), "")
        self.window.skip = 0
        self._remember_client(client_id)
        self.load()
        self.load_history()

    @work(thread=True, exclusive=True, group="tasks-settings", exit_on_error=False)
    def _remember_client(self, client_id: str) -> None:
        from svctui.store.errors import StoreError
        from svctui.store.settings import load_settings, save_settings

        try:
            settings = load_settings().with_recent_client(client_id)
            save_settings(settings)
        except (StoreError, OSError) as exc:
            self.app.call_from_thread(self.notify, f"Could not remember the client: {exc}", severity="warning")
            return
        self.app.call_from_thread(setattr, self.dashboard, "settings", settings)

    # ----- other intents ----------------------------------------------------------------------------------
    def set_filters(self, filters: Sequence[Filter]) -> None:
        """Any explicit filter change leaves a quick filter."""
        self.quick = None
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
                self.quick = None
                self.load()
            return
        if quick.server_side:
            self.set_filters(quick.filters(self.dashboard.clock()))
            self.quick = name
            self._refresh_bars()
        else:
            self.quick = name
            self.load()

    def action_clear_filters(self) -> None:
        """`x` also leaves the client-side drops view."""
        if self.quick == "drops" and not self.filters:
            self.quick = None
            self.load()
            return
        super().action_clear_filters()

    def action_switch_endpoint(self) -> None:
        """Switch between completed-tasks (deprecated) and completed-jobs; reload page and history."""
        self.endpoint = "completed-jobs" if self.endpoint == "completed-tasks" else "completed-tasks"
        self.notify(f"Now listing {self.endpoint}.")
        self.window.skip = 0
        self.load()
        if self.client_id is not None:
            self.load_history()

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
        """Open the detail pane on a tab."""
        if not self.detail.is_open:
            self.action_toggle_detail()
        self.task_detail.show_tab(name)

    def action_plot_field(self, step: int) -> None:
        """Plot the next or previous of the 12 counts."""
        self.action_show_tab("plot")
        self.query_one(CountPlot).cycle_field(step)
