"""Help text that never breaks a word at its hyphen: `[default: not-ok,drops,stale]` wrapped as `not-` and
`ok,drops,stale]`, and `-24h` could wrap as `-` and `24h` (click wraps with textwrap, which breaks on hyphens)."""

from __future__ import annotations

from collections.abc import Iterable

import click

NO_BREAK_HYPHEN = "\u2011"  # one cell wide as "-": the wrapping is the same, only no break after it


class WholeWordsFormatter(click.HelpFormatter):
    """A help formatter whose paragraphs and definition lists (options, commands) wrap between words only."""

    def write_text(self, text: str) -> None:
        """A paragraph, wrapped between words only."""
        start = len(self.buffer)
        super().write_text(text.replace("-", NO_BREAK_HYPHEN))
        self.buffer[start:] = [chunk.replace(NO_BREAK_HYPHEN, "-") for chunk in self.buffer[start:]]

    def write_dl(self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        """Wrap with every hyphen held to its word, then give the hyphens back (what is copied stays as typed)."""
        start = len(self.buffer)
        held = [(term, text.replace("-", NO_BREAK_HYPHEN)) for term, text in rows]
        super().write_dl(held, col_max, col_spacing)
        self.buffer[start:] = [chunk.replace(NO_BREAK_HYPHEN, "-") for chunk in self.buffer[start:]]


class WholeWordsContext(click.Context):
    """A context whose help is written by `WholeWordsFormatter`."""

    formatter_class = WholeWordsFormatter


class WholeWordsCommand(click.Command):
    """A command whose `--help` wraps between words only."""

    context_class = WholeWordsContext
