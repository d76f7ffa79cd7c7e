"""What the Completed tasks screen knows besides the page: the client's history and drops, and the known clients.

Plain objects (no widgets): the screen's handlers put what its workers loaded here, and read it back to draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from svctui.api.models import CompletedTask
from svctui.triage import DEFAULT_DROP_THRESHOLD, DomainPoint, Drop, drops_by_task
from svctui.tui.screens.tasks.loaders import Fingerprint, History
from svctui.tui.widgets.client_picker import KnownClient, merge_known


@dataclass
class ClientHistory:
    """The chosen client's task history (newest first, capped) and the drops found in it."""

    threshold: float = DEFAULT_DROP_THRESHOLD
    tasks: list[CompletedTask] | None = None  # None: not loaded (yet)
    total: int = 0
    problem: str = ""
    drops: list[Drop] = field(default_factory=list)
    drops_by_task: dict[int, list[Drop]] = field(default_factory=dict)
    series: dict[str, list[DomainPoint]] | None = None  # per domain, as computed with the drops (None: not yet)
    fingerprint: Fingerprint | None = None  # the server's state of the history when it was loaded

    def clear(self) -> None:
        """Forget the history (another client, another server)."""
        self.tasks, self.total, self.problem, self.drops, self.drops_by_task = None, 0, "", [], {}
        self.series, self.fingerprint = None, None

    def apply(self, history: History) -> None:
        """Keep a loaded history."""
        self.tasks, self.total, self.drops, self.problem = history.tasks, history.total, history.drops, ""
        self.series, self.fingerprint = history.series, history.fingerprint
        self.drops_by_task = drops_by_task(history.drops)


@dataclass
class KnownClients:
    """Client ids and names for the picker: from the events, from the tasks seen, and why the list may be short."""

    pairs: list[tuple[str, str]] = field(default_factory=list)
    problem: str = ""
    loading: bool = False
    seen_names: dict[str, str] = field(default_factory=dict)

    def clear(self) -> None:
        """Forget every client (another server)."""
        self.pairs, self.problem, self.loading, self.seen_names = [], "", False, {}

    def name_of(self, client_id: str) -> str:
        """A client's name from the events ("" when unknown)."""
        return next((name for cid, name in self.pairs if cid.lower() == client_id and name), "")

    def merged(self, recent: list[str], names: Mapping[str, str] | None = None) -> list[KnownClient]:
        """Recent choices first, then the events' clients and the clients of `names` (client id -> name)."""
        return merge_known(recent, self.pairs, {**(names or {}), **self.seen_names})

    def picker_status(self) -> str:
        """What the picker says under its list."""
        return "loading clients from the events…" if self.loading else self.problem
