"""The filter editor: a modal, generic over an EndpointSpec, that returns a validated tuple of Filters.

    def applied(result: tuple[Filter, ...] | None) -> None: ...      # None = cancelled
    app.push_screen(FilterEditor(EVENTS, current_filters, clock=app.clock), applied)

One row per filter column: a predicate choice limited to the column's kind, and a value field checked as you type
(booleans and coded columns are a choice; integers, uuids and times show an inline error; times accept RFC 3339
and relative forms like -7d and are sent in UTC Z). A quick-filter line takes `col=op:value ...` with the same
checks. While anything is invalid, Apply refuses and nothing is sent. Given the known clients (`client_names`,
id -> name: the Events screen), `client_id` takes a client's name as `events list -f client_id=NAME` does
(svctui.client_match), sent as its uuid; a name no client or several have is an inline error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from svctui.api.filters import (
    NULL,
    VALUE_PATTERNS,
    Column,
    EndpointSpec,
    Filter,
    FilterError,
    Kind,
    case_note,
    parse_each,
    split_quick_filter,
)
from svctui.client_match import NoSuchClient, find_client
from svctui.clock import Clock
from svctui.text import cut_end
from svctui.tui.breakpoints import NARROW_TERMINAL, narrow_below, set_breakpoint_class
from svctui.tui.widgets.dialog import show_line
from svctui.tui.widgets.ordered_input import OrderedInput
from svctui.visible import visible

PREDICATE_LABELS = {"eq": "= eq", "neq": "≠ neq", "gt": "> gt", "gte": "≥ gte", "lt": "< lt", "lte": "≤ lte"}
PREDICATE_LABELS["~eq"] = "∋ ~eq contains"
MAX_ROWS = 24
FIXED_ROWS = 10  # border, title, hint, quick line, margins, buttons, the summary and one line of the quick's messages
KIND_HINTS = {
    Kind.INTEGER: "integer",
    Kind.STRING: "text",
    Kind.BOOLEAN: "true / false",
    Kind.UUID: "uuid",
    Kind.TIMESTAMP: "time: RFC 3339, -7d",
}
# A hint's shorter form where the row has no room for the whole one (and none at all when even that is cut: a hint
# cut inside, `time: RFC 333…`, read as another format).
SHORT_HINTS = {KIND_HINTS[Kind.TIMESTAMP]: "RFC 3339, -7d"}


CLIENT_COLUMN = "client_id"
CLIENT_ALLOWED = "a client's uuid, or the name of one known client (eq or neq)"
ClientNames = Mapping[str, str]  # client id -> name


def client_value(column: str, op: str, value: str, names: ClientNames | None) -> str:
    """`value` as sent: in `client_id` (eq, neq) a client's name is its uuid, as `-f client_id=NAME` takes it; a
    FilterError naming the column, the predicate and what is allowed when no client or several have that name."""
    if names is None or column != CLIENT_COLUMN or op not in ("eq", "neq") or not value.strip():
        return value
    if VALUE_PATTERNS[Kind.UUID].fullmatch(value.strip()) or value.strip().lower() == NULL:
        return value
    try:
        return find_client(value, names)
    except NoSuchClient as exc:
        raise FilterError(
            f"{column} {op}: {exc}; allowed: {CLIENT_ALLOWED}", column=column, op=op, allowed=CLIENT_ALLOWED
        ) from None


def quick_client_ids(texts: Iterable[str], names: ClientNames | None) -> tuple[list[str], list[str]]:
    """The quick line's filters with a client's name in `client_id=[eq:|neq:]NAME` put as its uuid, and the
    problems of the names that match no client or several."""
    kept: list[str] = []
    problems: list[str] = []
    for text in texts:
        column, sep, rest = text.strip().partition("=")
        op, colon, value = rest.partition(":")
        op, value = (op.strip(), value) if colon and op.strip() in ("eq", "neq") else ("eq", rest)
        prefix = rest.partition(":")[0].strip()  # gt:, ~eq: … are the grammar's to refuse for a uuid
        other_predicate = colon and prefix not in ("eq", "neq") and re.fullmatch(r"~?[a-z]+", prefix)
        if not sep or column.strip() != CLIENT_COLUMN or other_predicate:
            kept.append(text)
            continue
        try:
            kept.append(f"{CLIENT_COLUMN}={op}:{client_value(CLIENT_COLUMN, op, value, names)}")
        except FilterError as exc:
            problems.append(str(exc))
    return kept, problems


SAMPLE_TEXT = {"rrule": "DAILY"}  # a ~eq value that reads like the column's content; "old" for the rest


def _example_part(column: Column) -> str:
    if column.choices:
        words = [label for label in column.choices if " " not in label]  # a quick filter splits on spaces
        value = "failed" if "failed" in words else (words[0] if words else str(next(iter(column.choices.values()))))
        return f"{column.name}=eq:{value}"
    if column.kind is Kind.TIMESTAMP:
        return f"{column.name}=gt:-7d"
    if column.kind is Kind.INTEGER:
        return f"{column.name}=gt:10"
    if column.kind is Kind.BOOLEAN:
        return f"{column.name}=eq:false"
    return f"{column.name}=~eq:{SAMPLE_TEXT.get(column.name, 'old')}"


def quick_example(spec: EndpointSpec) -> str:
    """Two quick filters valid on `spec`: a range (`id=gt:10`, else a time `created_at=gt:-7d`) and a coded value
    or a text match (`status=eq:failed`, `name=~eq:old`); uuid columns are left out (no short valid value)."""
    columns = [column for column in spec.columns.values() if column.kind is not Kind.UUID]
    ranged = [column for column in columns if "gt" in column.predicates and not column.choices]
    first = next(
        (column for column in ranged if column.name == "id"),
        next((column for column in ranged if column.kind is Kind.TIMESTAMP), ranged[0] if ranged else None),
    )
    second = next((column for column in columns if column.choices), None) or next(
        (column for column in columns if "~eq" in column.predicates), None
    )
    picked = [column for column in (first, second) if column is not None] or columns[:1]
    return " ".join(_example_part(column) for column in picked)


def _hint(column: Column, predicate: str, named: bool = False) -> str:
    if column.choices:
        return column.allowed_text
    if named and column.name == CLIENT_COLUMN:
        return "name or uuid"  # a client's name is put as its uuid (`quick_client_ids`)
    return "case-sensitive" if predicate == "~eq" else KIND_HINTS[column.kind]


class KindHint(Static):
    """A row's kind hint: whole where it fits, else its short form (SHORT_HINTS), else nothing; a hint with no short
    form is cut with `…`."""

    def __init__(self, hint: str) -> None:
        super().__init__(hint, classes="filter-hint", markup=False)
        self.hint = hint

    def show_hint(self, hint: str) -> None:
        """Show `hint` (in the form the width has room for)."""
        self.hint = hint
        self._fit()

    def on_resize(self) -> None:
        """Another width, maybe another form."""
        self._fit()

    def _fit(self) -> None:
        room = self.content_region.width
        short = SHORT_HINTS.get(self.hint)
        if room <= 0 or short is None or cell_len(self.hint) <= room:
            self.update(self.hint)
        else:
            self.update(short if cell_len(short) <= room else "")


def _default_predicate(column: Column) -> str:
    return "~eq" if column.kind is Kind.STRING and not column.choices and "~eq" in column.predicates else "eq"


class FilterRow(Vertical):
    """One filter column: name, predicate, value, kind hint, and an inline error line."""

    def __init__(
        self, spec: EndpointSpec, column: Column, active: Filter | None, client_names: ClientNames | None = None
    ) -> None:
        super().__init__(classes="filter-row", id=f"row-{column.name}")
        self.spec = spec
        self.column = column
        self.initial = active
        self.client_names = client_names

    def compose(self) -> ComposeResult:
        """Label, predicate choice, value field (choice for booleans and coded columns) and hint."""
        column, active = self.column, self.initial
        with Horizontal(classes="filter-line"):
            yield Label(column.name, classes="filter-name")
            predicate = active.op if active is not None else _default_predicate(column)
            options = [(PREDICATE_LABELS.get(op, op), op) for op in column.predicates]
            yield Select(options, value=predicate, allow_blank=False, compact=True, classes="filter-op")
            if column.kind is Kind.BOOLEAN or column.choices:
                choices = [("true", "true"), ("false", "false")] if column.kind is Kind.BOOLEAN else []
                choices += [(label, label) for label in column.choices]
                current = self._initial_choice()
                yield Select(choices, value=current, prompt="any", compact=True, classes="filter-value")
            else:
                value = active.value if active is not None else ""
                yield OrderedInput(value, placeholder="any", compact=True, classes="filter-value")
            yield KindHint(_hint(column, predicate, named=self.client_names is not None))
        yield Static("", classes="filter-error", markup=False)

    def _initial_choice(self) -> str | object:
        if self.initial is None:
            return Select.NULL
        if self.column.choices:
            by_code = {str(code): label for label, code in self.column.choices.items()}
            return by_code.get(self.initial.value, Select.NULL)
        return self.initial.value if self.initial.value in ("true", "false") else Select.NULL

    @property
    def raw_value(self) -> str:
        """What the user entered ("" for none)."""
        widget = self.query_one(".filter-value")
        if isinstance(widget, Input):
            return widget.value
        value = widget.value if isinstance(widget, Select) else Select.NULL
        return "" if value is Select.NULL else str(value)

    @property
    def predicate(self) -> str:
        """The chosen predicate."""
        value = self.query_one(".filter-op", Select).value
        return str(value) if value is not Select.NULL else "eq"

    def build(self, now: datetime, raw: str | None = None) -> Filter | None:
        """The row's Filter (of `raw`, else of what the field holds), None when empty; FilterError when invalid."""
        raw = self.raw_value if raw is None else raw
        if not raw.strip():
            return None
        raw = client_value(self.column.name, self.predicate, raw, self.client_names)
        return Filter.build(self.spec, self.column.name, self.predicate, raw, now)

    def check(self, now: datetime, raw: str | None = None) -> Filter | None:
        """Validate (`raw`, else what the field holds) and show the inline error (or the normalised value); returns
        the Filter or None."""
        error = self.query_one(".filter-error", Static)
        try:
            built = self.build(now, raw)
        except FilterError as exc:
            show_line(error, f"✗ {exc}")
            self.set_class(True, "-invalid")
            raise
        self.set_class(False, "-invalid")
        self.query_one(KindHint).show_hint(_hint(self.column, self.predicate, named=self.client_names is not None))
        typed = (self.raw_value if raw is None else raw).strip()
        if built is not None and self.column.kind is Kind.TIMESTAMP and built.value != typed:
            show_line(error, f"→ sent as {built.value}")
        elif built is not None and built.op == "~eq":
            show_line(error, f"→ {case_note(built.value)}")
        elif built is not None and self.column.name == CLIENT_COLUMN and built.value != typed.lower():
            show_line(error, f"→ sent as {built.value}")
        else:
            show_line(error, "")
        return built

    def clear(self) -> None:
        """Empty the value."""
        widget = self.query_one(".filter-value")
        if isinstance(widget, Input):
            widget.value = ""
        elif isinstance(widget, Select):
            widget.clear()


