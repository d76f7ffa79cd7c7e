"""Filter grammar: property tests against the server's own parse rule, plus one test per kind and rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from urllib.parse import parse_qsl

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svctui.api.filters import (
    ALL_PREDICATES,
    BOOLEAN_FALSE,
    BOOLEAN_TRUE,
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    SPECS,
    TAGS,
    EndpointSpec,
    Filter,
    FilterError,
    FilterErrors,
    SortKey,
    parse_each,
    parse_filter,
    parse_filters,
    parse_timestamp,
    query_params,
    server_reads,
    split_quick_filter,
)
from tests.support.mutate import UNDER_MUTMUT, examples

NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
ALL_COLUMNS = sorted({name for spec in SPECS.values() for name in spec.columns})
NASTY = "abcXYZ019 :+,~-._%/@;<=>?[]\\^`'\"{}|!#$&*()é漢😀\t\n\x00"


@st.composite
def timestamps(draw: st.DrawFn) -> str:
    """RFC 3339 times with any offset, t/T, z/Z, 0 to 9 fraction digits."""
    moment = draw(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
    stamp = moment.strftime("%Y-%m-%d") + draw(st.sampled_from("Tt")) + moment.strftime("%H:%M:%S")
    digits = draw(st.integers(min_value=0, max_value=9))
    if digits:
        stamp += "." + draw(st.text(alphabet="0123456789", min_size=digits, max_size=digits))
    minutes = draw(st.integers(min_value=-24 * 60, max_value=24 * 60))
    zone = draw(st.sampled_from(["Z", "z", "offset"]))
    if zone == "offset":
        sign = "-" if minutes < 0 else "+"
        stamp += f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    else:
        stamp += zone
    return stamp


VALUES = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=NASTY, max_size=12),
    st.integers().map(str),
    st.integers(min_value=-(2**70), max_value=2**70).map(lambda n: f" 00{n} "),
    st.uuids().map(lambda u: str(u).upper() if u.int % 2 else str(u)),
    st.sampled_from(BOOLEAN_TRUE + BOOLEAN_FALSE + ("yes", "0", "1", "TrUe")),
    timestamps(),
    st.builds(lambda n, u, s: f"{s}{n}{u}", st.integers(0, 10**6), st.sampled_from("smhdwy"), st.sampled_from("+- ")),
    st.sampled_from(["now", "NOW", "failed", "Partially complete", "2", "-1", "99"]),
)


@st.composite
def filter_inputs(draw: st.DrawFn) -> tuple[EndpointSpec, str, str, str]:
    spec = draw(st.sampled_from(list(SPECS.values())))
    column = draw(st.one_of(st.sampled_from(list(spec.columns)), st.sampled_from(ALL_COLUMNS), st.text(max_size=8)))
    op = draw(st.one_of(st.sampled_from(ALL_PREDICATES), st.text(alphabet="~eqnglt:= ", max_size=4)))
    return spec, column, op, draw(VALUES)


@settings(max_examples=examples(1500), derandomize=UNDER_MUTMUT, suppress_health_check=[HealthCheck.too_slow])
@given(filter_inputs())
def test_accepted_filters_are_read_back_unchanged_and_refused_ones_raise_filter_error(
    case: tuple[EndpointSpec, str, str, str],
) -> None:
    spec, column, op, value = case
    try:
        built = Filter.build(spec, column, op, value, now=NOW)
    except FilterError as exc:
        assert str(exc)
        return
    assert (built.column, built.op) == (column, op)
    assert server_reads(built.render()) == (built.op, built.value)
    url = httpx.URL("http://h/api/v2/events", params=[built.param()])
    assert parse_qsl(url.query.decode("ascii"), keep_blank_values=True) == [built.param()]
    # What the client re-checks before sending must be stable (it re-builds every filter).
    assert Filter.build(spec, built.column, built.op, built.value, now=NOW) == built


@settings(max_examples=examples(800), derandomize=UNDER_MUTMUT)
@given(st.sampled_from(list(SPECS.values())), st.one_of(st.text(max_size=30), st.text(alphabet=NASTY, max_size=30)))
def test_parse_filter_raises_only_filter_error(spec: EndpointSpec, text: str) -> None:
    try:
        built = parse_filter(spec, text, now=NOW)
    except FilterError:
        return
    assert server_reads(built.render()) == (built.op, built.value)


@given(timestamps())
def test_accepted_timestamps_are_utc_z_with_fraction_kept(stamp: str) -> None:
    try:
        normalised = parse_timestamp(stamp, NOW)
    except (ValueError, OverflowError):
        return
    assert normalised.endswith("Z")
    fraction = stamp[20:].rstrip("Zz").split("+")[0].split("-")[0] if len(stamp) > 20 and stamp[19] == "." else ""
    if fraction:
        assert f".{fraction}Z" in normalised


def test_server_reads_cuts_at_unsafe_characters() -> None:
    assert server_reads("gte:2026-01-01T00:00:00+05:00") == ("gte", "2026-01-01T00:00:00")
    assert server_reads("eq:a,b") == ("eq", "a")
    assert server_reads("eq:") is None
    assert server_reads("plain") is None
    assert server_reads("~eq:Tier Zero") == ("~eq", "Tier Zero")


# --- one kind at a time ---------------------------------------------------------------------------------------


def test_integer_values() -> None:
    assert Filter.build(EVENTS, "id", "gte", " 007 ").value == "7"
    assert Filter.build(EVENTS, "id", "lt", "-1").render() == "lt:-1"
    assert Filter.build(EVENTS, "id", "eq", str(2**63 - 1)).value == str(2**63 - 1)
    for bad in ("4.2", "1e3", "0x10", "", "   ", str(2**63), "9" * 5000):
        with pytest.raises(FilterError) as info:
            Filter.build(EVENTS, "id", "eq", bad)
        assert "id eq" in str(info.value)
        assert "integer" in str(info.value)


def test_string_values_and_their_refusals() -> None:
    assert Filter.build(EVENTS, "rrule", "~eq", "FREQ=WEEKLY;BYDAY=TU").render() == "~eq:FREQ=WEEKLY;BYDAY=TU"
    with pytest.raises(FilterError, match=r"':'"):
        Filter.build(EVENTS, "rrule", "eq", "DTSTART:20240909T100000Z")
    with pytest.raises(FilterError, match=r"'\+' at position 4"):
        Filter.build(SELECTORS, "name", "eq", "Tie+r")
    with pytest.raises(FilterError, match=r"','"):
        Filter.build(SELECTORS, "name", "eq", "a,b")
    with pytest.raises(FilterError, match=r"'é'"):
        Filter.build(SELECTORS, "description", "~eq", "café")
    with pytest.raises(FilterError) as refused:  # Ä is a letter, not an ASCII one: the message says which it wants
        Filter.build(EVENTS, "rrule", "~eq", "Äb")
    assert str(refused.value) == (
        "rrule ~eq: the value has 'Ä' at position 1; text may hold only ASCII letters (a-z, A-Z), digits (0-9), "
        "space and - . / ; < = > ? @ [ \\ ] ^ _ (the server cuts a filter value at the first character outside its "
        "set, and the filter grammar allows no ':' in text), so it cannot be sent"
    )
    with pytest.raises(FilterError, match="empty"):
        Filter.build(SELECTORS, "name", "eq", "  ")
    with pytest.raises(FilterError) as info:
        Filter.build(SELECTORS, "name", "gt", "x")
    assert info.value.column == "name" and info.value.op == "gt"
    assert "eq, ~eq, neq" in str(info.value)


def test_boolean_values() -> None:
    for text in BOOLEAN_TRUE:
        assert Filter.build(EVENTS, "session_collection", "eq", text).value == "true"
    for text in BOOLEAN_FALSE:
        assert Filter.build(EVENTS, "dc_registry_collection", "neq", text).value == "false"
    with pytest.raises(FilterError, match="boolean"):
        Filter.build(EVENTS, "session_collection", "eq", "yes")
    with pytest.raises(FilterError, match="allowed: eq, neq"):
        Filter.build(EVENTS, "session_collection", "gt", "true")


def test_uuid_values() -> None:
    upper = "0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0"
    assert Filter.build(EVENTS, "client_id", "eq", upper).value == upper.lower()
    with pytest.raises(FilterError, match="uuid"):
        Filter.build(EVENTS, "client_id", "eq", "0b1c2d3e4f5061728394a5b6c7d8e9f0")


def test_timestamps_normalised_to_utc_z() -> None:
    assert Filter.build(EVENTS, "created_at", "gte", "2026-01-31T23:00:00+05:00").value == "2026-01-31T18:00:00Z"
    assert Filter.build(EVENTS, "created_at", "gte", "2026-01-31T23:00:00-05:30").value == "2026-02-01T04:30:00Z"
    assert Filter.build(EVENTS, "created_at", "lt", "2026-01-31t23:00:00z").value == "2026-01-31T23:00:00Z"


def test_nanosecond_fractions_kept() -> None:
    value = Filter.build(COMPLETED_TASKS, "start_time", "gt", "2026-01-31T23:00:00.123456789+01:00").value
    assert value == "2026-01-31T22:00:00.123456789Z"
    assert Filter.build(COMPLETED_TASKS, "end_time", "gt", "2026-01-31T23:00:00.5Z").value == "2026-01-31T23:00:00.5Z"


def test_relative_times_with_fixed_now() -> None:
    assert parse_timestamp("now", NOW) == "2026-03-01T12:00:00Z"
    assert parse_timestamp("-7d", NOW) == "2026-02-22T12:00:00Z"
    assert parse_timestamp("-24h", NOW) == "2026-02-28T12:00:00Z"
    assert parse_timestamp("-30m", NOW) == "2026-03-01T11:30:00Z"
    assert parse_timestamp("+1w", NOW) == "2026-03-08T12:00:00Z"
    tokyo = NOW.astimezone(timezone(timedelta(hours=9)))
    assert parse_timestamp("-1h", tokyo) == "2026-03-01T11:00:00Z"
    assert Filter.build(EVENTS, "next_scheduled_at", "lte", "-2d", now=NOW).value == "2026-02-27T12:00:00Z"


def test_invalid_times_refused() -> None:
    for bad in (
        "2026-02-30T00:00:00Z",
        "2026-01-01 00:00:00Z",
        "2026-01-01T00:00:00",
        "yesterday",
        "-7y",
        "2026-01-01T00:00:00+24:00",
        "2026-01-01T00:00:00.1234567890Z",
        "\uff12\uff10\uff12\uff16-01-01T00:00:00Z",
    ):
        with pytest.raises(FilterError, match="not a valid time"):
            Filter.build(EVENTS, "created_at", "eq", bad, now=NOW)


def test_status_offered_by_label_sent_as_code() -> None:
    assert Filter.build(COMPLETED_TASKS, "status", "eq", "failed").render() == "eq:5"
    assert Filter.build(COMPLETED_TASKS, "status", "neq", "Partially complete").render() == "neq:8"
    assert Filter.build(COMPLETED_TASKS, "status", "eq", "2").render() == "eq:2"
    with pytest.raises(FilterError, match="timed out"):
        Filter.build(COMPLETED_TASKS, "status", "eq", "99")


def test_unknown_column_lists_the_filter_columns() -> None:
    with pytest.raises(FilterError) as info:
        Filter.build(EVENTS, "all_trusted_domains", "eq", "true")
    assert "filter columns:" in str(info.value) and "rrule" in str(info.value)
    assert info.value.column == "all_trusted_domains"


def test_column_counts_match_the_specs() -> None:
    assert len(EVENTS.columns) == 13
    assert len(COMPLETED_TASKS.columns) == 20
    assert "all_trusted_domains" not in COMPLETED_TASKS.columns
    assert SELECTORS.limit_all and SELECTORS.default_limit == 50
    assert TAGS.sortable == ()


# --- user forms -------------------------------------------------------------------------------------------------


def test_parse_filter_forms() -> None:
    assert parse_filter(EVENTS, "id=gte:5") == Filter("id", "gte", "5")
    assert parse_filter(EVENTS, " id = 5 ") == Filter("id", "eq", "5")
    assert parse_filter(EVENTS, "rrule=~eq:WEEKLY") == Filter("rrule", "~eq", "WEEKLY")
    assert parse_filter(EVENTS, "created_at=2026-01-01T00:00:00Z") == Filter("created_at", "eq", "2026-01-01T00:00:00Z")
    assert parse_filter(EVENTS, "created_at=gt:-1d", now=NOW) == Filter("created_at", "gt", "2026-02-28T12:00:00Z")
    with pytest.raises(FilterError, match="unknown predicate 'like'"):
        parse_filter(EVENTS, "rrule=like:x")
    with pytest.raises(FilterError, match="column=op:value"):
        parse_filter(EVENTS, "justtext")
    assert parse_filters(EVENTS, ["id=1", "  ", "session_collection=t"]) == [
        Filter("id", "eq", "1"),
        Filter("session_collection", "eq", "true"),
    ]


def test_parse_filters_reports_every_refused_filter_not_just_the_first() -> None:
    texts = ["id=x", "id=gt:3", "rrule=lt:a", "", "created_at=gt:soon"]
    filters, refused = parse_each(EVENTS, texts, now=NOW)
    assert filters == [Filter("id", "gt", "3")]
    assert [(text, exc.column, exc.op) for text, exc in refused] == [
        ("id=x", "id", "eq"),
        ("rrule=lt:a", "rrule", "lt"),
        ("created_at=gt:soon", "created_at", "gt"),
    ]
    with pytest.raises(FilterErrors) as raised:
        parse_filters(EVENTS, texts, now=NOW)
    assert [str(exc) for exc in raised.value.errors] == [str(exc) for _, exc in refused]
    assert str(raised.value).splitlines() == [str(exc) for _, exc in refused]


def test_split_quick_filter() -> None:
    assert split_quick_filter("id=gte:5 rrule=~eq:FREQ=WEEKLY session_collection=t") == [
        "id=gte:5",
        "rrule=~eq:FREQ=WEEKLY",
        "session_collection=t",
    ]
    assert split_quick_filter("name=~eq:Tier Zero is_default=f") == ["name=~eq:Tier Zero", "is_default=f"]
    assert split_quick_filter("") == []


def test_sort_keys() -> None:
    key = SortKey.parse(EVENTS, "-next_scheduled_at")
    assert key == SortKey("next_scheduled_at", descending=True)
    assert key.render() == "-next_scheduled_at"
    assert SortKey.parse(COMPLETED_TASKS, "event_title").render() == "event_title"
    with pytest.raises(FilterError, match="sortable: id, name, created_at"):
        SortKey.parse(SELECTORS, "description")


def test_query_params_order_and_repeats() -> None:
    filters = [Filter("start_time", "gte", "2026-01-01T00:00:00Z"), Filter("start_time", "lte", "2026-02-01T00:00:00Z")]
    params = query_params(
        filters,
        [SortKey("id", True), SortKey("status")],
        skip=100,
        limit=50,
        hydrate_domains=False,
        hydrate_ous=True,
    )
    assert params == [
        ("start_time", "gte:2026-01-01T00:00:00Z"),
        ("start_time", "lte:2026-02-01T00:00:00Z"),
        ("sort_by", "-id"),
        ("sort_by", "status"),
        ("hydrate_domains", "false"),
        ("hydrate_ous", "true"),
        ("skip", "100"),
        ("limit", "50"),
    ]
    assert query_params() == []
    with pytest.raises(FilterError, match="skip"):
        query_params(skip=-1)


def test_display_value_shows_the_label_of_a_coded_column() -> None:
    from svctui.api.filters import COMPLETED_TASKS, EVENTS, display_value

    assert display_value(COMPLETED_TASKS, "status", "5") == "failed"
    assert display_value(COMPLETED_TASKS, "status", "8") == "partially complete"
    assert display_value(COMPLETED_TASKS, "status", "77") == "77"
    assert display_value(EVENTS, "id", "5") == "5"
