"""List query parameters compiled to SQL the way the real server reads them, with bound parameters only.

The column specs come from `svctui.api.filters` (the same objects the client validates against); the SQL
column expressions of the `SqlTable`s below are built from those specs' names, never from the request. Values
are read as Postgres would read them: a value that does not fit the column's type is not a 400 but a deferred
500, raised after the resource lookups, like the real server's database error.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from svctui.api.filters import (
    ALL_PREDICATES,
    CLIENTS,
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    TAGS,
    EndpointSpec,
    Kind,
    server_reads,
)
from svctui.api.limits import INT64_MAX, INT64_MIN
from svctui.demo.timefmt import parse_filter_time

MSG_BAD_FILTERS = "there are errors in the query parameter filters specified"
MSG_NOT_FILTERABLE = "the specified column cannot be filtered"
MSG_PREDICATE = "the specified filter predicate is not supported for this column"
MSG_NOT_SORTABLE = "column format does not support sorting"
PAGINATION_PARAMS = frozenset({"skip", "limit", "sort_by"})
GO_BOOL_TRUE = ("1", "t", "T", "TRUE", "true", "True")
GO_BOOL_FALSE = ("0", "f", "F", "FALSE", "false", "False")
PG_BOOL_TRUE = frozenset({"t", "tr", "tru", "true", "y", "ye", "yes", "on"})
PG_BOOL_FALSE = frozenset({"f", "fa", "fal", "fals", "false", "n", "no", "of", "off"})
_GO_INT_RE = re.compile(r"[+-]?[0-9]+")
_OPERATORS = {"eq": "=", "neq": "<>", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


@dataclass(eq=False)
class Problem(Exception):
    """A request the server answers with an error envelope: HTTP status and message."""

    status: int
    message: str

    def __post_init__(self) -> None:
        super().__init__(self.message)


@dataclass(frozen=True)
class SqlColumn:
    """Where a filter/sort column lives in SQL and how its values are stored (int, text, bool, uuid, time)."""

    expr: str
    storage: str


@dataclass(frozen=True)
class SqlTable:
    """An endpoint's column spec, its SQL columns, its primary key and the non-filter parameters it knows."""

    spec: EndpointSpec
    columns: Mapping[str, SqlColumn]
    key: str
    known_params: frozenset[str] = frozenset()


STORAGE_BY_KIND: Mapping[Kind, str] = {
    Kind.INTEGER: "int",
    Kind.STRING: "text",
    Kind.BOOLEAN: "bool",
    Kind.UUID: "uuid",
    Kind.TIMESTAMP: "time",
}
HYDRATION_PARAMS = frozenset({"hydrate_domains", "hydrate_ous"})
TAG_PARAMS = frozenset({"counts", "environments"})


def sql_columns(alias: str, spec: EndpointSpec, **storage: str) -> dict[str, SqlColumn]:
    """`alias.name` for every filter column of `spec`, stored as its kind says unless `storage` names it otherwise
    (a sort-only column, or `status`: declared a string, stored as the integer code)."""
    storages = {name: STORAGE_BY_KIND[column.kind] for name, column in spec.columns.items()} | storage
    return {name: SqlColumn(f"{alias}.{name}", kind) for name, kind in storages.items()}


EVENTS_TABLE = SqlTable(EVENTS, sql_columns("e", EVENTS), "e.id", HYDRATION_PARAMS)
TASKS_TABLE = SqlTable(COMPLETED_TASKS, sql_columns("t", COMPLETED_TASKS, status="int"), "t.id", HYDRATION_PARAMS)
SELECTORS_TABLE = SqlTable(SELECTORS, sql_columns("s", SELECTORS, id="int", type="seed_type"), "s.id", TAG_PARAMS)
SEED_TYPE_SQL = "EXISTS (SELECT 1 FROM selector_seeds q WHERE q.selector_id = s.id AND q.type = ?)"
TAGS_TABLE = SqlTable(TAGS, sql_columns("g", TAGS), "g.id", TAG_PARAMS)
CLIENTS_TABLE = SqlTable(CLIENTS, sql_columns("c", CLIENTS), "c.id", HYDRATION_PARAMS)