def quick_placeholder(in_rows: Iterable[Filter], room: int = 0) -> str:
    """What the empty quick line says: where the active filters are (reopened with filters typed there, the line
    showed nothing: they are in their columns' rows below), else the line's shape. In `room` cells (0: whole): the
    filters that fit whole, then how many more (`+1 more`), never one left out unsaid."""
    shown = [str(active) for active in in_rows]
    if not shown:
        return "column=op:value …"
    head = f"{len(shown)} filter{'s' if len(shown) > 1 else ''} in the rows below:"
    line = " ".join([head, *shown])
    if room <= 0 or cell_len(line) <= room:
        return line
    kept: list[str] = []
    for token in shown[:-1]:
        more = f"+{len(shown) - len(kept) - 1} more"  # those after this one
        if cell_len(" ".join([head, *kept, token, more])) > room:
            break
        kept.append(token)
    if not kept:  # not even the first whole: cut it, its `…` says more follows
        return cut_end(line, room)
    return " ".join([head, *kept, f"+{len(shown) - len(kept)} more"])


class QuickMessages(VerticalScroll):
    """Under the quick filter line: every problem of it (one paragraph each, wrapped) or its notes. Past its max
    height it scrolls, and only then takes focus (tab) so the keys can scroll it; it says when its height changes."""

    DEFAULT_CSS = """
    QuickMessages { height: auto; max-height: 6; }
    QuickMessages > #quick-error { height: auto; }
    """

    class Resized(Message):
        """The messages' height changed: the editor gives the rows what is left."""

    class Scrolled(Message):
        """The messages scrolled: what is in view changed."""

    def allow_focus(self) -> bool:
        """Focusable only when something is scrolled out of view."""
        return self.max_scroll_y > 0

    def on_resize(self) -> None:
        """Tell the editor (the rows' room depends on this height)."""
        self.post_message(self.Resized())

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scroll as a container does, and tell the editor (its count of the problems in view follows)."""
        super().watch_scroll_y(old_value, new_value)
        self.post_message(self.Scrolled())

    def shown_count(self, problems: Sequence[str]) -> int:
        """How many of `problems` (shown one paragraph each, `✗ ` first) are wholly inside the visible lines."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return 0
        top, bottom = round(self.scroll_y), round(self.scroll_y) + self.scrollable_content_region.height
        shown, line = 0, 0
        for problem in problems:
            lines = len(Content(visible(f"✗ {problem}", lines=True)).wrap(width)) or 1
            shown += top <= line and line + lines <= bottom
            line += lines
        return shown


