"""How an Event reads: table columns (RowAdapter) and the detail pane sections."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual.content import Content

from svctui.clock import Clock
from svctui.schedule import next_run_at, next_run_words, parse_schedule, relative
from svctui.schedule import utc_minute as when
from svctui.table_fit import Column
from svctui.tui.widgets.detail_pane import LABEL_WIDTH, DetailPane, Line, Section, missing, muted
from svctui.tui.widgets.paged_table import ColumnDef, RowAdapter, by_id
from svctui.visible import visible

if TYPE_CHECKING:
    from svctui.api.models import DomainRef, Event, OURef

VALUE_WRAP = 40  # the value column of the pane at 120 columns
SID_WIDTH = 41  # a domain's objectid, the pane's widest value not wrapped: `S-1-5-21-` and three 10-digit parts
# The pane's widest line and its frame (left border, padding 1 each side, a 2-cell scrollbar): its width beside the
# table at most, the rest of the row the table's
PANE_MOST = 1 + 2 + LABEL_WIDTH + SID_WIDTH + 2
ColorOf = Callable[[str], str]
NameOf = Callable[[str], str]  # client id -> name ("" when unknown)
CLIENT_WIDTH = 18
CLIENT_MOST = 48  # a client's name takes the free room first, up to this (then the column cuts it with `…`)
# The table's columns fitted to its width, the one that matters most first (RowAdapter.fit_order): between 100 and
# 120 columns, or with the detail pane beside the table, what does not fit is left out rather than scrolled to
# (the detail pane has every field); the schedule and the next run are cut (`…`) before they are left out. Every
# column is as wide as its widest cell on the page (fit_content), and the client's name takes the room left first.
FIT_ORDER = ("id", "client", "schedule", "next", "kinds", "domains", "ous")
CUT_SCHEDULE = 18  # `Daily at 07:18 UTC`
CUT_NEXT = 18  # `2026-11-27 08:48Z…`: the moment without the countdown
SCHEDULE_MOST = 40  # the schedule in words takes the free room after the client's name (issue 28: `Weekly on Tue at …`)
CLIENT_COLUMN = Column("client", "client", least=CLIENT_WIDTH, most=CLIENT_MOST, names=True)  # 14 when narrow
SCHEDULE_COLUMN = Column("schedule", "schedule", least=28, cut_to=CUT_SCHEDULE, most=SCHEDULE_MOST, names=True)
# the moment alone, or with its countdown whole (`in 3…` read as three of something)
NEXT_COLUMN = Column("next", "next run", least=30, cut_to=CUT_NEXT, whole=True)
KIND_NAMES = (
    ("session_collection", "sessions"),
    ("local_group_collection", "local groups"),
    ("ad_structure_collection", "AD structure"),
    ("cert_services_collection", "cert services"),
    ("ca_registry_collection", "CA registry"),
    ("dc_registry_collection", "DC registry"),
    ("all_trusted_domains", "all trusted domains"),
)


def _count_with_missing(refs: list[DomainRef] | list[OURef], color_of: ColorOf) -> Text:
    gone = sum(1 for ref in refs if not ref.exists)
    text = Text(str(len(refs)), end="")
    if gone:
        text.append(f" ✗{gone}", style=f"bold {color_of('status-missing')}")
    return text


def _no_names(client_id: str) -> str:
    return ""


def client_cell(event: Event, name_of: NameOf) -> str:
    """The client's name (the column cuts it with `…` when it lacks the room), or the start of its id while no name
    is known."""
    name = event.client_name or name_of(event.client_id)
    return name or f"{event.client_id[:8]}…"


def client_whole(event: Event, name_of: NameOf) -> str:
    """The client's whole name (an export's client cell), or its whole id while no name is known."""
    return event.client_name or name_of(event.client_id) or event.client_id


def _kinds(event: Event) -> str:
    from svctui.api.models import flag_marks

    return flag_marks(event)


def event_adapter(clock: Clock, color_of: ColorOf, name_of: NameOf = _no_names) -> RowAdapter[Event]:
    """The events table: id, client (its name; `c` copies its id), schedule in words, next run, kinds, domain and
    OU counts (✗ = missing)."""

    def schedule_words(event: Event) -> Text:
        schedule = parse_schedule(event.rrule)
        return Text(schedule.words, style="italic" if schedule.error else "", end="")

    return by_id(
        ColumnDef(
            CLIENT_COLUMN,
            lambda event: client_cell(event, name_of),
            copy_text=lambda event: event.client_id,
            export_text=lambda event: client_whole(event, name_of),
            narrow=replace(CLIENT_COLUMN, least=14),
        ),
        # At 80 columns id, client, schedule and next run fill the row (no horizontal scrollbar): the schedule in
        # words is read whole (`Weekly on Tue at 07:15 UTC`, 26 cells: it takes the free room after the client's name,
        # SCHEDULE_MOST), the next run keeps its moment (`2026-11-27 08:48Z…`) and its countdown where room is left.
        ColumnDef(
            SCHEDULE_COLUMN,
            schedule_words,
            copy_text=lambda event: event.rrule,
            narrow=replace(SCHEDULE_COLUMN, least=18),
        ),
        ColumnDef(
            NEXT_COLUMN,
            lambda event: next_run_words(event.rrule, clock()),  # the words `svctui events list` prints
            "next_scheduled_at",
            copy_text=lambda event: next_run_copied(event.rrule, clock()),
            narrow=replace(NEXT_COLUMN, least=CUT_NEXT),
        ),
        ColumnDef(Column("kinds", "kinds", least=7), _kinds, narrow=None),
        ColumnDef(
            Column("domains", "domains", least=7),
            lambda event: _count_with_missing(event.domains, color_of),
            narrow=None,
        ),
        ColumnDef(Column("ous", "OUs", least=5), lambda event: _count_with_missing(event.ous, color_of), narrow=None),
        fit_order=FIT_ORDER,
    )


def next_run_copied(rrule: str, now: datetime) -> str:
    """What `c` copies from the next-run cell: the time in RFC 3339 (`svctui events list -o json`'s
    `svctui_next_run`), or the cell's words when there is none (`ended`, `?`, no DTSTART)."""
    upcoming = next_run_at(rrule, now)
    return upcoming.isoformat().replace("+00:00", "Z") if upcoming is not None else next_run_words(rrule, now)


