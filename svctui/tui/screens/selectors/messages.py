"""Messages of the cleanup run: results landing (batched so 55 deletions a second never flood the screen)."""

from __future__ import annotations

from textual.dom import DOMNode
from textual.message import Message

from svctui.ops.selector_delete import DeleteResult


class ResultsLanded(Message, bubble=False):
    """Results are waiting in `batcher`: the handler takes them all at once (`batcher.take()`)."""

    def __init__(self, batcher: ResultBatcher) -> None:
        super().__init__()
        self.batcher = batcher


class ShowAuditTab(Message):
    """Open the Audit tab of the Selector cleanup screen (posted to it when the run screen closes with `a`)."""


class ResultBatcher:
    """Collects the engine's results in the worker; posts one ResultsLanded while any are waiting."""

    def __init__(self, owner: DOMNode) -> None:
        self._owner = owner
        self._waiting: list[DeleteResult] = []
        self.batches = 0

    def add(self, result: DeleteResult) -> None:
        """Take one result (the engine's on_result); tell the owner when this is the first one waiting."""
        self._waiting.append(result)
        if len(self._waiting) == 1:
            self._owner.post_message(ResultsLanded(self))

    def take(self) -> list[DeleteResult]:
        """Every waiting result, oldest first (the next add posts a new message)."""
        taken, self._waiting = self._waiting, []
        if taken:
            self.batches += 1
        return taken
