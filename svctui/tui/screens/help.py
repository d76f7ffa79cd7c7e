"""`?`: every key of the current screen (after the user's keymap), grouped by where it acts."""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.css.styles import RulesMap
from textual.screen import ModalScreen, Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widget import Widget
from textual.widgets import DataTable, Static

from svctui.tui.app_shape import HasSettings
from svctui.tui.breakpoints import narrow_below, set_breakpoint_class
from svctui.tui.navigation import HasHelp
from svctui.tui.widgets.detail_pane import DetailPane
from svctui.tui.widgets.log_view import LogView

# Keys DataTable binds without our ids; shown with what they do here.
RENAMED_ACTIONS = {"select_cursor": ("Detail pane", "Show or hide the detail pane (same as p)")}
# The dashboard's tables fit their columns and its panes wrap: nothing scrolls sideways, so ^pgup/^pgdn do nothing.
HIDDEN_ACTIONS = {"command_palette", "page_left", "page_right"}
# What Textual's own keys (they have a title and no tooltip) do here: help says it for every key it lists (issue 28:
# `←` and `tab` were listed with nothing beside them).
TEXTUAL_TOOLTIPS = {
    "app.focus_next": "Move the focus to the next part of the screen",
    "app.focus_previous": "Move the focus to the previous part of the screen",
    "cursor_up": "Move the cursor up",
    "cursor_down": "Move the cursor down",
    "cursor_left": "Move the cursor a column left",
    "cursor_right": "Move the cursor a column right",
    "page_up": "Move the cursor a page up",
    "page_down": "Move the cursor a page down",
    "scroll_home": "To the first column (or the start)",
    "scroll_end": "To the last column (or the end)",
    "scroll_top": "Move the cursor to the first row",
    "scroll_bottom": "Move the cursor to the last row",
    "scroll_up": "Scroll up a line",
    "scroll_down": "Scroll down a line",
    "scroll_left": "Scroll left",
    "scroll_right": "Scroll right",
}
# Textual's screens bind ctrl+c and super+c to copying the mouse selection; with no selection ctrl+c falls through to
# the app's quit. So ctrl+c is listed with Quit (what it does unless text is selected), super+c alone with the copy.
COPY_ACTION = "screen.copy_text"
COPY_TOOLTIP = "Copy the text selected with the mouse"
QUIT_TOOLTIP = "Quit svctui (^c copies instead while text is selected with the mouse)"
GROUP_ORDER = ("screen", "audit", "table", "log", "detail", "part", "parts", "elsewhere", "app")
PARTS = "parts"  # keys of a part of the screen that does not have the focus (tab moves there)
ELSEWHERE = "elsewhere"  # the Audit tab's hidden keys that say they work on the Selectors tab
HELP_WIDTH = 104  # the text width inside the dialog (110 wide, with border, padding and a scrollbar's gutter)
IDS_FROM_COLUMNS = -(-(HELP_WIDTH + 6) * 100 // 95)  # the terminal width whose dialog (95 %) has HELP_WIDTH: 116
TITLE_WITH_IDS = "Keys  (esc closes; remap with keymap in settings.toml, by binding id)"
TITLE_WITHOUT_IDS = f"Keys  (esc closes; the binding ids to remap keys show from {IDS_FROM_COLUMNS} columns)"


@dataclass(frozen=True)
class KeyRow:
    """One key of the help table."""

    keys: str
    description: str
    tooltip: str
    group: str
    binding_id: str = ""


def _group(node: Any, screen: Screen[Any], binding: Binding) -> str:
    if binding.action.startswith(ELSEWHERE):
        return "elsewhere"
    if node is screen:
        return "screen"
    if isinstance(node, App):
        return "app"
    # a part of the screen with keys of its own (the Audit tab), else what the user sees: never a class's name
    return str(getattr(node, "HELP_GROUP", "") or _kind(node)[0])


def _kind(widget: object) -> tuple[str, str]:
    """The help group and the words a user knows for a part of the screen (`log`, `the log`): help never shows a
    class's name (issue 28: `RowTable: Move the cursor down`, the log's keys under "Table")."""
    if isinstance(widget, LogView):
        return "log", "the log"
    if isinstance(widget, DataTable):
        return "table", "the table"
    if isinstance(widget, DetailPane):
        return "detail", "the detail pane"
    return "part", "this part of the screen"


def collect_keys(app: App[Any], screen: Screen[Any]) -> list[KeyRow]:
    """The active bindings of `screen` (focused widget, screen, app) as help rows, one per action."""
    rows: dict[tuple[str, str], KeyRow] = {}
    keys_by_action: dict[tuple[str, str], list[str]] = {}
    ctrl_c_quits = False
    screen_renames = screen.help_renames() if isinstance(screen, HasHelp) else {}  # what its keys do there now
    for active in screen.active_bindings.values():
        binding = active.binding
        if binding.action in HIDDEN_ACTIONS:
            continue
        if binding.action == COPY_ACTION and binding.key == "ctrl+c":
            keys_by_action.setdefault(("app", "quit"), []).append(app.get_key_display(binding))
            ctrl_c_quits = True
            continue
        group = _group(active.node, screen, binding)
        renamed = {**RENAMED_ACTIONS, **screen_renames}
        said = renamed.get(binding.action, (binding.description, binding.tooltip))
        if said is None:  # the screen says the key does nothing there: not listed
            continue
        description, tooltip = said
        if not binding.id:  # Textual's own keys say some in title case (`Focus Next`): help says all as svctui does
            description = description.capitalize()
        if binding.action == COPY_ACTION:
            tooltip = COPY_TOOLTIP
        identity = (group, binding.action)
        keys_by_action.setdefault(identity, []).append(app.get_key_display(binding))
        tooltip = tooltip or active.tooltip or TEXTUAL_TOOLTIPS.get(binding.action, "")
        rows[identity] = KeyRow("", description or binding.action, tooltip, group, binding.id or "")
    _add_unfocused_parts(app, screen, rows, keys_by_action)
    if ctrl_c_quits and ("app", "quit") in rows:
        rows[("app", "quit")] = dataclasses.replace(rows[("app", "quit")], tooltip=QUIT_TOOLTIP)
    rows[("app", "command_palette")] = KeyRow("", "Command palette", "Profile, refresh, export, theme…", "app")
    keys_by_action[("app", "command_palette")] = [app.get_key_display(Binding(app.COMMAND_PALETTE_BINDING, ""))]
    result = [
        KeyRow(
            " ".join(dict.fromkeys(keys_by_action[identity])), row.description, row.tooltip, row.group, row.binding_id
        )
        for identity, row in rows.items()
    ]
    return sorted(result, key=lambda row: (GROUP_ORDER.index(row.group), not row.binding_id))


def _part_bindings(app: App[Any], widget: Widget) -> list[Binding]:
    """The keys a widget binds, as it would have them with the focus: its classes' BINDINGS, the user's keymap
    applied (from the public class attributes, not the widget's private binding map)."""
    bindings = [
        binding
        for cls in reversed(type(widget).__mro__)
        for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", []))
    ]
    merged = BindingsMap(bindings)
    settings = app.settings if isinstance(app, HasSettings) else None
    keymap = settings.keymap if settings is not None else None
    if keymap:
        merged.apply_keymap(keymap)
    return [binding for listed in merged.key_to_bindings.values() for binding in listed]


def _add_unfocused_parts(
    app: App[Any],
    screen: Screen[Any],
    rows: dict[tuple[str, str], KeyRow],
    keys_by_action: dict[tuple[str, str], list[str]],
) -> None:
    """Keys of the screen's parts that do not have the focus (the table while the detail pane has it), after the
    focused part's: help lists the screen's keys whatever has the focus (issue 28, item 9)."""
    focused_path = set(screen.focused.ancestors_with_self) if screen.focused is not None else set()
    listed = {action for _group_name, action in rows}
    for widget in screen.query("*"):
        if widget in focused_path or not widget.focusable or isinstance(widget, Screen):
            continue
        for binding in _part_bindings(app, widget):
            if not binding.id or binding.action in listed or binding.action in HIDDEN_ACTIONS:  # svctui's own keys
                continue
            description, tooltip = RENAMED_ACTIONS.get(binding.action, (binding.description, binding.tooltip))
            identity = (PARTS, binding.action)
            keys_by_action.setdefault(identity, []).append(app.get_key_display(binding))
            part = str(getattr(widget, "HELP_NAME", "") or _kind(widget)[1])
            part = part[:1].upper() + part[1:]
            rows[identity] = KeyRow("", description or binding.action, f"{part}: {tooltip}", PARTS, binding.id or "")


def help_content(rows: Sequence[KeyRow], noun: str, width: int = HELP_WIDTH, *, ids: bool = True) -> Content:
    """The rows as aligned columns (key, what, tooltip wrapped in its column to `width`, binding id), a heading per
    group; without `ids` (a narrow terminal) the binding ids are left out so the other columns keep their shape."""
    if not ids:
        rows = [KeyRow(row.keys, row.description, row.tooltip, row.group) for row in rows]
    key_width = min(max((len(row.keys) for row in rows), default=0) + 2, 14)
    what_width = min(max((len(row.description) for row in rows), default=0) + 2, 22)
    id_width = max((len(row.binding_id) for row in rows), default=0)
    tip_width = max(width - key_width - what_width - id_width - 2, 20)
    titles = {
        "table": "Table",
        "log": "Log",
        "detail": "Detail pane",
        "part": "This part of the screen",
        PARTS: "Elsewhere on this screen (tab moves the focus there)",
        "screen": f"{noun.capitalize() or 'This screen'}",
        "audit": "Audit tab",
        "elsewhere": "Selectors tab only (a goes back; here they say so)",
        "app": "Everywhere",
    }
    parts: list[Content] = []
    group = ""
    for row in rows:
        if row.group != group:
            group = row.group
            heading = titles[group].ljust(key_width + what_width + tip_width + 2) + ("binding id" if id_width else "")
            parts.append(Content.from_markup("\n[b $primary]$title[/]\n", title=heading))
        tips = textwrap.wrap(row.tooltip, tip_width) or [""]
        parts.append(
            Content.from_markup(
                "[b $accent]$keys[/]$description[$text-muted]$tooltip[/]  [dim]$binding_id[/]\n",
                keys=row.keys.ljust(key_width),
                description=row.description.ljust(what_width),
                tooltip=tips[0].ljust(tip_width),
                binding_id=row.binding_id,
            )
        )
        for more in tips[1:]:
            indent = " " * (key_width + what_width)
            parts.append(Content.from_markup("$indent[$text-muted]$tooltip[/]\n", indent=indent, tooltip=more))
    return Content("").join(parts)


class KeyList(Visual):
    """The key table laid out at the width Textual gives it (the dialog's, by CSS): its tooltips wrap in their
    column whatever that width is, so no reading of the terminal's width decides it."""

    def __init__(self, rows: Sequence[KeyRow], noun: str, *, ids: bool) -> None:
        self.rows, self.noun, self.ids = tuple(rows), noun, ids
        self._laid_out: tuple[int, Content] | None = None  # the last width and its text (a resize lays it out again)

    def content(self, width: int) -> Content:
        """The table's text for `width` cells."""
        if self._laid_out is None or self._laid_out[0] != width:
            self._laid_out = (width, help_content(self.rows, self.noun, width, ids=self.ids))
        return self._laid_out[1]

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        """The table's lines at `width`."""
        return self.content(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        """As wide as the dialog's text is at most."""
        return HELP_WIDTH

    def get_height(self, rules: RulesMap, width: int) -> int:
        """Its lines at `width` (tooltips wrapped)."""
        return self.content(width).get_height(rules, width)


class HelpScreen(ModalScreen[None]):
    """The keys of the screen that was active when `?` was pressed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", id="help.close", tooltip="Close help"),
        Binding("j", "scroll('down')", "Down", show=False, id="help.down", tooltip="Scroll down a line"),
        Binding("k", "scroll('up')", "Up", show=False, id="help.up", tooltip="Scroll up a line"),
        Binding("g", "scroll('home')", "Top", show=False, id="help.top", tooltip="Scroll to the top"),
        Binding("G", "scroll('end')", "Bottom", show=False, id="help.bottom", tooltip="Scroll to the bottom"),
    ]
    # The binding ids show from IDS_FROM_COLUMNS columns, where the dialog (95 % of the terminal, at most 110) gives
    # the key table HELP_WIDTH cells: a breakpoint class and CSS choose the table and title with or without them.
    HORIZONTAL_BREAKPOINTS = narrow_below(IDS_FROM_COLUMNS)
    DEFAULT_CSS = """
    HelpScreen #help-dialog { width: 110; padding: 0 1; }
    HelpScreen #help-scroll { height: auto; max-height: 100%; scrollbar-gutter: stable; }
    HelpScreen.-narrow .-with-ids, HelpScreen.-wide .-without-ids { display: none; }
    """

    def __init__(self, rows: Sequence[KeyRow], noun: str = "", legend: Sequence[str] = ()) -> None:
        super().__init__()
        self.rows = tuple(rows)
        self.noun = noun
        self.legend = tuple(legend)  # what the screen's marks mean, in full (the Clients screen's verdicts, glyphs)
        set_breakpoint_class(self)  # laid out at its width's form from the first frame

    def compose(self) -> ComposeResult:
        """Title, the key table and the screen's legend (if it has one)."""
        with Vertical(id="help-dialog", classes="dialog"):
            yield Static(TITLE_WITH_IDS, classes="dialog-title -with-ids")
            yield Static(TITLE_WITHOUT_IDS, classes="dialog-title -without-ids")
            with VerticalScroll(id="help-scroll"):
                yield Static(KeyList(self.rows, self.noun, ids=True), id="help-body", classes="-with-ids")
                yield Static(KeyList(self.rows, self.noun, ids=False), classes="-without-ids")
                if self.legend:
                    yield Static(Content.from_markup("\n[b $primary]What the marks mean[/]"), id="help-legend-title")
                    yield Static("\n".join(self.legend), id="help-legend", markup=False)

    def on_mount(self) -> None:
        """Focus the list so the arrow and page keys scroll it."""
        self.query_one("#help-scroll").focus()

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)

    def action_scroll(self, where: str) -> None:
        """`j k g G`: a line down or up, the top or the bottom of the key list."""
        scroll = self.query_one("#help-scroll", VerticalScroll)
        moves = {"down": scroll.scroll_down, "up": scroll.scroll_up, "home": scroll.scroll_home}
        moves.get(where, scroll.scroll_end)(animate=False, immediate=True)  # a burst of j: each from the last
