"""A plot of one domain's counts across a client's tasks over time, with drops beyond the threshold marked.

One count at a time (Users by default, or the first count that dropped); `cycle_field` steps through the 12.
Like for like: given the selected task's collection kinds, only runs with the same kinds are plotted (a run that
does not collect AD structure reports zero users, which is no drop). Failed runs are left out of the line (their
counts are not measurements). Drops are drawn as `✗` markers in the theme's error colour and listed in words
under the plot, so they are visible without colour too.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from svctui.triage import COUNT_LABELS, COUNT_NAMES, DomainPoint, Drop
from svctui.tui.widgets.status_colors import drop_style, theme_rgb
from svctui.tui.widgets.task_times import format_short
from svctui.tui.widgets.triage_pane import TriagePane

DROP_MARKER = "✗"
MIN_CHART_ROWS = 8  # fewer rows cannot show a line with its ticks: the pane says it needs more room instead
MAX_DROP_LINES = 4


def _nice_top(high: int) -> int:
    """A round upper bound above `high` that splits into 4 whole ticks: 1,343 -> 1,600; 35 -> 40; 0 -> 4."""
    if high <= 0:
        return 4
    magnitude = int(10 ** max(len(str(high)) - 2, 0))
    step = magnitude
    while step * 4 < high * 1.05:
        step += magnitude
    return step * 4


class CountPlot(TriagePane):
    """Title line, the plotext chart, and the drops of the shown count in words."""

    DEFAULT_CSS = """
    CountPlot {
        height: 1fr;
    }
    CountPlot > #count-plot-title {
        padding: 0 1;
        background: $boost;
    }
    CountPlot > PlotextPlot {
        height: 1fr;
    }
    CountPlot > #count-plot-room { display: none; padding: 0 1; color: $warning; }
    CountPlot.-cramped > #count-plot-room { display: block; height: auto; }
    CountPlot.-cramped > PlotextPlot { display: none; }
    CountPlot > #count-plot-drops {
        padding: 0 1;
        height: auto;
    }
    """

    domain_name: str | None = None
    points: tuple[DomainPoint, ...] = ()
    drops: tuple[Drop, ...] = ()
    field = COUNT_NAMES[0]
    kinds: str | None = None
    note = "select a task and a domain to plot its counts over time"

    def compose(self) -> ComposeResult:
        """Title, chart, drop list."""
        yield Static(self.note, id="count-plot-title", markup=False)
        yield PlotextPlot(id="count-plot-chart")
        yield Static("", id="count-plot-room", markup=False)
        yield Static("", id="count-plot-drops", markup=False)

    def on_mount(self) -> None:
        """Redraw on theme change (line colours come from the theme)."""
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.redraw())
        self.redraw()

    def chart_rows(self) -> int:
        """The rows the chart would get: the pane's height less its title and drop list."""
        title = self.query_one("#count-plot-title", Static).outer_size.height
        listing = self.query_one("#count-plot-drops", Static).outer_size.height
        return max(self.size.height - title - listing, 0)

    def on_resize(self) -> None:
        """Under MIN_CHART_ROWS the chart gives way to a line asking for room."""
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        rows = self.chart_rows()
        cramped = self.size.height > 0 and rows < MIN_CHART_ROWS
        if cramped:
            self.query_one("#count-plot-room", Static).update(
                f"The plot needs {MIN_CHART_ROWS} rows and has {rows} here: z gives the pane the whole screen "
                "(or make the terminal taller; the drops are listed below)."
            )
        self.set_class(cramped, "-cramped")

    def show_note(self, note: str) -> None:
        """Clear the chart and show a one-line note (loading, no domain, error...)."""
        self.domain_name, self.points, self.drops, self.note = None, (), (), note
        self.redraw()

    def show_series(
        self,
        domain_name: str,
        points: Sequence[DomainPoint],
        drops: Sequence[Drop],
        *,
        kinds: str | None = None,
        keep_field: bool = False,
    ) -> None:
        """Plot `points` of `domain_name` (only runs with collection `kinds`, like for like, when given).

        `drops` may be all drops of the client: only this domain's, within the plotted runs, are used.
        """
        same_domain = domain_name == self.domain_name
        self.domain_name = domain_name
        self.kinds = kinds
        self.points = tuple(point for point in points if kinds is None or point.kinds == kinds)
        plotted = {point.task_id for point in self.points}
        self.drops = tuple(drop for drop in drops if drop.domain_name == domain_name and drop.task_id in plotted)
        if not (keep_field and same_domain):
            self.field = self.drops[0].field if self.drops else self._first_counted_field()
        self.redraw()

    def _first_counted_field(self) -> str:
        """The first count that is not zero in every plotted run (a sessions-only run reports no Users)."""
        counted = (name for name in COUNT_NAMES if any(point.success and point.counts[name] for point in self.points))
        return next(counted, COUNT_NAMES[0])

    def cycle_field(self, step: int = 1) -> str:
        """Show the next (or previous) of the 12 counts; returns its field name."""
        position = (COUNT_NAMES.index(self.field) + step) % len(COUNT_NAMES)
        self.field = COUNT_NAMES[position]
        self.redraw()
        return self.field

    def field_drops(self) -> list[Drop]:
        """Drops of the shown domain for the shown count."""
        return [drop for drop in self.drops if drop.field == self.field]

    def redraw(self) -> None:
        """Rebuild title, chart and drop list from the current state."""
        if not self.is_mounted:
            return
        self.call_after_refresh(self._fit)  # the title and the drop list may take other heights now
        title = self.query_one("#count-plot-title", Static)
        listing = self.query_one("#count-plot-drops", Static)
        chart = self.query_one("#count-plot-chart", PlotextPlot)
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        successful = [point for point in self.points if point.success]
        if self.domain_name is None or not successful:
            note = self.note if self.domain_name is None else f"{self.domain_name}: no successful runs to plot"
            title.update(note)
            listing.update("")
            chart.refresh()
            return
        title.update(self._title(len(successful)))
        self._draw(plt, successful)
        listing.update(self._drop_lines())
        chart.refresh()

    def _title(self, runs: int) -> Text:
        label = COUNT_LABELS[self.field]
        text = Text()
        text.append(f"{self.domain_name}", style="bold")
        text.append(f" · {label} over {runs} successful run{'s' if runs != 1 else ''}")
        if self.kinds is not None:
            text.append(f" with kinds {self.kinds}", style="dim")
        text.append(f" · drops > {self.threshold * 100:.0f} %: ")
        count = len(self.field_drops())
        text.append(str(count), style=drop_style(self.app, bold=True) if count else "")
        others = len(self.drops) - count
        if others:
            text.append(f" (+{others} in other counts)", style="dim")
        text.append("  n/N: next/previous count", style="dim")
        return text

    def _draw(self, plt: Plot, points: list[DomainPoint]) -> None:
        xs = list(range(1, len(points) + 1))
        ys = [point.counts[self.field] for point in points]
        line = theme_rgb(self.app, "primary", "primary")
        danger = theme_rgb(self.app, "drop", "error")
        plt.plot(xs, ys, marker="braille", color=line)
        by_task = {point.task_id: index for index, point in enumerate(points, start=1)}
        dropped = [(by_task[drop.task_id], drop.current) for drop in self.field_drops() if drop.task_id in by_task]
        if dropped:
            plt.scatter([x for x, _ in dropped], [y for _, y in dropped], marker=DROP_MARKER, color=danger)
        ticks = self._tick_positions(len(points))
        plt.xticks([float(tick) for tick in ticks], [format_short(points[tick - 1].time, self.zone) for tick in ticks])
        top = _nice_top(max(ys))
        plt.ylim(0, top)
        y_ticks = [top * index / 4 for index in range(5)]
        plt.yticks(y_ticks, [f"{int(tick):,}" for tick in y_ticks])
        plt.xlim(0.5, len(points) + 0.5)

    @staticmethod
    def _tick_positions(count: int, most: int = 4) -> list[int]:
        if count <= most:
            return list(range(1, count + 1))
        step = (count - 1) / (most - 1)
        return sorted({1 + round(step * index) for index in range(most)})

    def _drop_lines(self) -> Text:
        drops = self.field_drops()
        text = Text()
        if not any(point.success and any(point.counts.values()) for point in self.points):
            text.append("every count is 0 in these runs: their collection kinds gather no directory objects", "dim")
            return text
        if not drops:
            text.append(f"no {COUNT_LABELS[self.field]} drop beyond {self.threshold * 100:.0f} %", style="dim")
            return text
        danger = drop_style(self.app)
        for position, drop in enumerate(drops[-MAX_DROP_LINES:]):
            if position:
                text.append("\n")
            text.append(f"{DROP_MARKER} ", style=danger)
            text.append(f"task {drop.task_id} ({format_short(drop.time, self.zone)}): ")
            text.append(f"{drop.previous:,} → {drop.current:,} (-{drop.fraction * 100:.1f} %)", style=danger)
            text.append(f" vs task {drop.previous_task_id}", style="dim")
        if len(drops) > MAX_DROP_LINES:
            text.append(f"\n… and {len(drops) - MAX_DROP_LINES} earlier", style="dim")
        return text
