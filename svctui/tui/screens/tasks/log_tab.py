"""The Log tab of the tasks screen's detail pane: the selected run's log (`L`), what it says in one line above it,
a search field and a status line; and the summaries learnt so far, by task id, for the pane's headline.

The log is read in a worker as it streams (`client.jobs.log_text`), LINES_PER_BATCH lines a message, so the first
lines show while the rest arrive and the loop never parses more than one piece of the answer at a time. At most
LOG_VIEW_MAX_BYTES of a log are kept: a larger one shows its first part and says so (`svctui tasks log` streams
any size).

`prefetch` reads a run's log for its summary only (nothing kept but the summary): the screen calls it for a run
once the cursor has rested on it (see TaskDetail). A server that answered that run logs are enterprise-only is not
asked again: every other run reads the same.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from textual import events, getters, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Static

from svctui.api.models import CompletedTask
from svctui.runlog import LogLine, LogReader, LogSummary, NotText, asked_methods
from svctui.text import cell_width, cut_end
from svctui.tui.widgets.log_view import LogView
from svctui.tui.widgets.ordered_input import OrderedInput
from svctui.tui.widgets.state_panel import error_view
from svctui.visible import visible

if TYPE_CHECKING:
    from svctui.api.client import ApiClient

ClientOf = Callable[[], Awaitable["ApiClient"]]
LOG_VIEW_MAX_BYTES = 32 * 1024 * 1024  # the most of a log the dashboard keeps (~300,000 lines)
LINES_PER_BATCH = 4000
SUMMARIES_KEPT = 256
LOG_ACTIONS = frozenset({"search", "match", "warnings", "error", "to_domain"})  # the keys that need a log shown
TERM_CELLS = (8, 40)  # the fewest and the most cells of the search term in the status line (cut with …)


class LogBatch(Message, bubble=False):
    """More lines of the log being read (`seq` names the read)."""

    def __init__(self, seq: int, lines: list[LogLine]) -> None:
        super().__init__()
        self.seq = seq
        self.lines = lines


class LogEnded(Message, bubble=False):
    """The read ended: the summary of what arrived, and why it stopped early (a note), if it did."""

    def __init__(
        self, seq: int, task_id: int, summary: LogSummary | None, note: str = "", failed: bool = False
    ) -> None:
        super().__init__()
        self.seq = seq
        self.task_id = task_id
        self.summary = summary
        self.note = note
        self.failed = failed


class SummaryKnown(Message):
    """A run's log summary is known (bubbles to the detail pane, which shows its headline)."""

    def __init__(self, task_id: int, summary: LogSummary | None, note: str = "") -> None:
        super().__init__()
        self.task_id = task_id
        self.summary = summary
        self.note = note


class SearchField(OrderedInput):
    """The log's search field: its keys act in the order typed (ctrl+u then a word in one read kept the word's first
    letter out, #6605), and esc goes to the pane, which closes it (not to the screen's esc, which closes the pane)."""

    def on_key(self, event: events.Key) -> None:
        """esc: on to the pane, no binding run here (runs before OrderedInput's handler, which it skips)."""
        if event.key == "escape":
            event.prevent_default()


