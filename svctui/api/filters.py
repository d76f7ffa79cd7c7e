"""Filter grammar of the v2 API as data: kinds, predicates, per-endpoint column specs, parse/validate/render.

The same `EndpointSpec` objects are enforced by the demo server, so client and server agree by construction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from svctui.api.ascii import strip_ascii
from svctui.api.fields import FILTERABLE_FLAGS, SHARED_TIMES
from svctui.api.limits import DEPRECATED_TASK_ENDPOINT, INT64_MAX, INT64_MIN, MAX_FILTER_VALUE, MAX_QUERY_CHARS
from svctui.api.quoting import quote_input
from svctui.visible import visible


class Kind(StrEnum):
    """The five value kinds of the filter grammar (spec 4.4)."""

    INTEGER = "integer"
    STRING = "string"
    BOOLEAN = "boolean"
    UUID = "uuid"
    TIMESTAMP = "timestamp"


def article(word: str) -> str:
    """`a` or `an` before `word` (the filter kinds: an integer, a string, a uuid)."""
    return "an" if word[:1] in "aeio" else "a"


ORDERED = ("eq", "neq", "gt", "gte", "lt", "lte")
PREDICATES: Mapping[Kind, tuple[str, ...]] = {
    Kind.INTEGER: ORDERED,
    Kind.STRING: ("eq", "~eq", "neq"),
    Kind.BOOLEAN: ("eq", "neq"),
    Kind.UUID: ("eq", "neq"),
    Kind.TIMESTAMP: ORDERED,
}
ALL_PREDICATES = ("eq", "neq", "gt", "gte", "lt", "lte", "~eq")

BOOLEAN_TRUE = ("t", "T", "TRUE", "true", "True")
BOOLEAN_FALSE = ("f", "F", "FALSE", "false", "False")

VALUE_PATTERNS: Mapping[Kind, re.Pattern[str]] = {
    Kind.INTEGER: re.compile(r"-?[0-9]+"),
    Kind.STRING: re.compile(r"[^:]+"),
    Kind.BOOLEAN: re.compile("|".join(BOOLEAN_TRUE + BOOLEAN_FALSE)),
    Kind.UUID: re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
    Kind.TIMESTAMP: re.compile(
        r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
    ),
}
NULL = "null"  # the server's word for an unset value: `eq:null` is IS NULL, `neq:null` IS NOT NULL
NULL_TEXT = "null with eq or neq (eq:null = not set, neq:null = set)"
ALLOWED_TEXT: Mapping[Kind, str] = {
    Kind.INTEGER: "an integer such as 42 or -1",
    Kind.STRING: "text without ':'",
    Kind.BOOLEAN: "true or false (t, T, TRUE, True, f, F, FALSE, False)",
    Kind.UUID: "a uuid like 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
    Kind.TIMESTAMP: "an RFC 3339 time like 2026-01-31T23:00:00Z, or a relative time like -7d, -24h, -30m, now",
}

# The server's own parse rule (BloodHound model/filters): unanchored, leftmost match, ASCII \w.
SERVER_FILTER_RE = re.compile(r"([~\w]+):([\w\--_ ]+)", re.ASCII)
_SAFE_CHAR_RE = re.compile(r"[A-Za-z0-9 \x2d-\x5f]")
SAFE_CHARS_TEXT = "ASCII letters (a-z, A-Z), digits (0-9), space and - . / : ; < = > ? @ [ \\ ] ^ _"
# The same for a text value, less ':' (which the filter grammar refuses in text: ALLOWED_TEXT), so one hint never
# lists as kept what the other refuses
TEXT_CHARS_TEXT = "ASCII letters (a-z, A-Z), digits (0-9), space and - . / ; < = > ? @ [ \\ ] ^ _"
_RELATIVE_RE = re.compile(r"^([+-])\s*(\d+)\s*([smhdw])$", re.ASCII)
_RELATIVE_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class TimeOutOfRange(ValueError):
    """A relative time of the right form whose shift lands outside the calendar (years 1 to 9999); says the range."""


class FilterError(ValueError):
    """A filter the client refuses to send; the message names column, predicate and what is allowed."""

    def __init__(self, message: str, *, column: str = "", op: str = "", allowed: str = "") -> None:
        super().__init__(message)
        self.column = column
        self.op = op
        self.allowed = allowed


@dataclass(frozen=True)
class Column:
    """One filterable column: its kind, its predicates, and (for coded columns) labels for the codes."""

    name: str
    kind: Kind
    predicates: tuple[str, ...] = ()
    label: str = ""
    choices: Mapping[str, int] = field(default_factory=dict)
    nullable: bool = False  # `eq:null` / `neq:null` mean unset / set (the real server's IS NULL / IS NOT NULL)

    def __post_init__(self) -> None:
        if not self.predicates:
            object.__setattr__(self, "predicates", PREDICATES[self.kind])
        if not self.label:
            object.__setattr__(self, "label", self.name.replace("_", " "))

    @property
    def allowed_text(self) -> str:
        """What a value for this column may be, in words."""
        if self.choices:
            labels = ", ".join(f"{name} ({code})" for name, code in self.choices.items())
            return f"one of {labels}"
        return ALLOWED_TEXT[self.kind] + (f"; or {NULL_TEXT}" if self.nullable else "")


@dataclass(frozen=True)
class EndpointSpec:
    """Filter columns, sortable columns and paging defaults of one list endpoint.

    `name` is what its records are called (`completed tasks`), `item` what one of them is called (`task`).
    """

    name: str
    item: str
    columns: Mapping[str, Column]
    sortable: tuple[str, ...]
    default_limit: int | None = None
    hydration: bool = False
    limit_all: bool = False
    unfilterable: Mapping[str, str] = field(default_factory=dict)
    """Fields people try to filter by that the server refuses (400), with what to do instead."""

    def column(self, name: str) -> Column:
        """The column spec for `name`, or FilterError naming the filterable columns."""
        try:
            return self.columns[name]
        except KeyError:
            known = ", ".join(self.columns) or "none"
            instead = f" ({self.unfilterable[name]})" if name in self.unfilterable else ""
            raise FilterError(
                f"{quote_input(name)} is not a filter column of {self.name}{instead}; filter columns: {known}",
                column=name,
                allowed=known,
            ) from None


def _columns(*cols: Column) -> dict[str, Column]:
    return {c.name: c for c in cols}


def _of(kind: Kind, *names: str, predicates: tuple[str, ...] = ()) -> tuple[Column, ...]:
    """Columns of one kind (and one predicate set), in the order given."""
    return tuple(Column(name, kind, predicates) for name in names)


EXACT = ("eq", "neq")  # the predicates of columns the server compares only for (in)equality


TASK_STATUS_CODES: Mapping[str, int] = {
    "invalid": -1,
    "ready": 0,
    "running": 1,
    "complete": 2,
    "canceled": 3,
    "timed out": 4,
    "failed": 5,
    "ingesting": 6,
    "analyzing": 7,
    "partially complete": 8,
}

EVENTS = EndpointSpec(
    name="events",
    item="event",
    columns=_columns(
        *_of(Kind.INTEGER, "id"),
        *_of(Kind.STRING, "rrule"),
        *_of(Kind.TIMESTAMP, "next_scheduled_at"),
        *_of(Kind.UUID, "client_id"),
        *_of(Kind.BOOLEAN, *FILTERABLE_FLAGS),
        *_of(Kind.TIMESTAMP, *SHARED_TIMES),
    ),
    sortable=("next_scheduled_at", "id", "created_at", "updated_at", "deleted_at"),
    hydration=True,
)

COMPLETED_TASKS = EndpointSpec(
    name="completed tasks",
    item="task",
    columns=_columns(
        *_of(Kind.INTEGER, "id", "event_id"),
        Column("status", Kind.STRING, choices=TASK_STATUS_CODES),
        *_of(Kind.STRING, "log_path", "domain_controller", "event_title"),
        *_of(Kind.UUID, "client_id"),
        *_of(Kind.BOOLEAN, *FILTERABLE_FLAGS),
        *_of(Kind.TIMESTAMP, "execution_time", "start_time", "end_time", "last_ingest", *SHARED_TIMES),
    ),
    sortable=(
        *("event_id", "execution_time", "status", "start_time", "end_time", "log_path", "domain_controller"),
        *("event_title", "last_ingest", "id", "created_at", "updated_at", "deleted_at"),
    ),
    hydration=True,
)

SELECTORS = EndpointSpec(
    name="selectors",
    item="selector",
    columns=_columns(
        *_of(Kind.STRING, "name", "description"),
        *_of(Kind.TIMESTAMP, "created_at", "updated_at"),
        Column("disabled_at", Kind.TIMESTAMP, nullable=True),  # disabled_at=neq:null: the disabled selectors
        *_of(Kind.STRING, "created_by", "updated_by", predicates=EXACT),
        Column("disabled_by", Kind.STRING, EXACT, nullable=True),
        *_of(Kind.BOOLEAN, "is_default"),
        *_of(Kind.INTEGER, "auto_certify", predicates=EXACT),
        Column("type", Kind.INTEGER, EXACT, label="seed type"),
    ),
    sortable=("id", "name", "created_at"),
    default_limit=50,
    limit_all=True,
)

TAGS = EndpointSpec(
    name="asset group tags",
    item="tag",
    columns=_columns(
        *_of(Kind.STRING, "name", "description"),
        *_of(Kind.INTEGER, "type", predicates=EXACT),  # not `position`: the real server refuses it (400)
        *_of(Kind.TIMESTAMP, "created_at", "updated_at", "deleted_at"),
        *_of(Kind.STRING, "created_by", "updated_by", "deleted_by", predicates=EXACT),
        *_of(Kind.BOOLEAN, "require_certify", "analysis_enabled"),
        *_of(Kind.STRING, "glyph"),  # eq, ~eq, neq
    ),
    sortable=(),
    unfilterable={
        "position": "the server answers 400 `the specified column cannot be filtered: position`; `svctui tags "
        "list` shows each tier's position, and the dashboard's tags pane lists tiers in position order"
    },
)

CLIENTS = EndpointSpec(
    name="clients",
    item="client",
    columns=_columns(
        *_of(Kind.UUID, "id"),
        *_of(Kind.STRING, "name", "hostname", "ip_address", "configured_user", "version", "user_sid"),
        *_of(Kind.STRING, "domain_controller"),
        *_of(Kind.INTEGER, "current_job_id", "completed_job_count"),
        *_of(Kind.TIMESTAMP, "last_checkin", *SHARED_TIMES),
    ),
    sortable=(
        "name",
        "ip_address",
        "hostname",
        "configured_user",
        "last_checkin",
        "completed_job_count",
        "created_at",
        "updated_at",
        "deleted_at",
    ),
    hydration=True,
)

SPECS: Mapping[str, EndpointSpec] = {
    "events": EVENTS,
    DEPRECATED_TASK_ENDPOINT: COMPLETED_TASKS,
    "selectors": SELECTORS,
    "tags": TAGS,
    "clients": CLIENTS,
}


def check_safe(column: str, op: str, value: str, *, text: bool = False) -> None:
    """Refuse a value the server would silently cut (first character outside its allowed set); a `text` value's
    message lists the set less ':', which text may not hold either."""
    for index, char in enumerate(value):
        if not _SAFE_CHAR_RE.fullmatch(char):
            where = f"{column} {op}: the value has {visible(char)!r} at position {index + 1}"
            if text:
                message = (
                    f"{where}; text may hold only {TEXT_CHARS_TEXT} (the server cuts a filter value at the first "
                    "character outside its set, and the filter grammar allows no ':' in text), so it cannot be sent"
                )
            else:
                message = f"{where}; the server cuts a filter value at the first character outside {SAFE_CHARS_TEXT}"
                message += ", so it cannot be sent"
            raise FilterError(message, column=column, op=op, allowed=TEXT_CHARS_TEXT if text else SAFE_CHARS_TEXT)


def parse_timestamp(text: str, now: datetime | None = None) -> str:
    """Normalise an RFC 3339 or relative time (`-7d`, `now`) to UTC `Z`, keeping up to 9 fraction digits."""
    text = strip_ascii(text)
    moment = now or datetime.now(UTC)
    if text.lower() == "now":
        return _render_utc(moment.astimezone(UTC).replace(microsecond=0), "")
    relative = _RELATIVE_RE.match(text)
    if relative:
        sign, amount, unit = relative.groups()
        try:  # a long amount is not read whole (int() of thousands of digits is slow, then refused)
            digits = amount.lstrip("0") or "0"
            delta = timedelta(**{_RELATIVE_UNITS[unit]: int(digits)}) if len(digits) <= 40 else None
            shifted = (moment + delta if sign == "+" else moment - delta) if delta is not None else None
        except OverflowError:  # `-99999999999d`: not a time any calendar has
            shifted = None
        if shifted is None:
            raise TimeOutOfRange(_relative_range(text, moment, unit))
        if len(amount) > 12:
            raise TimeOutOfRange(f"{quote_input(text)} has {len(amount)} digits, over the 12 a relative time may have")
        return _render_utc(shifted.astimezone(UTC).replace(microsecond=0), "")
    match = VALUE_PATTERNS[Kind.TIMESTAMP].fullmatch(text)
    if not match:
        raise ValueError(text)
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    base = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), tzinfo=UTC)
    if offset not in ("Z", "z"):
        sign = 1 if offset[0] == "+" else -1
        if int(offset[1:3]) > 23 or int(offset[4:6]) > 59:
            raise ValueError(text)
        base -= sign * timedelta(hours=int(offset[1:3]), minutes=int(offset[4:6]))
    return _render_utc(base, fraction or "")


def _relative_range(text: str, moment: datetime, unit: str) -> str:
    """Why `text` is refused: the shift leaves years 1-9999, and how far back and ahead `unit` may go from now."""
    step = timedelta(**{_RELATIVE_UNITS[unit]: 1})  # timedelta // timedelta is exact, total_seconds() rounds up
    back = (moment - datetime.min.replace(tzinfo=UTC)) // step
    ahead = (datetime.max.replace(tzinfo=UTC) - moment) // step
    return (
        f"{quote_input(text)} is out of range: a relative time must land between the years 1 and 9999 "
        f"(from now -{back}{unit} to +{ahead}{unit})"
    )


def _render_utc(moment: datetime, fraction: str) -> str:
    stamp = f"{moment.year:04d}-" + moment.strftime("%m-%dT%H:%M:%S")  # %Y is not zero-padded before year 1000
    return f"{stamp}.{fraction}Z" if fraction else f"{stamp}Z"


def normalise_value(col: Column, op: str, raw: str, now: datetime | None = None) -> str:
    """Validate `raw` for the column's kind and return the value to send; FilterError when it can't be."""
    value = strip_ascii(raw)  # not str.strip(): `5\x1c` is no integer
    if not value:
        raise FilterError(
            f"{col.name} {op}: the value is empty; allowed: {col.allowed_text}",
            column=col.name,
            op=op,
            allowed=col.allowed_text,
        )

    def refuse(reason: str, allowed: str = col.allowed_text) -> FilterError:
        return FilterError(f"{col.name} {op}: {reason}; allowed: {allowed}", column=col.name, op=op, allowed=allowed)

    if col.nullable and value.lower() == NULL:
        if op not in ("eq", "neq"):
            raise refuse(f"{NULL} compares only with eq or neq")
        return NULL
    if col.choices:
        by_label = {label.lower(): code for label, code in col.choices.items()}
        if value.lower() in by_label:
            return str(by_label[value.lower()])
        if re.fullmatch(r"-?[0-9]{1,19}", value) and int(value) in col.choices.values():
            return str(int(value))
        raise refuse(f"{quote_input(value)} is not a known value")
    if col.kind is Kind.TIMESTAMP:
        try:
            value = parse_timestamp(value, now)
        except TimeOutOfRange as exc:
            raise refuse(str(exc)) from None
        except (ValueError, OverflowError):
            raise refuse(f"{quote_input(value)} is not a valid time") from None
    elif col.kind is Kind.BOOLEAN:
        if value in BOOLEAN_TRUE:
            value = "true"
        elif value in BOOLEAN_FALSE:
            value = "false"
        else:
            raise refuse(f"{quote_input(value)} is not a boolean")
    elif col.kind is Kind.UUID:
        if not VALUE_PATTERNS[Kind.UUID].fullmatch(value):
            raise refuse(f"{quote_input(value)} is not a uuid")
        value = value.lower()
    elif col.kind is Kind.INTEGER:
        if not VALUE_PATTERNS[Kind.INTEGER].fullmatch(value):
            raise refuse(f"{quote_input(value)} is not an integer")
        if len(value.lstrip("-").lstrip("0")) > 19 or not INT64_MIN <= int(value) <= INT64_MAX:
            raise refuse(f"{quote_input(value)} is out of range for a 64-bit integer")
        value = str(int(value))
    elif ":" in value:
        raise refuse("the value contains ':', which the filter grammar does not allow in text")
    if len(value) > MAX_FILTER_VALUE:  # httpx refuses a query over 64 KiB (InvalidURL), servers far less
        too_long = f"the value is {len(value):,} characters long, over the {MAX_FILTER_VALUE:,} a filter may send"
        raise refuse(too_long, f"at most {MAX_FILTER_VALUE:,} characters")  # the length's hint, not the kind's
    check_safe(col.name, op, value, text=col.kind is Kind.STRING)
    return value


CASE_NOTE = "~eq is case-sensitive on the server"


def case_note(value: str) -> str:
    """What the server does with `~eq value`: it matches that capitalisation only (the filter editor says it as you
    type, the list commands when nothing matched)."""
    other = value.swapcase() if value.swapcase() != value else ""
    if not other:
        return f"{CASE_NOTE}: {quote_input(value)} matches exactly these capitals"
    return f"{CASE_NOTE}: {quote_input(value)} does not match {quote_input(other)}, which differs only in case"


@dataclass(frozen=True)
class Filter:
    """A validated filter: `column=op:value` on the wire."""

    column: str
    op: str
    value: str

    @classmethod
    def build(cls, spec: EndpointSpec, column: str, op: str, value: str, now: datetime | None = None) -> Filter:
        """Validate column, predicate and value against `spec`; FilterError names what is wrong."""
        col = spec.column(column)
        if op not in col.predicates:
            allowed = ", ".join(col.predicates)
            raise FilterError(
                f"{column}: predicate {quote_input(op)} is not allowed for {article(col.kind)} {col.kind} column; "
                f"allowed: {allowed}",
                column=column,
                op=op,
                allowed=allowed,
            )
        return cls(column, op, normalise_value(col, op, value, now))

    def render(self) -> str:
        """The query value, `op:value`."""
        return f"{self.op}:{self.value}"

    def param(self) -> tuple[str, str]:
        """The query parameter pair."""
        return (self.column, self.render())

    def __str__(self) -> str:
        return f"{self.column}={self.render()}"


def parse_filter(spec: EndpointSpec, text: str, now: datetime | None = None) -> Filter:
    """Parse the user form `column=op:value` or `column=value` (eq implied)."""
    column, sep, rest = strip_ascii(text).partition("=")
    column = strip_ascii(column)
    if not sep or not column:
        raise FilterError(
            f"{quote_input(strip_ascii(text))} is not a filter; write column=op:value or column=value",
            column=column,
            allowed="column=op:value",
        )
    op, colon, value = rest.partition(":")
    if colon and strip_ascii(op) in ALL_PREDICATES:
        return Filter.build(spec, column, strip_ascii(op), value, now)
    if colon and re.fullmatch(r"~?[A-Za-z]+", strip_ascii(op)):
        col = spec.column(column)
        allowed = ", ".join(col.predicates)
        raise FilterError(
            f"{column}: unknown predicate {quote_input(strip_ascii(op))}; allowed: {allowed}",
            column=column,
            op=strip_ascii(op),
            allowed=allowed,
        )
    return Filter.build(spec, column, "eq", rest, now)


class FilterErrors(FilterError):
    """Several filters refused at once: `errors` holds each one's FilterError; the message is theirs, one a line."""

    def __init__(self, errors: Sequence[FilterError]) -> None:
        super().__init__("\n".join(str(item) for item in errors))
        self.errors = tuple(errors)


