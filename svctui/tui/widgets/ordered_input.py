"""An Input that handles every key in the order it was typed, even in a burst (a paste of keys, tmux send-keys, a
fast typist on a busy machine).

Textual's Input inserts a printable key in its own key handler, but a bound key (backspace, ctrl+u, left, enter,
and the dialog's own keys such as ctrl+s) bubbles up to the app as a message first, and only there runs its
action. Keys typed after it are already in the Input's queue, so they are inserted before the bound key's action
runs: `abc`, three backspaces and `id=gt:5` in one burst gave `abcid=g` (the backspaces ate `t:5`); ctrl+u then
`rrule=~eq:WEEKLY` then enter gave an empty line and an enter that applied nothing (Textual issue #6605).

`OrderedInput` runs the bindings of the key right away in its own handler, the ones the app would have run after
the bubble (the focused widget's, then its containers' and its screen's up to the first modal screen; priority
bindings already ran before the key reached the Input), so each key acts on the text the keys before it left.
"""

from __future__ import annotations

from svctui.tui.textual_internals import BoundKeysFirstInput


class OrderedInput(BoundKeysFirstInput):
    """An Input whose bound keys act in the order they were typed (see the module's docstring)."""
