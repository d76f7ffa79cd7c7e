"""Messages that carry worker results and widget intents to the screen that owns the state.

Workers never touch widgets: they post `PageLoaded` / `LoadFailed` tagged with the request sequence number they
were started with, and the screen drops any whose number is not the latest (a stale response never wins).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual.message import Message

from svctui.api.filters import Filter, SortKey


class PageLoaded(Message):
    """A list page arrived for request `request_seq` (`query` is what was asked, e.g. a ListQuery)."""

    def __init__(self, page: Any, request_seq: int, elapsed_ms: float, query: Any = None) -> None:
        super().__init__()
        self.page = page
        self.request_seq = request_seq
        self.elapsed_ms = elapsed_ms
        self.query = query


class LoadFailed(Message):
    """A list request `request_seq` failed; `error` is usually a svctui.api.errors.ApiError."""

    def __init__(self, error: BaseException, request_seq: int) -> None:
        super().__init__()
        self.error = error
        self.request_seq = request_seq


class FiltersApplied(Message):
    """The user applied a new, fully validated set of filters (replaces the old set)."""

    def __init__(self, filters: Sequence[Filter]) -> None:
        super().__init__()
        self.filters = tuple(filters)


class FilterRemoved(Message):
    """The user removed one active filter (a chip)."""

    def __init__(self, removed: Filter) -> None:
        super().__init__()
        self.removed = removed


class SortChanged(Message):
    """The table's sort keys changed (priority order); the screen reloads from the server."""

    def __init__(self, sort: Sequence[SortKey]) -> None:
        super().__init__()
        self.sort = tuple(sort)


class MarksChanged(Message):
    """The set of marked row keys changed."""

    def __init__(self, marked: frozenset[str]) -> None:
        super().__init__()
        self.marked = marked


class RowFocused(Message):
    """The cursor moved to another row (key, or None when the table is empty)."""

    def __init__(self, row_key: str | None) -> None:
        super().__init__()
        self.row_key = row_key


@dataclass(frozen=True)
class ServerInfoView:
    """What the header shows about the server: its edition, or why it is unknown."""

    edition: str | None = None
    problem: str | None = None


class ServerProbed(Message):
    """The app's start-up probe finished (edition known, or a problem to show)."""

    def __init__(self, info: ServerInfoView) -> None:
        super().__init__()
        self.info = info


class ProfileSwitched(Message):
    """The app now talks to another profile; screens drop their state and reload."""

    def __init__(self, profile_name: str) -> None:
        super().__init__()
        self.profile_name = profile_name
