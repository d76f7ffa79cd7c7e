"""Issue 30 item 7: the filter tables pinned to the real server's (REAL-SERVER.md) and to the models, and the
timestamp offsets the client refuses."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from svctui.api.filters import (
    CLIENTS,
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    SPECS,
    TAGS,
    TASK_STATUS_CODES,
    EndpointSpec,
    FilterError,
    parse_filter,
    parse_timestamp,
)
from svctui.api.models import TaskStatus

ORDERED = "eq neq gt gte lt lte"
TEXT = "eq ~eq neq"
EXACT = "eq neq"


def table(spec: EndpointSpec) -> dict[str, str]:
    """Column name -> its predicates, space-separated."""
    return {name: " ".join(column.predicates) for name, column in spec.columns.items()}


def test_the_status_codes_are_the_models_task_statuses_by_label() -> None:
    assert dict(TASK_STATUS_CODES) == {status.label.lower(): status.value for status in TaskStatus}
    assert list(TASK_STATUS_CODES.values()) == [status.value for status in TaskStatus]


def test_each_status_label_is_sent_as_the_models_code() -> None:
    for status in TaskStatus:
        assert parse_filter(COMPLETED_TASKS, f"status={status.label}").value == str(status.value)
        assert parse_filter(COMPLETED_TASKS, f"status=eq:{status.value}").value == str(status.value)


def test_the_event_and_task_columns_are_the_real_servers() -> None:
    flags = dict.fromkeys(
        [
            "session_collection",
            "local_group_collection",
            "cert_services_collection",
            "ca_registry_collection",
            "dc_registry_collection",
            "ad_structure_collection",
        ],
        EXACT,
    )
    times = dict.fromkeys(["created_at", "updated_at", "deleted_at"], ORDERED)
    assert table(EVENTS) == {
        "id": ORDERED, "rrule": TEXT, "next_scheduled_at": ORDERED, "client_id": EXACT, **flags, **times,
    }  # fmt: skip
    assert table(COMPLETED_TASKS) == {
        "id": ORDERED, "event_id": ORDERED, "status": TEXT, "log_path": TEXT, "domain_controller": TEXT,
        "event_title": TEXT, "client_id": EXACT,
        **flags,
        "execution_time": ORDERED, "start_time": ORDERED, "end_time": ORDERED, "last_ingest": ORDERED, **times,
    }  # fmt: skip


def test_the_selector_tag_and_client_columns_are_the_real_servers() -> None:
    assert table(SELECTORS) == {
        "name": TEXT, "description": TEXT, "created_at": ORDERED, "updated_at": ORDERED, "disabled_at": ORDERED,
        "created_by": EXACT, "updated_by": EXACT, "disabled_by": EXACT, "is_default": EXACT,
        "auto_certify": EXACT, "type": EXACT,
    }  # fmt: skip
    tags = table(TAGS)
    tags.pop("position", None)  # REAL-SERVER.md: not filterable (another change takes it out of the spec)
    tags.pop("glyph", None)  # REAL-SERVER.md: eq neq ~eq (the same change)
    assert tags == {
        "name": TEXT, "description": TEXT, "type": EXACT, "created_at": ORDERED, "updated_at": ORDERED,
        "deleted_at": ORDERED, "created_by": EXACT, "updated_by": EXACT, "deleted_by": EXACT,
        "require_certify": EXACT, "analysis_enabled": EXACT,
    }  # fmt: skip
    assert table(CLIENTS) == {
        "id": EXACT, "name": TEXT, "hostname": TEXT, "ip_address": TEXT, "configured_user": TEXT, "version": TEXT,
        "user_sid": TEXT, "domain_controller": TEXT, "current_job_id": ORDERED, "completed_job_count": ORDERED,
        "last_checkin": ORDERED, "created_at": ORDERED, "updated_at": ORDERED, "deleted_at": ORDERED,
    }  # fmt: skip
    assert list(SPECS) == ["events", "completed-tasks", "selectors", "tags", "clients"]


@pytest.mark.parametrize(
    ("offset", "utc"),
    [
        ("+23:59", "2026-01-30T00:01:00Z"),
        ("-23:59", "2026-01-31T23:59:00Z"),
        ("+05:30", "2026-01-30T18:30:00Z"),
        ("-05:00", "2026-01-31T05:00:00Z"),
        ("+00:00", "2026-01-31T00:00:00Z"),
        ("z", "2026-01-31T00:00:00Z"),
    ],
)
def test_an_offset_up_to_23_59_is_turned_into_utc(offset: str, utc: str) -> None:
    assert parse_timestamp(f"2026-01-31T00:00:00{offset}") == utc


@pytest.mark.parametrize("offset", ["+05:60", "-24:00", "+24:00", "-00:60", "+99:99", "+5:00", "+005:00", "+05:0"])
def test_an_offset_past_23_59_or_without_two_digits_each_is_refused(offset: str) -> None:
    with pytest.raises(ValueError):
        parse_timestamp(f"2026-01-31T00:00:00{offset}")
    with pytest.raises(FilterError, match="is not a valid time"):
        parse_filter(EVENTS, f"created_at=gt:2026-01-31T00:00:00{offset}")


def test_relative_times_move_from_now_either_way() -> None:
    now = datetime(2026, 1, 31, 12, 0, 0, 500000, tzinfo=UTC)
    assert parse_timestamp("+2h", now) == "2026-01-31T14:00:00Z"
    assert parse_timestamp("-2h", now) == "2026-01-31T10:00:00Z"
    assert parse_timestamp(" - 3 d ", now) == "2026-01-28T12:00:00Z"
    assert parse_timestamp("+1w", now) == "2026-02-07T12:00:00Z"
    assert parse_timestamp("-90s", now) == "2026-01-31T11:58:30Z"
    assert parse_timestamp("-5m", now) == "2026-01-31T11:55:00Z"
    assert parse_timestamp("NOW", now) == "2026-01-31T12:00:00Z"


def test_a_column_takes_its_kinds_predicates_and_a_label_from_its_name_unless_given() -> None:
    from svctui.api.filters import Column, Kind, _of

    plain = Column("created_by", Kind.STRING)
    assert (plain.predicates, plain.label) == (("eq", "~eq", "neq"), "created by")
    given = Column("type", Kind.INTEGER, ("eq",), label="seed type")
    assert (given.predicates, given.label) == (("eq",), "seed type")
    assert _of(Kind.BOOLEAN, "is_default", "x_y", predicates=("eq",)) == (
        Column("is_default", Kind.BOOLEAN, ("eq",), "is default"),
        Column("x_y", Kind.BOOLEAN, ("eq",), "x y"),
    )
    assert _of(Kind.UUID, "id") == (Column("id", Kind.UUID, ("eq", "neq"), "id"),)


def test_a_bad_sort_key_names_the_sortable_columns() -> None:
    from svctui.api.filters import SortKey

    with pytest.raises(FilterError) as option:
        SortKey.parse(SELECTORS, "--id")
    assert str(option.value) == "'--id' is not a sort key; write COLUMN, or -COLUMN for descending"
    assert (option.value.column, option.value.allowed) == ("-id", "id, name, created_at")
    with pytest.raises(FilterError) as unknown:
        SortKey.parse(TAGS, "-position")
    assert str(unknown.value) == "cannot sort asset group tags by 'position'; sortable: none"
    assert (unknown.value.column, unknown.value.allowed) == ("position", "none")


def test_a_quick_filter_token_is_a_new_filter_only_when_an_equals_sign_comes_before_its_first_colon() -> None:
    from svctui.api.filters import split_quick_filter

    assert split_quick_filter("name=~eq:a b:c=d:e status=5") == ["name=~eq:a b:c=d:e", "status=5"]


def test_relative_times_in_several_filters_are_read_against_the_given_now() -> None:
    from svctui.api.filters import display_value, parse_each, parse_filters

    now = datetime(2026, 1, 31, 12, 0, tzinfo=UTC)
    assert [str(f) for f in parse_filters(EVENTS, ["created_at=gt:-1d", " "], now)] == [
        "created_at=gt:2026-01-30T12:00:00Z"
    ]
    taken, refused = parse_each(EVENTS, ["updated_at=lt:+1h", "nope=1"], now)
    assert [str(f) for f in taken] == ["updated_at=lt:2026-01-31T13:00:00Z"] and refused[0][0] == "nope=1"
    assert display_value(COMPLETED_TASKS, "not_a_column", "5") == "5"
    assert display_value(COMPLETED_TASKS, "status", "5") == "failed"


def test_query_params_spell_hydration_and_refuse_a_negative_skip_or_a_limit_below_minus_one() -> None:
    from svctui.api.filters import query_params

    assert query_params(hydrate_domains=True, hydrate_ous=False) == [
        ("hydrate_domains", "true"),
        ("hydrate_ous", "false"),
    ]
    assert query_params(hydrate_domains=False, hydrate_ous=True, skip=0, limit=-1) == [
        ("hydrate_domains", "false"),
        ("hydrate_ous", "true"),
        ("skip", "0"),
        ("limit", "-1"),
    ]
    with pytest.raises(FilterError) as skip:
        query_params(skip=-1)
    assert (str(skip.value), skip.value.column, skip.value.allowed) == (
        "skip must be >= 0, got -1",
        "skip",
        "an integer >= 0",
    )
    with pytest.raises(FilterError) as limit:
        query_params(limit=-2)
    assert (str(limit.value), limit.value.column, limit.value.allowed) == (
        "limit must be >= 0, got -2",
        "limit",
        "an integer >= 0",
    )
    assert query_params(limit=0) == [("limit", "0")]
