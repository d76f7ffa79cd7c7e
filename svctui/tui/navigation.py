"""What the app asks of a screen it has just shown (this event, these runs), as protocols: the screens import the
app (`getters.app`), so the app reaches them by mode name and these shapes, never by importing them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from svctui.api.limits import TaskEndpoint


@runtime_checkable
class ShowsEvent(Protocol):
    """The Events screen: filter to one event and open its detail."""

    def show_event(self, event_id: int) -> None:
        """Filter to `event_id`; open its detail when it arrives."""


@runtime_checkable
class ShowsRuns(Protocol):
    """The Completed tasks screen: one client's runs, or its runs of one event."""

    def show_event_runs(self, client_id: str, event_id: int) -> None:
        """`client_id`'s runs of `event_id`."""

    def choose_client(self, client_id: str, *, endpoint: TaskEndpoint | None = None) -> None:
        """`client_id`'s runs (from `endpoint` when given)."""

    def open_client(self, client_id: str, *, endpoint: TaskEndpoint | None = None, run_id: int | None = None) -> None:
        """Every run of `client_id` (from `endpoint` when given): no filter from before; the cursor on `run_id`."""


@runtime_checkable
class FollowsProfile(Protocol):
    """A dashboard screen: it starts over when the app switched profile since it last loaded."""

    def reload_if_stale(self) -> None:
        """Restart on first show and after a profile switch."""


@runtime_checkable
class HasHelp(Protocol):
    """A dashboard screen: what help (`?`) says of it beside its keys."""

    def help_noun(self) -> str:
        """What its records are called, e.g. "events" ("" when it lists none)."""

    def help_legend(self) -> list[str]:
        """Lines help adds under the keys (the Clients screen's marks in full); none by default."""

    def help_renames(self) -> dict[str, tuple[str, str] | None]:
        """What its keys do here when not what they say elsewhere: action → (label, tooltip), None: not listed."""


@runtime_checkable
class HasZoom(Protocol):
    """A screen whose `z` gives its detail pane the whole screen (the palette offers that, not Textual's Maximize)."""

    def action_zoom_detail(self) -> None:
        """The detail pane full screen, or back."""
