"""The Completed tasks screen's text lines: the client bar, the deprecation notice, the quick-filter notice."""

from __future__ import annotations

from textual.content import Content

from svctui.triage import QUICK_FILTERS_BY_NAME


def history_text(
    client_chosen: bool, loaded: int | None, total: int, drops: int, threshold: float, problem: str = ""
) -> str:
    """`history 702 tasks, 2 drops > 20 %`, `history loading…`, `history failed to load`."""
    if not client_chosen:
        return "no history"
    if problem:
        return "history failed to load"
    if loaded is None:
        return "history loading…"
    capped = f" (newest {loaded:,} of {total:,})" if total > loaded else ""
    return f"history {loaded:,} tasks{capped}, {drops} drop{'s' if drops != 1 else ''} > {threshold * 100:.0f} %"


def client_bar(client_id: str | None, name: str, endpoint: str, history: str) -> Content:
    """`Client collector-01 (7d3c…) · completed-tasks · history 702 tasks, 2 drops > 20 %` (deprecated in warning)."""
    bar = Content.from_markup("[b]Client[/b] ")
    if client_id is None:
        bar += Content.from_markup("[$warning]none chosen[/] [dim](press C)[/dim]")
    else:
        named = Content.from_markup("[b]$name[/b] ($client_id)", name=name, client_id=client_id)
        bar += named if name else Content(client_id)
    style = "$warning" if endpoint == "completed-tasks" else "$success"
    bar += Content.from_markup(f" [dim]·[/dim] [{style}]$endpoint[/]", endpoint=endpoint)
    return bar + Content.from_markup(" [dim]·[/dim] $history", history=history)


def quick_notice(quick: str | None, threshold: float, loaded: int) -> str:
    """What the active quick filter does (and, for drops, that it is client-side); empty when none."""
    if quick is None:
        return ""
    if quick == "drops":
        return (
            f"Runs with drops > {threshold * 100:.0f} %: client-side, over the {loaded:,} tasks loaded for the "
            "plot; server filters and sort do not apply. d or x: back."
        )
    quick_filter = QUICK_FILTERS_BY_NAME[quick]
    return f"Quick filter: {quick_filter.description}. Press {quick_filter.key} again to clear."
