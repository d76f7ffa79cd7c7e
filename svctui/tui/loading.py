"""The one way the dashboard loads in the background: a worker runs the load and posts `Loaded` or `LoadFailed`.

Each load belongs to a *channel* of the widget that started it — a `Channel[V]` constant naming it and the type of
the value its loads produce (`HISTORY: Channel[History]`) — and carries the channel's sequence number at start. A
handler tells the answers apart with `CHANNEL.answers(message)`, which also types `message.value`. Starting a load
cancels the channel's previous one, and `Loads.is_current` drops any answer whose number is not the latest, so a
stale answer never wins (also a screen's own partial answers, such as the Clients screen's one per client, when they
carry the channel and number of the load they belong to: `Answer`).
Workers never touch widgets; a failure is a message (shown as a state or a notification), never a traceback.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, Protocol, TypeGuard, TypeVar

from textual.dom import DOMNode
from textual.message import Message
from textual.worker import Worker

V = TypeVar("V")
V_co = TypeVar("V_co", covariant=True)


class Channel(Generic[V_co]):
    """A load channel: its name (for logs and worker groups) and the type of the value its loads produce."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Channel({self.name!r})"

    def answers(self, message: Loaded[object]) -> TypeGuard[Loaded[V_co]]:
        """True when `message` answers a load of this channel (its value is then of the channel's type)."""
        return message.channel is self


class Answer(Protocol):
    """What `Loads.is_current` checks: the channel and the sequence number of the load an answer belongs to."""

    @property
    def channel(self) -> Channel[object]:
        """The channel of the load."""

    @property
    def seq(self) -> int:
        """The load's sequence number on its channel."""


class Loaded(Message, Generic[V_co], bubble=False):
    """A load on `channel` started as number `seq` produced `value` in `elapsed_ms`."""

    def __init__(self, channel: Channel[V_co], seq: int, value: V_co, elapsed_ms: float) -> None:
        super().__init__()
        self.channel: Channel[V_co] = channel
        self.seq = seq
        self.value: V_co = value
        self.elapsed_ms = elapsed_ms


class LoadFailed(Message, bubble=False):
    """A load on `channel` started as number `seq` failed with `error` (usually a svctui.api.errors.ApiError)."""

    def __init__(self, channel: Channel[object], seq: int, error: BaseException) -> None:
        super().__init__()
        self.channel = channel
        self.seq = seq
        self.error = error


class Loads:
    """The loads of one widget: per-channel sequence numbers, the worker helper, and the staleness check."""

    def __init__(self, owner: DOMNode) -> None:
        self._owner = owner
        self._seq: dict[Channel[object], int] = {}
        self._workers: dict[Channel[object], Worker[None]] = {}

    def invalidate(self, channel: Channel[object]) -> int:
        """Make every load of `channel` in flight stale (e.g. a blocked state replaced it); the new number."""
        self._seq[channel] = self._seq.get(channel, 0) + 1
        return self._seq[channel]

    def seq(self, channel: Channel[object]) -> int:
        """The channel's latest sequence number (0 before its first load)."""
        return self._seq.get(channel, 0)

    def start(self, channel: Channel[V], load: Callable[[], Awaitable[V]]) -> Worker[None]:
        """Run `load()` in a worker (cancelling the channel's previous load); post Loaded / LoadFailed to the owner."""
        seq = self.invalidate(channel)
        owner = self._owner
        # taken once called: a finished worker can outlive its load (a context that kept it as the active worker),
        # and the load's closure holds what it loaded (a page's models): gone by reference counting, not a full pass
        pending = [load]

        async def run() -> None:
            started = time.perf_counter()
            try:
                value = await pending.pop()()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # every failure becomes a message, never a traceback
                owner.post_message(LoadFailed(channel, seq, exc))
                return
            owner.post_message(Loaded(channel, seq, value, (time.perf_counter() - started) * 1000))

        worker: Worker[None] = owner.run_worker(  # the function, not a coroutine: one cancelled before it starts
            run, name=f"load:{channel.name}", group=f"load:{channel.name}", exclusive=True, exit_on_error=False
        )  # is never created
        self._workers[channel] = worker
        return worker

    def busy(self, *channels: Channel[object]) -> bool:
        """True while a load of one of `channels` (of any channel, without them) is still running."""
        names = channels or tuple(self._workers)
        return any(not self._workers[name].is_finished for name in names if name in self._workers)

    def start_in_thread(self, channel: Channel[V], load: Callable[[], V]) -> Worker[None]:
        """Like `start` for blocking work (files, the keyring): `load()` runs in a thread."""

        async def in_thread() -> V:
            return await asyncio.to_thread(load)

        return self.start(channel, in_thread)

    def is_current(self, message: Answer) -> bool:
        """True when `message` (a Loaded, a LoadFailed, or a screen's partial answer) belongs to the channel's latest
        load; a stale one should be ignored."""
        return message.seq == self._seq.get(message.channel)
