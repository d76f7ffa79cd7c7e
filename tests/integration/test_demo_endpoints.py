"""Every endpoint of the demo server: shapes as the real server emits them, lookups, and selector deletion."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from dateutil.rrule import rrulestr

from svctui.api.models import CompletedTask, Event, Page, SelectorPage, SelectorResponse, TagList, parse_json
from svctui.demo.server import DemoServer
from tests.support.demo_http import all_items, client_ids, error_of, own_server, scalar, signed

TAGS = "/api/v2/asset-group-tags"
SID = re.compile(r"^S-1-5-21-\d+-\d+-\d+$")
GUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
DN = re.compile(r"^OU=[^,]+,(OU=[^,]+,)?DC=[a-z0-9]+(,DC=[a-z0-9]+)+$")


@pytest.fixture(scope="module")
def client(demo_server: DemoServer) -> Any:
    with signed(demo_server) as http:
        yield http


def tasks_of(client: httpx.Client, demo: DemoServer, endpoint: str = "completed-tasks") -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for client_id in client_ids(demo.db_path):
        items.extend(all_items(client, f"/api/v2/clients/{client_id}/{endpoint}"))
    return items


def selector_ids(client: httpx.Client, tag_id: int) -> list[int]:
    return [s["id"] for s in all_items(client, f"{TAGS}/{tag_id}/selectors")]


def test_events_shape(client: httpx.Client) -> None:
    response = client.get("/api/v2/events", params={"limit": "0"})
    page = parse_json(Page[Event], response.content)
    assert page.count == len(page.data) == 200
    raw_event = response.json()["data"][0]
    assert set(raw_event) == {
        "id",
        "client_id",
        "rrule",
        "session_collection",
        "local_group_collection",
        "ad_structure_collection",
        "cert_services_collection",
        "ca_registry_collection",
        "dc_registry_collection",
        "all_trusted_domains",
        "ous",
        "domains",
    }
    rrules = [event.rrule for event in page.data]
    assert any(rule.startswith("DTSTART:") and "\nRRULE:" in rule for rule in rrules)
    assert any(rule.startswith("RRULE:") for rule in rrules)
    for frequency in ("HOURLY", "DAILY", "WEEKLY"):
        assert any(f"FREQ={frequency}" in rule for rule in rrules)
    for rule in rrules:
        rrulestr(rule, dtstart=None if rule.startswith("DTSTART") else __import__("datetime").datetime(2026, 1, 1))
    assert any(event.ous for event in page.data) and any(event.all_trusted_domains for event in page.data)
    for event in page.data:
        assert all(SID.match(domain.objectid) and domain.name == domain.name.upper() for domain in event.domains)
        assert all(GUID.match(ou.objectid) and DN.match(ou.distinguishedname) for ou in event.ous)


def test_hydration_off_gives_objectid_strings(client: httpx.Client) -> None:
    body = client.get("/api/v2/events", params={"limit": "0", "hydrate_domains": "false", "hydrate_ous": "f"}).json()
    domains = [d for e in body["data"] for d in e["domains"]]
    ous = [o for e in body["data"] for o in e["ous"]]
    assert domains and all(isinstance(d, str) and SID.match(d) for d in domains)
    assert ous and all(isinstance(o, str) and GUID.match(o) for o in ous)


def test_some_ous_no_longer_exist(client: httpx.Client) -> None:
    body = client.get("/api/v2/events", params={"limit": "0"}).json()
    flags = {ou["exists"] for e in body["data"] for ou in e["ous"]}
    assert flags == {True, False}


def test_completed_tasks_shape_and_every_status(client: httpx.Client, demo_server: DemoServer) -> None:
    tasks = tasks_of(client, demo_server)
    assert len(tasks) == scalar(demo_server.db_path, "SELECT COUNT(*) FROM tasks")
    for item in tasks[:200]:
        CompletedTask.model_validate(item)
    assert {t["status"] for t in tasks} == {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8}
    complete = sum(1 for t in tasks if t["status"] == 2)
    assert complete / len(tasks) > 0.7, "mostly complete"
    assert any(t["event_id"] is None for t in tasks) and any(isinstance(t["event_id"], int) for t in tasks)
    assert any(t["start_time"] == "0001-01-01T00:00:00Z" for t in tasks)
    assert any(t["last_ingest"] == "0001-01-01T00:00:00Z" for t in tasks)
    results = [r for t in tasks for r in t["domain_results"]]
    assert results and all(r["deleted_at"] == {"Time": "0001-01-01T00:00:00Z", "Valid": False} for r in results)
    assert {r["success"] for r in results} == {True, False}
    failed_messages = {t["status_message"] for t in tasks if t["status"] == 5}
    assert len(failed_messages) >= 3 and all(failed_messages)


def test_tasks_span_months(client: httpx.Client, demo_server: DemoServer) -> None:
    times = sorted(t["execution_time"] for t in tasks_of(client, demo_server))
    from datetime import datetime

    assert (datetime.fromisoformat(times[-1]) - datetime.fromisoformat(times[0])).days >= 60


def test_completed_jobs_is_the_same_listing(client: httpx.Client, demo_server: DemoServer) -> None:
    client_id = client_ids(demo_server.db_path)[1]
    tasks = client.get(f"/api/v2/clients/{client_id}/completed-tasks", params={"limit": "7", "skip": "3"}).json()
    jobs = client.get(f"/api/v2/clients/{client_id}/completed-jobs", params={"limit": "7", "skip": "3"}).json()
    assert tasks == jobs and len(tasks["data"]) == 7


def test_unknown_and_malformed_client(client: httpx.Client) -> None:
    unknown = client.get(f"/api/v2/clients/{uuid.uuid4()}/completed-tasks")
    assert error_of(unknown, 404) == "resource not found"
    malformed = client.get("/api/v2/clients/not-a-client/completed-jobs")
    assert error_of(malformed, 404) == "id is malformed."


def test_client_checks_come_after_parameter_checks(client: httpx.Client) -> None:
    response = client.get(f"/api/v2/clients/{uuid.uuid4()}/completed-tasks", params={"skip": "-1"})
    assert error_of(response, 400) == 'query parameter "skip" is malformed: invalid skip: -1'


def test_tags_listing(client: httpx.Client) -> None:
    response = client.get(TAGS)
    tags = parse_json(TagList, response.content).data.tags
    assert {tag.type for tag in tags} == {1, 2, 3}
    assert set(response.json()) == {"data"} and "count" not in response.json()
    counted = client.get(TAGS, params={"counts": "true"}).json()["data"]["tags"]
    five = {"members", "selectors", "custom_selectors", "default_selectors", "disabled_selectors"}
    assert all(set(tag["counts"]) == five for tag in counted)
    assert sum(tag["counts"]["selectors"] for tag in counted) == 1000 + 3  # and the extension-owned ones
    assert all(
        tag["counts"]["selectors"] == tag["counts"]["custom_selectors"] + tag["counts"]["default_selectors"]
        for tag in counted
    )
    assert [tag["name"] for tag in counted] == sorted(tag["name"] for tag in counted)  # ordered by name
    assert error_of(client.get(TAGS, params={"counts": "maybe"}), 400) == "Invalid value specified for include counts"


def test_selectors_listing_and_single_selector(client: httpx.Client) -> None:
    response = client.get(f"{TAGS}/1/selectors", params={"limit": "-1"})
    page = parse_json(SelectorPage, response.content)
    selectors = page.data.selectors
    assert page.count == len(selectors) > 50
    assert any(s.is_default for s in selectors) and any(not s.is_default for s in selectors)
    assert {seed.type for s in selectors for seed in s.seeds} == {1, 2}
    assert any(s.disabled_at is not None for s in selectors)
    one = client.get(f"{TAGS}/1/selectors/{selectors[0].id}")
    assert parse_json(SelectorResponse, one.content).data.selector == selectors[0]
    assert set(one.json()["data"]) == {"selector"}


def test_selector_lookup_errors(client: httpx.Client) -> None:
    other = selector_ids(client, 2)[0]
    assert error_of(client.get(f"{TAGS}/1/selectors/{other}"), 404) == "selector is not part of asset group tag"
    assert error_of(client.get(f"{TAGS}/1/selectors/999999"), 404) == "resource not found"
    assert error_of(client.get(f"{TAGS}/999/selectors/1"), 404) == "resource not found"
    assert error_of(client.get(f"{TAGS}/abc/selectors/1"), 404) == "id is malformed."
    assert error_of(client.get(f"{TAGS}/1/selectors/1.5"), 404) == "id is malformed."
    assert error_of(client.get(f"{TAGS}/x/selectors"), 404) == "id is malformed."
    assert error_of(client.get(f"{TAGS}/999/selectors"), 404) == "resource not found"


def test_delete_selector_then_repeat(fresh_demo_server: DemoServer) -> None:
    with signed(fresh_demo_server) as client:
        target = next(s for s in all_items(client, f"{TAGS}/1/selectors") if not s["is_default"])
        before = client.get(f"{TAGS}/1/selectors").json()["count"]
        first = client.delete(f"{TAGS}/1/selectors/{target['id']}")
        assert first.status_code == 204 and first.content == b""
        assert error_of(client.delete(f"{TAGS}/1/selectors/{target['id']}"), 404) == "resource not found"
        assert error_of(client.get(f"{TAGS}/1/selectors/{target['id']}"), 404) == "resource not found"
        assert client.get(f"{TAGS}/1/selectors").json()["count"] == before - 1
    assert (
        scalar(fresh_demo_server.db_path, "SELECT COUNT(*) FROM selector_seeds WHERE selector_id = ?", (target["id"],))
        == 0
    )


def test_delete_refusals(fresh_demo_server: DemoServer) -> None:
    with signed(fresh_demo_server) as client:
        default = next(s for s in all_items(client, f"{TAGS}/1/selectors") if s["is_default"])
        assert error_of(client.delete(f"{TAGS}/1/selectors/{default['id']}"), 403) == "cannot delete a default selector"
        other = selector_ids(client, 3)[0]
        assert error_of(client.delete(f"{TAGS}/1/selectors/{other}"), 404) == "selector is not part of asset group tag"
        assert error_of(client.delete(f"{TAGS}/1/selectors/abc"), 404) == "id is malformed."
        assert error_of(client.delete(f"{TAGS}/one/selectors/1"), 404) == "id is malformed."
        assert error_of(client.delete(f"{TAGS}/999/selectors/1"), 404) == "resource not found"
        assert client.get(f"{TAGS}/1/selectors/{default['id']}").status_code == 200
        assert client.get(f"{TAGS}/3/selectors/{other}").status_code == 200


def test_deletions_persist_across_restarts(demo_template_db: Path, tmp_path: Path) -> None:
    server = own_server(demo_template_db, tmp_path, rate_limit=0)
    with server as demo, signed(demo) as client:
        victim = next(s for s in all_items(client, f"{TAGS}/2/selectors") if not s["is_default"])
        assert client.delete(f"{TAGS}/2/selectors/{victim['id']}").status_code == 204
        db_path = demo.db_path
    with DemoServer(db_path=db_path, rate_limit=0) as again, signed(again) as client:
        assert again.token_id == demo.token_id, "the stored token is kept"
        assert error_of(client.get(f"{TAGS}/2/selectors/{victim['id']}"), 404) == "resource not found"
    with DemoServer(db_path=db_path, rate_limit=0, reset=True) as rebuilt, signed(rebuilt) as client:
        assert client.get(f"{TAGS}/2/selectors/{victim['id']}").status_code == 200, "--reset regenerates"