class LogPane(Vertical):
    """Headline, the log, the search field and a status line."""

    DEFAULT_CSS = """
    LogPane { height: 1fr; }
    LogPane #log-head { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    LogPane #log-head.-error { color: $error; }
    LogPane LogView { height: 1fr; }
    LogPane #log-foot { height: 1; }
    LogPane #log-search { display: none; height: 1; border: none; padding: 0 1; }
    LogPane #log-search.-open { display: block; }
    LogPane #log-status {
        height: 1; padding: 0 1; background: $boost; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis;
    }
    LogPane #log-status.-hidden { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "Search", id="tasks.log.search", tooltip="Search the log"),
        Binding("n", "match(1)", "Next match", id="tasks.log.next", tooltip="Next search match"),
        Binding("N", "match(-1)", "Prev match", show=False, id="tasks.log.prev", tooltip="Previous search match"),
        Binding("w", "warnings", "Warn+err", id="tasks.log.level", tooltip="Only warnings and errors, or every line"),
        Binding("e", "error(1)", "Next error", id="tasks.log.error", tooltip="Next ERROR line"),
        Binding("E", "error(-1)", "Prev error", show=False, id="tasks.log.error.prev", tooltip="Previous ERROR line"),
        Binding("D", "to_domain", "Domain", id="tasks.log.domain", tooltip="This line's domain in the domain results"),
    ]

    class DomainWanted(Message):
        """`D`: show this domain in the domain results."""

        def __init__(self, domain_name: str) -> None:
            super().__init__()
            self.domain_name = domain_name

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.task_id: int | None = None
        self.summary: LogSummary | None = None
        self.note = "L opens the selected run's log"
        self.loading = False
        self.seq = 0
        self.summaries: OrderedDict[int, LogSummary | None] = OrderedDict()
        self.notes: dict[int, str] = {}
        self.enterprise_only = ""  # why no run has a log here (a community server), once it said so
        self.wanted_domain: str | None = None
        self.key_note = ""  # why the last `e`/`E`/`D` moved nothing (the status line says it until the cursor moves)
        self.head_parts: list[str] = [self.note]  # the head line's parts (" · " between them), fitted when drawn

    def compose(self) -> ComposeResult:
        """Headline, view, search field, status line."""
        yield Static(Content(self.note), id="log-head")
        yield LogView(id="log-view")
        with Vertical(id="log-foot"):  # one row: the search field takes the status line's place (the view keeps
            yield SearchField(placeholder="search the log (enter; esc cancels)", id="log-search")  # size: no redraw)
            yield Static("", id="log-status")

    view = getters.query_one(LogView)  # the log's lines

    # ----- loading -----------------------------------------------------------------------------------------------
    def open(self, task: CompletedTask, client_of: ClientOf, domain: str | None = None) -> None:
        """Show `task`'s log (read it unless it is the one shown); with `domain`, at that domain's first line."""
        self.wanted_domain = domain
        if task.id == self.task_id and (self.loading or self.summary is not None or self.view.lines):
            if domain is not None and not self.loading:
                self.jump_to_domain(domain)
            return
        self.task_id = task.id
        self.summary = None
        self.key_note = ""
        self.seq += 1
        self.loading = True
        self.view.clear()
        self._set_head(f"reading the log of run {task.id}…")
        self._read(self.seq, task.id, asked_methods(task), client_of)
        self.update_status()
        self.refresh_bindings()  # the log's keys are on (check_action)

    def leave(self, task: CompletedTask | None) -> None:
        """The detail shows another run: forget the log shown (a read in flight is dropped), say how to open
        this one's (named again on every move: the run under the cursor). Nothing is requested: the cursor moving over
        the table never reads a log."""
        if task is not None and task.id == self.task_id:
            return
        self._set_head(f"L opens the log of run {task.id}" if task is not None else "L opens the selected run's log")
        if self.task_id is None:
            return
        self.task_id = None
        self.summary = None
        self.key_note = ""
        self.seq += 1  # a read in flight is now stale
        self.loading = False
        self.view.clear()
        self.update_status()
        self.refresh_bindings()  # no log: its keys are off, `/` filters the list again

    @work(exclusive=True, group="log-read")
    async def _read(self, seq: int, task_id: int, asked: list[str], client_of: ClientOf) -> None:
        from svctui.api.errors import ApiError, ResponseTooLarge

        reader = LogReader(asked)
        batch: list[LogLine] = []
        note = ""
        try:
            client = await client_of()
            async for text in client.jobs.log_text(task_id, max_bytes=LOG_VIEW_MAX_BYTES):
                batch += reader.feed(text)
                if len(batch) >= LINES_PER_BATCH:
                    self.post_message(LogBatch(seq, batch))
                    batch = []
                await asyncio.sleep(0)  # the loop draws and answers keys between two pieces (~1-2 ms each)
            batch += reader.finish()
        except NotText:
            summary = reader.summary()
            self.post_message(
                LogEnded(seq, task_id, _binary(summary), f"the log of run {task_id} is not text (binary data)", True)
            )
            return
        except ResponseTooLarge:
            batch += reader.finish()
            cap = LOG_VIEW_MAX_BYTES
            size = f"{cap // (1024 * 1024)} MiB" if cap >= 1024 * 1024 else f"{cap:,} bytes"
            note = f"only the first {size} of a larger log are shown"
            note += " (svctui tasks log streams it whole)"
        except ApiError as exc:
            self.post_message(LogBatch(seq, batch))
            self.post_message(LogEnded(seq, task_id, None, self._failure(task_id, exc), True))
            return
        self.post_message(LogBatch(seq, batch))
        self.post_message(LogEnded(seq, task_id, reader.summary(), note))

    @on(LogBatch)
    def _batch(self, message: LogBatch) -> None:
        if message.seq == self.seq:
            self.view.extend(message.lines)
            self.update_status()

    @on(LogEnded)
    def _ended(self, message: LogEnded) -> None:
        if message.seq != self.seq:
            return
        self.loading = False
        self.summary = message.summary
        self.remember(message.task_id, message.summary, message.note if message.failed else "")
        if message.summary is None or message.failed:
            self._set_head(message.note, error=True)
        else:
            self._show_summary(message.summary, message.note)
            if self.view.filtered or self.view.needle:
                self.view.refilter()
            if self.wanted_domain is not None:
                self.jump_to_domain(self.wanted_domain)
        self.update_status()

    def prefetch(self, task: CompletedTask, client_of: ClientOf) -> None:
        """Read `task`'s log for its summary only (when it is not known yet)."""
        if task.id in self.summaries or task.id == self.task_id:
            return
        if self.enterprise_only:
            self.remember(task.id, None, self.enterprise_only)
            return
        self._prefetch(task.id, asked_methods(task), client_of)

    @work(exclusive=True, group="log-prefetch")
    async def _prefetch(self, task_id: int, asked: list[str], client_of: ClientOf) -> None:
        from svctui.api.errors import ApiError, ResponseTooLarge

        reader = LogReader(asked)
        try:
            client = await client_of()
            async for text in client.jobs.log_text(task_id, max_bytes=LOG_VIEW_MAX_BYTES):
                reader.feed(text)
                await asyncio.sleep(0)
            reader.finish()
        except NotText:
            self.remember(task_id, _binary(reader.summary()))
            return
        except ResponseTooLarge:
            reader.finish()
        except ApiError as exc:
            self.remember(task_id, None, self._failure(task_id, exc))
            return
        self.remember(task_id, reader.summary())

    def _failure(self, task_id: int, error: BaseException) -> str:
        """Why the log is not shown; an enterprise-only answer kept for every later run (no request for those)."""
        from svctui.api.errors import EnterpriseOnly

        note = _failure(task_id, error)
        if isinstance(error, EnterpriseOnly):
            self.enterprise_only = note
        return note

    def remember(self, task_id: int, summary: LogSummary | None, note: str = "") -> None:
        """Keep a run's summary (or why there is none) and tell the detail pane."""
        self.summaries[task_id] = summary
        self.summaries.move_to_end(task_id)
        self.notes[task_id] = note
        while len(self.summaries) > SUMMARIES_KEPT:
            gone, _ = self.summaries.popitem(last=False)
            self.notes.pop(gone, None)
        self.post_message(SummaryKnown(task_id, summary, note))

    # ----- what shows ----------------------------------------------------------------------------------------------
    def _set_head(self, text: str, error: bool = False, parts: list[str] | None = None) -> None:
        head = self.query_one("#log-head", Static)
        head.set_class(error, "-error")
        self.head_parts = [visible(part) for part in parts] if parts else [visible(text)]
        self._draw_head()

    def _draw_head(self) -> None:
        """The head line fitted to its width: whole parts only, what is left out counted (`+2 more (z)`); zoomed
        (the line wraps there) or wide enough, every part."""
        head = self.query_one("#log-head", Static)
        room = head.content_region.width or self.size.width - 2
        zoomed = any(ancestor.has_class("-maximized") for ancestor in self.ancestors)
        head.update(Content(" · ".join(self.head_parts) if zoomed else fit_parts(self.head_parts, room)))

    def _show_summary(self, summary: LogSummary, note: str) -> None:
        parts = ([note] if note else []) + summary.details()
        self._set_head(" · ".join(parts), error=summary.first_error is not None, parts=parts)

    def update_status(self) -> None:
        """Line n of m, the filter, the search, loading, the keys: the search term cut to what the line has room for
        (so the match count and the keys after it stay in view); when even so it does not fit, without the keys,
        then in short words (the line does not wrap: what is left over is cut with `…`)."""
        status = self.query_one("#log-status", Static)
        room = status.content_region.width or self.size.width - 2
        line = ""
        for keys, short in ((True, False), (False, False), (False, True)):
            line = self._status_text("", keys, short)
            if self.view.needle:
                most = min(max(room - cell_width(line), TERM_CELLS[0]), TERM_CELLS[1])
                line = self._status_text(cut_end(visible(self.view.needle), most), keys, short)
            if cell_width(line) <= room:
                break
        status.update(Content(line))

    def on_resize(self) -> None:
        """The head line and the search term in the status line fitted to the new width."""
        self._draw_head()
        self.update_status()

    def _status_text(self, term: str, keys: bool = True, short: bool = False) -> str:
        """The status line, the search term (made visible, cut) given apart; with the keys or not, in short words or
        not."""
        view = self.view
        parts: list[str] = []
        line = view.current()
        if self.key_note:  # it names the cursor's line: in place of `line 1 of 39`, whole where the room is short
            parts.append(self.key_note)
        elif view.lines:
            total = f"{len(view.lines):,}"
            parts.append(f"line {line.number:,} of {total}" if line is not None else f"{total} lines")
            day = self.summary.day if self.summary is not None else None
            when = line.utc() if line is not None else None
            if when is not None and day is not None and when.date() != day:  # the time column has no date: say it
                parts[-1] += f" ({when:%Y-%m-%d} UTC)"
        if view.scroll_x:
            parts.append(f"→ column {int(view.scroll_x) + 1} (h/l)")
        if view.filtered:
            rows = f"{view.row_count:,} row{'' if view.row_count == 1 else 's'}"
            parts.append(f"warn+err: {rows}" if short else f"warnings and errors: {rows} (w: every line)")
        if view.needle:
            on_match, count = view.match_position()
            where = f"{on_match} of {count:,}" if on_match else f"{count:,} match{'' if count == 1 else 'es'}"
            parts.append(f"“{term}” {where}" + ("" if short else " (n/N)") if count else f"“{term}” not found")
        if self.loading:
            parts.append("reading…")
        elif view.lines and keys:
            parts.append("/ search · w warnings · e next error · D domain")
        return " · ".join(parts)

    @on(LogView.CursorMoved)
    def _moved(self, message: LogView.CursorMoved) -> None:
        message.stop()
        self.key_note = ""
        self.update_status()

    def say_why(self, why: str) -> None:
        """A key that moved nothing: why, in the status line (until the cursor moves) and in a toast."""
        self.key_note = why
        self.update_status()
        self.notify(why, timeout=4, markup=False)

    # ----- keys --------------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The log's keys only while a log is shown (or read): with none, they are off the footer and help, and `/`
        goes on to the screen (the filter editor), not to a search of nothing."""
        return not (action in LOG_ACTIONS and self.task_id is None)

    def action_search(self) -> None:
        """Open the search field."""
        field = self.query_one("#log-search", Input)
        field.add_class("-open")
        self.query_one("#log-status", Static).add_class("-hidden")
        field.value = self.view.needle
        field.focus()

    @on(Input.Submitted, "#log-search")
    def _searched(self, message: Input.Submitted) -> None:
        message.stop()
        self._close_search()
        self.view.search(message.value.strip())

    def on_key(self, event: events.Key) -> None:
        """esc in the search field closes it, keeping the search there was."""
        if event.key == "escape" and self.query_one("#log-search", Input).has_focus:
            event.stop()
            self._close_search()

    def _close_search(self) -> None:
        self.query_one("#log-search", Input).remove_class("-open")
        self.query_one("#log-status", Static).remove_class("-hidden")
        self.view.focus()

    def action_match(self, step: int) -> None:
        """The next or previous match."""
        self.key_note = ""
        if not self.view.next_match(step):
            self.app.bell()
        self.update_status()

    def action_warnings(self) -> None:
        """Only warnings and errors, or every line."""
        self.key_note = ""
        self.view.set_filtered(not self.view.filtered)
        self.update_status()

    def action_error(self, step: int) -> None:
        """The next or previous ERROR line; where there is none that way, why, naming the line and the nearest one."""
        view = self.view
        if view.next_error(step):
            return
        line = view.current()
        if line is None:
            self.say_why("No error line: the log is empty.")
            return
        errors = [shown.number for shown in view.lines if shown.severe]
        way = "after" if step > 0 else "before"
        if not errors:
            self.say_why(f"No error {way} line {line.number:,}: this log has no ERROR line.")
        elif step > 0:
            self.say_why(f"No error after line {line.number:,}: the last is line {errors[-1]:,} (E goes back).")
        else:
            self.say_why(f"No error before line {line.number:,}: the first is line {errors[0]:,} (e goes to it).")

    def action_to_domain(self) -> None:
        """The domain whose part of the log holds the cursor's line, in the domain results."""
        line = self.view.current()
        domain = self.domain_of(line.number) if line is not None else None
        if domain is None:
            self.say_why(self.no_domain_why(line.number if line is not None else None))
            return
        self.post_message(self.DomainWanted(domain))

    def no_domain_why(self, number: int | None) -> str:
        """Why `D` on line `number` finds no domain: no part in the log, the line before the first part, after the
        last one, or between two (each named with its lines)."""
        parts = self.summary.domains if self.summary is not None else ()
        if not parts or number is None:
            return "This log has no domain's part (no `Beginning LDAP search for …` line)."
        first, last = parts[0], parts[-1]
        if number < first.first:
            name = visible(first.domain)
            return f"Line {number:,} is before the first domain's part: {name} starts at {first.first:,}."
        if number > last.last:
            return f"Line {number:,} is after the last domain's part: {visible(last.domain)} ended at {last.last:,}."
        before = max((part for part in parts if part.last < number), key=lambda part: part.last, default=first)
        after = min((part for part in parts if part.first > number), key=lambda part: part.first, default=last)
        return (
            f"Line {number:,} is between two domains' parts: {visible(before.domain)} ended at {before.last:,}, "
            f"{visible(after.domain)} starts at {after.first:,}."
        )

    def domain_of(self, number: int) -> str | None:
        """The domain whose part of the log holds line `number`."""
        if self.summary is None:
            return None
        for part in self.summary.domains:
            if part.first <= number <= part.last:
                return part.domain
        return None

    def jump_to_domain(self, domain: str) -> bool:
        """The cursor to the first line of `domain`'s part (or the first line naming it); False when none does."""
        self.wanted_domain = None
        folded = domain.casefold()
        if self.summary is not None:
            for part in self.summary.domains:
                if part.domain.casefold() == folded:
                    self.view.go_to_line(part.first - 1)
                    return True
        for index, line in enumerate(self.view.lines):
            if folded in line.message.casefold():
                self.view.go_to_line(index)
                return True
        self.notify(f"No line of this log is about {visible(domain)}.", timeout=3)
        return False