def field_line(label: str, value: str | Content) -> tuple[Content, int]:
    """`label      value` with the label muted and padded (no leading spaces, so any renderer aligns it), and the
    column a long value wraps back to (under the value); a str value (the server's) with its controls shown."""
    # Content drops BEL (and CR) as it is built: shown first, it reads `␛]0;pwned␇` as every other pane does
    shown = visible(value) if isinstance(value, str) else value
    return Content.assemble((label.ljust(LABEL_WIDTH), "$text-muted"), shown), LABEL_WIDTH


def _note(text: str, style: Callable[[str], Content]) -> list[Line]:
    """A note wrapped under the value column (so it never runs under the labels)."""
    return [field_line("", style(line)) for line in textwrap.wrap(text, VALUE_WRAP)]


def _exists(exists: bool) -> str | Content:
    return "yes" if exists else missing("MISSING (no longer in the graph)")


def _ref_lines(refs: Sequence[DomainRef | OURef]) -> list[Line]:
    lines: list[Line] = []
    for index, ref in enumerate(refs):
        if index:
            lines.append("")
        name = Content.styled(visible(ref.name), "bold") if ref.name else muted("(no name: H fetches names)")
        lines.append(field_line("name", name))
        lines.append(field_line("objectid", ref.objectid))
        lines.append(field_line("exists", _exists(ref.exists)))
        dn = getattr(ref, "distinguishedname", "")
        if dn:
            parts = textwrap.wrap(dn, VALUE_WRAP, break_long_words=True) or [dn]
            lines += [field_line("DN" if index == 0 else "", part) for index, part in enumerate(parts)]
        if ref.type:
            lines.append(field_line("type", ref.type))
    return lines


class EventDetail(DetailPane["Event"]):
    """Every field of an event (the client, the schedule in words and the next run first), its domains and OUs, and
    its rule with the next 5 runs."""

    EMPTY_HINT = "No event under the cursor."

    def __init__(self, clock: Clock, name_of: NameOf = _no_names) -> None:
        super().__init__()
        self.clock = clock
        self.name_of = name_of

    def sections(self, item: Event) -> list[Section]:
        """Event (whose, the schedule in words and the next run first), the rule and its next runs, domains, OUs and
        any extra fields the server sent."""
        kinds = ", ".join(label for name, label in KIND_NAMES if getattr(item, name)) or "none"
        now = self.clock()
        schedule = parse_schedule(item.rrule)
        words = Content.styled(visible(schedule.words), "italic") if schedule.error else schedule.words
        # What an operator looks for first (the pane below the table has ~12 lines at 80x24): whose schedule, in
        # words, and when it runs next (as the table's next-run cell says it); then the rest.
        fields: list[tuple[str, str | Content]] = [
            ("id", str(item.id)),
            ("client", item.client_name or self.name_of(item.client_id) or muted("(no name)")),
            ("schedule", words),
            ("next run", next_run_words(item.rrule, now)),
            ("client id", item.client_id),
            ("kinds", _kinds(item)),
        ]
        # The kind names wrap under the value column, not under the labels.
        fields += [("", line) for line in textwrap.wrap(kinds, VALUE_WRAP)]
        for label, value in (
            ("next (server)", item.next_scheduled_at),
            ("created", item.created_at),
            ("updated", item.updated_at),
            ("deleted", item.deleted_at),
        ):
            if value is not None:
                fields.append((label, when(value)))
        raw_lines = item.rrule.replace("\\n", "\n").splitlines() or [""]
        schedule_lines: list[Line] = [
            field_line("raw rule" if index == 0 else "", line) for index, line in enumerate(raw_lines)
        ]
        if schedule.error is not None:
            schedule_lines += _note(f"Note: {schedule.error}. Shown raw; no runs computed.", missing)
        else:
            runs = schedule.next_runs(now, 5)
            if not runs:
                schedule_lines.append(field_line("next runs", "none (the rule has ended)"))
            schedule_lines += [
                field_line("next 5 runs" if index == 0 else "", f"{when(run)}  {relative(run, now)}")
                for index, run in enumerate(runs)
            ]
            if not schedule.has_start:
                schedule_lines += _note("(no DTSTART: the server picks the start; these are estimates from now)", muted)
        sections = [
            Section("Event", fields),
            Section("Schedule", (), schedule_lines),
            Section(f"Domains ({len(item.domains)})", (), _ref_lines(item.domains) or [muted("none")]),
            Section(f"OUs ({len(item.ous)})", (), _ref_lines(item.ous) or [muted("none")]),
        ]
        extra = item.model_extra or {}
        if extra:
            sections.append(Section("Other fields", [(key, str(value)) for key, value in sorted(extra.items())]))
        return sections
