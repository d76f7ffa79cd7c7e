"""Messages the Completed tasks screen's workers post: history, status breakdown, known clients, saved settings."""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

from svctui.triage import StatusCount
from svctui.tui.screens.task_loaders import History


class HistoryLoaded(Message):
    """The client's task history (newest first, capped) and its drops, for request `request_seq`."""

    def __init__(self, request_seq: int, history: History) -> None:
        super().__init__()
        self.request_seq = request_seq
        self.history = history


class HistoryFailed(Message):
    """Loading the client's history failed (the plot and the comparison say why)."""

    def __init__(self, request_seq: int, error: BaseException) -> None:
        super().__init__()
        self.request_seq = request_seq
        self.error = error


class BreakdownLoaded(Message):
    """Per-status counts for the current filter (from one count request per status)."""

    def __init__(self, request_seq: int, breakdown: Sequence[StatusCount]) -> None:
        super().__init__()
        self.request_seq = request_seq
        self.breakdown = tuple(breakdown)


class BreakdownFailed(Message):
    """The per-status count requests failed."""

    def __init__(self, request_seq: int, error: BaseException) -> None:
        super().__init__()
        self.request_seq = request_seq
        self.error = error


class KnownClientsLoaded(Message):
    """(client id, client name) of every event, or a problem explaining why there are none."""

    def __init__(self, pairs: Sequence[tuple[str, str]], problem: str = "", *, request_seq: int = 0) -> None:
        super().__init__()
        self.pairs = list(pairs)
        self.problem = problem
        self.request_seq = request_seq
