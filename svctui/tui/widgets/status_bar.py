"""A one-line status breakdown: a proportional bar followed by a legend of labels and counts.

Each status fills its part of the bar with its own glyph (`svctui.tui.widgets.status_colors.STATUS_GLYPHS`) in its
theme colour, and its legend entry starts with that glyph: the parts are told apart by shape as well as by hue.
Where the legend does not fit it shortens in steps: without the scope's words, tight spacing, short labels, then
(80 columns) the total first and the not-OK statuses before the others, so what is left out (`+3`: how many
statuses) is the least telling part.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from svctui.api.models import TaskStatus
from svctui.triage import StatusCount
from svctui.tui.widgets.status_colors import status_glyph, status_style

MIN_BAR = 10
MAX_BAR = 40
# Where the full legend does not fit: a label cut short ends with `…`. "Timed out" stays whole: the status is called
# that everywhere (REAL-SERVER.md, the table, the filters), and a cut `Timed…` would say less for 2 cells.
SHORT_LABELS = {
    "Partially complete": "Partial…",
    "Ingesting": "Ingest…",
    "Analyzing": "Analyz…",
}
# Where even the short legend does not fit: the not-OK statuses (worst first) and Complete, then the others in the
# bar's order.
TIGHT_ORDER = (TaskStatus.FAILED, TaskStatus.PARTIALLY_COMPLETE, TaskStatus.TIMED_OUT, TaskStatus.COMPLETE)
TIGHT_FIRST: dict[int, int] = {int(status): place for place, status in enumerate(TIGHT_ORDER)}


def bar_widths(counts: Sequence[int], width: int) -> list[int]:
    """Split `width` cells among `counts` proportionally (largest remainder); every non-zero count gets >= 1."""
    total = sum(counts)
    if total <= 0 or width <= 0:
        return [0 for _ in counts]
    nonzero = sum(1 for count in counts if count > 0)
    width = max(width, nonzero)
    exact = [count * width / total for count in counts]
    widths = [max(1, int(value)) if count > 0 else 0 for value, count in zip(exact, counts, strict=True)]
    order = sorted(range(len(counts)), key=lambda index: exact[index] - int(exact[index]), reverse=True)
    index = 0
    while sum(widths) < width and order:
        if counts[order[index % len(order)]] > 0:
            widths[order[index % len(order)]] += 1
        index += 1
    while sum(widths) > width:
        largest = max(range(len(widths)), key=lambda position: widths[position])
        widths[largest] -= 1
    return widths


class StatusBar(Widget):
    """Compact horizontal status breakdown: `████▚▓  █ Complete 40  ▚ Failed 3  ▓ Partially complete 2  (45)`."""

    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        width: 1fr;
        padding: 0 1;
    }
    """

    breakdown: reactive[tuple[StatusCount, ...]] = reactive((), layout=False)
    scope: reactive[str] = reactive("")

    def __init__(
        self, *, scope: str = "", name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.scope = scope

    def on_mount(self) -> None:
        """Repaint when the theme (and so the status colours) changes."""
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.refresh())

    def set_breakdown(self, breakdown: Sequence[StatusCount], scope: str = "") -> None:
        """Show `breakdown` (from `svctui.triage.status_breakdown`), described by `scope` (e.g. `this page`)."""
        self.breakdown = tuple(breakdown)
        self.scope = scope

    def render(self) -> Text:
        """The bar and its legend, fitted to the widget width (short labels when the full ones do not fit)."""
        items = [item for item in self.breakdown if item.count > 0]
        total = sum(item.count for item in items)
        if not items:  # the scope then says why (e.g. the page or the counts did not load), if it knows
            return Text(self.scope if self.scope and not self.breakdown else "no tasks to break down", style="italic")
        room = self.content_size.width or 80
        # The scope's words go before a label is cut (`Partially …` beside a 30-cell bar: issue 28)
        steps = ((False, False, True), (False, False, False), (True, False, False), (True, True, False))
        for tight, short, scoped in steps:  # tight spacing before a label is cut
            legend = self._legend(items, total, tight=tight, short=short, scoped=scoped)
            if legend.cell_len + MIN_BAR <= room:
                break
        else:
            legend = self._tight_legend(items, total, room - MIN_BAR)
        bar_width = max(MIN_BAR, min(MAX_BAR, room - legend.cell_len))
        bar = Text()
        for item, cells in zip(items, bar_widths([item.count for item in items], bar_width), strict=True):
            bar.append(status_glyph(item.code) * cells, style=status_style(self.app, item.code))
        line = bar + legend
        line.truncate(room, overflow="ellipsis")
        if line.plain.endswith("……"):  # cut right after a short label's own `…`: one is enough
            line.right_crop(1)
        return line

    def _entry(self, item: StatusCount, *, short: bool, tight: bool | None = None) -> Text:
        """`  █ Complete 40`, or tight: ` █Complete 40`, and short: ` ▓Partial… 2`."""
        tight = short if tight is None else tight
        entry = Text(" " if tight else "  ")
        glyph = status_glyph(item.code)
        entry.append(glyph if tight else f"{glyph} ", style=status_style(self.app, item.code))
        label = SHORT_LABELS.get(item.label, item.label) if short else item.label
        entry.append(f"{label} {item.count:,}")
        return entry

    def _legend(self, items: Sequence[StatusCount], total: int, *, tight: bool, short: bool, scoped: bool) -> Text:
        legend = Text()
        for item in items:
            legend.append_text(self._entry(item, short=short, tight=tight))
        scope = f" {self.scope}" if self.scope and scoped else ""
        legend.append(f"  ({total:,}{scope})", style="dim")
        return legend

    def _tight_legend(self, items: Sequence[StatusCount], total: int, room: int) -> Text:
        """`(763) ▚Failed 181 ▓Partial… 39 ▒Timed out 18 █Complete 501 +3`: the total, the not-OK statuses first, and
        whole entries only while they fit in `room` cells (a count is never cut: how many statuses are left out is
        said, `+3`)."""
        legend = Text(f" ({total:,})", style="dim")
        ordered = sorted(items, key=lambda item: TIGHT_FIRST.get(item.code, len(TIGHT_FIRST)))
        for index, item in enumerate(ordered):
            entry = self._entry(item, short=True)
            left = len(ordered) - index - 1  # the statuses after this one
            if legend.cell_len + entry.cell_len + (len(f" +{left}") if left else 0) > room:
                more = f" +{len(ordered) - index}"
                legend.append(f"{more} more" if legend.cell_len + len(more) + 5 <= room else more, style="dim")
                break
            legend.append_text(entry)
        return legend
