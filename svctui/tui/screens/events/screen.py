"""The Events screen (key 1): collection schedules, server-paged, filtered, sorted, with a detail pane (right of
the table, or below it taking 3/5 of the height under 110 columns).

Besides the page, the screen loads the client names (channel "names", see svctui.tui.client_names): the client
column shows a client's name once known, its id before that; `c` on the column copies the id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.binding import Binding, BindingType

from svctui.api.filters import EVENTS, EndpointSpec, Filter
from svctui.schedule import next_run_at, parse_schedule
from svctui.tui import status_line as status
from svctui.tui.client_names import (
    CACHED_CHANNEL,
    NAMES_CHANNEL,
    is_names_answer,
    names_loaded,
    redraw_column,
    start_name_load,
)
from svctui.tui.loading import Loaded, LoadFailed
from svctui.tui.screens.events.detail import PANE_MOST, EventDetail, event_adapter
from svctui.tui.screens.list_screen import ListQuery, ListScreen
from svctui.tui.status_line import StatusPart
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.filter_chips import FilterChips
from svctui.tui.widgets.paged_table import RowAdapter

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Event, Page
    from svctui.tui.widgets.client_picker import KnownClient


# Where rows without a DTSTART sit when sorted by next run: the server's own next_scheduled_at places them
UNDATED_PLACE = "placed by the server"  # at 80 columns it gives way (status_line.NOTE), never the page
MINUTE_MARGIN = 0.05  # seconds past the minute's turn: the clock read then is surely in the new minute
# Sorted by next run, once a shown run time passed the rows' next runs moved on but their order is the server's
ORDER_STALE = "order stale: a run time passed since it was read (r)"
ORDER_STALE_SHORT = "order stale (r)"


class EventsScreen(ListScreen["Event"]):
    """Events (collection schedules) of an enterprise server."""

    SPEC: ClassVar[EndpointSpec] = EVENTS
    MODE: ClassVar[str] = "events"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "show_runs", "Runs", id="events.runs", tooltip="This event's runs on Completed tasks"),
        Binding("C", "choose_client", "Client", id="events.client", tooltip="Only one client's events: name or uuid"),
    ]
    # Below the table (under 110 columns) the detail takes 3/5 of the height, as on Completed tasks: at 80x24 ~12
    # lines (whose schedule, in words, the next run, the rule and its next runs) over 7 rows of the table.
    # Beside the table the pane is as wide as its widest line (PANE_MOST): wider, it held blank room while the table
    # beside it left out kinds one cell short (at 160 columns).
    DEFAULT_CSS = f"""
    EventsScreen #body EventDetail {{ max-width: {PANE_MOST}; }}
    EventsScreen.-narrow #body EventDetail, EventsScreen.-narrower #body EventDetail {{ max-width: 100%; }}
    EventsScreen.-narrow #body #main, EventsScreen.-narrower #body #main {{ height: 2fr; }}
    EventsScreen.-narrow #body EventDetail, EventsScreen.-narrower #body EventDetail {{ height: 3fr; }}
    """
    _open_detail_for: int | None = None
    _retell_due = False  # a minute turned while another screen was on show
    _order_stale = False  # sorted by next run, the rows' next runs (told now) are out of the order shown

    def make_adapter(self) -> RowAdapter[Event]:
        """id, client, schedule in words, next run, kinds, domains, OUs."""
        return event_adapter(self.app.clock, self.theme_color, self.app.client_name)

    def make_detail(self) -> DetailPane[Event]:
        """Every field, domains and OUs, the rule and its next 5 runs."""
        return EventDetail(self.app.clock, self.app.client_name)

    async def fetch(self, client: ApiClient, query: ListQuery) -> Page[Event]:
        """One page of GET /api/v2/events."""
        return await client.events.list(query)

    async def action_show_runs(self) -> None:
        """Completed tasks of the event's client, filtered to this event (`event_id=eq:N`)."""
        event = self.table.current_item
        if event is None:
            self.notify("No event under the cursor.", severity="warning")
            return
        await self.app.show_event_runs(event.client_id, event.id)

    def action_choose_client(self) -> None:
        """`C`: the client picker (names the dashboard knows, recent choices first); the chosen client's events only
        (`client_id=eq:<uuid>`, replacing a client filter; x clears it), as on Completed tasks."""
        from svctui.tui.widgets.client_picker import ClientPicker

        app = self.app
        current = next((f.value for f in self.filters if f.column == "client_id" and f.op == "eq"), None)

        def chosen(client_id: str | None) -> None:
            if client_id is None:
                return
            kept = [f for f in self.filters if f.column != "client_id"]
            self.set_filters([*kept, Filter.build(EVENTS, "client_id", "eq", client_id.lower())])
            name = app.client_name(client_id.lower())
            self.notify(f"Events of {name or client_id} (x clears the filter).", timeout=4, markup=False)

        self.app.push_screen(ClientPicker(self.known_clients(), current=current, status=self.picker_status()), chosen)

    def known_clients(self) -> list[KnownClient]:
        """Recent choices the server still has first, then every client whose name is known (the server's client
        list once read, the cache of this server until then)."""
        from svctui.tui.widgets.client_picker import merge_known

        app = self.app
        profile = app.profile.name if app.profile is not None else ""
        recent = app.settings.recent_for(profile) if app.settings is not None else []
        return merge_known(app.client_names.existing(profile, recent), [], app.client_names.names(profile))

    def picker_status(self) -> str:
        """The picker's line under its list: names from the last visit while the server's list is on its way."""
        return self.app.client_names.note(self.app.profile.name) if self.app.profile is not None else ""

    def show_event(self, event_id: int) -> None:
        """Jump here from a task: filter to the event (`id=eq:N`) and open its detail when it arrives."""
        self._open_detail_for = event_id
        self.set_filters([Filter.build(EVENTS, "id", "eq", str(event_id))])
        self.notify(f"Event {event_id} (x clears the filter).", timeout=4)

    def page_arrived(self, page: Page[Event], query: ListQuery) -> None:
        """Ask for the client names (once per profile); after a jump from a task, open the event's detail."""
        start_name_load(self.app, self.loads)
        self._order_stale = self.out_of_order(page.data)  # a server that has not moved a passed run on yet
        wanted, self._open_detail_for = self._open_detail_for, None
        if wanted is not None and any(event.id == wanted for event in page.data) and not self.detail.is_open:
            self.call_after_refresh(self.action_toggle_detail)

    def status_parts(self) -> list[str]:
        """The list's parts; sorted by next run first, how many rows have no DTSTART: the server orders them by its own
        next_scheduled_at, which the items do not carry, so their place is the server's and their next run unknown."""
        parts = super().status_parts()
        if self.rows_on_screen() and self._order_stale and self.sorted_by_next_run():
            parts.append(StatusPart(ORDER_STALE, status.ORDER, short=ORDER_STALE_SHORT))
        if self.rows_on_screen() and self.sorted_by_next_run():  # it decides the order
            undated = sum(1 for event in self.table.items if not parse_schedule(event.rrule).has_start)
            if undated:
                note = f"{undated} without DTSTART"  # shortened, then left out, before the page goes (NOTE)
                parts.append(StatusPart(f"{note}: {UNDATED_PLACE}", status.NOTE, short=note))
        return parts

    def on_screen_resume(self) -> None:
        """Coming back: names learnt on another screen meanwhile show here too."""
        super().on_screen_resume()
        self.show_names()
        if self._retell_due:
            self._retell_due = False
            self.tell_times_again()

    @on(events.Mount)
    def _start_minutes(self) -> None:
        self._wait_for_next_minute()

    def _wait_for_next_minute(self) -> None:
        now = self.app.clock()
        wait = 60 - now.second - now.microsecond / 1_000_000 + MINUTE_MARGIN
        self.set_timer(wait, self._minute_passed, name="events-minute")

    def _minute_passed(self) -> None:
        self._wait_for_next_minute()
        if self.is_current:
            self.tell_times_again()
        else:  # another screen is on show: told when this one comes back
            self._retell_due = True

    def tell_times_again(self) -> None:
        """The rows' next runs told again for the clock's minute (a page shown an hour ago still said `in <1m` for a
        run long past): the next-run cells a few rows per turn of the loop, only the changed ones redrawn; the open
        detail pane too."""
        if self.table.items:
            self._retell()
            self.refresh_detail()
            self._check_order()

    def sorted_by_next_run(self) -> bool:
        """Whether the next run decides the order (the first sort key)."""
        return bool(self.sort) and self.sort[0].column == "next_scheduled_at"

    def out_of_order(self, events: Iterable[Event]) -> bool:
        """Sorted by next run, whether the next runs told for the clock's minute are out of the rows' order (rows with
        no next run told, undated or ended, are the server's to place and left out)."""
        if not self.sorted_by_next_run():
            return False
        now = self.app.clock()
        times = [at for event in events if (at := next_run_at(event.rrule, now)) is not None]
        pairs = pairwise(times)
        if self.sort[0].descending:
            return any(later > earlier for earlier, later in pairs)
        return any(later < earlier for earlier, later in pairs)

    def _check_order(self) -> None:
        """A run time passed and put the rows out of order: read the page again (the server orders it anew), and
        say the order is stale until an answer in order is shown (a server that moves its next runs on late)."""
        stale = self.out_of_order(self.table.items)
        if stale and not self._order_stale:
            self.live_refresh()
        if stale != self._order_stale:
            self._order_stale = stale
            self._update_status()

    @work(group="retell", exclusive=True)
    async def _retell(self) -> None:
        """The next-run cells told again, a few rows per turn of the loop (a newer retelling replaces this one)."""
        await self.table.retell_column("next")

    def filter_client_names(self) -> Mapping[str, str] | None:
        """The client names known now: `client_id` takes a name (as `events list -f client_id=NAME`), its chip
        shows one."""
        profile = self.app.profile
        return self.app.client_names.names(profile.name) if profile is not None else {}

    def show_names(self) -> None:
        """Redraw the client column, a client filter's chip and the detail pane with the names known now."""
        redraw_column(self.table, "client")
        if any(active.column == "client_id" for active in self.filters):
            self.query_one(FilterChips).show_filters(self.filters, self.filter_client_names())
        self.refresh_detail()

    @on(Loaded)
    def _names_loaded(self, message: Loaded[object]) -> None:
        if not is_names_answer(message) or not self.loads.is_current(message):
            return
        if names_loaded(self.app, message):
            self.show_names()
            from svctui.tui.widgets.client_picker import ClientPicker

            picker = self.app.screen
            if isinstance(picker, ClientPicker) and self in self.app.screen_stack:  # the picker opened here
                picker.set_known(self.known_clients(), self.picker_status())

    @on(LoadFailed)
    def _names_failed(self, message: LoadFailed) -> None:
        if message.channel in (NAMES_CHANNEL, CACHED_CHANNEL) and self.loads.is_current(message):
            self.notify(f"Client names unavailable: {message.error}", severity="warning", markup=False)
