"""RowTable: a row-cursor DataTable that moves with j/k/g/G like the paged tables (tags, audit, run, review).

`flash(keys)` highlights rows for a moment (live refresh shows which rows changed), by key, so a rebuild or a
re-sort in the meantime keeps the highlight on the right rows. A cell wider than its column ends with `…`.

For the stall and clients-fill rows of docs/PERFORMANCE.md: component styles are worked out once per frame
(`FrameStyles`); `update_rows`/`update_column` repaint only the rows that changed (refreshing none below the
window: fleet-1000-fill).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from rich.console import ConsoleOptions
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text, TextType
from textual import events
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.css.styles import RenderStyles
from textual.geometry import Region
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from svctui.tui.shown import shown_text
from svctui.tui.textual_internals import (
    FixedLayoutTable,
    Lines,
    forget_rendered_rows,
    row_cells,
    styled_cell,
)
from svctui.visible import visible

Cell = TypeVar("Cell")
LAID_OUT_CELLS = 2048  # one-line cells kept laid out, by look and width: a few screens of them


def cell_text(rendered: str | Text) -> Text:
    """A column's rendered value as a cell's Text: a str (the server's text, perhaps) with its control characters
    shown before Rich drops BEL and CR from it (`␛]0;pwned␇`, not `␛]0;pwned`)."""
    return rendered if isinstance(rendered, Text) else Text(visible(rendered), end="")


def ellipsized(cell: Cell) -> Cell:
    """The cell as text that ends with `…` where its column cuts it (a str is read as markup, as DataTable does);
    its control characters shown (`shown_text`)."""
    if isinstance(cell, str):
        return cast(Cell, Text.from_markup(visible(cell), end="", overflow="ellipsis"))
    if isinstance(cell, Text):
        shown = shown_text(cell)
        shown.overflow = "ellipsis"
        return cast(Cell, shown)
    return cell


Look = tuple[str, tuple[Span, ...], str | Style, str | None, str | None, bool | None, str, int | None]


def look(text: Text) -> Look:
    """What a Text's one-line layout depends on: two cells of one look are laid out alike at a width."""
    return (
        text.plain,
        tuple(text.spans),
        text.style,
        text.justify,
        text.overflow,
        text.no_wrap,
        text.end,
        text.tab_size,
    )


def cell_changed(shown: object, cell: object) -> bool:
    """True when `cell` differs from the shown one in text, spans or base style: rich Text's == ignores the base
    style, so a status that turns red with the same words (or a theme change's restyle) would keep its old colour."""
    if isinstance(shown, Text) and isinstance(cell, Text):
        return shown != cell or shown.style != cell.style
    return shown != cell


def one_line(segments: Iterable[Segment], options: ConsoleOptions) -> list[Segment] | None:
    """`segments` as one line exactly `options.max_width` cells wide (the newline ending it dropped), or None when
    they are not that (more lines, control codes, another width): then the cell is laid out as DataTable does."""
    line: list[Segment] = []
    for segment in segments:
        if segment.control or "\n" in segment.text:
            if segment.text != "\n" or segment.control or not line:
                return None
            break
        line.append(segment)
    else:
        return None
    return line if Segment.get_line_length(line) == options.max_width else None


def cell_key_at(table: DataTable[Any], row: int, column: int) -> tuple[RowKey, ColumnKey] | None:
    """The keys of the cell drawn at (row, column), or None outside the table."""
    coordinate = Coordinate(row, column)
    if not table.is_valid_coordinate(coordinate):
        return None
    row_key, column_key = table.coordinate_to_cell_key(coordinate)
    return row_key, column_key


class FrameStyles(RenderStyles):
    """A component's styles while one frame is drawn: the Rich style is worked out once, not on every line."""

    _frame_rich: Style | None = None

    @property
    def rich_style(self) -> Style:
        """The component's Rich style (computed on first use)."""
        if self._frame_rich is None:
            self._frame_rich = super().rich_style
        return self._frame_rich


class RowTable(FixedLayoutTable[Cell], Generic[Cell]):
    """A zebra-striped DataTable with a row cursor and the vi keys every table of the dashboard answers to."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False, id="table.down", tooltip="Move the cursor down"),
        Binding("k", "cursor_up", "Up", show=False, id="table.up", tooltip="Move the cursor up"),
        Binding("g", "first_row", "Top", show=False, id="table.top", tooltip="Go to the first row"),
        Binding("G", "last_row", "Bottom", show=False, id="table.bottom", tooltip="Go to the last row"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"rowtable--changed"}
    DEFAULT_CSS = """
    RowTable > .rowtable--changed { background: $warning 30%; }
    """

    def __init__(self, **options: Any) -> None:
        options.setdefault("cursor_type", "row")
        options.setdefault("zebra_stripes", True)
        super().__init__(**options)
        self.flashing: frozenset[str] = frozenset()  # keys of the rows highlighted as changed
        self._flash_timer: Timer | None = None
        self._frame_styles: dict[tuple[str, ...], FrameStyles] | None = None  # set while a frame is drawn
        self._frame_widths: dict[int, ConsoleOptions] | None = None  # cell options per width, while a frame is drawn
        # (a cell's look, width) -> (options, its line laid out, no styles applied): see `laid_out_line`
        self._laid_out: dict[tuple[Look, int], tuple[ConsoleOptions, list[Segment] | None]] = {}

    def on_resize(self, _event: events.Resize) -> None:
        """The table grew shorter (a detail pane opened under it): the cursor's row stays in view."""
        self.keep_cursor_in_view()

    def keep_cursor_in_view(self) -> None:
        """Scroll the cursor's row into view (not while hidden: a zero-size table would scroll past its cells)."""
        if self.row_count and self.display and self.size.width > 0:
            self.move_cursor(row=self.cursor_row, column=self.cursor_column, animate=False)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the visible lines. DataTable asks for the header, fixed and row-stripe component styles on every
        line and works out their Rich style (a walk up the DOM) each time: within one frame they are the same."""
        self._frame_styles, self._frame_widths = {}, {}
        try:
            return super().render_lines(crop)
        finally:
            self._frame_styles = self._frame_widths = None

    def get_component_styles(self, *names: str) -> RenderStyles:
        """The component's styles (while a frame is drawn: the same object for the frame, see `render_lines`)."""
        memo = self._frame_styles
        if memo is None:
            return super().get_component_styles(*names)
        styles = memo.get(names)
        if styles is None:
            plain = super().get_component_styles(*names)
            styles = memo[names] = FrameStyles(plain.node or self, plain.base, plain.inline)
        return styles

    def add_row(
        self, *cells: Cell, height: int | None = 1, key: str | None = None, label: TextType | None = None
    ) -> RowKey:
        """Add a row whose cut cells end with `…`."""
        return super().add_row(*(ellipsized(cell) for cell in cells), height=height, key=key, label=label)

    def update_cell(
        self, row_key: RowKey | str, column_key: ColumnKey | str, value: Cell, *, update_width: bool = False
    ) -> None:
        """Update a cell; cut, it ends with `…`."""
        super().update_cell(row_key, column_key, ellipsized(value), update_width=update_width)

    def flash(self, keys: Iterable[str], seconds: float = 2.0) -> None:
        """Highlight the rows with these keys for `seconds` (nothing when there are none)."""
        wanted = frozenset(keys)
        if not wanted:
            return
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._set_flashing(wanted)
        self._flash_timer = self.set_timer(seconds, lambda: self._set_flashing(frozenset()))

    def update_row(self, row_key: str, cells: Sequence[Cell]) -> bool:
        """Put `cells` in the row with this key (in column order) and repaint that row alone; False when no cell
        changed (see `update_rows`)."""
        return bool(self.update_rows({row_key: cells}))

    def update_rows(self, rows: Mapping[str, Sequence[Cell]]) -> list[str]:
        """Put each row's cells in the row with its key (in column order) and repaint those rows alone; the keys of
        the rows where a cell changed (in text, spans or style: `cell_changed`). DataTable.update_cell throws away
        every rendered cell of the table (its caches are keyed by one update counter), so a table of hundreds of
        visible cells repaints them all for one changed row; here only these rows' cached renders go, found in one
        pass over the caches for all of them. Column widths stay (the callers' columns have fixed widths)."""
        columns = list(self.columns)
        changed: list[str] = []
        for row_key, cells in rows.items():
            row = row_cells(self, RowKey(row_key))
            assert row is not None, row_key  # a row the caller knows is on the table
            differs = False
            for column, cell in zip(columns, map(ellipsized, cells), strict=True):  # cut, it ends with `…` too
                if cell_changed(row.get(column), cell):
                    row[column] = cell
                    differs = True
            if differs:
                changed.append(row_key)
        if not changed:
            return changed
        self._repaint_rows({RowKey(row_key) for row_key in changed})
        return changed

    def update_column(self, column_key: str, cells: Mapping[str, Cell]) -> set[str]:
        """Put `cells` (row key -> cell) in this column and repaint only the rows whose cell changed (in text,
        spans or style); their keys. As `update_row`: the other rows' rendered cells stay, where
        DataTable.update_cell throws away every rendered cell of the table (a redraw of every visible line)."""
        column = ColumnKey(column_key)
        changed: set[RowKey] = set()
        for key, value in cells.items():
            row_key = RowKey(key)
            row = row_cells(self, row_key)
            if row is None:
                continue
            cell = ellipsized(value)
            shown = row.get(column)
            if cell_changed(shown, cell):
                row[column] = cell
                changed.add(row_key)
        if changed:
            self._repaint_rows(changed)
        return {key.value for key in changed if key.value is not None}

    def _repaint_rows(self, keys: set[RowKey]) -> None:
        """Forget the rendered cells and lines of these rows (the others' stay) and repaint those that may be on
        screen: a row below the window is drawn from its cells when scrolled to (refresh_row sums the heights of
        every row above it, work for nothing for a row off screen)."""
        forget_rendered_rows(self, keys)  # the others stay: moving the cursor re-renders every row from its cells
        header = self.header_height if self.show_header else 0
        below = int(self.scroll_y) + self.size.height - header  # a row at or past this index is below the window
        for key in keys:
            index = self.get_row_index(key)
            if index < below:  # every row is a line at least: from `below` on, none shows
                self.refresh_row(index)

    def _set_flashing(self, keys: frozenset[str]) -> None:
        self.flashing = keys
        self.notify_style_update()  # rendered rows are cached by their style; these rows' style changed (repaints)

    def _is_flashing(self, row_index: int) -> bool:
        if not self.flashing or row_index < 0 or row_index >= self.row_count:
            return False
        return self.ordered_rows[row_index].key.value in self.flashing

    def row_highlight(self, row_index: int, *, in_cursor_cell: bool = False) -> Style:
        """What a row adds to its style: rows that changed in the last refresh flash (subclasses add theirs)."""
        if self._is_flashing(row_index):
            return self.get_component_rich_style("rowtable--changed")
        return Style()

    def cell_lines(self, row_index: int, col_index: int, style: Style, width: int, cursor: bool, hover: bool) -> Lines:
        """A one-line cell is laid out once at a width (`laid_out_line`) and gets only its styles applied when drawn
        again: the segments DataTable's `render_lines(Styled(Padding(cell)))` makes, without rich laying it out on
        every repaint (a sort, rows added or changed, the cursor moved: a full Clients table, ~300 cells, ~30 ms
        each time). Other cells (the header, taller rows, not Text) as DataTable draws them."""
        keys = cell_key_at(self, row_index, col_index) if row_index >= 0 and col_index >= 0 else None
        if keys is not None:
            row, cell = self.rows.get(keys[0]), (row_cells(self, keys[0]) or {}).get(keys[1])
            options = self._cell_options(width)
            if row is not None and row.height == 1 and cell is not None and options is not None:
                line = self.laid_out_line(cell, options)
                if line is not None:
                    return styled_cell(self, keys, (row_index, col_index), line, style, cursor, hover)
        return super().cell_lines(row_index, col_index, style, width, cursor, hover)

    def laid_out_line(self, cell: object, options: ConsoleOptions) -> list[Segment] | None:
        """`cell` laid out as one line exactly `options.max_width` wide, padded as DataTable pads it, no styles
        applied; kept per look and width (`look`: the many cells that look alike, `checking…`, a blank, a mark, are
        laid out once). None: not a one-line Text, which DataTable draws."""
        if not isinstance(cell, Text):
            return None
        key = (look(cell), options.max_width)
        known = self._laid_out.get(key)
        if known is not None and known[0] == options:
            return known[1]
        line = one_line(self.app.console.render(Padding(cell, (0, self.cell_padding)), options), options)
        self.lines_laid_out({key: (options, line)})
        return line

    def lines_laid_out(self, lines: Mapping[tuple[Look, int], tuple[ConsoleOptions, list[Segment] | None]]) -> None:
        """Keep these cells' lines, laid out elsewhere (a thread: PagedTable.prepare), for `laid_out_line`."""
        if len(self._laid_out) + len(lines) > LAID_OUT_CELLS:
            self._laid_out.clear()  # a few screens of looks: forgotten at once, laid out again as they show
        self._laid_out.update(lines)

    def _cell_options(self, width: int | None) -> ConsoleOptions | None:
        """The options DataTable renders a one-line cell of this width with (None: no width); the same object for a
        width within one frame (see `render_lines`)."""
        if width is None:
            return None
        memo = self._frame_widths
        options = memo.get(width) if memo is not None else None
        if options is None:
            options = self.app.console_options.update_dimensions(width, 1).update(no_wrap=True)
            if memo is not None:
                memo[width] = options
        return options

    def action_first_row(self) -> None:
        """The cursor to the first row."""
        self.move_cursor(row=0)

    def action_last_row(self) -> None:
        """The cursor to the last row."""
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)
