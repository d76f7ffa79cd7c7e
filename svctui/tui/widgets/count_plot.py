"""A plot of one domain's counts across a client's tasks over time, with drops beyond the threshold marked.

One count at a time (Users by default, or the first count that dropped); `cycle_field` steps through the 12.
Like for like: given the selected task's collection kinds, only runs with the same kinds are plotted (a run that
does not collect AD structure reports zero users, which is no drop). Failed runs are left out of the line (their
counts are not measurements). The x axis steps one run at a time, oldest to newest (not to time scale: the ticks
carry the runs' dates, and the axis is labelled so). Drops are drawn as `✗` markers in the theme's error colour and
listed in words under the plot, so they are visible without colour too.

The chart is built off the event loop: `redraw` turns the state into a `Figure` (plain data: points, ticks,
colours) and `ThreadedPlot` builds plotext's text of it in a worker thread, for the chart's size and theme, then
shows it: plotext's build of a 5,000-run line and the ANSI parse of its output are ~10 ms of CPU, too much for
the frame that draws a loaded history beside the task table (the stall rows). A resize or a theme switch
builds it again in a thread; until the new text is there (a frame or two) the previous one shows, fitted to the
size. Only the very first text, before any was built, is built on the loop, as PlotextPlot does.
"""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import work
from textual.app import ComposeResult, RenderResult
from textual.widgets import Static
from textual_plotext import PlotextPlot
from textual_plotext.plot import Plot

from svctui.text import and_more
from svctui.triage import COUNT_LABELS, COUNT_NAMES, DomainPoint, Drop
from svctui.tui.textual_internals import plot_size, plot_theme_name, register_plot_theme
from svctui.tui.widgets.status_colors import drop_style, theme_rgb
from svctui.tui.widgets.task_times import format_short
from svctui.tui.widgets.triage_pane import TriagePane
from svctui.visible import visible

DROP_MARKER = "✗"
# The x axis is the plotted runs in order, one step each (a week without runs takes no room): the ticks are the
# dates of the runs under them, and the axis says so. One label for the figure: no per-point work.
X_LABEL = "runs, oldest → newest (one step a run, not to time scale)"
MIN_CHART_ROWS = 8  # fewer rows cannot show a line with its ticks: the pane says it needs more room instead
MAX_DROP_LINES = 4


@dataclass(frozen=True)
class Figure:
    """What the chart draws, as plain data (built into plotext's text in a thread): the line, the drop markers,
    the ticks and the limits; `None` fields draw an empty chart."""

    xs: list[int]
    ys: list[int]
    line_color: tuple[int, int, int]
    dropped: list[tuple[int, int]]
    drop_color: tuple[int, int, int]
    x_ticks: list[float]
    x_labels: list[str]
    top: int


PlotKey = tuple[int, int, int, str]  # figure version, width, height, plotext theme


def draw_figure(plt: Plot, figure: Figure | None) -> None:
    """Put `figure` on the cleared plotext figure `plt` (nothing for None: an empty chart)."""
    if figure is None:
        return
    plt.plot(figure.xs, figure.ys, marker="braille", color=figure.line_color)
    if figure.dropped:
        plt.scatter(
            [x for x, _ in figure.dropped], [y for _, y in figure.dropped], marker=DROP_MARKER, color=figure.drop_color
        )
    plt.xticks(figure.x_ticks, figure.x_labels)
    plt.xlabel(X_LABEL)
    plt.ylim(0, figure.top)
    y_ticks = [figure.top * index / 4 for index in range(5)]
    plt.yticks(y_ticks, [f"{int(tick):,}" for tick in y_ticks])
    plt.xlim(0.5, len(figure.xs) + 0.5)


def build_text(figure: Figure | None, width: int, height: int, theme: str) -> Text:
    """plotext's drawing of `figure` at this size in this plotext theme, as Rich text (pure: runs in a thread, on
    a plotext figure of its own)."""
    plt = Plot()
    draw_figure(plt, figure)
    plot_size(plt, width, height)
    plt.theme(theme)
    text = Text.from_ansi(plt.build())
    if figure is not None and figure.dropped and max(x for x, _ in figure.dropped) == len(figure.xs):
        text = _clear_right_of_last_marker(text)
    return text


def _is_braille(char: str) -> bool:
    return "\u2800" <= char <= "\u28ff"


def _clear_right_of_last_marker(text: Text) -> Text:
    """Blank the braille dots right of the last run's drop marker. plotext puts the line's sub-cell dots at twice
    the marker's resolution, so the line's end can round into the next cell: a stray dot after the last `✗` (seen
    at 160x45). Nothing is plotted right of the last run, so any dot there is that rounding."""
    lines = text.split("\n", allow_blank=True)
    column = max((line.plain.rfind(DROP_MARKER) for line in lines), default=-1)
    if column < 0:
        return text
    for line in lines:
        plain = line.plain
        tail = "".join(" " if _is_braille(char) else char for char in plain[column + 1 :])
        if tail != plain[column + 1 :]:
            line.plain = plain[: column + 1] + tail  # same length: the colour spans stay where they were
    return Text("\n").join(lines)


