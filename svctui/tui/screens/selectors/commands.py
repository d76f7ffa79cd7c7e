"""Palette commands of the cleanup screen: mark every match, mark by id, clear marks (and delete, unless read-only)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Provider

if TYPE_CHECKING:
    from svctui.tui.screens.selectors.screen import SelectorsScreen

Command = tuple[str, str, Callable[[], None]]


@runtime_checkable
class OffersCommands(Protocol):
    """A screen with palette commands of its own (the cleanup screen)."""

    def palette_commands(self) -> list[Command]:
        """What the command palette offers on this screen now."""


def selector_commands(screen: SelectorsScreen) -> list[Command]:
    """(title, help, callback) of each command the screen offers now."""
    commands: list[Command] = [
        (
            "Mark all matching selectors",
            "Every selector of this tag matching the filters, on every page (count shown first)",
            screen.action_mark_all_matching,
        ),
        ("Mark selectors by id", "Type or paste ids and ranges: 12 15-20 31", screen.action_type_ids),
        ("Clear marks of this tag", "Unmark every selector of this tag", screen.action_clear_marks),
        ("Open a tag by id", "For servers without a tag list, or a tag it does not show", screen.action_tag_id),
    ]
    if screen.check_action("delete_marked", ()):
        commands.append(
            ("Delete marked selectors…", "Review the marked selectors, then delete", screen.action_delete_marked)
        )
    return commands


class SelectorCommands(Provider):
    """The cleanup screen's commands in the palette."""

    def _commands(self) -> list[Command]:
        return self.screen.palette_commands() if isinstance(self.screen, OffersCommands) else []

    async def discover(self) -> AsyncIterator[DiscoveryHit]:
        """Every command, unfiltered."""
        for title, help_text, callback in self._commands():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> AsyncIterator[Hit]:
        """The commands matching `query`."""
        matcher = self.matcher(query)
        for title, help_text, callback in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
