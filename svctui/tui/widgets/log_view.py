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
from itertools import accumulate
from typing import ClassVar

from rich.cells import cell_len, get_character_cell_size
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

TIME_WIDTH, TAG_WIDTH = 13, 4  # `HH:MM:SS.fffZ` (UTC, as every time in the dashboard) and the level's four letters
PREFIX = TIME_WIDTH + 1 + TAG_WIDTH + 1  # each followed by a space: where the message starts
LEVEL_TAGS = {"ERROR": "ERR ", "WARNING": "WARN", "INFORMATION": "INFO", "DEBUG": "DBUG"}
LEVEL_CLASSES = {"ERROR": "logview--error", "WARNING": "logview--warning", "DEBUG": "logview--debug"}
CUT_MARK = " ⏎ (cut short)"
MORE_MARK = "…"  # in the last cell of a line that goes on past the view's right edge (not wrapped)


def drawn_message(line: LogLine) -> str:
    """A line's message as drawn: made visible, marked when the log was cut inside it."""
    return visible(line.message) + (CUT_MARK if line.cut else "")


def cell_cuts(text: str, room: int) -> list[int]:
    """Where the screen lines of `text` wrapped at `room` cells start, in cells, then its width: never inside a wide
    character (one that takes two cells goes whole to the next line)."""
    cuts, used, total = [0], 0, 0
    for char in text:
        size = get_character_cell_size(char)
        if used and used + size > room:
            cuts.append(total)
            used = 0
        used += size
        total += size
    cuts.append(total)
    return cuts


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
    """The rows (positions in `rows`, or line indexes when `rows` is None) whose line's message, time as the log
    writes it or time as shown (UTC, `22:58:57.886Z`) contains `needle`, any case; or whose level is `needle` as a
    whole word, as written or as shown (`warning`, `WARN`: `in` finds no INFO line for its level)."""
    folded, word = needle.casefold(), needle.casefold().strip()
    timely = any(char.isdigit() for char in folded)  # only a needle with a digit can be in a time: skip the parse
    levels = {level for level, tag in LEVEL_TAGS.items() if word in (level.casefold(), tag.strip().casefold())}
    indexes = range(len(lines)) if rows is None else rows
    return [
        row
        for row, index in enumerate(indexes)
        if folded in lines[index].message.casefold()
        or (levels and lines[index].level in levels)
        or (timely and (folded in lines[index].stamp or folded in lines[index].clock(fraction=True).casefold()))
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
        "logview--more",
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
    LogView > .logview--more { color: $text-muted; text-style: dim; }
    LogView:focus > .logview--cursor { background: $accent 30%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "move(1)", "Down", show=False, id="log.down", tooltip="Next line"),
        Binding("k,up", "move(-1)", "Up", show=False, id="log.up", tooltip="Previous line"),
        Binding("pagedown,space", "page(1)", "Page down", show=False, id="log.page.down", tooltip="A screenful down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="log.page.up", tooltip="A screenful up"),
        Binding("g,home", "edge(0)", "First line", show=False, id="log.first", tooltip="First line, column 1"),
        Binding("G,end", "edge(1)", "Last line", show=False, id="log.last", tooltip="Last line"),
        Binding("left,h", "sideways(-8)", "Left", show=False, id="log.left", tooltip="Scroll left"),
        Binding("right,l", "sideways(8)", "Right", show=False, id="log.right", tooltip="Scroll right"),
        Binding(
            "ctrl+w",
            "toggle_wrap",
            "Wrap",
            show=False,
            id="log.wrap",
            tooltip="Wrap long lines, or scroll them sideways",
        ),
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
        self.widest = 0  # cells of the widest message drawn
        self.widths: list[int] = []  # cells of each line's message as drawn
        self._wide: set[int] = set()  # the lines with a character of two cells (wrapped by `cell_cuts`)
        self.wrap = False  # long lines wrapped (rows of several screen lines) instead of scrolled sideways
        self._starts: list[int] = [0]  # wrapped: the screen line each shown row starts at, then the total
        self._room = 1  # the cells per screen line `_starts` was counted for (drawn with it until counted again)
        self._counting: int | None = None  # the width a count under way is for (one is started per width)
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
        self.widths = []
        self._wide = set()
        self._starts = [0]
        self._resize()

    def extend(self, lines: Sequence[LogLine]) -> None:
        """More lines at the end (a log arriving); the filter and search take them in when `refilter()` runs."""
        if not lines:
            return
        texts = [drawn_message(line) for line in lines]
        widths = [cell_len(text) for text in texts]  # cells, not characters: wide ones take two
        first = len(self.lines)
        self._wide.update(first + at for at, text in enumerate(texts) if widths[at] != len(text))
        self.lines.extend(lines)
        self.widths.extend(widths)
        self.widest = max(self.widest, max(widths))
        if self.wrap and self.rows is None:  # the new rows' screen lines after the others (filtered: at refilter)
            self._starts += self._starts_for(range(first, len(self.lines)), self._room, self._starts[-1])[1:]
        self._resize()

    def _resize(self) -> None:
        if self.wrap:
            self.virtual_size = Size(self.scrollable_content_region.width, self._starts[-1])
        else:
            self.virtual_size = Size(self.widest + PREFIX, self.row_count)
        self.refresh()

    # ----- wrapping ------------------------------------------------------------------------------------------------
    @property
    def wrap_width(self) -> int:
        """Cells of a message per screen line when wrapped (the view's width after the time and level)."""
        return max(self.scrollable_content_region.width - PREFIX, 1)

    def _starts_for(self, indexes: Sequence[int], room: int, first: int = 0) -> list[int]:
        """The screen line each of the lines `indexes` starts at wrapped at `room` cells (from `first`), then the end:
        ~10 ms of CPU for the 5 MB demo log's 60,000 lines, run in a thread for all of them (`_rewrap`)."""
        counts = [max(-(-self.widths[index] // room), 1) for index in indexes]
        if self._wide:
            for row, index in enumerate(indexes):
                if index in self._wide:
                    counts[row] = len(self._cuts(index, room)) - 1
        return list(accumulate(counts, initial=first))

    def _cuts(self, index: int, room: int) -> list[int]:
        """`cell_cuts` of line `index` (evenly every `room` cells when it has no wide character)."""
        if index in self._wide:
            return cell_cuts(drawn_message(self.lines[index]), room)
        width = self.widths[index]
        return [*range(0, width, room), width] if width else [0, 0]

    def row_at(self, y: int) -> tuple[int, int]:
        """(the shown row, which of its screen lines) at screen line `y` of the content."""
        if not self.wrap:
            return y, 0
        row = bisect.bisect_right(self._starts, y) - 1
        return row, y - self._starts[row]

    def action_toggle_wrap(self) -> None:
        """Wrap long lines (once their screen lines are counted, in a thread), or show each on one line scrolled
        sideways: the top row stays at the top, the cursor's line in view."""
        if self.wrap:
            self.workers.cancel_group(self, "logview-wrap")  # a count under way would wrap them again
            self._counting = None
            self._show_wrapped(False, [0], 1, self.row_at(int(self.scroll_y))[0])
        else:
            self._rewrap(int(self.scroll_y))

    def on_resize(self) -> None:
        """Wrapped, the rows are wrapped again for the new width."""
        self._check_width()

    def _check_width(self) -> None:
        """Wrapped at another width than the view's now (a resize, `z`, the detail pane, a scrollbar that came or
        went): count the screen lines again, once per width; until then the old count is drawn, clipped."""
        if self.wrap and self.wrap_width not in (self._room, self._counting):
            self._rewrap(self.row_at(int(self.scroll_y))[0])

    @work(exclusive=True, group="logview-wrap")
    async def _rewrap(self, top_row: int) -> None:
        """Count every shown row's screen lines in a thread, then show them wrapped (`top_row` at the top)."""
        rows, room, count = self.rows, self.wrap_width, len(self.lines)
        self._counting = room
        starts = await asyncio.to_thread(self._starts_for, range(count) if rows is None else rows, room)
        self._counting = None
        if rows is not self.rows:
            return  # filtered meanwhile: it counts its own rows
        if rows is None and len(self.lines) > count:  # lines that arrived meanwhile
            starts += self._starts_for(range(count, len(self.lines)), room, starts[-1])[1:]
        self._show_wrapped(True, starts, room, top_row)
        self._check_width()  # resized meanwhile: count for the width there is now

    def _show_wrapped(self, wrap: bool, starts: list[int], room: int, top_row: int) -> None:
        """Wrapped (with these `starts`, counted at `room` cells) or not, `top_row` at the top and the cursor's row
        in view."""
        self.wrap, self._starts, self._room = wrap, starts, room
        self._resize()
        top = starts[min(top_row, len(starts) - 1)] if wrap else top_row
        self.scroll_to(x=0, y=top, animate=False, immediate=True, force=True)
        self.go_to_row(self.cursor)

    # ----- filter and search (computed in a thread, applied on the loop) ---------------------------------------
    def set_filtered(self, filtered: bool) -> None:
        """Show only warnings and errors, or every line; the cursor stays on (or near) its line, the view back at
        column 1 (other rows: an offset kept from a search would hide their time and level)."""
        self._to_column_one()
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
        if self.wrap:  # the shown rows' screen lines, counted again
            room = self.wrap_width
            starts = await asyncio.to_thread(self._starts_for, range(len(lines)) if rows is None else rows, room)
            self._starts, self._room = starts, room
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
        first, end = (self._starts[row], self._starts[row + 1]) if self.wrap and self.row_count else (row, row + 1)
        if not (top <= first and end <= top + height) and not (first <= top and end >= top + height):
            # forced: before its first layout the view has no scrollbar yet, and an unforced scroll is ignored
            self.scroll_to(y=max(first - height // 3, 0), animate=False, immediate=True, force=True)
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
        """Cursor to the first or the last row; the first also back to column 1 (the top left, where a log starts)."""
        if not end:
            self._to_column_one()
        self.go_to_row(self.row_count - 1 if end else 0)

    def _to_column_one(self) -> None:
        """No sideways offset (the status line's `→ column` goes; the cursor line is said again)."""
        if self.scroll_x:
            self.scroll_to(x=0, animate=False, immediate=True, force=True)
            line = self.current()
            self.post_message(self.CursorMoved(line.number - 1 if line is not None else None))

    def action_sideways(self, cells: int) -> None:
        """Scroll left or right (long lines not wrapped; wrapped, there is nothing to the side)."""
        if self.wrap:
            return
        self.scroll_to(x=max(self.scroll_x + cells, 0), animate=False, immediate=True, force=True)  # no bar: forced
        line = self.current()
        self.post_message(self.CursorMoved(line.number - 1 if line is not None else None))

    # ----- drawing ---------------------------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        """Row `y` of the view: time, level, message; the cursor row and the search's matches highlighted."""
        scroll_x, scroll_y = self.scroll_offset
        row, piece = self.row_at(scroll_y + y)
        width = self.size.width
        style = self._style
        base = style("")
        line = self.line_at(row)
        if line is None:
            return Strip.blank(width, base)
        if line.level is None:
            text_style = style("logview--plain")
        else:
            kind = LEVEL_CLASSES.get(line.level, "logview--info")
            text_style = style(kind) if line.level in ("ERROR", "WARNING") else base
        segments: list[Segment] = []
        if piece or line.level is None:  # a plain line, or a wrapped line's continuation under its message's start
            segments.append(Segment(" " * PREFIX, base))
        else:
            tag = LEVEL_TAGS.get(line.level, visible(line.level)[:TAG_WIDTH])
            segments.append(Segment(f"{visible(line.clock(fraction=True)):<{TIME_WIDTH}} ", style("logview--time")))
            segments.append(Segment(f"{tag:<{TAG_WIDTH}} ", style(kind)))
        message = self._highlighted(drawn_message(line), text_style, style("logview--match", on_base=False))
        if self.wrap:  # this screen line's share of the message, cut by cells as `_starts` was counted
            if self.wrap_width != self._room:  # until counted again for this width, the old count, clipped
                self.call_later(self._check_width)
            cuts = self._cuts(self.rows[row] if self.rows is not None else row, self._room)
            if piece + 1 < len(cuts):  # always, when `_starts` and `_room` agree (never raise while drawing)
                segments.extend(Strip(message).crop(cuts[piece], cuts[piece + 1]))
            strip = Strip(segments).crop(0, width).extend_cell_length(width, base)
        else:
            segments.extend(message)
            shown = self.scrollable_content_region.width  # the cells left of a vertical scrollbar
            if PREFIX + self.widths[self.rows[row] if self.rows is not None else row] > scroll_x + shown > 1:
                # it goes on past the right edge: the last cell shown says so (scroll with →, or wrap: ctrl+w)
                strip = Strip(segments).crop(scroll_x, scroll_x + shown - 1).extend_cell_length(shown - 1, base)
                more = Segment(MORE_MARK, style("logview--more"))
                strip = Strip([*strip, more], shown).extend_cell_length(width, base)
            else:
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
