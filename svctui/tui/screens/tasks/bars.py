"""The Completed tasks screen's text lines: the client bar, the deprecation notice, the quick-filter notice."""

from __future__ import annotations

from textual.content import Content

from svctui.api.limits import DEPRECATED_TASK_ENDPOINT
from svctui.triage import QUICK_FILTERS_BY_NAME
from svctui.visible import visible


def history_text(
    client_chosen: bool,
    loaded: int | None,
    total: int,
    drops: int,
    threshold: float,
    problem: str = "",
    *,
    short: bool = False,
) -> str:
    """`history 702 tasks, 2 drops > 20 %`, `history loading…`, `history failed to load`; `short` (for narrow
    terminals) says only the numbers: `702 runs · 2 drops`, `5,000 of 12,000 runs · 2 drops`."""
    if not client_chosen:
        return "no history"
    if problem:
        return "history failed to load"
    if loaded is None:
        return "history loading…"
    drops_text = f"{drops} drop{'s' if drops != 1 else ''}"
    if short:
        return f"{loaded:,}{f' of {total:,}' if total > loaded else ''} runs · {drops_text}"
    capped = f" (newest {loaded:,} of {total:,})" if total > loaded else ""
    return f"history {loaded:,} tasks{capped}, {drops_text} > {threshold * 100:.0f} %"


def client_bar(
    client_id: str | None,
    name: str,
    endpoint: str,
    history: str,
    width: int | None = None,
    short_history: str = "",
) -> Content:
    """`Client collector-01 (7d3c…) · completed-tasks · history 702 tasks, 2 drops > 20 %` (deprecated in warning).

    Wider than `width` cells, a named client's uuid shortens to `cd613e30…` (the name stays whole), then the history
    to `short_history` (`702 runs · 2 drops`: the numbers stay); what still does not fit is cut with `…` by the
    bar's CSS.
    """
    name = visible(name)  # the server's (or a hand-typed) client name and id: never raw to the terminal
    client_id = None if client_id is None else visible(client_id)

    def bar(shown_id: str, history: str) -> Content:
        text = Content.from_markup("[b]Client[/b] ")
        if client_id is None:
            text += Content.from_markup("[$warning]none chosen[/] [dim](press C)[/dim]")
        else:
            named = Content.from_markup("[b]$name[/b] ($client_id)", name=name, client_id=shown_id)
            text += named if name else Content(shown_id)
        style = "$warning" if endpoint == DEPRECATED_TASK_ENDPOINT else "$success"
        text += Content.from_markup(f" [dim]·[/dim] [{style}]$endpoint[/]", endpoint=endpoint)
        return text + Content.from_markup(" [dim]·[/dim] $history", history=history)

    full = bar(client_id or "", history)
    if client_id is None or width is None or full.cell_length <= width:
        return full
    shown_id = f"{client_id[:8]}…" if name else client_id  # an unnamed client is known only by its uuid
    shorter = bar(shown_id, history)
    if shorter.cell_length <= width or not short_history:
        return shorter
    return bar(shown_id, short_history)


def quick_notice(quick: str | None, threshold: float, loaded: int, *, short: bool = False) -> str:
    """What the active quick filter does (and, for drops, that it is client-side); empty when none. `short` (a
    narrow terminal): a server-side filter's note leaves out its description's parenthesis, one line at 80 columns
    (`o`'s would take two, four with its chips; `?` lists it whole)."""
    if quick is None:
        return ""
    if quick == "drops":
        return (
            f"Runs with drops > {threshold * 100:.0f} %: client-side, over the {loaded:,} tasks loaded for the "
            "plot; server filters (dimmed) and sort do not apply. d or x: back."
        )
    quick_filter = QUICK_FILTERS_BY_NAME[quick]
    key = quick_filter.key
    if not short:
        return f"Quick filter {key}: {quick_filter.description}; {key} again clears."
    return f"Quick filter {key}: {quick_filter.description.split(' (')[0]}; {key} again clears."