def parse_each(
    spec: EndpointSpec, texts: Iterable[str], now: datetime | None = None
) -> tuple[list[Filter], list[tuple[str, FilterError]]]:
    """Parse every user filter (blank ones skipped): the valid ones, and each refused text with its FilterError, all
    of them, so a person sees every problem at once instead of one per try."""
    filters: list[Filter] = []
    refused: list[tuple[str, FilterError]] = []
    for text in texts:
        if not text.strip():
            continue
        try:
            filters.append(parse_filter(spec, text, now))
        except FilterError as exc:
            refused.append((text, exc))
    return filters, refused


def parse_filters(spec: EndpointSpec, texts: Iterable[str], now: datetime | None = None) -> list[Filter]:
    """Parse several user filters; FilterErrors naming every refused one."""
    filters, refused = parse_each(spec, texts, now)
    if refused:
        raise FilterErrors([exc for _, exc in refused])
    return filters


def split_quick_filter(line: str) -> list[str]:
    """Split a quick-filter line `a=eq:1 b=~eq:some text c=t` into one string per `column=` token."""
    parts: list[str] = []
    for token in line.split():
        if "=" in token.split(":", 1)[0] or not parts:
            parts.append(token)
        else:
            parts[-1] = f"{parts[-1]} {token}"
    return parts


