"""Messages of the review and the run: results landing (batched so 55 a second never flood the screen)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from textual.dom import DOMNode
from textual.message import Message

T = TypeVar("T")


class ResultsLanded(Message, bubble=False):
    """Results are waiting in `batcher`: the handler takes them all at once (`batcher.take()`)."""

    def __init__(self, batcher: ResultBatcher[Any]) -> None:
        super().__init__()
        self.batcher = batcher


class ShowAuditTab(Message):
    """Open the Audit tab of the Selector cleanup screen (posted to it when the run screen closes with `a`)."""


class AuditStatus(Message):
    """The Audit tab read the log or another run was chosen: the screen's status line says so."""


class SelectorsChanged(Message):
    """Selectors were re-created (a restore): the cleanup screen reloads its page and the tags' counts."""


class SelectorGone(Message):
    """A run started from the Audit tab (a resume) deleted a selector or found it gone: its mark clears."""

    def __init__(self, tag_id: int, selector_id: int) -> None:
        super().__init__()
        self.tag_id = tag_id
        self.selector_id = selector_id


class ResultBatcher(Generic[T]):
    """Collects results (the engine's on_result) in the worker; posts one ResultsLanded while any are waiting."""

    def __init__(self, owner: DOMNode) -> None:
        self._owner = owner
        self._waiting: list[T] = []

    def add(self, result: T) -> None:
        """Take one result (the engine's on_result); tell the owner when this is the first one waiting."""
        self._waiting.append(result)
        if len(self._waiting) == 1:
            self._owner.post_message(ResultsLanded(self))

    def take(self) -> list[T]:
        """Every waiting result, oldest first (the next add posts a new message)."""
        taken, self._waiting = self._waiting, []
        return taken
