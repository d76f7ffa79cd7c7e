"""What the Clients screen says beside its table: a client's detail pane, the legend, the status line, the orders."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta

from svctui.api.models import ClientSchedule, status_label
from svctui.fleet import HealthOptions, Member, MemberHealth
from svctui.schedule import describe, parse_schedule
from svctui.text import and_more, plural
from svctui.triage.health import SEVERITY, Verdict, strip_legend, strip_text
from svctui.triage.summary import task_time
from svctui.tui import status_line
from svctui.tui.status_line import KEEP_ALWAYS, StatusPart
from svctui.tui.widgets.state_panel import error_view, retry_helps

SCHEDULES_SHOWN = 8  # schedules listed in the detail pane, the soonest first
# The orders `s` cycles through, the default first. Within each, clients still being checked and clients whose
# fetch failed keep the places worst-first gives them (an error first, a pending row last).
DEFAULT_ORDER = "worst first"
ORDERS = (DEFAULT_ORDER, "name", "last run (newest first)", "check-in (oldest first)", "next run (soonest first)")
ORDER_COLUMNS = {"name": "name", "last run": "last", "check-in": "checkin", "next run": "next"}  # order -> its column


def event_next_run(event: ClientSchedule, now: datetime) -> datetime | None:
    """The schedule's next run from its rule, as the Events screen computes it (the server's listings leave out
    next_scheduled_at); what the server sent when the rule has no DTSTART or does not parse."""
    schedule = parse_schedule(event.rrule)
    if schedule.error is None and schedule.has_start:
        return schedule.next_run(now)
    return event.next_scheduled_at


def next_run(member: Member, now: datetime) -> datetime | None:
    """The earliest next run among the client's schedules."""
    record = member.record
    moments = [moment for event in (record.events if record else []) if (moment := event_next_run(event, now))]
    return min(moments) if moments else None


def detail_lines(
    member: Member, result: MemberHealth | None, now: datetime, window: timedelta
) -> list[tuple[str, int]]:
    """The detail pane of a client (its answer `result`, None while checked; not-OK runs counted in `window`): each
    line with the column its wrapped rest starts at (Hanging: under the value, not at the pane's edge)."""
    key = member.client_id
    lines: list[tuple[str, int]] = [(member.name or "(no name)", 0), (key, 0), ("", 0)]
    record = member.record
    if record is not None:
        lines += [
            (f"type {record.type or '-'}, version {record.version or '-'}", 5),
            (f"host {record.hostname or '-'} ({record.ip_address or '-'})", 5),
            (f"last check-in {when_text(record.last_checkin)}", 14),
            ("", 0),
            (f"Schedules ({len(record.events)}):", 0),
        ]
        upcoming = sorted(
            ((event_next_run(event, now), event) for event in record.events),
            key=lambda pair: (pair[0] is None, pair[0] or now),
        )  # the soonest first; rules with no next run last
        for moment, event in upcoming[:SCHEDULES_SHOWN]:
            lines.append((f"  {describe(event.rrule)} — next {when_text(moment)}", 4))
        if len(upcoming) > SCHEDULES_SHOWN:
            lines.append((f"  {and_more(len(upcoming), SCHEDULES_SHOWN)}", 4))
    if result is None:
        return [*lines, ("", 0), ("checking…", 0)]
    if result.health is None:
        error = result.error
        message = error.user_message() if error is not None else "unknown error"
        return [*lines, ("", 0), ("Could not be checked:", 0), (message, 0)]
    if result.error is not None:
        stale = f"stale: {result.error.user_message()}" + (" — r to retry" if retry_helps(result.error) else "")
        lines += [("", 0), (stale, len("stale: ")), ("The last answer, kept:", 0)]
    strip = result.health.strip
    if strip:  # the strip column's glyphs, spelled out (the column may be cut on a narrow terminal)
        runs = f"Last {len(strip)}, oldest first: "  # with 20 glyphs, one line of the 50-cell pane
        lines += [("", 0), (runs + strip_text(strip), len(runs)), (f"  {strip_legend(strip)}", 2)]
    failures = result.health.last_failures
    lines += [("", 0), (f"Not-OK runs in the last {hours_text(window)}: {len(failures)}", 0)]
    for task in failures[:6]:
        lines.append((f"  task {task.id} {status_label(task.status)} {when_text(task.execution_time)}", 4))
        if task.status_message:
            lines.append((f"    {task.status_message}", 4))
    drops = result.health.window_drops
    if drops:  # what made the verdict `▼ drops` (as `svctui health` says it), the biggest of each run first
        lines += [("", 0), (f"Drops in the last {hours_text(window)}: {len(drops)}", 0)]
        for drop in drops[:6]:
            lines.append((f"  {drop.run_text()}", 4))
        if len(drops) > 6:
            lines.append((f"  {and_more(len(drops), 6)}", 4))
    return lines


def verdict_legend(options: HealthOptions, width: int) -> str:
    """What the verdicts mean, in the settings' own windows; the short form where the long one is cut."""
    window, stale = hours_text(options.window), hours_text(options.stale_after)
    long = (
        f"✗ failing: a not-OK run in {window} · ◷ stale: no check-in in {stale} · ▼ drops: a run with a drop in "
        f"{window} · ○ never ran · ✓ ok"
    )
    short = f"✗ not OK in {window} · ▼ drop in {window} · ◷ no check-in in {stale} · ○ never ran · ✓ ok"
    return long if len(long) + 2 <= width else short  # 2: the note's padding


