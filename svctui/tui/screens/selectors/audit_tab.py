"""The Audit tab of the Selector cleanup screen: past runs (newest first) and the chosen run's selectors.

Each run: when, who (profile, token id, user), server, tag, counts per outcome, INTERRUPTED. The chosen run's
selectors with names, outcomes, status, message and request id. `s` resumes a deletion run with selectors left
unsettled (interrupted, cancelled or stopped: `resume_refusal`, the CLI's rule) and `u` re-creates what a deletion
run deleted (both confirm first, both hidden when read-only; when off, the key says why); `r` reads the log again.
The log is read in a worker thread (Loads.start_in_thread), never in a handler. The selector list's keys (`/`, `x`,
`c`, `space`, `M`, `ctrl+d`, …) do nothing here, out of the footer, but say so when pressed (`ELSEWHERE_BINDINGS`,
under the same binding ids, so a remapped key is said under its new key), and the status line is the tab's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual import events, getters
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import DataTable, Static

from svctui.ops.resume import ResumeRefused, check_same_server, resume_refusal
from svctui.ops.selector_restore import NothingToRestore, RestorePlan, plan_restore, restore_runs_of, resumes_split
from svctui.store.audit_read import INTERRUPTED, AuditLog, AuditRun, read_audit
from svctui.table_fit import Column, filled, fit_columns, left_out_hint, ranked, wrapped
from svctui.text import cut_before, cut_start, when_text
from svctui.tui.app import SvcTuiApp
from svctui.tui.loading import Channel, Loaded, LoadFailed, Loads
from svctui.tui.screens.list_screen import ListScreen
from svctui.tui.screens.selectors.keys import SELECTOR_BINDINGS
from svctui.tui.screens.selectors.messages import AuditStatus, SelectorGone, SelectorsChanged
from svctui.tui.screens.selectors.restore import nothing_to_restore, restorable, restore_runs_text, start_restore
from svctui.tui.screens.selectors.resume import start_resume
from svctui.tui.screens.selectors.session import read_only_why, server_words
from svctui.tui.screens.selectors.wording import plural
from svctui.tui.status_line import OWN, ROWS, StatusPart
from svctui.tui.widgets.paged_table import PagedTable
from svctui.tui.widgets.row_table import RowTable
from svctui.visible import visible

__all__ = ["INTERRUPTED", "AuditTab"]
AUDIT: Channel[AuditLog] = Channel("audit")  # the audit log, read in a thread
AUDIT_LOG_WHERE = "its folder: svctui locate state"
# The columns in the order shown, with their least widths, ranked in the order they matter: fitted to the tab's width
# (svctui.table_fit): each keeps at least its least width, the widest are cut first and cut text ends with `…`; on a
# narrow tab the columns last in that order are left out (the status line names every one). At 80 columns (the tags
# pane gives way to the tab) when, state, action, counts and tag fit: what a run is chosen by; the chosen run's id is
# in the line under the table. The free room goes to the counts first, then the tag (cut to its least before the
# counts are short): counts too wide for their column wrap onto more lines of the row, never cut (issue 28). The tag
# and the counts say which run it is: read whole before the run, who and server columns show (`whole_first`).
TAG_LEAST = 10  # `1 Tier Ze…`: the tag id and the start of its name
COUNTS_LEAST = 12  # `161 deleted,`: a count and its outcome's first word on a line
RESUMED_BY = "resumed by "  # a state naming the run that resumed this one (AuditRun.state)
STATE_LEAST = len(RESUMED_BY) + 5  # `resumed by …c47a`: the resuming run's suffix, which `svctui audit show` takes
RUN_COLUMNS = ranked(
    (
        Column("run", "run", least=12),
        Column("when", "when (UTC)", least=20),
        Column("action", "action", least=7),
        Column("state", "state", least=STATE_LEAST, whole=True),  # whole, or its least: never a cell short
        Column("who", "who", least=12),
        Column("server", "server", least=12),
        Column("tag", "tag", least=TAG_LEAST, names=True, whole_first=True),
        Column("counts", "counts", least=COUNTS_LEAST, names=True, whole_first=True, wraps=True),
    ),
    ("when", "state", "action", "counts", "tag", "run", "who", "server"),
)
WRAPPED = frozenset(column.key for column in RUN_COLUMNS if column.wraps)  # wrap in their column, never cut
SELECTOR_COLUMNS = ranked(
    (
        Column("id", "id", least=9),
        Column("name", "name", least=14, names=True),
        Column("outcome", "outcome", least=15),  # `restored → 1201` whole beside a name that takes the room
        Column("status", "status", least=6),
        Column("message", "message", least=12, names=True),
        Column("request", "request id", least=12),
    ),
    ("id", "name", "outcome", "message", "status", "request"),
)
MESSAGE_WIDTH = 40  # the message column is never wider (`svctui audit show RUN` prints it whole)
NEW_ID = " → "  # a restored selector's outcome: `restored → 1201` (its old id is the id column)


def one_line(text: str) -> Text:
    """A cell on one line, cut with `…` (a row made higher by its counts wraps no other cell), read as plain text."""
    return Text(visible(text), no_wrap=True, overflow="ellipsis", end="")


def keep_run_end(text: str, width: int) -> str:
    """A state cut keeping its words and the end of the run id it names (`resumed by …048Z-c47a`: cut at its end it
    read `resumed by…` at 80 columns and `resumed by 20261205…` at 160, the part every run of a day shares)."""
    if text.startswith(RESUMED_BY) and width >= STATE_LEAST:
        return RESUMED_BY + cut_start(text.removeprefix(RESUMED_BY), width - len(RESUMED_BY))
    return text  # (the table ends it with `…`)


def keep_new_id(text: str, width: int) -> str:
    """An outcome cell cut before its `→ NEW_ID` (`rest… → 1201`): the new id is the value a restore row is read for
    (cut at its end, it read `restored: 24 →…`)."""
    return cut_before(text, width, NEW_ID)


# How a cell too wide for its column is cut (any other ends with `…`). A run id (`20261124T185501Z-3f9a`) is cut from
# the left: cut from the right it read `20261124T18…` on every run of an hour; its end (time to the second and the
# random suffix) tells runs apart, and the when column has the date; so is the run a state names (`resumed by …`).
# An outcome keeps its new id; a request id its end, as on the run sheet (`…ea017786d0c`: the part that differs).
CUTS: dict[str, Callable[[str, int], str]] = {
    "run": cut_start,
    "state": keep_run_end,
    "outcome": keep_new_id,
    "request": cut_start,
}


ELSEWHERE = "elsewhere"  # the action of a selector list's key pressed on the Audit tab: it says where it works
SAID_WIDTH = 40  # a key's tooltip longer than this is said by the key's name (`Delete`) instead
# The list's keys that need no word here: `a` switches tabs, escape closes nothing, `H` does nothing on selectors.
NOT_SAID = frozenset({"switch_tab", "close_detail", "toggle_hydration"})


def elsewhere_bindings() -> list[BindingType]:
    """Each key of the Selectors tab (the list screen's, the cleanup screen's, its table's), hidden, as a key that
    says it works on the Selectors tab; under the same binding id, so a keymap moves both."""
    found: list[BindingType] = []
    for binding in [*ListScreen.BINDINGS, *SELECTOR_BINDINGS, *PagedTable.BINDINGS]:
        if not isinstance(binding, Binding) or binding.action.split("(")[0] in NOT_SAID:
            continue
        action = f"{ELSEWHERE}({binding.id!r})"
        tooltip = binding.tooltip or binding.description  # help lists these under "Selectors tab only"
        found.append(Binding(binding.key, action, binding.description, show=False, id=binding.id, tooltip=tooltip))
    return found


def sentence(text: str) -> str:
    """`Nothing to resume: …` from `nothing to resume: …`: capitalised, ending with a full stop."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def audit_summary(runs: int, unreadable: int) -> str:
    """`2 runs in the audit log (its folder: svctui locate state)`, and the unreadable lines skipped if any."""
    skipped = f"; {plural(unreadable, 'unreadable line')} skipped" if unreadable else ""
    return f"{plural(runs, 'run')} in the audit log ({AUDIT_LOG_WHERE}){skipped}"


def who_text(run: AuditRun) -> str:
    """`demo (token 3f25…) / alice`."""
    plan = run.plan
    token = plan.get("token_id")
    who = str(plan.get("profile") or "?") + (f" (token {str(token)[:8]}…)" if token else "")
    return who + (f" / {plan['user']}" if plan.get("user") else "")


def action_text(run: AuditRun) -> str:
    """`delete` or `restore`, as `svctui audit list` says it."""
    return run.action.removeprefix("selectors.")


class AuditTab(Widget):
    """Past runs of the audit log and the chosen run's selectors; resume an interrupted one."""

    app = getters.app(SvcTuiApp)

    HELP_GROUP: ClassVar[str] = "audit"  # help lists the tab's keys under their own heading

    DEFAULT_CSS = """
    AuditTab { height: 1fr; }
    AuditTab #audit-runs { height: 2fr; }
    AuditTab #audit-selectors { height: 3fr; }
    AuditTab .audit-line { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "reload", "Reload log", tooltip="Read the audit log again"),
        Binding("s", "resume", "Resume run", tooltip="Delete what the highlighted run did not settle (asks first)"),
        Binding(
            "u", "restore", "Restore run", tooltip="Recreate what the highlighted run deleted, new ids (asks first)"
        ),
        # When `s` or `u` is off (dimmed, or hidden read-only) these take the key and say why: never a silent key.
        Binding("s", "why_not('resume')", show=False),
        Binding("u", "why_not('restore')", show=False),
        *elsewhere_bindings(),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.loads = Loads(self)
        self.log_runs: list[AuditRun] = []
        self.audit_log: AuditLog | None = None
        self.failure = ""  # why the log could not be read, until a read works
        self.chosen: AuditRun | None = None
        self.nothing_left = ""  # why `u` finds nothing to re-create in the chosen run ('' when it may), see show_run
        self.fitted_width = 0  # the tab's width the columns were fitted to
        self.left_out: dict[str, list[str]] = {}  # table id -> the titles of the columns it leaves out at this width

    def compose(self) -> ComposeResult:
        """What the log holds, the runs, the chosen run's selectors."""
        yield Static("Audit log: reading…", id="audit-summary", classes="audit-line", markup=False)
        yield RowTable(id="audit-runs")
        yield Static("", id="audit-run-line", markup=False)
        yield RowTable(id="audit-selectors")

    def on_resize(self, event: events.Resize) -> None:
        """Fit the columns to the new width (cut text ends with `…`; what does not fit is left out)."""
        if event.size.width != self.fitted_width:
            self.fill_runs()
            self.fill_selectors()
            self.post_message(AuditStatus())  # the columns left out may have changed

    def room(self, table: RowTable[Text | Group]) -> int:
        """The cells a table's columns may take: the tab's width less the table's vertical scrollbar."""
        return self.size.width - table.styles.scrollbar_size_vertical

    def fill(
        self, table: RowTable[Text | Group], columns: Sequence[Column], rows: list[tuple[str | None, list[str]]]
    ) -> None:
        """Put the rows in the table, its columns fitted to the tab's width (svctui.table_fit); a column no row has
        a value in (a run's messages when every deletion went through) takes no room from the others."""
        kept = filled((row for _, row in rows), len(columns))
        columns = [columns[index] for index in kept]
        rows = [(key, [row[index] for index in kept]) for key, row in rows]
        natural = {
            column.key: max([cell_len(column.title), *(cell_len(row[index]) for _, row in rows)])
            for index, column in enumerate(columns)
        }
        natural["message"] = min(natural.get("message", 0), MESSAGE_WIDTH)
        wrapping = {column.key: [row[index] for _, row in rows] for index, column in enumerate(columns) if column.wraps}
        fitted = fit_columns(columns, natural, self.room(table), texts=wrapping)
        widths = fitted.widths
        self.left_out[table.id or ""] = fitted.left_out_titles()
        self.fitted_width = self.size.width
        table.clear(columns=True)
        for column in columns:
            if column.key in widths:
                table.add_column(column.title, key=column.key, width=widths[column.key])
        shown = [(index, column.key) for index, column in enumerate(columns) if column.key in widths]
        for row_key, row in rows:
            cells = [self.cell(key, row[index], widths[key]) for index, key in shown]
            height = max(len(cell.renderables) if isinstance(cell, Group) else 1 for cell in cells)
            table.add_row(*cells, key=row_key, height=height)

    @staticmethod
    def cell(key: str, text: str, width: int) -> Text | Group:
        """A cell as its column shows it: wrapped onto lines of the row (a run's counts), cut its own way (CUTS) or
        as it is (the table ends a cut one with `…`)."""
        if key in WRAPPED:
            lines = wrapped(text, width)
            return Group(*(Text(visible(line)) for line in lines)) if len(lines) > 1 else one_line(lines[0])
        return one_line(CUTS[key](text, width) if key in CUTS else text)

    def on_show(self) -> None:
        """Read the log each time the tab is shown (a run may have written to it meanwhile)."""
        self.action_reload()

    def action_reload(self) -> None:
        """Read the audit log again (in a thread)."""
        self.loads.start_in_thread(AUDIT, read_audit)

    def on_loaded(self, message: Loaded[object]) -> None:
        """Show the runs, newest first."""
        if not AUDIT.answers(message) or not self.loads.is_current(message):
            return
        log = message.value
        self.audit_log = log
        self.failure = ""
        known = {run.run_id for run in self.log_runs}
        self.log_runs = list(reversed(log.runs))
        self.query_one("#audit-summary", Static).update(audit_summary(len(log.runs), log.unreadable_lines))
        if self.log_runs and self.log_runs[0].run_id not in known:
            self.chosen = None  # a run was added (a resume, a restore, a run meanwhile): the newest is shown
        chosen = self.chosen.run_id if self.chosen is not None else None
        self.fill_runs()
        kept = next((run for run in self.log_runs if run.run_id == chosen), None)
        self.show_run(kept or (self.log_runs[0] if self.log_runs else None))

    def fill_runs(self) -> None:
        """The runs table: one row per run of the log, newest first; the cursor stays on the chosen run (by its
        id: a run added at the top moves every row down), else on the newest."""
        table: RowTable[Text | Group] = self.query_one("#audit-runs", RowTable)
        chosen = self.chosen.run_id if self.chosen is not None else None
        self.fill(table, RUN_COLUMNS, [(run.run_id, self.run_cells(run)) for run in self.log_runs])
        if chosen is not None and chosen in {run.run_id for run in self.log_runs}:
            table.move_cursor(row=table.get_row_index(chosen))

    def run_cells(self, run: AuditRun) -> list[str]:
        """A run's cells in RUN_COLUMNS order, whole (the table cuts them to its width; an export keeps them)."""
        tag = f"{run.tag_id if run.tag_id is not None else '?'} {run.plan.get('tag_name') or ''}".strip()
        cells = [run.run_id, when_text(run.started), action_text(run), run.state, who_text(run)]
        return [*cells, self.server_text(run), tag, run.counts_text]

    def server_text(self, run: AuditRun) -> str:
        """The run's server; `this server (demo server)` when it is the profile's, whose runs can be resumed here."""
        server = str(run.plan.get("server") or "?").rstrip("/")
        app = self.app
        if app.profile is not None and app.profile.base_url.rstrip("/") == server:
            return f"this server ({server_words(app)})"
        return server

    def on_load_failed(self, message: LoadFailed) -> None:
        """The log could not be read: say why."""
        if self.loads.is_current(message):
            self.failure = str(message.error)
            self.query_one("#audit-summary", Static).update(f"The audit log could not be read: {message.error}")
            self.post_message(AuditStatus())

    def status_parts(self) -> list[str]:
        """The tab's status line: how many runs, which one is chosen (`run … (2 of 5)`), or why there are none."""
        if self.failure:
            return [StatusPart("audit log unreadable (r to retry)", ROWS)]
        if self.audit_log is None:
            return [StatusPart("audit log: reading…", ROWS)]
        runs = plural(len(self.log_runs), "run")  # `11 runs` before the columns left out give way
        parts: list[str] = [StatusPart(f"{runs} in the audit log", ROWS, short=runs, short_rank=OWN)]
        for table_id, whose in (("audit-runs", ""), ("audit-selectors", "selectors ")):
            hint = left_out_hint(self.left_out.get(table_id, []), every=True)
            if hint:  # `+4 columns: run, who, server, tag`: every column left out (before the run line gives way)
                parts.append(StatusPart(whose + hint, OWN))
        run = self.chosen
        if run is not None and run in self.log_runs:  # (its id is also on the line under the runs)
            where = f"{self.log_runs.index(run) + 1} of {len(self.log_runs)}"
            parts.append(StatusPart(f"run {run.run_id} selected ({where}): {run.state}"))
        return parts

    def action_elsewhere(self, binding_id: str) -> None:
        """A key of the Selectors tab pressed here: say where it works (it does nothing here)."""
        binding = next(
            (
                active.binding
                for active in self.screen.active_bindings.values()
                if active.binding.id == binding_id and active.binding.action.startswith(ELSEWHERE)
            ),
            None,
        )
        if binding is None:
            self.notify("That key works on the Selectors tab (a goes back).", markup=False)
            return
        said = binding.tooltip if len(binding.tooltip) <= SAID_WIDTH else binding.description
        key = self.app.get_key_display(binding)
        self.notify(f"{key}: {said[:1].lower()}{said[1:]} works on the Selectors tab (a goes back).", markup=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the highlighted run's selectors. A refill of the runs table posts highlights of its own (the first
        row, then the chosen run's): one for a row the cursor has left since, or for the run already shown (a reload
        shows the chosen run itself), fills nothing again."""
        if event.data_table.id != "audit-runs":
            return
        event.stop()
        if event.cursor_row != event.data_table.cursor_row:
            return
        key = event.row_key.value
        run = next((run for run in self.log_runs if run.run_id == key), None)
        if run is not None and run is self.chosen:
            return
        self.show_run(run)

    def made_elsewhere(self, run: AuditRun) -> str:
        """The server the run was made on when it is not this profile's (resume and restore refuse it), else ''."""
        app = self.app
        profile = app.profile
        try:
            check_same_server(
                run,
                profile.base_url if profile is not None else "",
                verb="resume",
                token_id=profile.token_id if profile is not None else None,
            )
        except ResumeRefused:
            return str(run.plan.get("server"))
        return ""

    def show_run(self, run: AuditRun | None) -> None:
        """The run's line (its state, what can be done with it) and its selectors."""
        self.chosen = run
        self.nothing_left = ""
        self.post_message(AuditStatus())
        self.fill_selectors()
        line = self.query_one("#audit-run-line", Static)
        if run is None:
            line.update("No runs yet: deletions made here or with `svctui selectors delete` are listed here.")
            return
        plan = self.restore_plan(run)
        self.nothing_left = self.nothing_to_restore_text(run, plan)
        self.refresh_bindings()  # `u` dimmed where the run has nothing left to re-create
        hint = self.restored_hint(run, plan)
        elsewhere = self.made_elsewhere(run)
        if not hint and elsewhere:
            hint = f" · made on {elsewhere}: resume or restore it with that server's profile"
        elif not hint and read_only_why(self.app) is None:
            offers = [("s to resume it", resume_refusal(run) is None), ("u to restore it", not self.nothing_left)]
            hint = "".join(f" · {offer}" for offer, offered in offers if offered)
        if run.end is not None and not run.counts:  # the counts column cuts the words that say how it ended
            line.update(visible(f"Run {run.run_id}: {run.counts_text}{hint}"))
            return
        # a run its resumes finished: who deleted what, in the restore's words (its counts are its own outcomes)
        split = f": {resumes_split(plan, name_resumes=False)}" if plan is not None and plan.by_resume else ""
        line.update(visible(f"Run {run.run_id}: {plural(len(run.entries), 'selector')}, {run.state}{split}{hint}"))

    def fill_selectors(self) -> None:
        """The chosen run's selectors: id, name, outcome (or in doubt / not attempted), status, message, request id."""
        rows: list[tuple[str | None, list[str]]] = []
        names = self.audit_log.names(self.chosen.run_id) if self.chosen and self.audit_log else {}
        for entry in self.chosen.entries.values() if self.chosen is not None else ():
            outcome = "in doubt (no answer)" if entry.in_doubt else (entry.outcome or "not attempted")
            if entry.new_id is not None:
                outcome = f"{outcome}{NEW_ID}{entry.new_id}"
            status = str(entry.status) if entry.status is not None else ""
            rows.append(
                (
                    None,
                    [
                        str(entry.selector_id),
                        entry.name or names.get(entry.selector_id, ""),
                        outcome,
                        status,
                        entry.message,
                        entry.request_id or "",
                    ],
                )
            )
        self.fill(self.query_one("#audit-selectors", RowTable), SELECTOR_COLUMNS, rows)

    def restore_plan(self, run: AuditRun) -> RestorePlan | None:
        """What `u` would re-create of the run (None when it is not a deletion run that deleted something)."""
        if self.audit_log is None or not restorable(run):
            return None
        try:
            return plan_restore(self.audit_log, run.run_id)
        except NothingToRestore:
            return None

    def nothing_to_restore_text(self, run: AuditRun, plan: RestorePlan | None) -> str:
        """What `u` says of a deletion run with nothing (left) to re-create (restored already, or only selectors it
        can't give back); '' when it has some, or is no deletion run (`why_not_text` says that)."""
        if self.audit_log is None or not restorable(run):
            return ""
        if plan is None:  # plan_restore refused it: its reason, as `u` said it
            try:
                plan_restore(self.audit_log, run.run_id)
            except NothingToRestore as exc:
                return sentence(str(exc))
            return ""
        return "" if plan.to_restore else nothing_to_restore(plan, restore_runs_of(self.audit_log, run.run_id))

    def restored_hint(self, run: AuditRun, plan: RestorePlan | None) -> str:
        """` · restored by run R` for a deletion run with nothing left to re-create (an earlier restore did it)."""
        if self.audit_log is None or plan is None or plan.to_restore or not plan.already:
            return ""
        return (
            f" · restored by {restore_runs_text(restore_runs_of(self.audit_log, run.run_id)).removeprefix('restore ')}"
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`s` and `u` dimmed when the chosen run can't be resumed / restored here, hidden read-only (`why_not`
        then says why when pressed)."""
        if action in ("resume", "restore"):
            if read_only_why(self.app) is not None:
                return False
            return True if not self.why_not_text(action) else None
        # ctrl+d is hidden on the Selectors tab too when read-only: nothing to point at
        return not (action == ELSEWHERE and parameters == ("selectors.delete",) and read_only_why(self.app) is not None)

    def why_not_text(self, action: str) -> str:
        """Why the chosen run can't be resumed (`action` 'resume') or restored ('restore') here; '' when it can."""
        doing = "Resuming" if action == "resume" else "Restoring"
        why_read_only = read_only_why(self.app)
        if why_read_only is not None:
            return f"{doing} is off: {why_read_only}."
        run = self.chosen
        if run is None:
            return "No run is chosen: the audit log has no runs yet."
        elsewhere = self.made_elsewhere(run)
        if elsewhere:
            return f"Run {run.run_id} was made on {elsewhere}: {action} it with that server's profile."
        if action == "resume":
            refusal = resume_refusal(run)
            return "" if refusal is None else sentence(str(refusal))
        if run.action != "selectors.delete":
            undid = run.plan.get("restores")
            of = f" (run {undid})" if undid else ""
            return f"Run {run.run_id} is a restore run: it can't be restored; only a deletion run{of} can."
        if not restorable(run):
            return f"Run {run.run_id} deleted no selectors: there is nothing to restore."
        return self.nothing_left

    def action_why_not(self, action: str) -> None:
        """`s` or `u` while off: say why (the footer shows the key dimmed, or hides it read-only)."""
        why_not = self.why_not_text(action)
        if why_not:
            self.notify(why_not, severity="warning", markup=False)
        elif action == "resume":  # it came on meanwhile (the log was read again): do it
            self.action_resume()
        else:
            self.action_restore()

    def action_resume(self) -> None:
        """Ask to resume the chosen run (selectors left unsettled); the run re-reads the log when it closes."""
        run = self.chosen
        why_not = self.why_not_text("resume")
        if run is None or why_not:
            self.action_why_not("resume")
            return
        app = self.app
        start_resume(app, run, on_gone=self._gone, on_closed=self._restored)

    def _gone(self, tag_id: int, selector_id: int) -> None:
        """A resume deleted a selector (or found it gone): the cleanup screen clears its mark."""
        self.post_message(SelectorGone(tag_id, selector_id))

    def action_restore(self) -> None:
        """Ask to re-create what the chosen deletion run deleted; the log is read again when the restore closes."""
        run, log = self.chosen, self.audit_log
        if run is None or log is None or self.why_not_text("restore"):
            self.action_why_not("restore")
            return
        app = self.app
        start_restore(app, log, run, on_closed=self._restored)

    def _restored(self) -> None:
        """After a restore or a resume: the log has a new run, and the tag's selectors changed."""
        self.action_reload()
        self.post_message(SelectorsChanged())
