"""The left pane of the cleanup screen: the asset group tags (name, kind, selector count, tier position).

Servers without the tag list (a 404: community or older servers) get a prompt for a tag id instead; any other
failure is a state with its status, message and request id (`r` on the screen retries).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events, getters, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.scalar import Scalar
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from svctui.api.models import AssetGroupTag
from svctui.ops.selector_ids import IdError, parse_id
from svctui.table_fit import Column, fit_columns
from svctui.tui.breakpoints import NARROWER
from svctui.tui.widgets.ordered_input import OrderedInput
from svctui.tui.widgets.row_table import RowTable
from svctui.tui.widgets.state_panel import StatePanel
from svctui.visible import visible

# The pane's columns (svctui.table_fit: the description and the rule of every table of the dashboard), each as wide
# as the widest value it shows: the name column the longest tag name's, up to NAME_MOST (a longer name is cut with
# `…`: the selectors need room), at least NAME_WIDE_LEAST (NAME_LEAST on a narrow terminal: the screen's `-narrower`
# class, under NARROW_TERMINAL, where kind and position are left out). They are fitted to the room the selectors'
# table leaves: it keeps SELECTORS_ROOM (mark, id, a name cut to 16 cells, the flags cut to 8, a scrollbar), so the
# name column gives way only as far as that needs, down to NAME_LEAST (issue 28: at 80 columns `Break Glass…` was cut
# with room to spare); the pane is as wide as its columns. The marks column is as wide as the marks shown (`●12`),
# left out while none is: its 6 blank cells were the selector names' (their names cut with the room there).
NAME_MOST = 24
NAME_WIDE_LEAST = 14
NAME_LEAST = 12
TAG_COLUMNS = (
    Column("name", "name", least=NAME_LEAST, droppable=False, names=True),
    Column("kind", "kind"),
    Column("count", "sel", droppable=False),
    Column("pos", "pos"),
    Column("marked", "", droppable=False),
)
TAG_KEYS = tuple(column.key for column in TAG_COLUMNS)
VALUE_WIDTHS = {"kind": 5, "count": 4, "pos": 3}  # `owned`, `9999`, `99`: the widest shown
NARROW_LEFT_OUT = ("kind", "pos")  # on a narrow terminal the pane is name, selector count and marks
SELECTORS_ROOM = 40
SCROLLBAR = 2
BORDER = 1  # the pane's right border
WIDE_EXTRA = 2  # the wide pane's cells besides its columns: its border and one (as wide as before it was fitted)
NARROW_NO_LIST = 30  # the narrow pane's width with no list (loading, an error, the tag-id prompt): room to say why
WIDE_NO_LIST = 42  # the wide pane's then (as wide as a 14-cell name column, kind, count, position and marks)
NO_LIST_HINT = "This server has no tag list (HTTP 404). Type a tag id and press enter:"
OPEN_BY_ID_HINT = "Open a tag by its id (one the list may not show); enter opens it, esc goes back to the list:"


class TagChosen(Message):
    """The user (or the first load) chose `tag`."""

    def __init__(self, tag: AssetGroupTag) -> None:
        super().__init__()
        self.tag = tag


def tag_row(tag: AssetGroupTag, count: int | None, marked: int) -> tuple[Text, Text, Text, Text, Text]:
    """Cells of one tag: name, kind, selector count (… while unknown), tier position, marked count."""
    position = str(tag.position) if tag.type_label == "tier" and tag.position is not None else ""
    return (
        Text(visible(tag.name), end=""),
        Text(tag.type_label, end=""),
        Text("…" if count is None else str(count), justify="right", end=""),
        Text(position, justify="right", end=""),
        Text(f"●{marked}" if marked else "", style="bold", end=""),
    )


def fit_pane(
    narrow: bool, longest: int, terminal: int, no_scrollbar: int, listed: bool, marks: int = 0
) -> tuple[dict[str, int], int]:
    """The shown columns' widths (display order) and the pane's width, for a terminal `terminal` cells wide, on a
    narrow one (`narrow`) or not, the longest tag name `longest` cells, `no_scrollbar` cells of a scrollbar's room
    unneeded (every tag fits the height), a list shown (`listed`) or not and the widest marks cell `marks` (0: none
    marked, the column left out; see TAG_COLUMNS)."""
    name = max(NAME_LEAST if narrow else NAME_WIDE_LEAST, min(longest, NAME_MOST))
    left_out = (NARROW_LEFT_OUT if narrow else ()) + (() if marks else ("marked",))
    columns = [column for column in TAG_COLUMNS if column.key not in left_out]
    room = terminal - SELECTORS_ROOM - SCROLLBAR - BORDER + no_scrollbar
    widths = fit_columns(columns, {**VALUE_WIDTHS, "name": name, "marked": marks}, max(1, room)).widths
    width = sum(cells + 2 for cells in widths.values())  # each column's 2 cells of padding
    if not narrow:
        return widths, width + WIDE_EXTRA if listed else max(width + WIDE_EXTRA, WIDE_NO_LIST)
    width += SCROLLBAR + BORDER - no_scrollbar
    return widths, width if listed else max(width, NARROW_NO_LIST)


class TagsPane(Vertical):
    """The tag list (or the tag-id prompt), posting TagChosen when the highlighted tag changes."""

    DEFAULT_CSS = """
    TagsPane { width: 42; height: 1fr; border-right: outer $panel-lighten-2; }
    TagsPane #tags-title { height: 1; text-style: bold; color: $primary; padding: 0 1; }
    TagsPane #tags { height: 1fr; }
    TagsPane #tags-state { height: auto; }
    TagsPane.-failed #tags-state { height: 1fr; align: center top; overflow-x: hidden; overflow-y: auto; }
    TagsPane #tags-state #state-body { padding: 0 1; }
    TagsPane.-listed #tags-state { display: none; }
    TagsPane #tags-prompt, TagsPane #tag-id { display: none; }
    TagsPane.-prompt #tags-prompt, TagsPane.-prompt #tag-id { display: block; }
    TagsPane #tags-prompt { height: auto; padding: 0 1; }
    TagsPane.-prompt #tags, TagsPane.-failed #tags { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tags: tuple[AssetGroupTag, ...] = ()
        self.counts: dict[int, int] = {}
        self.marked: dict[int, int] = {}
        self.chosen: AssetGroupTag | None = None
        self.tag_columns: tuple[tuple[str, str, int], ...] = ()  # label, key, width of the shown columns but marks
        self.marks_width = 0  # the marks column's width (0: left out, nothing marked)
        self._rebuilt_row: int | None = None  # where a rebuild of the columns put the cursor back (see fit_terminal)

    def compose(self) -> ComposeResult:
        """Title, the table of tags, a state panel, and the tag-id prompt (shown when there is no list)."""
        yield Static("Tags", id="tags-title")
        table: RowTable[Text] = RowTable(id="tags")
        yield table
        yield StatePanel(id="tags-state")
        yield Static(NO_LIST_HINT, id="tags-prompt")
        yield OrderedInput(placeholder="tag id, e.g. 3", id="tag-id")  # a burst's backspace eats no later key

    def on_mount(self) -> None:
        """The columns for the terminal's width."""
        self.fit_terminal()

    def unneeded_scrollbar(self) -> int:
        """The cells of the scrollbar's room the narrow pane need not keep: every tag fits the terminal's height
        (the header, title, status line and footer aside), so no scrollbar shows."""
        return SCROLLBAR if self.tags and len(self.tags) + 1 <= self.app.size.height - 5 else 0

    def fit_terminal(self) -> None:
        """The columns fitted again (see TAG_COLUMNS): when the screen's `-narrower` class (a narrow terminal) comes
        or goes, or the tags' longest name or the terminal's size changes them, the columns are rebuilt, the rows and
        the chosen tag kept; the pane is as wide as its columns."""
        narrow = self.screen.has_class(NARROWER)
        longest = max((cell_len(visible(tag.name)) for tag in self.tags), default=0)
        marks = max((cell_len(f"●{count}") for count in self.marked.values() if count), default=0)
        terminal, has_tags = self.app.size.width, bool(self.tags)
        widths, width = fit_pane(narrow, longest, terminal, self.unneeded_scrollbar(), has_tags, marks)
        labels = {column.key: column.title for column in TAG_COLUMNS}
        columns = tuple((labels[key], key, cells) for key, cells in widths.items() if key != "marked")
        marks_width = widths.get("marked", 0)
        same_width = self.styles.width == Scalar.from_number(width)
        if (columns, marks_width) == (self.tag_columns, self.marks_width) and same_width:
            return
        self.set_class(narrow, "-narrow")
        self.styles.width = width
        table = self.table
        row = table.cursor_row
        table.clear(columns=True)
        self.tag_columns, self.marks_width = columns, marks_width
        for label, key, cells in (*columns, *((("", "marked", marks_width),) if marks_width else ())):
            table.add_column(label, key=key, width=cells)
        if self.tags:
            self._render_rows()
            # The cursor goes back to the open tag when the list has it (a tag opened by id with `t` is not where
            # the cursor was), else where it was; either way the rebuild's highlight opens no other tag.
            listed = [index for index, tag in enumerate(self.tags) if self.chosen and tag.id == self.chosen.id]
            self._rebuilt_row = listed[0] if listed else min(row, len(self.tags) - 1)
            table.move_cursor(row=self._rebuilt_row, animate=False)

    table = getters.query_one("#tags", RowTable)  # the tag table
    state = getters.query_one("#tags-state", StatePanel)  # the state panel (loading, error)

    def show_loading(self, server: str) -> None:
        """Loading the tag list."""
        self.set_class(False, "-listed", "-prompt", "-failed")
        self.state.show_loading("tags", server)

    def show_failure(self, error: BaseException) -> None:
        """A failure: a 404 opens the tag-id prompt, anything else is an error state (`r` retries)."""
        self.set_class(False, "-listed")
        if getattr(error, "status", None) == 404:
            self.set_class(True, "-prompt")
            self.state.show_message("No tag list on this server", "Selectors can still be browsed by tag id.")
            self.query_one("#tag-id", Input).focus()
            return
        self.set_class(True, "-failed")
        self.state.show_error(error, noun="tags")

    def show_tags(self, tags: Sequence[AssetGroupTag]) -> None:
        """Show the tags (tiers by position first, then labels, owned, by name) and choose the first."""
        self.set_class(False, "-prompt", "-failed")
        self.set_class(True, "-listed")
        self.state.hide()
        kinds = {"tier": 0, "label": 1, "owned": 2}
        once = {tag.id: tag for tag in reversed(tags)}.values()  # a tag listed twice is one row (its first), no crash
        self.tags = tuple(
            sorted(once, key=lambda tag: (kinds.get(tag.type_label, 3), tag.position or 0, tag.name.lower(), tag.id))
        )
        self.fit_terminal()  # the name column as wide as the longest name (on a wide terminal)
        self._render_rows()
        if self.tags:
            chosen = next((tag for tag in self.tags if self.chosen and tag.id == self.chosen.id), self.tags[0])
            self.table.move_cursor(row=self.tags.index(chosen), animate=False)
            self.choose(chosen)
        else:
            self.state.show_empty("There are no tags on this server", "Press t to open a tag by its id.")
            self.set_class(False, "-listed")

    def show_counts(self, counts: Mapping[int, int]) -> None:
        """Fill in the selector count of each tag."""
        self.counts.update(counts)
        self._render_rows()

    def show_marked(self, marked: Mapping[int, int]) -> None:
        """Show how many selectors are marked in each tag."""
        self.marked = dict(marked)
        self.fit_terminal()  # the marks column comes, goes or widens
        self._render_rows()

    def _render_rows(self) -> None:
        table = self.table
        wanted = {str(tag.id) for tag in self.tags}
        for gone in [row for row in table.rows if row.value not in wanted]:  # another profile's tags
            table.remove_row(gone)
        shown = {row.value for row in table.rows}
        keys = (*(key for _, key, _ in self.tag_columns), *(("marked",) if self.marks_width else ()))
        for tag in self.tags:
            key = str(tag.id)
            every = dict(zip(TAG_KEYS, tag_row(tag, self.counts.get(tag.id), self.marked.get(tag.id, 0)), strict=True))
            cells = [every[column] for column in keys]
            if key in shown:
                for column, cell in zip(keys, cells, strict=True):
                    table.update_cell(key, column, cell)
            else:
                table.add_row(*cells, key=key)

    def choose(self, tag: AssetGroupTag) -> None:
        """Make `tag` the chosen one (TagChosen when it changes)."""
        if self.chosen is None or self.chosen.id != tag.id or self.chosen != tag:
            self.chosen = tag
            self.post_message(TagChosen(tag))

    def highlighted_tag(self) -> AssetGroupTag | None:
        """The list's tag under the cursor, or None when there is no list."""
        if not self.tags or not self.table.row_count:
            return None
        key = self.table.coordinate_to_cell_key(self.table.cursor_coordinate).row_key.value
        return next((tag for tag in self.tags if str(tag.id) == key), None)

    @on(DataTable.RowHighlighted, "#tags")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if event.cursor_row != self.table.cursor_row:
            return  # a highlight the cursor has moved on from (a rebuild of the columns starts at the first row)
        if self._rebuilt_row is not None and event.cursor_row == self._rebuilt_row:
            self._rebuilt_row = None
            return  # the cursor put back by a rebuild of the columns (a resize), not a choice
        key = event.row_key.value
        tag = next((tag for tag in self.tags if str(tag.id) == key), None)
        if tag is not None:
            self.choose(tag)

    def action_ask_tag_id(self) -> None:
        """Show the tag-id prompt (also when the list loaded: a tag may be hidden from it)."""
        self.query_one("#tags-prompt", Static).update(OPEN_BY_ID_HINT if self.tags else NO_LIST_HINT)
        self.set_class(True, "-prompt")
        self.query_one("#tag-id", Input).focus()

    def key_escape(self, event: events.Key) -> None:
        """Esc in the prompt goes back to the list (when there is one)."""
        if self.has_class("-prompt") and self.tags:
            event.stop()
            self.set_class(False, "-prompt")
            self.table.focus()

    @on(Input.Submitted, "#tag-id")
    def _tag_id_typed(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            tag_id = parse_id(
                event.value[:100], what="tag id", allowed="a positive integer, e.g. 3"
            )  # ASCII spaces only
        except IdError as exc:
            self.notify(str(exc)[:160], severity="error", markup=False)
            return
        known = next((tag for tag in self.tags if tag.id == tag_id), None)
        if self.tags:
            self.set_class(False, "-prompt")
            self.table.focus()
        self.choose(known or AssetGroupTag(id=tag_id, name=f"#{tag_id}"))