@dataclass(frozen=True)
class SortKey:
    """One sort column; `-column` on the wire when descending."""

    column: str
    descending: bool = False

    @classmethod
    def parse(cls, spec: EndpointSpec, text: str) -> SortKey:
        """Parse `[-]column`, checking that the endpoint can sort by it."""
        text = text.strip()
        descending = text.startswith("-")
        column = text.removeprefix("-")
        if column.startswith("-"):  # `-s --id`: an option where the sort key should be
            raise FilterError(
                f"{quote_input(text)} is not a sort key; write COLUMN, or -COLUMN for descending",
                column=column,
                allowed=", ".join(spec.sortable),
            )
        if column not in spec.sortable:
            allowed = ", ".join(spec.sortable) or "none"
            raise FilterError(
                f"cannot sort {spec.name} by {quote_input(column)}; sortable: {allowed}",
                column=column,
                allowed=allowed,
            )
        return cls(column, descending)

    def render(self) -> str:
        """The `sort_by` value."""
        return f"-{self.column}" if self.descending else self.column


# Completed tasks newest first: the dashboard's list and `svctui tasks list` both start here.
TASKS_NEWEST_FIRST = (SortKey("execution_time", descending=True),)
# A client's runs read back page by page (the plot's history, the fleet's health): newest first, ties by id, so
# consecutive pages never overlap or skip a run.
RUNS_NEWEST_FIRST = (SortKey("execution_time", descending=True), SortKey("id", descending=True))