@dataclass
class ListQuery:
    """A validated list request: WHERE parts with their parameters, ORDER BY, paging and hydration."""

    where: list[str] = field(default_factory=list)
    params: list[object] = field(default_factory=list)
    order: str = ""
    skip: int = 0
    limit: int = 0
    hydrate_domains: bool = True
    hydrate_ous: bool = True
    deferred_error: str | None = None

    def where_sql(self, base: Sequence[str] = ()) -> str:
        """` WHERE a AND b` over the base conditions and the filters, or ''."""
        parts = [*base, *self.where]
        return f" WHERE {' AND '.join(parts)}" if parts else ""


def first_value(pairs: Sequence[tuple[str, str]], name: str) -> str:
    """The first value of a parameter (Go's url.Values.Get), '' when absent."""
    return next((value for key, value in pairs if key == name), "")


def go_atoi(text: str) -> int:
    """strconv.Atoi: optional sign and ASCII digits in the int64 range; ValueError with Go's message otherwise."""
    if not _GO_INT_RE.fullmatch(text):
        raise ValueError(f'strconv.Atoi: parsing "{text}": invalid syntax')
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f'strconv.Atoi: parsing "{text}": value out of range')
    return value


def _paging_value(pairs: Sequence[tuple[str, str]], name: str, default: int) -> int:
    """The integer value of `skip` or `limit` (`default` when absent or empty), or the real 400."""
    text = first_value(pairs, name)
    if not text:
        return default
    try:
        return go_atoi(text)
    except ValueError as exc:
        raise Problem(
            400, f'query parameter "{name}" is malformed: error converting {name} value {text} to int: {exc}'
        ) from None


def parse_paging(pairs: Sequence[tuple[str, str]], default_limit: int, allow_all: bool) -> tuple[int, int]:
    """(skip, limit) with the real messages; limit 0 means no limit, as does -1 where `allow_all`."""
    skip = _paging_value(pairs, "skip", 0)
    if skip < 0:
        raise Problem(400, f'query parameter "skip" is malformed: invalid skip: {skip}')
    limit = _paging_value(pairs, "limit", default_limit)
    if limit == -1 and allow_all:
        limit = 0
    elif limit < 0:
        raise Problem(400, f'query parameter "limit" is malformed: invalid limit: {limit}')
    return skip, limit


def parse_hydration(pairs: Sequence[tuple[str, str]], name: str) -> bool:
    """A hydrate_* flag read with strconv.ParseBool; absent or empty = true."""
    text = first_value(pairs, name)
    if not text or text in GO_BOOL_TRUE:
        return True
    if text in GO_BOOL_FALSE:
        return False
    raise Problem(400, f'query parameter "{name}" is malformed: strconv.ParseBool: parsing "{text}": invalid syntax')


def like_to_glob(value: str) -> str:
    """A Postgres LIKE '%value%' pattern as a case-sensitive GLOB: `_` any one character, `\\` escapes."""
    out: list[str] = ["*"]
    chars = iter(value)
    for char in chars:
        if char == "\\":
            escaped = next(chars, None)
            if escaped is None:
                raise ValueError("LIKE pattern must not end with escape character")
            char = escaped
        elif char == "_":
            out.append("?")
            continue
        out.append(f"[{char}]" if char in "*?[" else char)
    out.append("*")
    return "".join(out)


def convert(storage: str, value: str) -> object:
    """A filter value as a bound parameter for the column's storage; ValueError where Postgres would fail."""
    if storage == "int":
        try:
            return int(value.strip())
        except ValueError:
            number = float(value)
            if math.isnan(number):
                raise ValueError(f"invalid input syntax for type bigint: {value!r}") from None
            return number
    if storage == "bool":
        if _GO_INT_RE.fullmatch(value):
            raise ValueError("operator does not exist: boolean = bigint")
        lowered = value.strip().lower()
        if value in GO_BOOL_TRUE or lowered in PG_BOOL_TRUE:
            return 1
        if value in GO_BOOL_FALSE or lowered in PG_BOOL_FALSE:
            return 0
        raise ValueError(f"invalid input syntax for type boolean: {value!r}")
    if storage == "uuid":
        if _GO_INT_RE.fullmatch(value):
            raise ValueError("operator does not exist: uuid = bigint")
        return str(uuid.UUID(value.strip()))
    if storage == "time":
        if _GO_INT_RE.fullmatch(value):
            raise ValueError("operator does not exist: timestamp with time zone > bigint")
        return parse_filter_time(value)
    return value


