"""Issue 30: every refusal of the filter grammar, whole — the message a person reads and the column, predicate and
allowed text a caller of `svctui.api` gets (docs/CLIENT.md: `FilterError` names them) — and the edges of the values
it accepts: int64's ends, the longest value, the longest query, relative times, offsets, seconds, time zones."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

import pytest

from svctui.api.filters import (
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    TAGS,
    EndpointSpec,
    Filter,
    FilterError,
    FilterErrors,
    check_safe,
    parse_filter,
    parse_filters,
    parse_timestamp,
    query_params,
)
from svctui.api.limits import MAX_FILTER_VALUE, MAX_QUERY_CHARS
from svctui.api.quoting import quote_input
from tests.support.zones import local_zone

NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
EVENT_COLUMNS = ", ".join(EVENTS.columns)
STATUS_ALLOWED = (
    "one of invalid (-1), ready (0), running (1), complete (2), canceled (3), timed out (4), failed (5), "
    "ingesting (6), analyzing (7), partially complete (8)"
)
UNSAFE = "ASCII letters (a-z, A-Z), digits (0-9), space and - . / : ; < = > ? @ [ \\ ] ^ _"
# a text value's set: no ':' listed, which the grammar refuses in text (the hints must not contradict each other)
TEXT_SAFE = "ASCII letters (a-z, A-Z), digits (0-9), space and - . / ; < = > ? @ [ \\ ] ^ _"
OUT_OF_RANGE = "is out of range: a relative time must land between the years 1 and 9999 (from now {back} to {ahead})"
TIME_ALLOWED = "an RFC 3339 time like 2026-01-31T23:00:00Z, or a relative time like -7d, -24h, -30m, now"
LONG = "a" * (MAX_FILTER_VALUE + 1)


def refusal(call: Callable[[], object]) -> tuple[str, str, str, str]:
    """The message, column, predicate and allowed text of the FilterError `call` raises."""
    with pytest.raises(FilterError) as refused:
        call()
    return str(refused.value), refused.value.column, refused.value.op, refused.value.allowed


@pytest.mark.parametrize(
    ("text", "spec", "expected"),
    [
        ("rrule", EVENTS, ("'rrule' is not a filter; write column=op:value or column=value", "rrule", "",
                           "column=op:value")),
        ("=eq:1", EVENTS, ("'=eq:1' is not a filter; write column=op:value or column=value", "", "",
                           "column=op:value")),
        ("colour=eq:red", EVENTS, (f"'colour' is not a filter column of events; filter columns: {EVENT_COLUMNS}",
                                   "colour", "", EVENT_COLUMNS)),
        ("id=EQ:5", EVENTS, ("id: unknown predicate 'EQ'; allowed: eq, neq, gt, gte, lt, lte", "id", "EQ",
                             "eq, neq, gt, gte, lt, lte")),
        ("name=gt:x", SELECTORS, ("name: predicate 'gt' is not allowed for a string column; allowed: eq, ~eq, neq",
                                  "name", "gt", "eq, ~eq, neq")),
        ("id=~eq:4", EVENTS, ("id: predicate '~eq' is not allowed for an integer column; allowed: eq, neq, gt, gte, "
                              "lt, lte", "id", "~eq", "eq, neq, gt, gte, lt, lte")),
        ("id=eq: ", EVENTS, ("id eq: the value is empty; allowed: an integer such as 42 or -1", "id", "eq",
                             "an integer such as 42 or -1")),
        ("id=4x", EVENTS, ("id eq: '4x' is not an integer; allowed: an integer such as 42 or -1", "id", "eq",
                           "an integer such as 42 or -1")),
        ("id=9223372036854775808", EVENTS, (
            "id eq: '9223372036854775808' is out of range for a 64-bit integer; allowed: an integer such as 42 or -1",
            "id", "eq", "an integer such as 42 or -1")),
        ("status=done", COMPLETED_TASKS, (f"status eq: 'done' is not a known value; allowed: {STATUS_ALLOWED}",
                                          "status", "eq", STATUS_ALLOWED)),
        ("client_id=neq:xyz", EVENTS, (
            "client_id neq: 'xyz' is not a uuid; allowed: a uuid like 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
            "client_id", "neq", "a uuid like 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0")),
        ("is_default=yes", SELECTORS, (
            "is_default eq: 'yes' is not a boolean; allowed: true or false (t, T, TRUE, True, f, F, FALSE, False)",
            "is_default", "eq", "true or false (t, T, TRUE, True, f, F, FALSE, False)")),
        ("created_at=gte:yesterday", EVENTS, (f"created_at gte: 'yesterday' is not a valid time; allowed: "
                                              f"{TIME_ALLOWED}", "created_at", "gte", TIME_ALLOWED)),
        ("name=~eq:a:b", SELECTORS, ("name ~eq: the value contains ':', which the filter grammar does not allow in "
                                     "text; allowed: text without ':'", "name", "~eq", "text without ':'")),
        ("name=a,b", SELECTORS, (f"name eq: the value has ',' at position 2; text may hold only {TEXT_SAFE} (the "
                                 "server cuts a filter value at the first character outside its set, and the filter "
                                 "grammar allows no ':' in text), so it cannot be sent", "name", "eq", TEXT_SAFE)),
        (f"name={LONG}", SELECTORS, ("name eq: the value is 2,001 characters long, over the 2,000 a filter may "
                                     "send; allowed: at most 2,000 characters", "name", "eq",
                                     "at most 2,000 characters")),
    ],
    ids=["no-equals", "no-column", "unknown-column", "unknown-predicate", "predicate-not-allowed", "an-integer-column",
         "empty", "integer",
         "int64-range", "coded", "uuid", "boolean", "time", "colon", "unsafe", "too-long"],
)  # fmt: skip
def test_each_refusal_names_the_column_the_predicate_and_what_is_allowed(
    text: str, spec: EndpointSpec, expected: tuple[str, str, str, str]
) -> None:
    assert refusal(lambda: parse_filter(spec, text, NOW)) == expected


def test_the_hints_about_colons_agree() -> None:
    # newcomer walk: the unsafe-character hint listed ':' as kept by the server while the text rule refused it, and
    # the length refusal ended with "allowed: text without ':'"; a text value's set now leaves ':' out
    _message, _column, _op, allowed = refusal(lambda: parse_filter(EVENTS, "rrule=~eq:日本", NOW))
    assert ":" not in allowed
    assert refusal(lambda: check_safe("when", "gt", "a,b"))[3] == UNSAFE  # not text: the server's whole set


def test_a_field_the_server_will_not_filter_says_what_to_do_instead_and_a_spec_without_columns_says_none() -> None:
    message, column, op, allowed = refusal(lambda: parse_filter(TAGS, "position=1"))
    assert (column, op, allowed) == ("position", "", ", ".join(TAGS.columns))
    assert message.startswith("'position' is not a filter column of asset group tags (the server answers 400 ")
    assert message.endswith(f"; filter columns: {allowed}")
    bare = EndpointSpec("widgets", "widget", {}, ())
    assert refusal(lambda: bare.column("x")) == ("'x' is not a filter column of widgets; filter columns: none", "x",
                                                 "", "none")  # fmt: skip


def test_several_refusals_are_told_together_with_no_column_of_their_own() -> None:
    with pytest.raises(FilterErrors) as refused:
        parse_filters(EVENTS, ["id=4x", "id=eq:5", "colour=1"])
    assert str(refused.value) == "\n".join(str(one) for one in refused.value.errors)
    assert [one.column for one in refused.value.errors] == ["id", "colour"]
    assert (refused.value.column, refused.value.op, refused.value.allowed) == ("", "", "")


def test_the_value_keeps_its_equals_signs_and_colons_after_the_first() -> None:
    assert str(parse_filter(EVENTS, "rrule=~eq:FREQ=WEEKLY;INTERVAL=1")) == "rrule=~eq:FREQ=WEEKLY;INTERVAL=1"
    assert str(parse_filter(EVENTS, "created_at=gte:2026-01-01T00:00:30Z")) == "created_at=gte:2026-01-01T00:00:30Z"
    assert str(parse_filter(EVENTS, "created_at=2026-01-01T10:20:30+05:30")) == "created_at=eq:2026-01-01T04:50:30Z"


def test_a_relative_time_with_eq_implied_is_counted_from_the_moment_given() -> None:
    assert parse_filter(EVENTS, "created_at=-1d", NOW).value == "2026-02-28T12:00:00Z"
    assert parse_filter(EVENTS, "created_at=lt:now", NOW).value == "2026-03-01T12:00:00Z"


def test_int64_is_accepted_to_both_ends_and_no_further() -> None:
    assert parse_filter(EVENTS, "id=-9223372036854775808").value == "-9223372036854775808"
    assert parse_filter(EVENTS, "id=9223372036854775807").value == "9223372036854775807"
    assert parse_filter(EVENTS, "id=-0009223372036854775807").value == "-9223372036854775807"
    assert refusal(lambda: parse_filter(EVENTS, "id=-9223372036854775809"))[0].endswith(
        "is out of range for a 64-bit integer; allowed: an integer such as 42 or -1"
    )


def test_a_value_of_the_longest_length_is_sent() -> None:
    longest = "a" * MAX_FILTER_VALUE
    assert parse_filter(SELECTORS, f"name={longest}").value == longest


def test_a_query_of_the_longest_length_is_sent_one_character_more_is_refused() -> None:
    """Four filters of `name=~eq:…`: each costs its name, `=`, value and `&`; 8,000 characters in all is the most."""
    full = [Filter("name", "~eq", "a" * 1996)] * 3  # 3 x (4 + 2 + 4 + 1996) = 6,018
    last = MAX_QUERY_CHARS - 6018 - (4 + 2 + 4)
    assert len(query_params([*full, Filter("name", "~eq", "b" * last)])) == 4
    assert refusal(lambda: query_params([*full, Filter("name", "~eq", "b" * (last + 1))])) == (
        "the filters add up to a query of 8,001 characters, over the 8,000 a request may send; use fewer or shorter "
        "filters",
        "",
        "",
        "at most 8,000 characters of query",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-000000000001s", "2026-03-01T11:59:59Z"),  # twelve digits: the most a relative amount may have
        ("+1w", "2026-03-08T12:00:00Z"),
        ("-739675d", "0001-01-01T12:00:00Z"),  # the range the refusal below names, both ends
        ("+2912383d", "9999-12-31T12:00:00Z"),
        ("-739676d", OUT_OF_RANGE.format(back="-739675d", ahead="+2912383d")),
        ("+2912384d", OUT_OF_RANGE.format(back="-739675d", ahead="+2912383d")),
        ("-0000000000001s", "has 13 digits, over the 12 a relative time may have"),
        ("-99999999999d", OUT_OF_RANGE.format(back="-739675d", ahead="+2912383d")),  # past the calendar's end
        ("-99999999d", OUT_OF_RANGE.format(back="-739675d", ahead="+2912383d")),  # the newcomer walk's
        ("+9999999999w", OUT_OF_RANGE.format(back="-105667w", ahead="+416054w")),
        ("-" + "9" * 60 + "h", OUT_OF_RANGE.format(back="-17752212h", ahead="+69897203h")),
    ],
)
def test_a_relative_time_has_at_most_twelve_digits_and_stays_in_the_calendar(text: str, expected: str) -> None:
    """The form is right but the range is not: say so and what range is allowed (it said `is not a valid time`)."""
    if not expected.startswith(("has ", "is out of range")):
        assert parse_timestamp(text, NOW) == expected
        return
    with pytest.raises(ValueError):
        parse_timestamp(text, NOW)
    message = refusal(lambda: parse_filter(EVENTS, f"created_at=gte:{text}", NOW))[0]
    assert message.startswith(f"created_at gte: {quote_input(text)} {expected}; allowed: "), message
    assert "not a valid time" not in message


def test_now_and_relative_times_are_sent_in_utc_whatever_the_local_zone() -> None:
    tokyo = NOW.astimezone(timezone(timedelta(hours=9)))
    with local_zone():
        assert parse_timestamp("now", tokyo) == "2026-03-01T12:00:00Z"
        assert parse_timestamp("-2h", tokyo) == "2026-03-01T10:00:00Z"
        before = datetime.now(UTC).replace(microsecond=0)
        sent = datetime.fromisoformat(parse_timestamp("now").replace("Z", "+00:00"))
        after = datetime.now(UTC)
    assert before <= sent <= after
