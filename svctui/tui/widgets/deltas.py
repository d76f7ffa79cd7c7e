"""Compare with the previous run: per-count deltas of a task against its previous comparable run.

"Previous comparable run" is one rule (svctui.triage.baseline), the one the drops and the plot use: per domain,
the latest earlier run of the same client with the same collection kinds that collected that domain
successfully. Each domain's heading names its baseline task (`vs 2773`), so the comparison and the plot's
"vs task 2773" always agree.

Laid out with the 12 counts as rows and the domains as columns (domains are few, counts are many), plus a
result row (ok/failed before → after) and a total column; domains added or removed are marked in their header.
The columns are fitted to the pane's width (svctui.table_fit, as every table's): a domain's values are never cut; a
heading that does not fit goes on two lines (the domain over `vs 2773`), cut with `…` only when a line still does
not fit; the domains that do not fit are named in the header (`+2 columns: …`).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import events, getters
from textual.app import ComposeResult
from textual.widgets import Static

from svctui.table_fit import Column, fit_columns, left_out_hint
from svctui.triage import (
    COUNT_LABELS,
    COUNT_NAMES,
    Change,
    CountDelta,
    DomainComparison,
    RunComparison,
    format_delta,
)
from svctui.tui.widgets.row_table import RowTable
from svctui.tui.widgets.status_colors import drop_style, semantic_style
from svctui.tui.widgets.task_times import format_local_utc
from svctui.tui.widgets.triage_pane import TriagePane
from svctui.visible import visible

RESULT_ROW = "__result__"
NO_TASK_NOTE = "select a task to compare it with its previous comparable run"
RULE = "comparable: same client, same collection kinds, the domain collected successfully (the rule of the drops)"


def _success_word(value: bool | None) -> str:
    return "—" if value is None else ("ok" if value else "failed")


def _two_lines(heading: Text) -> Text:
    """`OT.ADVENTUREWORKS.ORG vs 1958` as the domain over `vs 1958` (or over `(removed)`, `(no baseline)`)."""
    plain = heading.plain
    at = max(plain.rfind(" vs "), plain.rfind(" ("))
    if at < 0:
        return heading
    return Text("\n").join([heading[:at], heading[at + 1 :]])


def _widest_line(text: Text) -> int:
    """The cells of the widest line of `text`."""
    return max(line.cell_len for line in text.split(allow_blank=True))


def _cut_lines(text: Text, width: int) -> Text:
    """Each line of `text` no wider than `width`, a cut one ending with `…`."""
    lines = text.split(allow_blank=True)
    if all(line.cell_len <= width for line in lines):
        return text
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return Text("\n").join(lines)


class DeltasPane(TriagePane):
    """A header naming both runs, then a counts-by-domains table of deltas (absolute and %)."""

    DEFAULT_CSS = """
    DeltasPane {
        height: 100%;
    }
    DeltasPane > #deltas-header {
        padding: 0 1;
        background: $boost;
    }
    /* the room the pane has under the header (the table was as tall as its rows, clipped by a short pane): it
       scrolls, so the dropped count's row, the cursor's, is in view; no taller than its rows (set when filled) */
    DeltasPane > DataTable {
        height: 1fr;
    }
    """

    comparison: RunComparison | None = None
    note = NO_TASK_NOTE
    fitted_width = 0  # the pane's width the columns were fitted to
    left_out: tuple[str, ...] = ()  # the domains the table leaves out at this width
    table = getters.query_one("#deltas-table", RowTable)  # the deltas table

    def compose(self) -> ComposeResult:
        """Header and table."""
        yield Static(self.note, id="deltas-header", markup=False)
        table: RowTable[str | Text] = RowTable(id="deltas-table")
        yield table

    def on_mount(self) -> None:
        """Repaint on theme change."""
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._render_comparison())

    def on_resize(self, event: events.Resize) -> None:
        """Fit the columns to the new width."""
        if event.size.width != self.fitted_width:
            self._render_comparison()

    def show_note(self, note: str) -> None:
        """Clear the table and show a one-line note (loading, no event, ...)."""
        self.comparison = None
        self.note = note
        self._render_comparison()

    def show_comparison(self, comparison: RunComparison | None) -> None:
        """Show `comparison` (None clears)."""
        self.comparison = comparison
        if comparison is None:
            self.note = NO_TASK_NOTE
        self._render_comparison()

    def _render_comparison(self) -> None:
        header = self.query_one("#deltas-header", Static)
        table = self.table
        table.clear(columns=True)
        self.left_out = ()
        comparison = self.comparison
        if comparison is None:
            header.update(self.note)
            return
        if comparison.previous is None:
            header.update(self._header(comparison))
            return
        domains = self.drops_first(comparison.domains)  # the dropped cell in view without scrolling sideways
        keys: list[str] = []
        for domain in domains:
            key, again = f"domain:{domain.domain_name}", 1
            while key in keys:  # a server listing one domain twice: a column each, not a DuplicateKey crash
                again += 1
                key = f"domain:{domain.domain_name}:{again}"
            keys.append(key)
        totals = {delta.field: delta for delta in comparison.totals}
        labels = {"count": Text("Count"), "total": Text("Total")}
        by_key = dict(zip(keys, domains, strict=True))
        labels.update({key: self._domain_heading(domain) for key, domain in by_key.items()})
        rows: list[tuple[str, dict[str, Text]]] = [
            (RESULT_ROW, {"count": Text("Result", style="bold"), "total": Text("")})
        ]
        rows[0][1].update({key: self._result_cell(domain) for key, domain in by_key.items()})
        for position, field in enumerate(COUNT_NAMES):
            cells = {"count": Text(COUNT_LABELS[field]), "total": self._delta_cell(totals[field], bold=True)}
            cells.update(
                {
                    key: self._delta_cell(domain.deltas[position]) if domain.judged else Text("—", style="dim")
                    for key, domain in by_key.items()
                }
            )
            rows.append((field, cells))
        values = {key: max(cells[key].cell_len for _row, cells in rows) for key in labels}
        # The count and its total always show (the total beside the counts: a narrow pane drops domains, not the
        # sum); a domain's values are never cut, only its heading (free room to the headings first).
        columns = [
            Column("count", "Count", droppable=False),
            Column("total", "Total", droppable=False),
            *(
                Column(key, domain.domain_name, least=max(1, values[key]), rank=rank, names=True)
                for rank, (key, domain) in enumerate(by_key.items(), start=1)
            ),
        ]
        room = self.size.width - table.styles.scrollbar_size_vertical
        natural = {key: max(values[key], labels[key].cell_len) for key in labels}
        fitted = fit_columns(columns, natural, room, 2 * table.cell_padding)  # not laid out: all (a resize fits it)
        if any(width < labels[key].cell_len for key, width in fitted.widths.items()):
            # a heading would be cut (`ADVENTUREWORKS.ORG v…`, a walker at 80 columns): the domain on one line, its
            # baseline (`vs 2083`) or `(removed)` on the next, each whole where the values' width allows
            labels = {key: _two_lines(label) for key, label in labels.items()}
            natural = {key: max(values[key], _widest_line(labels[key])) for key in labels}
            fitted = fit_columns(columns, natural, room, 2 * table.cell_padding)
        table.header_height = max(len(label.split()) for label in labels.values())
        table.styles.max_height = table.header_height + len(rows)
        if room > 0:
            self.fitted_width = self.size.width
        self.left_out = tuple(visible(name) for name in fitted.left_out_titles())
        header.update(self._header(comparison))  # after the fit: it names the domains left out
        for key, width in fitted.widths.items():
            table.add_column(_cut_lines(labels[key], width), key=key, width=width)
        for row_key, cells in rows:
            table.add_row(*(cells[key] for key in fitted.widths), key=row_key)
        worst = self.worst_field(comparison)
        if worst is not None:  # the dropped count's row in view and highlighted (at 80x24 the pane shows one row)
            table.move_cursor(row=table.get_row_index(worst), animate=False)

    def worst_drop(self, domain: DomainComparison) -> CountDelta | None:
        """The domain's count that dropped most beyond the threshold (in percent), None when none did (a failed
        result has no counts: it is never a drop)."""
        if not domain.judged:
            return None
        dropped = [
            delta
            for delta in domain.deltas
            if delta.delta < 0 and delta.percent is not None and -delta.percent > self.threshold * 100
        ]
        return min(dropped, key=lambda delta: delta.percent or 0.0, default=None)

    def drops_first(self, domains: tuple[DomainComparison, ...]) -> list[DomainComparison]:
        """The domains whose counts dropped first, the worst drop first; the others keep their order."""
        worst = {domain.domain_name: self.worst_drop(domain) for domain in domains}

        def rank(domain: DomainComparison) -> float:
            drop = worst[domain.domain_name]
            return drop.percent or 0.0 if drop is not None else 1.0

        return sorted(domains, key=rank)

    def drops(self, comparison: RunComparison) -> list[tuple[DomainComparison, CountDelta]]:
        """Each domain with a drop beyond the threshold, with its worst drop."""
        return [(domain, drop) for domain in comparison.domains if (drop := self.worst_drop(domain)) is not None]

    def worst_field(self, comparison: RunComparison) -> str | None:
        """The count (its row key) of the worst drop of the comparison, the one the header names; None without one."""
        drops = self.drops(comparison)
        return min(drops, key=lambda pair: pair[1].percent or 0.0)[1].field if drops else None

    def _drop_line(self, comparison: RunComparison) -> Text | None:
        """`Drop: CORP.EXAMPLE.COM Users 1,234 → 791 (-443, -35.9 %)`, the worst drop, as P names it."""
        drops = self.drops(comparison)
        if not drops:
            return None
        domain, drop = min(drops, key=lambda pair: pair[1].percent or 0.0)
        text = Text("\nDrop: ", style="bold")
        text.append(f"{visible(domain.domain_name)} {drop.label} {drop.previous or 0:,} → {drop.current or 0:,} ")
        text.append(f"({drop.delta:+,}, {drop.percent or 0.0:+.1f} %)", style=drop_style(self.app, bold=True))
        if len(drops) > 1:
            text.append(f"; {len(drops) - 1} more domain{'s' if len(drops) > 2 else ''} dropped")
        return text

    def _header(self, comparison: RunComparison) -> Text:
        task = comparison.task
        text = Text()
        baselines = comparison.baselines
        if not task.domain_results:
            text.append(f"Task {task.id} has no domain results to compare")
            return text
        if not baselines:
            text.append(f"Task {task.id}: no earlier comparable run of its domains in the loaded history")
        elif len(baselines) == 1:
            previous = baselines[0]
            text.append(f"Task {task.id}", style="bold")
            text.append(" vs previous comparable run: ")
            text.append(f"task {previous.id}", style="bold")
            executed = format_local_utc(previous.execution_time, self.zone)
            event = f"event {previous.event_id}" if previous.event_id is not None else "no event"
            text.append(f" ({previous.status_label}, {event}, executed {executed})")
        else:
            text.append(f"Task {task.id}", style="bold")
            text.append(" vs previous comparable runs, per domain: ")
            text.append(", ".join(f"task {run.id}" for run in baselines), style="bold")
        drop = self._drop_line(comparison) if baselines else None
        if drop is not None:
            text.append_text(drop)
        failed = [visible(domain.domain_name) for domain in comparison.domains if domain.current_success is False]
        if failed:  # said instead of a -100 % "drop": a failed result has no counts to compare
            text.append("\nFailed: ", style=semantic_style(self.app, "error", bold=True))
            text.append(f"{', '.join(failed)} (no counts: not compared, not in Total)")
        text.append("\n")
        if self.left_out:  # the domains the table has no room for, named (as the domain results' `+3 columns`)
            text.append(f"{left_out_hint(list(self.left_out))} · ", style="italic")
        text.append(RULE, style="dim")
        return text

    def _domain_heading(self, domain: DomainComparison) -> Text:
        if domain.previous_task is None and domain.change is Change.ADDED:
            return Text(f"{visible(domain.domain_name)} (no baseline)", style=semantic_style(self.app, "success"))
        if domain.change is Change.REMOVED:
            return Text(f"{visible(domain.domain_name)} (removed)", style=semantic_style(self.app, "error"))
        if domain.previous_task is not None:
            return Text(f"{visible(domain.domain_name)} vs {domain.previous_task.id}")
        return Text(visible(domain.domain_name))

    def _result_cell(self, domain: DomainComparison) -> Text:
        words = f"{_success_word(domain.previous_success)} → {_success_word(domain.current_success)}"
        if domain.current_success is False:
            return Text(words, style=semantic_style(self.app, "error", bold=True))
        if domain.previous_success is False and domain.current_success:
            return Text(words, style=semantic_style(self.app, "success"))
        return Text(words, style="dim")

    def _delta_cell(self, delta: CountDelta, *, bold: bool = False) -> Text:
        style: Style | str = "dim"
        percent = delta.percent
        if delta.delta < 0:
            beyond = percent is not None and -percent > self.threshold * 100
            style = drop_style(self.app, bold=True) if beyond else semantic_style(self.app, "warning")
        elif delta.delta > 0:
            style = semantic_style(self.app, "success")
        text = Text(format_delta(delta), style=style, justify="right")
        if bold:
            text.stylize("bold")
        return text
