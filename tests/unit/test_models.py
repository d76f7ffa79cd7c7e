"""Models: nullable shapes, the zero time, 9-digit fractions, extra fields, bare objectids, status labels."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from pydantic import ValidationError

from svctui.api.models import (
    AssetGroupTag,
    CompletedTask,
    ErrorEnvelope,
    Event,
    Page,
    SelectorPage,
    SelectorResponse,
    TagList,
    TaskStatus,
    adapter,
    flag_marks,
    parse_json,
    status_label,
)

CLIENT = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


def task(**fields: Any) -> CompletedTask:
    body = {"id": 1, "client_id": CLIENT, **fields}
    return parse_json(CompletedTask, json.dumps(body).encode())


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        (7, 7),
        (None, None),
        ({"Int32": 7, "Valid": True}, 7),
        ({"int32": 7, "valid": True}, 7),
        ({"int32": 0, "valid": False}, None),
        ({"Int32": 7, "Valid": False}, None),
    ],
)
def test_event_id_accepts_all_four_nullable_shapes(shape: object, expected: int | None) -> None:
    assert task(event_id=shape).event_id == expected


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ("2026-03-01T10:00:00Z", datetime(2026, 3, 1, 10, tzinfo=UTC)),
        (None, None),
        ({"Time": "2026-03-01T10:00:00Z", "Valid": True}, datetime(2026, 3, 1, 10, tzinfo=UTC)),
        ({"time": "2026-03-01T10:00:00Z", "valid": True}, datetime(2026, 3, 1, 10, tzinfo=UTC)),
        ({"Time": "0001-01-01T00:00:00Z", "Valid": False}, None),
        ({"Time": "2026-03-01T10:00:00Z", "Valid": False}, None),
        ("0001-01-01T00:00:00Z", None),
    ],
)
def test_domain_result_deleted_at_shapes(shape: object, expected: datetime | None) -> None:
    parsed = task(domain_results=[{"id": 3, "deleted_at": shape, "domain_name": "CORP.EXAMPLE.COM"}])
    assert parsed.domain_results[0].deleted_at == expected


def test_zero_time_means_unset_everywhere() -> None:
    zero = "0001-01-01T00:00:00Z"
    parsed = task(execution_time=zero, start_time=zero, end_time=zero, last_ingest=zero)
    assert (parsed.execution_time, parsed.start_time, parsed.end_time, parsed.last_ingest) == (None,) * 4


def test_nine_digit_fractions_and_offsets_parse() -> None:
    parsed = task(start_time="2026-03-01T10:00:00.123456789Z", end_time="2026-03-01T10:00:00.987654321-05:00")
    assert parsed.start_time == datetime(2026, 3, 1, 10, 0, 0, 123456, tzinfo=UTC)
    assert parsed.end_time is not None
    assert parsed.end_time.utcoffset() == timedelta(hours=-5)
    assert parsed.end_time.astimezone(UTC) == datetime(2026, 3, 1, 15, 0, 0, 987654, tzinfo=UTC)


def test_unknown_fields_are_kept() -> None:
    parsed = task(future_field={"nested": [1, 2]}, status=2)
    assert parsed.model_extra == {"future_field": {"nested": [1, 2]}}
    tag = parse_json(AssetGroupTag, b'{"id": 1, "name": "Tier Zero", "type": 1, "new_thing": true}')
    assert tag.model_extra == {"new_thing": True}
    assert tag.type_label == "tier"


def test_bare_objectid_lists_when_hydration_is_off() -> None:
    body = {
        "count": 1,
        "skip": 0,
        "limit": 0,
        "data": [
            {
                "id": 9,
                "client_id": CLIENT,
                "rrule": "DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU",
                "domains": ["S-1-5-21-1004336348-1177238915-682003330"],
                "ous": ["7b9a0e4c-2f4e-4c1a-9a43-0d7f1e2b3c4d"],
            }
        ],
    }
    page = parse_json(Page[Event], json.dumps(body).encode())
    event = page.data[0]
    assert event.domains[0].objectid == "S-1-5-21-1004336348-1177238915-682003330"
    assert event.domains[0].name == ""
    assert event.ous[0].objectid == "7b9a0e4c-2f4e-4c1a-9a43-0d7f1e2b3c4d"


def test_hydrated_refs() -> None:
    body = {
        "id": 9,
        "client_id": CLIENT,
        "domains": [{"objectid": "S-1-5-21-1-2-3", "name": "CORP.EXAMPLE.COM", "exists": True, "type": "active"}],
        "ous": [
            {
                "objectid": "7b9a0e4c-2f4e-4c1a-9a43-0d7f1e2b3c4d",
                "name": "Servers",
                "exists": False,
                "distinguishedname": "OU=Servers,DC=corp,DC=example,DC=com",
                "type": "ou",
            }
        ],
        "session_collection": True,
        "ad_structure_collection": True,
    }
    event = parse_json(Event, json.dumps(body).encode())
    assert event.domains[0].name == "CORP.EXAMPLE.COM"
    assert event.ous[0].exists is False
    assert flag_marks(event) == "S·A····"


def test_status_labels() -> None:
    assert [status.label for status in TaskStatus] == [
        "Invalid",
        "Ready",
        "Running",
        "Complete",
        "Canceled",
        "Timed out",
        "Failed",
        "Ingesting",
        "Analyzing",
        "Partially complete",
    ]
    assert [status.value for status in TaskStatus if status.finished] == [2, 3, 4, 5, 6, 7, 8]
    assert status_label(5) == "Failed"
    assert status_label(42) == "Unknown (42)"
    assert task(status=8).status_label == "Partially complete"


def test_error_envelope_with_empty_context_and_nanosecond_timestamp() -> None:
    body = (
        b'{"http_status":401,"timestamp":"2026-03-01T10:00:00.123456789Z","request_id":"1b2c3d4e-0000-4000-8000-'
        b'000000000001","errors":[{"context":"","message":"unable to validate request signature for client: '
        b'digest validation failed: signature digest mismatch"}]}'
    )
    envelope = parse_json(ErrorEnvelope, body)
    assert envelope.http_status == 401
    assert envelope.errors[0].context == ""
    assert envelope.errors[0].message.endswith("signature digest mismatch")


def test_tags_and_selectors_shapes() -> None:
    tags = parse_json(
        TagList,
        b'{"data":{"tags":[{"id":1,"type":1,"name":"Tier Zero","position":{"Int32":1,"Valid":true},'
        b'"glyph":null,"deleted_at":{"Time":"0001-01-01T00:00:00Z","Valid":false}}]}}',
    )
    assert tags.data.tags[0].position == 1
    assert tags.data.tags[0].glyph is None and tags.data.tags[0].deleted_at is None
    page = parse_json(
        SelectorPage,
        b'{"count":2,"skip":0,"limit":50,"data":{"selectors":[{"id":4,"asset_group_tag_id":1,"name":"DCs",'
        b'"auto_certify":2,"is_default":true,"seeds":[{"type":2,"value":"MATCH (n) RETURN n"}]}]}}',
    )
    assert page.count == 2 and page.data.selectors[0].seeds[0].type == 2
    one = parse_json(SelectorResponse, b'{"data":{"selector":{"id":4,"asset_group_tag_id":1}}}')
    assert one.data.selector.id == 4


def test_malformed_bodies_raise_validation_error() -> None:
    for body in (b"Limit exceeded", b"<html></html>", b'{"count": "many", "data": []}', b'{"data": [{"id": "x"}]}'):
        with pytest.raises(ValidationError):
            parse_json(Page[Event], body)


def test_adapters_are_cached() -> None:
    assert adapter(Page[Event]) is adapter(Page[Event])


def test_times_keep_their_instant() -> None:
    parsed = task(execution_time="2026-03-01T10:00:00+09:00")
    assert parsed.execution_time == datetime(2026, 3, 1, 10, tzinfo=timezone(timedelta(hours=9)))


def test_null_where_a_plain_value_is_expected_takes_the_default() -> None:
    """A null text, count or flag (a proxy or a newer server) must not fail the whole page."""
    body = (
        b'{"count":1,"skip":0,"limit":0,"data":[{"id":1,"client_id":"c","client_name":null,'
        b'"status_message":null,"domain_controller":null,"session_collection":null,'
        b'"domain_results":[{"id":2,"domain_name":null,"user_count":null,"success":null}]}]}'
    )
    task = parse_json(Page[CompletedTask], body).data[0]
    assert (task.client_name, task.status_message, task.domain_controller) == ("", "", "")
    assert task.session_collection is False
    result = task.domain_results[0]
    assert (result.domain_name, result.user_count, result.success) == ("", 0, False)


def test_null_in_a_required_field_is_still_an_error() -> None:
    with pytest.raises(ValidationError):
        parse_json(Page[CompletedTask], b'{"data":[{"id":null,"client_id":"c"}]}')


def test_null_list_takes_an_empty_one_and_a_wrong_type_is_still_an_error() -> None:
    """Null takes the default (a fresh list each time); any other value of the wrong type is refused, not defaulted."""
    first, second = task(domains=None, ous=None), task(domain_results=None)
    assert (first.domains, first.ous, second.domain_results) == ([], [], [])
    assert first.domains is not task(domains=None).domains
    with pytest.raises(ValidationError):
        task(status="running")
    with pytest.raises(ValidationError):
        task(client_name=["a list"])
