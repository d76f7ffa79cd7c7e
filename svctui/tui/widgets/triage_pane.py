"""TriagePane: the base of the task-detail panes that judge counts (the drop threshold) and show times (a zone)."""

from __future__ import annotations

from datetime import tzinfo

from textual.containers import Vertical

from svctui.triage import DEFAULT_DROP_THRESHOLD


class TriagePane(Vertical):
    """A pane with a drop threshold (0.2 = 20 %) and the zone its times are shown in (None = the local zone).

    Subclasses keep their own state in class-level defaults (immutable values only) and assign on change.
    """

    def __init__(
        self,
        *,
        threshold: float = DEFAULT_DROP_THRESHOLD,
        zone: tzinfo | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.threshold = threshold
        self.zone = zone