class ThreadedPlot(PlotextPlot):
    """A PlotextPlot whose text is built in a worker thread for its figure, size and theme (`show`, a resize, a
    theme switch); until that text is there, `render` shows the previous one fitted to the size (the very first is
    built on the loop, as PlotextPlot does)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.figure: Figure | None = None
        self._version = 0
        self._built: tuple[PlotKey, Text] | None = None
        self._building: PlotKey | None = None

    def _key(self) -> PlotKey:
        return (self._version, self.size.width, self.size.height, plot_theme_name(self, self.app.theme))

    def show(self, figure: Figure | None) -> None:
        """Draw `figure`: built in a thread and shown when built (the previous text stays until then)."""
        self.figure = figure
        self._version += 1
        if self.is_mounted:
            self._start(self._key())

    def on_resize(self) -> None:
        """Build the text for the new size (the previous one, fitted, shows meanwhile)."""
        self._start(self._key())

    def _start(self, key: PlotKey) -> None:
        if key[1] <= 0 or key[2] <= 0 or self._building == key or (self._built and self._built[0] == key):
            return
        register_plot_theme(self, self.app.theme)
        self._building = key
        self._build(key, self.figure)

    @work(group="plot-build", exclusive=True, exit_on_error=False)
    async def _build(self, key: PlotKey, figure: Figure | None) -> None:
        """The plot's text for `key`, made in a thread (a newer build replaces this one)."""
        try:
            text = await asyncio.to_thread(build_text, figure, key[1], key[2], key[3])
        except Exception:
            if self._building == key:  # `render` builds it on the loop, as PlotextPlot does (and fails as it would)
                self._built = self._building = None
                self.refresh()
            return
        if self._building != key:
            return  # another build was started meanwhile (exclusive: this one is being cancelled)
        self._built, self._building = (key, text), None
        self.refresh()
        self._start(self._key())  # the size or theme changed while it was built

    def render(self) -> RenderResult:
        """The text built for this figure, size and theme; while that is being built, the previous text fitted to
        the size; with none yet, built here."""
        key = self._key()
        built = self._built
        if built is not None and built[0] == key:
            return built[1]
        if built is not None and key[1] > 0 and key[2] > 0:
            self.call_later(self._start, key)
            return fitted(built[1], key[1], key[2])
        text = build_text(self.figure, key[1], key[2], key[3])
        self._built = (key, text)
        return text


def fitted(text: Text, width: int, height: int) -> Text:
    """`text` (lines of a plot) cropped or padded to `width` x `height`, so a plot of another size shows unwrapped
    for the moment its own is built."""
    lines = text.split("\n", allow_blank=True)[:height]
    for line in lines:
        line.truncate(width, overflow="crop", pad=True)
    return Text("\n").join(lines)


def _nice_top(high: int) -> int:
    """A round upper bound above `high` that splits into 4 whole ticks: 1,343 -> 1,600; 35 -> 40; 0 -> 4."""
    if high <= 0:
        return 4
    magnitude = int(10 ** max(len(str(high)) - 2, 0))
    step = magnitude
    while step * 4 < high * 1.05:
        step += magnitude
    return step * 4


def room_words(rows: int, *, below: bool) -> str:
    """What a plot with too few rows says in its place; `below` when the drops list shows under it."""
    listed = "; the drops are listed below" if below else ""
    return (
        f"The plot needs {MIN_CHART_ROWS} rows and has {rows} here: z gives the pane the whole screen "
        f"(or make the terminal taller{listed})."
    )


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
    CountPlot.-empty > PlotextPlot { display: none; }
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
        yield ThreadedPlot(id="count-plot-chart")
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
        plotted = self.plotted()
        cramped = plotted and self.size.height > 0 and rows < MIN_CHART_ROWS  # nothing to plot: no room is asked for
        if cramped:
            room = self.query_one("#count-plot-room", Static)
            text = room_words(rows, below=False)
            if self.field_drops() and len(textwrap.wrap(room_words(rows, below=True), self.size.width - 2)) <= rows:
                text = room_words(rows, below=True)  # the drop list has its rows under the line: it shows
            room.update(text)
        self.set_class(cramped, "-cramped")
        self.set_class(not plotted, "-empty")

    def plotted(self) -> bool:
        """Whether there is a chart to draw: a domain with a successful run (else the title says why not)."""
        return self.domain_name is not None and any(point.success for point in self.points)

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
        chart = self.query_one("#count-plot-chart", ThreadedPlot)
        successful = [point for point in self.points if point.success]
        if self.domain_name is None or not successful:
            note = self.note if self.domain_name is None else f"{visible(self.domain_name)}: no successful runs to plot"
            title.update(note)
            listing.update("")
            chart.show(None)
            return
        title.update(self._title(len(successful)))
        chart.show(self._figure(successful))
        listing.update(self._drop_lines())

    def _title(self, runs: int) -> Text:
        label = COUNT_LABELS[self.field]
        text = Text()
        text.append(visible(self.domain_name or ""), style="bold")  # the server's domain name: shown, never obeyed
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

    def _figure(self, points: list[DomainPoint]) -> Figure:
        """The chart of the shown count over `points` (the successful runs), as data for `ThreadedPlot`."""
        ys = [point.counts[self.field] for point in points]
        by_task = {point.task_id: index for index, point in enumerate(points, start=1)}
        dropped = [(by_task[drop.task_id], drop.current) for drop in self.field_drops() if drop.task_id in by_task]
        ticks = self._tick_positions(len(points))
        return Figure(
            xs=list(range(1, len(points) + 1)),
            ys=ys,
            line_color=theme_rgb(self.app, "primary", "primary"),
            dropped=dropped,
            drop_color=theme_rgb(self.app, "drop", "error"),
            x_ticks=[float(tick) for tick in ticks],
            x_labels=[format_short(points[tick - 1].time, self.zone) for tick in ticks],
            top=_nice_top(max(ys)),
        )

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
            text.append(f"\n{and_more(len(drops), MAX_DROP_LINES, word='earlier')}", style="dim")
        return text