def not_applied_text(problems: int, in_view: int) -> str:
    """The summary of an Apply refused: how many problems, and how many of them are in view when not all are."""
    if in_view >= problems:
        count = f"{problems} problem" + ("s" if problems > 1 else "")
        return f"Not applied ({count}): fix the fields marked ✗ - nothing was sent."
    return f"Not applied: {in_view} of {problems} problems in view (tab, then ↓ scrolls); nothing was sent."


class FilterEditor(ModalScreen[tuple[Filter, ...] | None]):
    """Edit the filters of one endpoint; dismisses with the validated filters, or None when cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="filter.cancel", tooltip="Close without changing the filters"),
        Binding("ctrl+s", "apply", "Apply", id="filter.apply", tooltip="Apply the filters (one request)"),
        Binding("ctrl+l", "clear", "Clear all", id="filter.clear", tooltip="Empty every field"),
    ]
    DEFAULT_CSS = """
    FilterEditor #filter-dialog { width: 100; padding: 0 1; }
    FilterEditor #rows { height: auto; max-height: 24; margin-top: 1; }
    FilterEditor .filter-row { height: auto; }
    FilterEditor .filter-line { height: 1; }
    FilterEditor .filter-name { width: 25; color: $text; }
    FilterEditor .filter-op { width: 18; margin-right: 1; }
    FilterEditor .filter-value { width: 30; }
    FilterEditor .filter-hint {  /* one line: a hint with no room for all of it ends with `…` (or see KindHint) */
        width: 1fr; color: $text-muted; padding-left: 1; text-wrap: nowrap; text-overflow: ellipsis;
    }
    FilterEditor .filter-error { height: auto; padding-left: 25; color: $text-muted; display: none; }
    FilterEditor .-invalid .filter-error, FilterEditor #quick-error.-invalid { color: $error; }
    FilterEditor .-invalid .filter-name { color: $error; text-style: bold; }
    FilterEditor #quick-error { color: $text-muted; display: none; }
    FilterEditor #summary { text-wrap: nowrap; text-overflow: ellipsis; }  /* one line: the buttons stay in view */
    FilterEditor #buttons { height: auto; align-horizontal: right; margin-top: 1; }
    FilterEditor #buttons Button { margin-left: 1; }
    FilterEditor.-narrow .filter-name { width: 25; }
    FilterEditor.-narrow .filter-op { width: 17; }
    FilterEditor.-narrow .filter-value { width: 12; }
    FilterEditor.-narrow .filter-error { padding-left: 25; }
    """

    HORIZONTAL_BREAKPOINTS = narrow_below(NARROW_TERMINAL)  # narrower fields

    def __init__(
        self,
        spec: EndpointSpec,
        current: Sequence[Filter] = (),
        *,
        clock: Clock,
        client_names: ClientNames | None = None,
    ) -> None:
        super().__init__()
        set_breakpoint_class(self)
        self.spec = spec
        self.clock = clock
        self.client_names = client_names  # client id -> name where client_id takes a name (None: a uuid only)
        self.current = tuple(current)
        self.closed = False  # dismissed: keys still queued behind the closing one (a second enter) do nothing
        self.refused: tuple[list[str], int] | None = None  # the quick line's problems and the rows' count, refused
        self.revalidation_due = False  # a validation is queued for when the keys typed so far are handled
        self.in_rows: list[Filter] = []  # the active filters shown in their columns' rows (the quick line names them)

    def _split_current(self) -> tuple[dict[str, Filter], list[Filter]]:
        per_row: dict[str, Filter] = {}
        extra: list[Filter] = []
        for active in self.current:
            if active.column in self.spec.columns and active.column not in per_row and self._row_shows(active):
                per_row[active.column] = active
            else:
                extra.append(active)
        return per_row, extra

    def _row_shows(self, active: Filter) -> bool:
        """Whether the column's row can show `active`: its predicate is offered and, for a choice, its value is one
        of the choices (else the row read `eq any` while the filter was on; the quick line shows it as it is)."""
        column = self.spec.columns[active.column]
        if active.op not in column.predicates:
            return False
        if column.kind is Kind.BOOLEAN:
            return active.value in ("true", "false")
        return not column.choices or active.value in {str(code) for code in column.choices.values()}

    def compose(self) -> ComposeResult:
        """Title, quick-filter line, one row per column, buttons."""
        per_row, extra = self._split_current()
        with Vertical(id="filter-dialog", classes="dialog"):
            yield Static(Content(f"Filter {self.spec.name}"), classes="dialog-title")
            yield Static(
                f"Quick filter  column=op:value …  (e.g. {quick_example(self.spec)})",
                id="quick-hint",
                classes="dialog-hint",
                markup=False,
            )
            quick = " ".join(str(active) for active in extra)
            self.in_rows = list(per_row.values())
            yield OrderedInput(quick, placeholder=quick_placeholder(self.in_rows), compact=True, id="quick")
            with QuickMessages(id="quick-messages"):
                yield Static("", id="quick-error")
            with VerticalScroll(id="rows"):
                for column in self.spec.columns.values():
                    yield FilterRow(self.spec, column, per_row.get(column.name), self.client_names)
            yield Static("", id="summary", classes="dialog-error")
            with Horizontal(id="buttons"):
                yield Button("Clear", id="clear", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Apply", id="apply", variant="primary", compact=True)

    def on_mount(self) -> None:
        """Focus the quick-filter line."""
        self.query_one("#quick", Input).focus()

    def on_resize(self, event: events.Resize) -> None:
        """Narrower fields under 100 columns (its breakpoint); on a short terminal the rows scroll so the buttons stay
        in view."""
        set_breakpoint_class(self, event.size.width)
        self._fit_rows()
        self.call_after_refresh(self._fit_placeholder)

    def _fit_placeholder(self) -> None:
        """The empty quick line's words fitted to its width (a filter that does not fit is counted, not dropped)."""
        quick = self.query_one("#quick", Input)
        quick.placeholder = quick_placeholder(self.in_rows, max(quick.content_region.width - 1, 0))  # the cursor's cell

    @on(QuickMessages.Resized)
    def _fit_rows(self) -> None:
        """The rows get the dialog's max-height less everything else (the quick line's messages, as tall as they
        are now, up to half of that room: past it they scroll)."""
        room = int(self.size.height * 0.9) - FIXED_ROWS
        messages = self.query_one(QuickMessages)
        messages.styles.max_height = max(1, (room + 1) // 2)
        extra = max(0, messages.outer_size.height - 1)
        self.query_one("#rows").styles.max_height = max(3, min(MAX_ROWS, room - extra))
        self.call_after_refresh(self._count_in_view)

    def _quick_filters(self, now: datetime, line: str | None = None) -> tuple[list[Filter], list[str]]:
        """The quick line's filters (of `line`, else of what it holds) and its problems (every one, each shown on
        its own line under it)."""
        line = self.query_one("#quick", Input).value if line is None else line
        error = self.query_one("#quick-error", Static)
        parsed, problems = [], []
        for typed in split_quick_filter(line):  # one by one: the problems are listed in the order typed
            texts, unnamed = quick_client_ids([typed], self.client_names)
            good, refused = parse_each(self.spec, texts, now)
            parsed += good
            problems += [*unnamed, *(str(exc) for _, exc in refused)]
        error.set_class(bool(problems), "-invalid")
        if problems:
            show_line(error, "\n".join(f"✗ {problem}" for problem in problems))
            return parsed, problems
        times = [str(item) for item in parsed if self.spec.columns[item.column].kind is Kind.TIMESTAMP]
        notes = [f"sent as {' '.join(times)}"] if times else []
        notes += [case_note(item.value) for item in parsed if item.op == "~eq"][:1]
        show_line(error, f"→ {'; '.join(notes)}" if notes else "")
        return parsed, []

    def collect(self, submitted: Input.Submitted | None = None) -> tuple[tuple[Filter, ...], list[str]]:
        """Validate everything: the filters to send and the list of problems (shown inline). With `submitted` (an
        enter), its field counts with the text it held at that enter: keys typed after it in the same burst may
        already be in the field, and an enter applies what was typed before it."""

        def typed(field: Input) -> str | None:
            return submitted.value if submitted is not None and submitted.input is field else None

        now = self.clock()
        problems: list[str] = []
        filters: list[Filter] = []
        for row in self.query(FilterRow):
            value_field = row.query_one(".filter-value")
            try:
                built = row.check(now, typed(value_field) if isinstance(value_field, Input) else None)
            except FilterError as exc:
                problems.append(str(exc))
                continue
            if built is not None:
                filters.append(built)
        quick, refused = self._quick_filters(now, typed(self.query_one("#quick", Input)))
        filters.extend(quick)
        problems[:0] = refused
        unique = tuple(dict.fromkeys(filters))
        return unique, problems

    @on(Input.Changed)
    def _typed(self) -> None:
        """Validate once the changes queued now are handled (one call_later for a burst of keys, not a validation of
        the whole form per key, which a long paste would wait on); the inline error still shows before any request."""
        if not self.revalidation_due:
            self.revalidation_due = True
            self.call_later(self._revalidate)

    @on(Select.Changed)
    def _revalidate(self) -> None:
        self.revalidation_due = False
        if not self.is_mounted or self.closed:
            return
        _, problems = self.collect()
        if not problems:
            self.refused = None
            show_line(self.query_one("#summary", Static), "")
        elif self.refused is not None:  # the refused Apply's summary follows the fields as they are fixed
            quick = self._quick_filters(self.clock())[1]
            self.refused = (quick, len(problems) - len(quick))
            self.call_after_refresh(self._count_in_view)

    def on_descendant_focus(self) -> None:
        """A field focused may have scrolled a bad row into view (or out of it): the summary's count follows."""
        self.call_after_refresh(self._count_in_view)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.apply(event)

    def action_apply(self) -> None:
        """Dismiss with the filters, or show why not (no request is made while anything is invalid)."""
        self.apply()

    def apply(self, submitted: Input.Submitted | None = None) -> None:
        """Dismiss with the filters (a `submitted` field's as it was at its enter), or show why not."""
        if self.closed:
            return
        filters, problems = self.collect(submitted)
        summary = self.query_one("#summary", Static)
        if problems:
            quick = self._quick_filters(self.clock(), self._typed_quick(submitted))[1]
            self.refused = (quick, len(problems) - len(quick))
            show_line(summary, not_applied_text(len(problems), len(problems)))
            self.call_after_refresh(self._count_in_view)  # laid out with the messages: how many are in view
            return
        self._close(filters)

    def _typed_quick(self, submitted: Input.Submitted | None) -> str | None:
        """The quick line's text at `submitted`'s enter when that enter was on it."""
        quick = self.query_one("#quick", Input)
        return submitted.value if submitted is not None and submitted.input is quick else None

    @on(QuickMessages.Scrolled)
    def _count_in_view(self) -> None:
        """After a refused Apply: the summary says how many of its problems are in view, when not all are (the quick
        line's messages scroll; a bad row may be scrolled out of the rows)."""
        if self.refused is None or self.closed:
            return
        quick, in_rows = self.refused
        rows = self.query_one("#rows")
        bad_rows = [row for row in self.query(FilterRow) if row.has_class("-invalid")]
        rows_in_view = sum(1 for row in bad_rows if row.region and rows.region.contains_region(row.region))
        in_view = self.query_one(QuickMessages).shown_count(quick) + min(rows_in_view, in_rows)
        show_line(self.query_one("#summary", Static), not_applied_text(len(quick) + in_rows, in_view))

    def action_cancel(self) -> None:
        """Close without changes."""
        self._close(None)

    def _close(self, result: tuple[Filter, ...] | None) -> None:
        """Dismiss once: a second enter or escape in the same burst of keys would pop the screen under the editor."""
        if not self.closed:
            self.closed = True
            self.dismiss(result)

    def action_clear(self) -> None:
        """Empty every field (Apply then removes all filters)."""
        self.query_one("#quick", Input).value = ""
        for row in self.query(FilterRow):
            row.clear()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {"apply": self.action_apply, "cancel": self.action_cancel, "clear": self.action_clear}
        action = actions.get(event.button.id or "")
        if action is not None:
            action()
