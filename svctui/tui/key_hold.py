"""Keys typed in the same burst as a key that opens a box (`/`, `C`, `i`, `t`, the log's `/`) go into that box.

Textual hands each key to whatever has the focus when the app reads it; the box such a key opens takes the focus a
few turns later, so the keys typed right behind it (tmux `send-keys '/' 'id=gt:190' Enter`, fast typing) reached
the screen under it and were lost. From such a key on, the app holds the keys that follow until the focus moves (to
the box), then hands them on in the order typed; an enter among them that closes the box holds the rest again until
the focus is back. A key that opened nothing (the screen and the focus as they were) lets them go after
NOTHING_OPENED, a box that never takes the focus after HOLD_LIMIT.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual import events
from textual.app import App
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

# the bindings (id -> action) that open a box with a text field and give it the focus; a pane's binding of the same
# id that only says where the key works (`elsewhere(...)`) opens nothing
OPENERS = {
    "list.filter": "edit_filters",
    "tasks.client": "choose_client",
    "events.client": "choose_client",
    "tasks.log.search": "search",
    "selectors.ids": "type_ids",
    "selectors.tag_id": "tag_id",
}
HOLD_LIMIT = 5.0  # seconds without the box (a first show on a busy machine takes a while): the keys go on as before
NOTHING_OPENED = 0.5  # seconds with the screen and the focus as they were: the key opened nothing, the keys go on
POLL = 0.005  # how often the hold checks for the box's focus


class KeyHold:
    """The keys held behind an opening key; `deliver` hands a key on as the app would have (its `on_event`)."""

    def __init__(self, app: App[Any], deliver: Callable[[events.Key], Awaitable[None]]) -> None:
        self.app = app
        self.deliver = deliver
        self.held: list[events.Key] | None = None  # None: not holding
        self._focus_before: Widget | None = None
        self._since = 0.0
        self._timer: Timer | None = None
        self._box = False  # holding for a text box to take the focus (else for the focus to move at all)
        self._screen_before: object = None

    def take(self, event: events.Key) -> bool:
        """True when `event` is held (it arrived behind an opening key whose box has no focus yet); an opening key
        itself starts the hold and goes on (False)."""
        if self.held is not None:
            self.held.append(event)
            return True
        if self.opens_a_box(event.key):
            self.held = []
            self._hold(box=True)
        return False

    def opens_a_box(self, key: str) -> bool:
        """True when `key` runs a binding that opens a box (not while a text field has the keys: it types there)."""
        if isinstance(self.app.focused, Input):
            return False
        active = self.app.active_bindings.get(key)
        if active is None or not active.enabled or active.binding.id is None:
            return False
        return OPENERS.get(active.binding.id) == active.binding.action

    def _hold(self, *, box: bool) -> None:
        """Hold until the focus moves: to a text box (`box`, after an opening key; a screen may focus another
        widget first), else anywhere (after enter in a box)."""
        if self._timer is not None:
            self._timer.stop()
        self._focus_before, self._since, self._box = self.app.focused, time.monotonic(), box
        self._screen_before = self.app.screen
        self._timer = self.app.set_interval(POLL, self._check, name="key-hold")

    async def _check(self) -> None:
        focused, waited = self.app.focused, time.monotonic() - self._since
        moved = focused is not None and focused is not self._focus_before and focused.screen is self.app.screen
        nothing = focused is self._focus_before and self.app.screen is self._screen_before and waited >= NOTHING_OPENED
        if (moved and (isinstance(focused, Input) or not self._box)) or nothing or waited >= HOLD_LIMIT:
            await self.release()

    async def release(self) -> None:
        """Hand the held keys on, in the order typed (to the box, now that it has the focus); keys arriving
        meanwhile queue behind them; a held key that opens another box, or enter in the box, holds the rest until
        the focus moves."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        held = self.held
        while held:
            event = held.pop(0)
            # a key that opens another box, or enter in the box (it closes on an answer taken): the rest wait
            # for the focus to move (a box that stays open, a refused answer, gets them after NOTHING_OPENED)
            opens = self.opens_a_box(event.key)
            closes = event.key == "enter" and isinstance(self.app.focused, Input)
            await self.deliver(event)
            if (opens or closes) and held:
                self._hold(box=opens)
                return
        self.held = None
