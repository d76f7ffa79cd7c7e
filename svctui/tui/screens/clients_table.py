"""The Clients table: the widget, and each row's cells (before its answer and with it) in its columns' keys."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from rich.style import Style
from rich.text import Text
from textual import events

from svctui.api.models import status_label
from svctui.fleet import Member, MemberHealth
from svctui.triage.health import RUN_STRIP_GLYPHS, Verdict, age_text
from svctui.tui.screens.clients_detail import next_run, stale_reason, when_text
from svctui.tui.widgets.row_table import RowTable
from svctui.visible import visible

VERDICT_STYLES = {
    Verdict.FAILING: "error",
    Verdict.STALE: "warning",
    Verdict.DROPS: "warning",
    Verdict.NEVER_RAN: "secondary",
    Verdict.OK: "success",
}
VERDICT_GLYPHS = {Verdict.FAILING: "✗", Verdict.STALE: "◷", Verdict.DROPS: "▼", Verdict.NEVER_RAN: "○", Verdict.OK: "✓"}


class RankCell(Text):
    """The first cell of a row: remembers the client id so the rows can be put in rank order by sorting on it."""

    def __init__(self, text: str, row_key: str, style: str | Style = "") -> None:
        super().__init__(text, style=style)
        self.row_key = row_key


class ClientsTable(RowTable[Text]):
    """The clients table: its columns are fitted to its width (`ClientsScreen.fit_columns`) whenever that changes."""

    def __init__(self, refit: Callable[[], None], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._refit = refit  # the screen fits the columns to the table's width (`ClientsScreen.fit_columns`)

    def fixed_layout(self) -> bool:
        """True: every column has the width `fit_clients` gave it, so DataTable need not measure each new or
        changed cell for a natural width no column uses (the name's is kept row by row: ClientsScreen._widest)."""
        return not self.has_row_labels() and not any(column.auto_width for column in self.columns.values())

    def on_resize(self, _event: events.Resize) -> None:
        """Fit the columns to the new width (the detail pane beside the table or under it, a resized terminal)."""
        self._refit()


def name_cell(member: Member) -> str:
    """A client's name as its row shows it (before its answer): the start of its id while it has none."""
    return visible(member.name) or member.client_id[:8] + "…"


def pending_cells(member: Member, now: datetime) -> dict[str, Text]:
    """The row's cells before its answer: what the client list says, `checking…` in its last run."""
    record = member.record
    cells = {
        "health": RankCell("…", member.client_id, style="dim"),
        "name": Text(name_cell(member)),
        "type": Text(visible(record.type) if record else ""),
        "checkin": Text(age_text(member.last_checkin, now)),
        "job": Text("" if record is None or record.current_job_id is None else str(record.current_job_id)),
        "next": Text(when_text(next_run(member, now))),
        "last": Text("checking…", style="dim"),
        "notok": Text(""),
        "drops": Text(""),
        "strip": Text(""),
        "version": Text(visible(record.version) if record else ""),
        "host": Text(visible(record.hostname) if record else ""),
    }
    return cells


def answer_cells(
    result: MemberHealth,
    pending: dict[str, Text],
    now: datetime,
    strip_runs: int,
    status_style: Callable[[int, bool], Style],
    semantic_style: Callable[[str, bool], Style],
) -> dict[str, Text]:
    """The row's cells for its answer (`result`): its pending cells (`pending`, changed here) with the verdict, the
    last run, the counts and the newest `strip_runs` runs of the strip, or its error; a client kept from the last
    round (an error now, a verdict before) dimmed with why. Styles from the theme by `status_style(status, bold)`
    and `semantic_style(name, bold)`."""
    cells = pending
    health = result.health
    if health is None:
        error = result.error
        text = error.user_message() if error is not None else "unknown error"
        style = semantic_style("error", True)
        cells["health"] = RankCell("! error", result.member.client_id, style=style)
        cells["last"] = Text(text, style=semantic_style("error", False))
        return cells
    verdict = health.verdict
    cells["health"] = RankCell(
        f"{VERDICT_GLYPHS[verdict]} {verdict}",
        result.member.client_id,
        style=semantic_style(VERDICT_STYLES[verdict], True),
    )
    cells["name"] = Text(visible(health.name) or result.member.client_id[:8] + "…")
    last = health.last_run
    if last is not None:
        label = f"{status_label(last.status)} {age_text(last.execution_time, now)}"
        cells["last"] = Text(label, style=status_style(last.status, False))
    else:
        cells["last"] = Text("never ran", style="dim")
    cells["notok"] = Text(
        str(health.not_ok_in_window), style=semantic_style("error", False) if health.not_ok_in_window else ""
    )
    cells["drops"] = Text(
        str(health.drops_in_window), style=semantic_style("warning", False) if health.drops_in_window else ""
    )
    strip = Text()
    shown = health.strip[-strip_runs:]
    start = 0
    for end in range(1, len(shown) + 1):  # a run of one status is one span: ~10 spans, not 20, per row
        if end == len(shown) or shown[end] != shown[start]:
            glyph = RUN_STRIP_GLYPHS.get(shown[start], "?")
            strip.append(glyph * (end - start), style=status_style(shown[start], True))
            start = end
    cells["strip"] = strip
    if health.stale:
        cells["checkin"] = Text(cells["checkin"].plain + " ◷", style=semantic_style("warning", False))
    if result.error is not None:  # a reload could not fetch it: the last answer's cells, dimmed, and why
        for column, cell in cells.items():
            # the pending row's cells are shared: not changed in place (the rank cell is this row's own)
            cells[column] = dimmed = cell if isinstance(cell, RankCell) else cell.copy()
            dimmed.stylize("dim")
        reason = stale_reason(result.error)
        cells["last"] = Text(f"stale: {reason}", style=semantic_style("warning", True))
    return cells