def ordered(members: Sequence[Member], results: Mapping[str, MemberHealth], order: str, now: datetime) -> list[Member]:
    """The clients in `order` (one of ORDERS). Worst first: fetch errors, then by verdict severity, then clients
    still being checked (no answer in `results`); by name within. The other orders put clients without the value
    they sort on (never ran, never checked in, no schedule, still being checked) after the rest, worst first among
    them."""
    if order == "name":
        return sorted(members, key=lambda member: (_name_of(member, results).lower(), member.client_id))
    worst_first = sorted(members, key=lambda member: _rank(member, results))
    if order == DEFAULT_ORDER:
        return worst_first
    value = _order_value(order, results, now)
    valued = [(moment, member) for member in worst_first if (moment := value(member)) is not None]
    newest_first = order.startswith("last run")
    valued.sort(key=lambda pair: pair[0], reverse=newest_first)  # stable: ties stay worst first
    ranked = {member.client_id for _, member in valued}
    return [member for _, member in valued] + [member for member in worst_first if member.client_id not in ranked]


def _rank(member: Member, results: Mapping[str, MemberHealth]) -> tuple[int, str]:
    """Worst-first rank of a client: a fetch error, then by verdict severity, then still being checked."""
    result = results.get(member.client_id)
    if result is None:
        return (1, member.name.lower() or member.client_id)
    if result.health is None:
        return (-(len(SEVERITY) + 1), member.name.lower())
    return (-SEVERITY[result.health.verdict], (result.health.name or member.client_id).lower())


def _name_of(member: Member, results: Mapping[str, MemberHealth]) -> str:
    """The name the row shows (the health's, once judged), else the member's, else its id."""
    result = results.get(member.client_id)
    named = result.health.name if result is not None and result.health is not None else ""
    return named or member.name or member.client_id


def _order_value(order: str, results: Mapping[str, MemberHealth], now: datetime) -> Callable[[Member], datetime | None]:
    """What an order other than worst first and name sorts on, per client (None: the client has no value)."""
    if order.startswith("last run"):

        def last_run(member: Member) -> datetime | None:
            result = results.get(member.client_id)
            last = result.health.last_run if result is not None and result.health is not None else None
            return task_time(last) if last is not None else None

        return last_run
    if order.startswith("check-in"):
        return lambda member: member.last_checkin
    return lambda member: next_run(member, now)


def summary_parts(
    results: Sequence[MemberHealth],
    done: int,
    total: int,
    *,
    stale_list: bool,
    order: str,
    order_shown: bool,
    glyphs_left_out: int,
) -> list[str]:
    """The status line's parts: `8/10 clients checked · 3 need a look · enter: runs · r: refresh`, after the clients
    kept stale (`stale_list`: the client list itself is, and says so before these), with the order when not the
    default (`order_shown`: its column on show) and how many glyphs the strip's key leaves out."""
    failed = sum(1 for item in results if item.health is None)
    worst = sum(1 for item in results if item.health and item.health.verdict is not Verdict.OK)
    stale = [item.error for item in results if item.health is not None and item.error is not None]
    parts: list[str] = []
    if stale:  # the count first, as the list screens' `stale: …` (the fleet's own, when it failed, before it)
        reasons = sorted({stale_reason(error) for error in stale})
        why = f" ({', '.join(reasons)})" if len(reasons) <= 2 else ""
        parts.append(StatusPart(f"stale: {plural(len(stale), 'client')}{why}", KEEP_ALWAYS))
        if not stale_list and all(retry_helps(error) for error in stale):
            parts.append(StatusPart("r to retry", status_line.RETRY))
    # at 80 columns the counts and the order take their short forms before the order gives way (after `s` the
    # line must say which order `s` chose: it is named nowhere else)
    checked = f"{done}/{total}"
    parts += [
        StatusPart(f"{checked} clients checked", short=f"{checked} checked", short_rank=status_line.ORDER),
        f"{worst} need a look",
    ]
    if failed:
        parts.append(f"{failed} could not be checked")
    if order != DEFAULT_ORDER:
        short = order.split(" (")[0]  # `check-in`: its direction is the order's own (help says it)
        if not order_shown:  # too narrow even for the sort's column alone
            hidden = f"sorted: {short} (hidden column: the detail pane has it; s)"
            parts.append(StatusPart(hidden, status_line.ORDER, short=f"sorted: {short}, hidden"))
        else:
            parts.append(StatusPart(f"sorted: {order} (s)", status_line.ORDER, short=f"sorted: {short} (s)"))
    if glyphs_left_out:  # the strip's key at this width names only the glyphs on show: help has them all
        parts.append(StatusPart(f"?: +{plural(glyphs_left_out, 'glyph')}", status_line.LEFT_OUT))
    return [*parts, StatusPart("enter: runs", status_line.KEY_HINT), StatusPart("r: refresh", status_line.KEY_HINT)]


def stale_reason(error: BaseException) -> str:
    """Why a client's row is stale, short enough for its last-run cell: `HTTP 502`, `cannot reach the server`."""
    view = error_view(error, "runs")
    return f"HTTP {view.status}" if view.status is not None else view.title.lower()


def hours_text(span: timedelta) -> str:
    """A window in hours as the legend says it: `24 h`, `36 h`, whole days from two on as `7 d`."""
    hours = int(span.total_seconds() // 3600)
    return f"{hours // 24} d" if hours >= 48 and hours % 24 == 0 else f"{hours} h"


def when_text(moment: datetime | None) -> str:
    """`2026-11-27 08:48Z`, or `-` when unknown."""
    return moment.strftime("%Y-%m-%d %H:%MZ") if moment is not None else "-"
