"""The review before a deletion: each marked selector, why it is marked, the dry run, the impact; then confirm.

At any size (80x24 too) the title, the question's count box and the buttons stay in view and the list keeps a few
rows: every line that can grow is one line cut to the dialog's width (the typed ids and the skipped ids end with
`… and N more`, the rest with `…`) but the extension box's label, which wraps whole; what lies between the title
and the count box scrolls when it does not all fit.

The dialogs' convention (`ConfirmDialog`): Cancel left and focused, Delete right in $error, escape cancels. Above
CONFIRM_TYPED_ABOVE selectors the user types the count to enable Delete (the count box has the focus on open; enter
there deletes only once the count is right and the dry run has answered). A read-only session has no Delete button
(and says why). The dry run and the impact load in workers (Loads), never in a handler.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import ClassVar

from textual import events, getters
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.widgets import Button, Checkbox, DataTable, Static

from svctui.api.models import Selector
from svctui.ops.audit_lines import owner_words, selector_record
from svctui.ops.selector_delete import Preview, PreviewResult, preview_selectors
from svctui.ops.selector_ids import TYPED_COUNT_ABOVE
from svctui.table_fit import Column, fit_columns
from svctui.text import cell_width, id_runs, most_that_fits, plural, ranges_and_more
from svctui.tui.app import SvcTuiApp
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.screens.selectors.impact import Impact, impact_line, impact_text, kinds_text, load_impact
from svctui.tui.screens.selectors.messages import ResultBatcher, ResultsLanded
from svctui.tui.screens.selectors.plan import CleanupPlan
from svctui.tui.screens.selectors.session import (
    DEFAULT_CONCURRENCY,
    plan_ids,
    profile_name,
    read_only_why,
    server_words,
    tag_words,
)
from svctui.tui.screens.selectors.wording import restored_enabled_words
from svctui.tui.widgets.dialog import ConfirmDialog, show_line
from svctui.tui.widgets.row_table import RowTable

CONFIRM_TYPED_ABOVE = TYPED_COUNT_ABOVE  # the command line's and the resume's and restore's threshold too
# What a dry run settles: the server has said DELETE would not delete these, so the run leaves them out
SETTLED = (Preview.GONE, Preview.NOT_FOUND, Preview.NOT_IN_TAG, Preview.WOULD_REFUSE)
CHECKING = "checking…"
PREVIEW: Channel[list[PreviewResult]] = Channel("preview")  # the dry run: each selector checked with GET
IMPACT: Channel[Impact] = Channel("impact")  # the member counts the deletion would untag
MEMBERS_WIDTH = 9  # "members", "1,234,567"
REVIEW_COLUMNS = (("id", "id"), ("name", "name"), ("dry run", "preview"), ("members", "members"), ("by kind", "kinds"))


REVIEW_FIT = (  # every column shows (cut rather than left out); the free room goes to the name first
    Column("id", "id", droppable=False),
    Column("name", "name", least=9, droppable=False, names=True),
    Column("preview", "dry run", least=12, droppable=False),
    Column("members", "members", least=MEMBERS_WIDTH, droppable=False),
    Column("kinds", "by kind", least=8, droppable=False),
)


def review_widths(room: int, natural: Mapping[str, int]) -> dict[str, int]:
    """Column widths that fit `room` cells by `fit_columns`: each column at its widest cell where the room allows,
    the name growing first; cut text ends with `…`."""
    return fit_columns(REVIEW_FIT, natural, room).widths


class ReviewTable(RowTable[object]):
    """The review's table: its columns fitted to its own width (`refit`) whenever that changes."""

    def __init__(self, refit: Callable[[], None], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._refit = refit
        self.fitted_width = 0  # the room the columns were fitted to (0: not laid out, every column at its widest)

    def room(self) -> int:
        """The cells the columns may take: the table's width, less its vertical scrollbar when the rows do not all
        fit its height (0 before it is laid out). Not `scrollable_content_region`: while columns too wide for it
        showed a horizontal scrollbar, that was two cells short for good (a scrollbar's coming and going is no
        resize)."""
        header = self.header_height if self.show_header else 0
        scrolls = self.row_count + header > self.size.height
        return max(0, self.size.width - (self.styles.scrollbar_size_vertical if scrolls else 0))

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the columns to the new width."""
        if self.room() != self.fitted_width:
            self._refit()


def preview_counts_text(results: list[PreviewResult]) -> str:
    """`3 would delete, 2 would be refused: default selector`."""
    counts = {preview: sum(1 for result in results if result.preview is preview) for preview in Preview}
    return ", ".join(f"{count:,} {preview}" for preview, count in counts.items() if count) or "nothing to check"


def why_line(plan: CleanupPlan, width: int) -> str:
    """`Why these: matching name ∋ old-; typed ids 4-5 12 16 … and 470 more`, the typed ids cut to fit `width`; when
    the filters leave them no room, the ids on a second line (`and typed ids 4-5 12 … and 470 more`)."""
    head = f"Why these: {plan.filters_text}" if plan.filters_text else "Why these:"
    if not plan.typed_ids:
        return head if plan.filters_text else "Why these: marked by hand"
    joint = "; " if plan.filters_text else " "

    def shown(count: int) -> str:
        return f"{head}{joint}typed ids {ranges_and_more(plan.typed_ids, count, sep=' ')}"

    runs = len(id_runs(plan.typed_ids))
    line = most_that_fits(shown, runs, width)
    if cell_width(line) <= width or not plan.filters_text:
        return line
    # the filters fill the line (at 80 columns they cut the ids off): the ids get a line of their own; the first is
    # cut with `…` by the widget

    def ids_shown(count: int) -> str:
        return f"and typed ids {ranges_and_more(plan.typed_ids, count, sep=' ')}"

    return f"{head}\n{most_that_fits(ids_shown, runs, width)}"


def left_out_words(sending: int, settled: int) -> str:
    """`The run sends 1 selector; 2 left out (gone, default, another tag's)`: fits the review at 80 columns."""
    return f"The run sends {plural(sending, 'selector')}; {settled:,} left out (gone, default, another tag's)"


LEFT_OUT_EXTENSION = "left out: extension's"  # the dry-run cell of an extension-owned selector not chosen


def extension_choice_label(owned: Sequence[int]) -> str:
    """The review's checkbox for extension-owned selectors: `Also delete the 2 an extension owns (12 15): …`."""
    count = len(owned)
    them = "it" if count == 1 else "them"
    return (
        f"Also delete {'the one' if count == 1 else f'the {count:,}'} an extension owns "
        f"({ranges_and_more(owned, 5, sep=' ')}): it re-creates {them} at its next sync; a restore never will"
    )


def unknown_ids_words(count: int) -> str:
    """`1 typed id is not in the tag's list: the dry run checks it` (or the plural)."""
    verb, them = ("is", "it") if count == 1 else ("are", "them")
    return f"{plural(count, 'typed id')} {verb} not in the tag's list: the dry run checks {them}"


def owned_words(selector: Selector) -> str:
    """`extension 1, rule x` of an extension-owned selector."""
    return owner_words(selector_record(selector))


class WrappedCheckbox(Checkbox):
    """A checkbox whose label wraps to the width it has (Textual's is always one line high: at 80x24 the review's
    label was cut after `it re-creates them at`, the rest unseen)."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The lines of the button and label wrapped at `width` (with `text-wrap: wrap` in the CSS)."""
        return max(len(self.render().wrap(width)), 1)


class ReviewScreen(ConfirmDialog):
    """Review a CleanupPlan; dismiss(True) when the user confirmed the deletion of `plan_to_send()`."""

    app = getters.app(SvcTuiApp)

    CANCEL_ID: ClassVar[str] = "review-cancel"
    ACTION_ID: ClassVar[str] = "review-delete"
    TYPED_ID: ClassVar[str] = "review-typed"
    DEFAULT_CSS = """
    ReviewScreen #review-typed { width: 40; }
    ReviewScreen .dialog-buttons { margin-top: 0; }
    ReviewScreen #review-readonly { color: $warning; }
    ReviewScreen .-one-line { text-wrap: nowrap; text-overflow: ellipsis; }
    ReviewScreen #review-body { height: 1fr; }
    ReviewScreen #review-table { min-height: 4; }
    ReviewScreen #review-preview { max-height: 2; }
    ReviewScreen #review-left-out { display: none; }
    ReviewScreen #review-restore-note { display: none; color: $warning; }
    ReviewScreen #review-extension {
        display: none; border: none; padding: 0; height: auto; width: 1fr; text-wrap: wrap;
    }
    ReviewScreen #review-extension.-owned { display: block; }
    """

    def __init__(self, plan: CleanupPlan) -> None:
        super().__init__()
        self.plan = plan
        self.ids = plan_ids(plan)
        self.names = {selector.id: selector.name for selector in plan.selectors}
        self.loads = Loads(self)
        self.previews: list[PreviewResult] | None = None
        self.preview_problem = ""
        self.checked: ResultBatcher[PreviewResult] = ResultBatcher(self)
        self.checked_count = 0
        self.left_out: dict[int, Preview] = {}  # ids the dry run settled: not sent (gone, refused, another tag's)
        self.impact: Impact | None = None
        # extension-owned selectors: left out of the run unless the user ticks the review's checkbox
        self.owned: dict[int, str] = {s.id: owned_words(s) for s in plan.selectors if s.extension_owned}
        self.include_owned = False

    @property
    def needs_typed_count(self) -> bool:
        """True above CONFIRM_TYPED_ABOVE marked selectors."""
        return len(self.ids) > CONFIRM_TYPED_ABOVE

    def kept_back(self, selector_id: int) -> bool:
        """True for an id the run will not send: settled by the dry run, or owned by an extension and not chosen."""
        return selector_id in self.left_out or (selector_id in self.owned and not self.include_owned)

    def sending_ids(self) -> list[int]:
        """The ids the run would send: the marked ones less those the dry run settled and the extension-owned ones
        the user did not choose."""
        return [selector_id for selector_id in self.ids if not self.kept_back(selector_id)]

    def plan_to_send(self) -> CleanupPlan:
        """The plan less the selectors the dry run settled (gone, default, another tag's) and the extension-owned
        ones not chosen: the run sends the rest."""
        return CleanupPlan(
            tag=self.plan.tag,
            selectors=tuple(selector for selector in self.plan.selectors if not self.kept_back(selector.id)),
            unknown_ids=tuple(selector_id for selector_id in self.plan.unknown_ids if not self.kept_back(selector_id)),
            filters_text=self.plan.filters_text,
            typed_ids=self.plan.typed_ids,
        )

    def compose(self) -> ComposeResult:
        """Who, where, why; the table; the impact; the confirmation."""
        app = self.app
        count = len(self.ids)
        with Vertical(classes="sheet"):
            yield Static(
                f"Delete {plural(count, 'selector')} from {tag_words(self.plan)}?",
                id="review-title",
                classes="sheet-title",
                markup=False,  # the tag's name is the server's: shown as written, never read as markup
            )
            one_line = "-one-line"  # cut to the width: a long line never pushes the buttons out of view
            with VerticalScroll(id="review-body"):  # at 80x24 with every line: it scrolls, the box is reached
                where = f"Profile {profile_name(app)} on {server_words(app)}"
                yield Static(where, id="review-where", classes=one_line, markup=False)
                yield Static(why_line(self.plan, app.size.width), id="review-why", classes=one_line, markup=False)
                if self.plan.unknown_ids:
                    unknown = unknown_ids_words(len(self.plan.unknown_ids))
                    yield Static(unknown, id="review-unknown", classes=one_line, markup=False)
                yield ReviewTable(self.refit_table, id="review-table")
                yield Static(f"Dry run: {CHECKING}", id="review-preview", markup=False)  # wraps: at most 2 lines
                yield Static("", id="review-left-out", classes=one_line, markup=False)
                yield WrappedCheckbox(extension_choice_label(list(self.owned)), False, id="review-extension")
                yield Static(f"Impact: {CHECKING}", id="review-impact", classes=one_line, markup=False)
                yield Static("", id="review-restore-note", classes=one_line, markup=False)
                why_read_only = read_only_why(app)
                if why_read_only is not None:
                    yield Static(f"Deleting is off: {why_read_only}.", id="review-readonly", markup=False)
            if why_read_only is None and self.needs_typed_count:  # the count box stays in view, under the body
                yield Static(
                    f"More than {CONFIRM_TYPED_ABOVE} selectors: type {count} to enable Delete (digits go to the box)",
                    id="review-typed-label",
                    classes="-one-line",
                    markup=False,
                )
                yield self.typed_box(f"type {count} to enable Delete")
            yield self.dialog_buttons(f"Delete {count:,}", offered=why_read_only is None)

    def on_mount(self) -> None:
        """Fill the table, start the dry run and the impact (the focus is the convention's: ConfirmDialog)."""
        rows: dict[str, tuple[object, ...]] = {}
        for selector_id in self.ids:
            name = self.names.get(selector_id, "(not in the tag's list)")
            rows[str(selector_id)] = (str(selector_id), name, CHECKING, CHECKING, "")
        self.fill_table(rows)
        self.show_owned()
        self.show_restore_note()
        self.start_loads()
        self.call_after_refresh(self.fit_lines)

    def fill_table(self, rows: Mapping[str, Sequence[object]]) -> None:
        """The table's columns fitted to its width (`review_widths`; before it is laid out, each at its widest: its
        first resize fits them), and these rows (the cursor kept)."""
        table = self.query_one("#review-table", ReviewTable)
        natural = {
            key: max(cell_width(label), *(cell_width(str(cells[index])) for cells in rows.values()))
            for index, (label, key) in enumerate(REVIEW_COLUMNS)
        }
        table.fitted_width = table.room()
        widths = review_widths(table.fitted_width, natural)
        row = table.cursor_row
        table.clear(columns=True)
        for label, key in REVIEW_COLUMNS:
            table.add_column(label, key=key, width=widths[key])
        for key, cells in rows.items():
            table.add_row(*cells, key=key)
        table.move_cursor(row=row, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        """Cut the lines that list ids to the new width (the table fits its columns to its own: `ReviewTable`)."""
        self.call_after_refresh(self.fit_lines)

    def refit_table(self) -> None:
        """Fit the columns again to the cells as they are now (the dry run's and the impact's answers kept)."""
        table = self.query_one("#review-table", ReviewTable)
        self.fill_table({str(row.key.value): table.get_row(row.key) for row in table.ordered_rows})

    def fit_lines(self) -> None:
        """The why and the impact with as many ids as the dialog's width holds, then `… and N more`."""
        why = self.query_one("#review-why", Static)
        width = why.size.width
        if width <= 0:
            return
        why.update(why_line(self.plan, width))
        if self.impact is not None:
            self.query_one("#review-impact", Static).update(impact_line(self.sent_impact(), width))

    def start_loads(self) -> None:
        """The dry run (GET each selector) and the impact (member counts), each in a worker."""
        app, tag_id, ids, feed = self.app, self.plan.tag.id, self.ids, self.checked.add
        listed = frozenset(selector.id for selector in self.plan.selectors)

        async def dry_run() -> list[PreviewResult]:
            client = await app.api_client()
            return await preview_selectors(
                client, tag_id, ids, concurrency=DEFAULT_CONCURRENCY, on_result=feed, listed=listed
            )

        async def impact() -> Impact:
            return await load_impact(await app.api_client(), tag_id, ids)

        self.loads.start(PREVIEW, dry_run)
        self.loads.start(IMPACT, impact)

    def on_results_landed(self, message: ResultsLanded) -> None:
        """Dry-run lines as they land (the counts come with the whole answer)."""
        if self.previews is not None:
            return
        table = self.query_one("#review-table", DataTable)
        for result in self.checked.take():
            self.checked_count += 1
            table.update_cell(str(result.selector_id), "preview", self.preview_cell(result))
        self.query_one("#review-preview", Static).update(
            f"Dry run: {CHECKING} {self.checked_count:,}/{len(self.ids):,}"
        )

    def on_loaded(self, message: Loaded[object]) -> None:
        """Show the dry run or the impact."""
        if not self.loads.is_current(message):
            return
        if PREVIEW.answers(message):
            self.show_previews(message.value)
        elif IMPACT.answers(message):
            self.show_impact(message.value)

    def on_load_failed(self, message: LoadFailed) -> None:
        """Say what could not be checked (the deletion stays possible only after a dry run that answered)."""
        if not self.loads.is_current(message):
            return
        error = message.error
        text = error.user_message() if hasattr(error, "user_message") else str(error)
        if message.channel is PREVIEW:
            self.preview_problem = text
            self.query_one("#review-preview", Static).update(f"Dry run failed: {text}")
        else:
            self.query_one("#review-impact", Static).update(f"Impact: {text}")

    def show_previews(self, results: list[PreviewResult]) -> None:
        """One dry-run line per selector, and the counts."""
        self.previews = results
        table = self.query_one("#review-table", DataTable)
        for result in results:  # the dry run may find typed ids (not in the tag's list) owned by an extension
            if result.selector is not None and result.selector.extension_owned and result.preview not in SETTLED:
                self.owned.setdefault(result.selector_id, owned_words(result.selector))
        self.show_owned()
        for result in results:
            if result.selector is not None and result.selector.id not in self.names:
                table.update_cell(str(result.selector_id), "name", result.selector.name)
            table.update_cell(str(result.selector_id), "preview", self.preview_cell(result))
        self.left_out = {result.selector_id: result.preview for result in results if result.preview in SETTLED}
        self.query_one("#review-preview", Static).update(f"Dry run: {preview_counts_text(results)}")
        self.follow_answers()

    def follow_answers(self) -> None:
        """After the dry run's or the impact's answer, whichever lands last: the columns refitted to the words now in
        (the free room goes to the names), the impact over what the run sends (the dry run may find typed ids an
        extension owns), and every line that follows what it sends."""
        self.refit_table()
        self.show_impact_line()
        self.show_what_is_sent()

    def show_what_is_sent(self) -> None:
        """Every line that follows what the run would send (the dry run's answers, the extension-owned selectors
        chosen or not): what it leaves out, the title, the restore note, the Delete button (the count to type stays
        the count marked)."""
        self.show_left_out()
        self.show_count_to_send()
        self.show_restore_note()
        self.update_action()

    def show_left_out(self) -> None:
        """The line under the dry run: what the run leaves out (settled, or extension-owned and not chosen)."""
        if self.previews is None:
            return
        left_out = "None of these would be deleted: Delete stays off."
        owned_only = any(result.preview not in SETTLED for result in self.previews)
        if self.left_out and self.anything_to_delete():
            sending, settled = len(self.sending_ids()), len(self.left_out)
            left_out = left_out_words(sending, settled)
        elif self.anything_to_delete():
            left_out = ""
        elif owned_only:
            left_out = "Only selectors owned by an extension are left: tick the box to delete them too."
        show_line(self.query_one("#review-left-out", Static), left_out)

    def preview_cell(self, result: PreviewResult) -> str:
        """The dry-run cell: what DELETE would do, or that an extension-owned selector is left out (not chosen)."""
        if result.selector_id in self.owned and not self.include_owned and result.preview not in SETTLED:
            return LEFT_OUT_EXTENSION
        return str(result.preview)

    def show_owned(self) -> None:
        """The checkbox for extension-owned selectors, shown when there are some (its label names them)."""
        box = self.query_one("#review-extension", Checkbox)
        box.set_class(bool(self.owned), "-owned")
        if self.owned:
            box.label = extension_choice_label(list(self.owned))

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """Extension-owned selectors chosen (or not) for deletion: the cells, the count, the button follow."""
        if event.checkbox.id != "review-extension":
            return
        event.stop()
        self.include_owned = event.value
        table = self.query_one("#review-table", DataTable)
        by_id = {result.selector_id: result for result in self.previews or ()}
        for selector_id in self.owned:
            result = by_id.get(selector_id)
            cell = self.preview_cell(result) if result is not None else CHECKING
            if result is None and not self.include_owned:
                cell = LEFT_OUT_EXTENSION
            table.update_cell(str(selector_id), "preview", cell)
        self.show_impact_line()
        self.show_what_is_sent()

    def disabled_sending(self) -> list[int]:
        """The disabled selectors among those the run would send (the tag's list says, the dry run for typed ids,
        and the impact's 409s), which a restore would bring back enabled."""
        known = {selector.id: selector for selector in self.plan.selectors}
        known.update({r.selector_id: r.selector for r in self.previews or () if r.selector is not None})
        disabled = {selector_id for selector_id, selector in known.items() if selector.disabled_at is not None}
        disabled.update(self.impact.disabled if self.impact is not None else ())
        return [selector_id for selector_id in self.sending_ids() if selector_id in disabled]

    def show_restore_note(self) -> None:
        """Warn, when the run deletes disabled selectors, that a restore brings them back enabled."""
        disabled = len(self.disabled_sending())
        show_line(self.query_one("#review-restore-note", Static), restored_enabled_words(disabled) if disabled else "")

    def show_count_to_send(self) -> None:
        """Title and button name the selectors the run will send (fewer than marked once the dry run settled some or
        extension-owned ones are left out). The count to type is not among them: it is the count marked, typed
        perhaps before the dry run answered, and a walker saw it change under their eyes (then refused) when the dry
        run found ids gone; what the dry run found is said on its own line (`show_left_out`)."""
        if not self.anything_to_delete():  # the title keeps the count marked; the button, off, names none sent
            for button in self.query("#review-delete").results(Button):
                button.label = "Delete 0"
            return
        sending, marked = len(self.sending_ids()), len(self.ids)
        title = f"Delete {plural(marked, 'selector')} from {tag_words(self.plan)}?"
        if sending != marked:
            title = f"Delete {sending:,} of the {plural(marked, 'marked selector')} from {tag_words(self.plan)}?"
        self.query_one("#review-title", Static).update(title)
        for button in self.query("#review-delete").results(Button):
            button.label = f"Delete {sending:,}"

    def anything_to_delete(self) -> bool:
        """False once the dry run answered that every selector is gone, refused or not part of the tag, or while
        every other one is owned by an extension and not chosen."""
        if self.previews is None:
            return bool(self.sending_ids())
        return any(result.preview not in SETTLED and not self.kept_back(result.selector_id) for result in self.previews)

    def show_impact(self, impact: Impact) -> None:
        """Members per selector and the total, or why the server can't say."""
        table = self.query_one("#review-table", DataTable)
        for selector_id in self.ids:
            counts = impact.per_selector.get(selector_id)
            members = f"{sum(counts.values()):,}" if counts is not None else "—"
            kinds = kinds_text(counts) if counts is not None else impact.uncounted.get(selector_id, "")
            if selector_id in impact.disabled:
                members, kinds = "disabled", "tags nothing"
            table.update_cell(str(selector_id), "members", members)
            table.update_cell(str(selector_id), "kinds", kinds)
        self.impact = impact
        self.follow_answers()

    def show_impact_line(self) -> None:
        """The impact line over what the run would send (cut to the dialog's width once it has one)."""
        if self.impact is None:
            return
        if self.query_one("#review-why", Static).size.width <= 0:  # not laid out yet: fit_lines can't cut it
            self.query_one("#review-impact", Static).update(impact_text(self.sent_impact()))
        self.fit_lines()

    def sent_impact(self) -> Impact:
        """The impact less the extension-owned selectors left out (their rows keep their counts)."""
        impact = self.impact or Impact()
        out = {selector_id for selector_id in self.owned if not self.include_owned}
        if not out:
            return impact
        return replace(
            impact,
            per_selector={key: value for key, value in impact.per_selector.items() if key not in out},
            disabled=tuple(key for key in impact.disabled if key not in out),
            uncounted={key: value for key, value in impact.uncounted.items() if key not in out},
        )

    def expected_text(self) -> str | None:
        """Above CONFIRM_TYPED_ABOVE (and not read-only): the number of selectors marked, as the dialog opened with it
        (the dry run's answer never changes it)."""
        return str(len(self.ids)) if self.needs_typed_count and read_only_why(self.app) is None else None

    def action_ready(self) -> bool:
        """Delete waits for the dry run, and is never offered for nothing."""
        return bool(self.ids) and self.previews is not None and self.anything_to_delete()

    def not_ready_text(self) -> str:
        """The count is right; the dry run has not answered, or found nothing to delete."""
        if self.previews is None:
            return "Delete is enabled once the dry run has answered."
        if self.owned and not self.include_owned:
            return "The rest are owned by an extension: tick the box above to delete them too."
        return "None of these would be deleted: there is nothing to confirm."

    def wrong_text(self) -> str:
        """What to type."""
        return f"Type {self.expected_text()} exactly (the number of selectors marked) to enable Delete."
