"""The Events screen (key 1): collection schedules, server-paged, filtered, sorted, with a detail pane."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from svctui.api.filters import EVENTS, EndpointSpec
from svctui.tui.screens.event_detail import EventDetail, event_adapter
from svctui.tui.screens.list_screen import ListQuery, ListScreen
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.paged_table import RowAdapter

if TYPE_CHECKING:
    from svctui.api.client import ApiClient
    from svctui.api.models import Event, Page


class EventsScreen(ListScreen["Event"]):
    """Events (collection schedules) of an enterprise server."""

    SPEC: ClassVar[EndpointSpec] = EVENTS
    NOUN: ClassVar[str] = "events"
    ITEM: ClassVar[str] = "event"
    MODE: ClassVar[str] = "events"

    def make_adapter(self) -> RowAdapter[Event]:
        """id, client, schedule in words, next run, kinds, domains, OUs."""
        return event_adapter(self.dashboard.clock, self.theme_color)

    def make_detail(self) -> DetailPane[Event]:
        """Every field, domains and OUs, the rule and its next 5 runs."""
        return EventDetail(self.dashboard.clock)

    async def fetch(self, client: ApiClient, query: ListQuery) -> Page[Event]:
        """One page of GET /api/v2/events."""
        return await client.events.list(query)