def compile_filter(column: SqlColumn, op: str, value: str) -> tuple[str, list[object]]:
    """SQL for one filter; the value is always a bound parameter."""
    if column.storage == "seed_type":  # a selector's seeds: `type eq 2` = has a Cypher seed
        if value == "null":
            return ("0" if op == "eq" else "1"), []
        return (SEED_TYPE_SQL if op == "eq" else f"NOT {SEED_TYPE_SQL}"), [convert("int", value)]
    if value == "null":
        if op == "eq":
            return f"{column.expr} IS NULL", []
        if op == "neq":
            return f"{column.expr} IS NOT NULL", []
        return "0", []
    if op == "~eq":
        target = column.expr if column.storage == "text" else f"CAST({column.expr} AS TEXT)"
        return f"{target} GLOB ?", [like_to_glob(value)]
    return f"{column.expr} {_OPERATORS[op]} ?", [convert(column.storage, value)]


def parse_filters(table: SqlTable, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(column, op, value) of every filter, checked like the real server: parse errors, then columns, predicates."""
    parsed: list[tuple[str, str, str]] = []
    for name, raw in pairs:
        if name in PAGINATION_PARAMS or name in table.known_params:
            continue
        read = server_reads(raw)
        if read is None:
            continue
        op, value = read
        if op not in ALL_PREDICATES:
            raise Problem(400, MSG_BAD_FILTERS)
        parsed.append((name, op, value))
    for name, op, _ in parsed:
        spec_column = table.spec.columns.get(name)
        if spec_column is None:
            raise Problem(400, f"{MSG_NOT_FILTERABLE}: {name}")
        if op not in spec_column.predicates:
            raise Problem(400, f"{MSG_PREDICATE}: {name} {op}")
    return parsed


def parse_sort(table: SqlTable, pairs: Sequence[tuple[str, str]]) -> str:
    """ORDER BY for the repeated sort_by values (priority by order, `-` descending), then the primary key."""
    terms: list[str] = []
    for name, raw in pairs:
        if name != "sort_by":
            continue
        descending = raw.startswith("-")
        column = raw[1:] if descending else raw
        if not raw or column not in table.spec.sortable or column not in table.columns:
            raise Problem(400, MSG_NOT_SORTABLE)
        expr = table.columns[column].expr
        terms.append(f"{expr} DESC NULLS FIRST" if descending else f"{expr} ASC NULLS LAST")
    terms.append(f"{table.key} ASC")
    return " ORDER BY " + ", ".join(terms)


def build_list_query(
    table: SqlTable,
    pairs: Sequence[tuple[str, str]],
    *,
    default_limit: int = 0,
    allow_all: bool = False,
    sortable: bool = True,
    paged: bool = True,
    before_filters: Callable[[], object] | None = None,
    before_sort: Callable[[], object] | None = None,
) -> ListQuery:
    """Validate and compile a list request in the real server's order: paging, hydration, filters, sort.

    `before_filters` and `before_sort` run endpoint checks at the point where the real handler makes them.
    """
    query = ListQuery()
    if paged:
        query.skip, query.limit = parse_paging(pairs, default_limit, allow_all)
    if before_filters is not None:
        before_filters()
    if table.spec.hydration:
        query.hydrate_domains = parse_hydration(pairs, "hydrate_domains")
        query.hydrate_ous = parse_hydration(pairs, "hydrate_ous")
    for name, op, value in parse_filters(table, pairs):
        try:
            sql, params = compile_filter(table.columns[name], op, value)
        except ValueError as exc:
            query.deferred_error = query.deferred_error or f"{name}: {exc}"
            continue
        query.where.append(sql)
        query.params.extend(params)
    if before_sort is not None:
        before_sort()
    query.order = parse_sort(table, pairs) if sortable else f" ORDER BY {table.key} ASC"
    return query
