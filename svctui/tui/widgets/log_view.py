"""A run's log drawn virtually: only the rows on screen are rendered (the Line API, as Textual's own `Log` does),
so a log of several MB scrolls, filters and searches without the loop stalling.

The view holds parsed lines (svctui.runlog) and a cursor. `shown` is every line, or with the level filter only the
warnings and errors (a plain line, such as a stack trace's continuation, goes with the line above it). A search
finds the rows that contain a text (any case) in a thread; `n`/`N` move between them. Every piece of the log passes
`visible()` before it is drawn: the log is the server's text, never terminal control. Colours come from the
theme's variables (`$error`, `$warning`, `$text-muted`, ...), through component classes.
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import work
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from svctui.runlog import LogLine
from svctui.visible import visible

PREFIX = 16  # `HH:MM:SS.fff` and the level's four letters, each followed by a space
LEVEL_TAGS = {"ERROR": "ERR ", "WARNING": "WARN", "INFORMATION": "INFO", "DEBUG": "DBUG"}
LEVEL_CLASSES = {"ERROR": "logview--error", "WARNING": "logview--warning", "DEBUG": "logview--debug"}


def filter_rows(lines: Sequence[LogLine]) -> list[int]:
    """The indexes of the warnings and errors, each with the plain lines that follow it."""
    rows: list[int] = []
    kept = False
    for index, line in enumerate(lines):
        if line.level is not None:
            kept = line.warns
        if kept:
            rows.append(index)
    return rows


def search_rows(lines: Sequence[LogLine], rows: Sequence[int] | None, needle: str) -> list[int]:
    """The rows (positions in `rows`, or line indexes when `rows` is None) whose line's time or message contains
    `needle`, any case."""
    folded = needle.casefold()
    indexes = range(len(lines)) if rows is None else rows
    return [
        row
        for row, index in enumerate(indexes)
        if folded in lines[index].message.casefold() or folded in lines[index].stamp
    ]


class LogView(ScrollView, can_focus=True):
    """The lines of one log, a cursor row, the level filter and a search."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "logview--time",
        "logview--info",
        "logview--error",
        "logview--warning",
        "logview--debug",
        "logview--plain",
        "logview--match",
        "logview--cursor",
    }
    DEFAULT_CSS = """
    LogView { background: $surface; overflow-x: hidden; overflow-y: auto; }
    LogView > .logview--time { color: $text-muted; }
    LogView > .logview--info { color: $text-muted; }
    LogView > .logview--error { color: $error; text-style: bold; }
    LogView > .logview--warning { color: $warning; }
    LogView > .logview--debug { color: $text-disabled; }
    LogView > .logview--plain { color: $text-muted; }
    LogView > .logview--match { background: $warning 40%; }
    LogView > .logview--cursor { background: $boost; }
    LogView:focus > .logview--cursor { background: $accent 30%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "move(1)", "Down", show=False, id="log.down", tooltip="Next line"),
        Binding("k,up", "move(-1)", "Up", show=False, id="log.up", tooltip="Previous line"),
        Binding("pagedown,space", "page(1)", "Page down", show=False, id="log.page.down", tooltip="A screenful down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="log.page.up", tooltip="A screenful up"),
        Binding("g,home", "edge(0)", "First line", show=False, id="log.first", tooltip="First line"),
        Binding("G,end", "edge(1)", "Last line", show=False, id="log.last", tooltip="Last line"),
        Binding("left,h", "sideways(-8)", "Left", show=False, id="log.left", tooltip="Scroll left"),
        Binding("right,l", "sideways(8)", "Right", show=False, id="log.right", tooltip="Scroll right"),
    ]

    class CursorMoved(Message):
        """The cursor is on another line (its index in the log)."""

        def __init__(self, index: int | None) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[LogLine] = []
        self.rows: list[int] | None = None  # line indexes shown under the level filter; None: every line
        self.cursor = 0  # a row
        self.needle = ""
        self.matches: list[int] = []  # rows
        self.widest = 0
        self._styles: dict[str, Style] = {}  # base + component styles, computed once per theme (see `_style`)

    # ----- content -----------------------------------------------------------------------------------------
    @property
    def row_count(self) -> int:
        """Rows shown."""
        return len(self.rows) if self.rows is not None else len(self.lines)

    @property
    def filtered(self) -> bool:
        """Whether only warnings and errors are shown."""
        return self.rows is not None

    def line_at(self, row: int) -> LogLine | None:
        """The line shown at `row`."""
        if not 0 <= row < self.row_count:
            return None
        return self.lines[self.rows[row] if self.rows is not None else row]

    def current(self) -> LogLine | None:
        """The line under the cursor."""
        return self.line_at(self.cursor)

    def clear(self) -> None:
        """No lines."""
        self.lines = []
        self.rows = None
        self.cursor = 0
        self.needle = ""
        self.matches = []
        self.widest = 0
        self._resize()

    def extend(self, lines: Sequence[LogLine]) -> None:
        """More lines at the end (a log arriving); the filter and search take them in when `refilter()` runs."""
        if not lines:
            return
        self.lines.extend(lines)
        self.widest = max(self.widest, max(len(line.message) for line in lines))
        self._resize()

    def _resize(self) -> None:
        self.virtual_size = Size(self.widest + PREFIX, self.row_count)
        self.refresh()

    # ----- filter and search (computed in a thread, applied on the loop) ---------------------------------------
    def set_filtered(self, filtered: bool) -> None:
        """Show only warnings and errors, or every line; the cursor stays on (or near) its line."""
        self._recompute(filtered, self.needle)

    def search(self, needle: str) -> None:
        """Find `needle` (empty: no search); the cursor goes to the first match from where it is."""
        self._recompute(self.filtered, needle, jump=True)

    def refilter(self) -> None:
        """Apply the filter and the search to every line (after more arrived)."""
        self._recompute(self.filtered, self.needle)

    @work(exclusive=True, group="logview-compute")
    async def _recompute(self, filtered: bool, needle: str, jump: bool = False) -> None:
        lines = self.lines
        here = self.current()
        rows = await asyncio.to_thread(filter_rows, lines) if filtered else None
        matches = await asyncio.to_thread(search_rows, lines, rows, needle) if needle else []
        self.rows, self.needle, self.matches = rows, needle, matches
        self._resize()
        self.cursor = self._row_of(here.number - 1) if here is not None else 0
        if jump and matches:
            self.next_match(1, include_here=True)
        else:
            self.go_to_row(self.cursor)

    def _row_of(self, index: int) -> int:
        """The row showing line `index`, or the nearest row before it."""
        if self.rows is None:
            return min(index, max(self.row_count - 1, 0))
        return max(bisect.bisect_right(self.rows, index) - 1, 0)

    def next_match(self, step: int, include_here: bool = False) -> bool:
        """The cursor to the next (`step` 1) or previous (-1) match, wrapping around; False when there is none."""
        if not self.matches:
            return False
        if step > 0:
            at = bisect.bisect_left(self.matches, self.cursor if include_here else self.cursor + 1)
            row = self.matches[at % len(self.matches)]
        else:
            at = bisect.bisect_left(self.matches, self.cursor) - 1
            row = self.matches[at % len(self.matches)]
        self.go_to_row(row)
        return True

    def match_position(self) -> tuple[int, int]:
        """(which match the cursor is on, counted from 1, or 0; how many)."""
        at = bisect.bisect_left(self.matches, self.cursor)
        on = at + 1 if at < len(self.matches) and self.matches[at] == self.cursor else 0
        return on, len(self.matches)

    def next_error(self, step: int) -> bool:
        """The cursor to the next (1) or previous (-1) error line shown; False when there is none that way."""
        row = self.cursor + step
        while 0 <= row < self.row_count:
            line = self.line_at(row)
            if line is not None and line.severe:
                self.go_to_row(row)
                return True
            row += step
        return False

    def go_to_line(self, index: int) -> None:
        """The cursor to line `index` of the log (or the nearest row shown before it)."""
        self.go_to_row(self._row_of(index))

    def go_to_row(self, row: int) -> None:
        """The cursor to `row`, scrolled into view (a third from the top when it jumps)."""
        row = max(0, min(row, self.row_count - 1))
        self.cursor = row
        height = max(self.scrollable_content_region.height, 1)
        top = int(self.scroll_y)
        if not top <= row < top + height:
            # forced: before its first layout the view has no scrollbar yet, and an unforced scroll is ignored
            self.scroll_to(y=max(row - height // 3, 0), animate=False, immediate=True, force=True)
        self.refresh()
        line = self.current()
        self.post_message(self.CursorMoved(line.number - 1 if line is not None else None))

    # ----- keys ------------------------------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        """Cursor up or down a row."""
        self.go_to_row(self.cursor + step)

    def action_page(self, step: int) -> None:
        """Cursor a screenful up or down."""
        self.go_to_row(self.cursor + step * max(self.scrollable_content_region.height - 1, 1))

    def action_edge(self, end: int) -> None:
        """Cursor to the first or the last row."""
        self.go_to_row(self.row_count - 1 if end else 0)

    def action_sideways(self, cells: int) -> None:
        """Scroll left or right (long lines are not wrapped)."""
        self.scroll_to(x=max(self.scroll_x + cells, 0), animate=False, immediate=True, force=True)  # no bar: forced
        line = self.current()
        self.post_message(self.CursorMoved(line.number - 1 if line is not None else None))

    # ----- drawing ---------------------------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        """Row `y` of the view: time, level, message; the cursor row and the search's matches highlighted."""
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        style = self._style
        base = style("")
        line = self.line_at(row)
        if line is None:
            return Strip.blank(width, base)
        segments: list[Segment] = []
        if line.level is not None:
            segments.append(Segment(f"{visible(line.stamp[11:23]):<12} ", style("logview--time")))
            kind = LEVEL_CLASSES.get(line.level, "logview--info")
            tag = LEVEL_TAGS.get(line.level, visible(line.level)[:4])
            segments.append(Segment(f"{tag:<4} ", style(kind)))
            text_style = style(kind) if line.level in ("ERROR", "WARNING") else base
        else:
            segments.append(Segment(" " * PREFIX, base))
            text_style = style("logview--plain")
        message = visible(line.message) + (" ⏎ (cut short)" if line.cut else "")
        segments.extend(self._highlighted(message, text_style, style("logview--match", on_base=False)))
        strip = Strip(segments).crop(scroll_x, scroll_x + width).extend_cell_length(width, base)
        if row == self.cursor:
            strip = strip.apply_style(style("logview--cursor", on_base=False))
        return strip

    def _style(self, name: str, on_base: bool = True) -> Style:
        """The widget's style ("") or a component's (on the widget's, unless not `on_base`), kept until the theme or
        the CSS changes: Textual computes `rich_style` afresh on each call (~0.5 ms), and a frame asks 200 times."""
        key = f"{name}:{on_base}"
        found = self._styles.get(key)
        if found is None:
            if not self._styles:
                self._styles[":True"] = self.rich_style
            base = self._styles[":True"]
            component = self.get_component_rich_style(name) if name else Style()
            found = self._styles[key] = base + component if on_base else component
        return found

    def _highlighted(self, text: str, style: Style, match: Style) -> list[Segment]:
        if not self.needle:
            return [Segment(text, style)]
        folded, needle = text.casefold(), self.needle.casefold()
        if len(folded) != len(text):  # case folding changed the length: no exact spans, no highlight
            return [Segment(text, style)]
        segments: list[Segment] = []
        at = 0
        while (found := folded.find(needle, at)) >= 0:
            segments.append(Segment(text[at:found], style))
            segments.append(Segment(text[found : found + len(needle)], style + match))
            at = found + len(needle)
        segments.append(Segment(text[at:], style))
        return segments

    def notify_style_update(self) -> None:
        """A theme change: draw again with its colours."""
        super().notify_style_update()
        self._styles.clear()
        self.refresh()
