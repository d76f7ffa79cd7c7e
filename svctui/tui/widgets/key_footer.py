"""The footer of the list screens: until its screen's breakpoint class is `-wide` (tui/breakpoints.py) it is compact
and leaves out the keys `?` lists anyway (sort, paging, refresh, unmark, endpoint), so the main ones (filter,
detail, the screen's own, delete, help, quit) fit in 80 columns.

Textual's Footer mounts every key again whenever the screen's bindings may have changed (each focus change); this
one does only when what it shows would change: the suite's TUI tests spent ~8 % of their CPU mounting the same keys
again (docs/PERFORMANCE.md). Each key is mounted already in its final compact state (a new FooterKey's `compact`
starts True, then follows the footer's: two restyles more on mount).

What still does not fit beside the palette key is left out whole, from the first key that would be cut on (a
group's keys with their label): half a label reads as another word (`C Cl`), and a key running under the palette
key shows its last letter past it (`^p palettel`)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from svctui.tui.breakpoints import WIDE
from svctui.tui.textual_internals import FooterKey, FooterLabel

MINOR_ACTIONS = frozenset({"cycle_sort", "previous_page", "next_page", "refresh", "clear_marks", "switch_endpoint"})
# The screen's keys that act on a zoomed pane (`z` back, the log): the others act on the list it hides.
ZOOMED_SCREEN_ACTIONS = frozenset({"zoom_detail", "open_log", "show_tab"})


def _acts_on_hidden_list(screen: Screen[Any], action: str) -> bool:
    """True when a pane is zoomed and `action` is the screen's own, one that acts on the list it hides (newcomer's
    walk: the zoomed domain results showed the task table's `/ Filter p Detail C Client …`)."""
    if screen.maximized is None or action.split("(")[0] in ZOOMED_SCREEN_ACTIONS:
        return False
    return any(active.node is screen and active.binding.action == action for active in screen.active_bindings.values())


class SteadyFooter(Footer):
    """Textual's Footer, its keys mounted again only when what it shows would change. Footer mounts them again at
    every change of the screen's bindings (each focus change), and a mount is a layout pass, which repaints the whole
    screen: four in a Clients screen's first fill, the table's every row each time."""

    def __init__(self) -> None:
        super().__init__()
        self._composed_for: Hashable | None = None  # what the keys on screen were composed from (None: no keys)

    def shown(self) -> Hashable:
        """Everything the keys are composed from: the active bindings (their state and key display), whether a pane
        is zoomed, the footer's options. Equal values compose equal keys."""
        app, screen = self.app, self.screen
        bindings = tuple(
            (key, active.binding, active.enabled, active.tooltip, app.get_key_display(active.binding))
            for key, active in screen.active_bindings.items()
        )
        options = (self.show_command_palette, self.combine_groups, app.ENABLE_COMMAND_PALETTE)
        return (screen.maximized is not None, bindings, options)

    def unchanged(self) -> bool:
        """True when the keys on screen are the ones a recompose would mount."""
        return self._composed_for is not None and self.is_attached and self._composed_for == self.shown()

    async def recompose(self) -> None:
        """Remount the keys, unless they would come out as the ones on screen."""
        if not self.unchanged():
            await super().recompose()

    def compose(self) -> ComposeResult:
        """Footer's keys, noting what they were composed from."""
        shown, self._composed_for = self.shown(), None
        for widget in super().compose():
            self._composed_for = shown  # Footer composes no key until the screen's bindings are known
            yield widget


class KeyFooter(SteadyFooter):
    """A Footer that drops its minor keys on narrow terminals (a group whose keys all went goes with its label)."""

    # A compact group's label keeps a space before the next key: Textual's runs on (`f i o d Quick filter? Help`),
    # which reads as one phrase wherever the key's colour does not show (a monochrome terminal, a copied screen).
    # A key's own margin counts when it is fitted, so the last key keeps a cell from the palette key (`q Quit ▏^p`,
    # not `q Quit▏^p`); the palette key ends at the edge (its margin was a blank last column).
    DEFAULT_CSS = """
    KeyFooter.-compact FooterLabel { margin: 0 1 0 0; }
    KeyFooter.-compact FooterKey.-command-palette { margin-right: 0; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._narrow = False

    def screen_is_narrow(self) -> bool:
        """True until the screen's breakpoint class is `-wide` (the list screens': FULL_FOOTER_FROM columns)."""
        return not self.screen.has_class(WIDE)

    def shown(self) -> Hashable:
        """What SteadyFooter's keys are composed from, and the width class."""
        return (self.screen_is_narrow(), super().shown())

    async def recompose(self) -> None:
        """Remount the keys, unless they would come out as the ones on screen; then fit them to the width."""
        if self.unchanged():
            return
        await super().recompose()
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Leave out, whole, the first key (or group) that would run under the palette key and every one after it."""
        if not self.is_attached:
            return
        parts = [child for child in self.children if not child.has_class("-command-palette")]
        palette = [child for child in self.children if child.has_class("-command-palette") and child.display]
        limit = self.size.width - sum(child.outer_size.width + child.styles.margin.width for child in palette)
        cut: int | None = None
        for index, part in enumerate(parts):
            if part.display and part.virtual_region.right + part.styles.margin.right > limit:
                cut = index
                break
        group_label = cut is not None and cut > 0 and isinstance(parts[cut], FooterLabel)
        if group_label and cut is not None and isinstance(parts[cut - 1], HorizontalGroup):
            cut -= 1  # a group's label cut: the group goes with it
        for index, part in enumerate(parts):
            hide = cut is not None and index >= cut
            if part.display == hide:
                part.display = not hide

    def _show_every_part(self) -> None:
        """Every key shown again (the width grew): `_fit` then leaves out what does not fit now."""
        part: Widget
        for part in self.children:
            part.display = True
        self.call_after_refresh(self._fit)

    def compose(self) -> ComposeResult:
        """Footer's keys, without the minor ones while narrow."""
        self._narrow = self.screen_is_narrow()
        self.compact = self._narrow
        dropped_in_group = kept_in_group = 0
        for widget in super().compose():
            if isinstance(widget, FooterLabel):  # a group's label follows its keys
                if not (dropped_in_group and not kept_in_group):
                    yield widget
                dropped_in_group = kept_in_group = 0
                continue
            grouped = isinstance(widget, FooterKey) and widget.has_class("-grouped")
            if isinstance(widget, FooterKey) and (
                (self._narrow and widget.action in MINOR_ACTIONS) or _acts_on_hidden_list(self.screen, widget.action)
            ):
                dropped_in_group += grouped
                continue
            kept_in_group += grouped
            if isinstance(widget, FooterKey):
                # Its state once mounted: the command palette's key keeps FooterKey's default (compact), the others
                # follow the footer (data-bound). Set now, mounting restyles the key once instead of three times.
                compact = True if widget.has_class("-command-palette") else self.compact
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget

    def follow_breakpoint(self) -> None:
        """Recompose when the screen's breakpoint class changed the footer's form (the screen calls it on a resize,
        once the class is set), after the screen is laid out at its new size; in the footer's own task, where its
        keys bind to it."""
        if self.screen_is_narrow() != self._narrow:
            self.call_after_refresh(self.refresh, recompose=True)

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the keys to the new width (unless they are being composed again for the screen's new class)."""
        if self.screen_is_narrow() == self._narrow:
            self._show_every_part()

    def on_mount(self) -> None:
        """Fit the first keys once laid out."""
        self.call_after_refresh(self._fit)
