"""The Clients table's columns (one `table_fit.Column` each) fitted to its width, and the key of its runs' strip."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from rich.style import Style
from rich.text import Text

from svctui.api.models import TaskStatus, status_label
from svctui.table_fit import Column, Fitted, fit_columns, ranked
from svctui.triage.health import RUN_STRIP_GLYPHS, STRIP_RUNS

# Under the screen's narrow breakpoint the strip shows the newest STRIP_NARROW runs and the last run is cut, so
# health, client, last run, the counts and the strip's newest end all fit 80 columns (the 20-run strip ran off the
# screen's edge there, showing the oldest runs and hiding the latest; the detail pane spells out all 20).
STRIP_NARROW = 8
# Display order, each at its width, ranked by what matters first: at 80 columns health, client, last run, the
# counts and the strip stay in view; what does not fit is left out with every column ranked after it (the detail
# pane has the type, version and host; the status line names them), never scrolled to. When the strip is the first
# left out, the last run and the strip are cut (`cut_to`, the strip's newest runs) first. The client's name takes
# the free room first, up to its longest name.
COLUMNS = (
    Column("health", "health", least=11, rank=0, droppable=False),
    Column("name", "client", least=18, rank=1, names=True),
    Column("type", "type", least=10, rank=6),  # sharphound, azurehound, openhound
    Column("last", "last run", least=22, cut_to=18, rank=2),
    Column("notok", "not OK", least=6, rank=3),
    Column("drops", "drops", least=5, rank=4),
    Column("strip", "last 20 runs", least=STRIP_RUNS, cut_to=STRIP_NARROW, rank=5),
    Column("checkin", "check-in", least=10, rank=7),
    Column("next", "next run", least=17, rank=8),
    Column("job", "job", least=6, rank=9),
    Column("version", "version", least=8, rank=10),
    Column("host", "host", least=24, rank=11),
)
FIT_ORDER = tuple(column.key for column in sorted(COLUMNS, key=lambda column: column.rank))
NARROW_LATER = ("type",)  # narrow, these go after the strip, which then still ends within 80 columns
# Every column but the strip (its width is the runs it shows) is measured from the rows (NaturalWidths) and is no
# wider than its widest cell (its title at least): the room a short cell leaves goes to the columns after it, not to
# padding (issue 28: at 160 columns the last run was padded to 22 cells while check-in was left out).
MEASURED = tuple(column.key for column in COLUMNS if column.key != "strip")
GROWS = tuple(column.key for column in COLUMNS if column.names)  # its widest cell kept as the rows fill in


def columns_for(narrow: bool) -> list[Column]:
    """The table's columns in display order, on a narrow screen (each that may be cut starts cut, the type after
    the strip) or a wide one."""
    if not narrow:
        return list(COLUMNS)
    columns = [narrowed(column) for column in COLUMNS]
    later = [column for column in columns if column.key in NARROW_LATER]
    columns = [column for column in columns if column.key not in NARROW_LATER]
    after = next(index for index, column in enumerate(columns) if column.key == "strip") + 1
    return columns[:after] + later + columns[after:]


def narrowed(column: Column) -> Column:
    """A column on a narrow screen: cut from the start where it may be (the strip titled for the runs it shows)."""
    if column.cut_to is None:
        return column
    title = strip_label(column.cut_to) if column.key == "strip" else column.title
    return replace(column, least=column.cut_to, title=title)


def strip_label(runs: int) -> str:
    """The strip column's header for a strip of `runs` glyphs: `last 20 runs`, or `last 8` where that is too wide."""
    label = f"last {runs} runs"
    return label if len(label) <= runs else f"last {runs}"


def fit_order(keep: str | None = None) -> tuple[str, ...]:
    """FIT_ORDER with the column the rows are sorted by (`keep`) ranked before the strip: sorted by check-in or next
    run, that column takes the strip's place at 80 columns (it was among the columns left out, and the order looked
    random, issue 28)."""
    strip = FIT_ORDER.index("strip")
    if keep is None or keep not in FIT_ORDER or FIT_ORDER.index(keep) <= strip:
        return FIT_ORDER
    rest = tuple(key for key in FIT_ORDER if key != keep)
    return (*rest[:strip], keep, *rest[strip:])