def query_params(
    filters: Sequence[Filter] = (),
    sort: Sequence[SortKey] = (),
    *,
    skip: int | None = None,
    limit: int | None = None,
    hydrate_domains: bool | None = None,
    hydrate_ous: bool | None = None,
) -> list[tuple[str, str]]:
    """Build the query parameters of a list request: the one place where the wire form is made."""
    params: list[tuple[str, str]] = [f.param() for f in filters]
    params.extend(("sort_by", key.render()) for key in sort)
    if hydrate_domains is not None:
        params.append(("hydrate_domains", "true" if hydrate_domains else "false"))
    if hydrate_ous is not None:
        params.append(("hydrate_ous", "true" if hydrate_ous else "false"))
    if skip is not None:
        if skip < 0:
            raise FilterError(f"skip must be >= 0, got {skip}", column="skip", allowed="an integer >= 0")
        params.append(("skip", str(skip)))
    if limit is not None:
        if limit < -1:
            raise FilterError(f"limit must be >= 0, got {limit}", column="limit", allowed="an integer >= 0")
        params.append(("limit", str(limit)))
    length = sum(len(name) + len(value) + 2 for name, value in params)
    if length > MAX_QUERY_CHARS:  # several long filters: refused here, not by httpx (InvalidURL) or the server (414)
        raise FilterError(
            f"the filters add up to a query of {length:,} characters, over the {MAX_QUERY_CHARS:,} a request may "
            "send; use fewer or shorter filters",
            allowed=f"at most {MAX_QUERY_CHARS:,} characters of query",
        )
    return params


def display_value(spec: EndpointSpec, column: str, value: str) -> str:
    """A filter value as a person reads it: the label of a coded column (`status` 5 -> `failed`), else as is."""
    col = spec.columns.get(column)
    if col is not None and col.choices:
        for label, code in col.choices.items():
            if str(code) == value:
                return label
    return value


def server_reads(raw: str) -> tuple[str, str] | None:
    """How the real server reads one filter value: (predicate, value) or None when it ignores it."""
    match = SERVER_FILTER_RE.search(raw)
    return (match.group(1), match.group(2)) if match else None