def fit_parts(parts: list[str], room: int, key: str = "z") -> str:
    """`parts` (the one that matters most first) joined with ` · ` in `room` cells: whole, or the first ones that fit
    whole, then how many were left out and the key that shows them (`+2 more (z)`); the first part alone is cut
    with `…`."""
    line = " · ".join(parts)
    if room <= 0 or cell_width(line) <= room:
        return line
    kept = parts[:1]
    for part in parts[1:]:
        more = f" · +{len(parts) - len(kept) - 1} more ({key})"  # those after this one
        if cell_width(" · ".join([*kept, part])) + len(more) > room:
            break
        kept.append(part)
    return cut_end(" · ".join([*kept, f"+{len(parts) - len(kept)} more ({key})"]), room)


def _binary(summary: LogSummary) -> LogSummary:
    from dataclasses import replace

    return replace(summary, binary=True)


def _failure(task_id: int, error: BaseException) -> str:
    """Why run `task_id`'s log is not shown, in words (a 404: it kept none)."""
    from svctui.api.errors import EnterpriseOnly, NotFound

    if isinstance(error, NotFound) and not isinstance(error, EnterpriseOnly):
        return f"run {task_id} kept no log (the server answered 404)"
    view = error_view(error, "run logs")
    request = f"(request id {view.request_id})" if view.request_id else ""
    return " ".join(part for part in (f"{view.title}:", *view.lines[:2], request) if part)