def fit_clients(
    narrow: bool, room: int, padding: int = 2, widest: Mapping[str, int] | None = None, keep: str | None = None
) -> Fitted:
    """`columns_for(narrow)` fitted to `room` cells by `fit_columns` (each also takes `padding`); `widest` holds the
    widest cell (its title at least) of the MEASURED columns: a column is no wider than that (a name column takes
    the free room first, up to it). `keep`, the sort's column, ranks before the strip (`fit_order`) where it then
    fits; else the strip stays and the status line says the column is hidden. Every column at its width while
    `room` is not known (0)."""
    columns = columns_for(narrow)
    if room <= 0:
        return Fitted({c.key: c.least for c in columns}, (), {c.key: c.title for c in columns})
    cells = widest or {}
    natural = {column.key: cells.get(column.key, column.least) for column in columns}
    natural["strip"] = STRIP_RUNS  # a narrow strip grows with the room left, up to every run it has (`last 13`)
    described = [replace(column, least=min(column.least, natural[column.key])) for column in columns]
    kept = fit_columns(ranked(described, fit_order(keep)), natural, room, padding)
    if keep is None or keep in kept.widths or fit_order(keep) == FIT_ORDER:
        return kept
    return fit_columns(ranked(described, FIT_ORDER), natural, room, padding)  # the sort's column would not show


def fitted_columns(
    narrow: bool, room: int, padding: int = 2, widest: Mapping[str, int] | None = None, keep: str | None = None
) -> list[tuple[str, str, int]]:
    """The columns of `fit_clients` that show, (key, title, fitted width) in display order."""
    fitted = fit_clients(narrow, room, padding, widest, keep)
    return [
        (c.key, strip_label(fitted.widths[c.key]) if c.key == "strip" else c.title, fitted.widths[c.key])
        for c in columns_for(narrow)
        if c.key in fitted.widths
    ]


# The strip's key (the line under the verdicts' legend): its glyphs in their status colours, the commonest first.
# Where every glyph with its word does not fit (under ~140 columns), only those in the strips on show are named,
# then in short words (at 80 columns), then as many as fit before `…` (the detail pane spells out a client's strip).
STRIP_KEY_ORDER = (
    TaskStatus.COMPLETE,
    TaskStatus.FAILED,
    TaskStatus.TIMED_OUT,
    TaskStatus.PARTIALLY_COMPLETE,
    TaskStatus.CANCELED,
    TaskStatus.RUNNING,
    TaskStatus.READY,
    TaskStatus.INGESTING,
    TaskStatus.ANALYZING,
    TaskStatus.INVALID,
)
STRIP_KEY_SHORT: dict[int, str] = {
    TaskStatus.COMPLETE: "ok",
    TaskStatus.TIMED_OUT: "timeout",
    TaskStatus.PARTIALLY_COMPLETE: "partial",
    TaskStatus.CANCELED: "cancel",
    TaskStatus.RUNNING: "run",
    TaskStatus.INGESTING: "ingest",
    TaskStatus.ANALYZING: "analyze",
}
STRIP_KEY_TITLE = "runs, newest right: "


def strip_key(seen: Iterable[int], width: int, style_of: Callable[[int], Style | str]) -> Text:
    """The strip's glyphs with what they mean in at most `width` cells (`runs, newest right: . complete · F failed
    …`), each glyph styled by `style_of(status)`: every glyph where all fit, else those in `seen` (in full words,
    then short ones), else as many as fit before `…`."""
    return fit_strip_key(seen, width, style_of)[0]


def fit_strip_key(seen: Iterable[int], width: int, style_of: Callable[[int], Style | str]) -> tuple[Text, int]:
    """`strip_key` and how many glyphs it names (fewer than all: the status line says `?` has them all)."""
    shown = set(seen)

    def entries(statuses: Sequence[int], short: bool) -> list[tuple[int, str]]:
        return [
            (status, (STRIP_KEY_SHORT.get(status) if short else None) or status_label(status)) for status in statuses
        ]

    def line(items: list[tuple[int, str]], title: str, sep: str) -> Text:
        text = Text()
        text.append(title, style="italic")
        for index, (status, label) in enumerate(items):
            if index:
                text.append(sep)
            text.append(RUN_STRIP_GLYPHS.get(status, "?"), style=style_of(status))
            text.append(f" {label.lower()}")
        return text

    everything = list(STRIP_KEY_ORDER)
    on_show = [status for status in STRIP_KEY_ORDER if status in shown] or everything
    for statuses, short, title, sep in (
        (everything, False, STRIP_KEY_TITLE, " · "),
        (on_show, False, STRIP_KEY_TITLE, " · "),
        (on_show, False, "", " · "),
        (on_show, True, STRIP_KEY_TITLE, " · "),
        (on_show, True, "", " · "),
        (on_show, True, "", "  "),
    ):
        text = line(entries(statuses, short), title, sep)
        if text.cell_len <= width:
            return text, len(statuses)
    items = entries(on_show, True)
    while items and line(items, "", "  ").cell_len + 2 > width:
        items.pop()
    return line(items, "", "  ").append(" …"), len(items)


def strip_key_lines() -> list[str]:
    """Every glyph of the strip with its word, one a line (help's legend on the Clients screen)."""
    return [f"{RUN_STRIP_GLYPHS.get(status, '?')}  {status_label(status).lower()}" for status in STRIP_KEY_ORDER]
