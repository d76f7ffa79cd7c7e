"""Resource namespaces over loopback: validation before any request, Prefer header, deprecation, ids, delete."""

from __future__ import annotations

import ssl
import warnings

import pytest

from svctui.api.client import ApiClient, prefer_header
from svctui.api.errors import NotFound, ResponseShapeError
from svctui.api.filters import EVENTS, SELECTORS, Filter, FilterError, SortKey
from svctui.api.limits import COMPLETED_TASKS_NOTICE, MAX_PREFER_WAIT
from svctui.api.query import ListQuery
from svctui.api.signing import SignatureAuth
from tests.support.recording_server import CLIENT_ID, RecordingServer, Reply, client_for

pytestmark = pytest.mark.anyio


async def test_bad_filters_fail_before_any_request(server: RecordingServer) -> None:
    async with client_for(server) as client:
        with pytest.raises(FilterError, match="'name' is not a filter column of events"):
            await client.events.list(ListQuery((Filter.build(SELECTORS, "name", "eq", "x"),)))
        with pytest.raises(FilterError, match="not_a_column"):
            await client.selectors.list(1, ListQuery((Filter("not_a_column", "eq", "x"),)))
        with pytest.raises(FilterError, match="predicate 'gt'"):
            await client.events.list(ListQuery((Filter("rrule", "gt", "x"),)))
        with pytest.raises(FilterError, match="not an integer"):
            await client.events.list(ListQuery((Filter("id", "eq", "abc"),)))
        with pytest.raises(FilterError, match="'\\+'"):
            await client.selectors.list(1, ListQuery((Filter("name", "eq", "a+b"),)))
        with pytest.raises(FilterError, match="cannot sort events by 'rrule'"):
            await client.events.list(ListQuery(sort=(SortKey("rrule"),)))
        with pytest.raises(FilterError, match="limit for events must be an integer >= 0"):
            await client.events.list(ListQuery(limit=-1))
        with pytest.raises(FilterError, match="skip"):
            await client.tasks.list(CLIENT_ID, ListQuery(skip=-5))
        with pytest.raises(TypeError, match="Filter objects"):
            await client.events.list(ListQuery(("id=eq:1",)))  # type: ignore[arg-type]
        with pytest.raises(FilterError):
            async for _ in client.events.pages(ListQuery((Filter("bogus", "eq", "1"),))):
                pass
        with pytest.raises(ValueError, match="page_size"):
            async for _ in client.events.iter(page_size=0):
                pass
    assert server.requests == []


async def test_filters_are_normalised_before_sending(server: RecordingServer) -> None:
    async with client_for(server) as client:
        await client.events.list(
            ListQuery((Filter("client_id", "eq", CLIENT_ID.upper()), Filter("session_collection", "eq", "T")))
        )
    assert server.requests[0].params[:2] == [("client_id", f"eq:{CLIENT_ID}"), ("session_collection", "eq:true")]


async def test_ids_and_client_ids_are_checked(server: RecordingServer) -> None:
    async with client_for(server) as client:
        with pytest.raises(ValueError, match="client_id must be a uuid"):
            await client.tasks.list("../../asset-group-tags")
        with pytest.raises(ValueError, match="tag_id must be a whole number"):
            await client.selectors.list(-1)
        with pytest.raises(ValueError, match="selector_id must be a whole number"):
            await client.selectors.delete(1, 2**31)
        with pytest.raises(ValueError, match="selector_id"):
            await client.selectors.get(1, "3")  # type: ignore[arg-type]
    assert server.requests == []


async def test_prefer_header_on_every_request(server: RecordingServer) -> None:
    async with client_for(server) as client:
        await client.tags.list()
        await client.selectors.delete(1, 4)
    async with client_for(server, prefer_wait=5) as client:
        await client.events.list()
    async with client_for(server, prefer_wait=-1) as client:
        await client.events.list()
    assert [r.headers["prefer"] for r in server.requests] == ["wait=30", "wait=30", "wait=5", "wait=-1"]
    assert all(r.headers["user-agent"].startswith("svctui/") for r in server.requests)


@pytest.mark.parametrize(
    "bad", ["abc", "wait", "wait=1.5", "wait=-2", 1.5, -2, True, "wait= 5", "", 10**6, 0, "wait=0", MAX_PREFER_WAIT + 1]
)
def test_bad_prefer_values_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match=r"\^wait=\(-1\|\[0-9\]\+\)\$"):
        prefer_header(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Prefer wait"):
        ApiClient("http://127.0.0.1:9", None, prefer_wait=bad)  # type: ignore[arg-type]


def test_good_prefer_values() -> None:
    assert [prefer_header(v) for v in (1, 30, -1, "45", "wait=7", " wait=8 ", MAX_PREFER_WAIT)] == [
        "wait=1",
        "wait=30",
        "wait=-1",
        "wait=45",
        "wait=7",
        "wait=8",
        f"wait={MAX_PREFER_WAIT}",
    ]


def test_bad_constructor_arguments() -> None:
    with pytest.raises(ValueError, match="base URL"):
        ApiClient("ftp://example.com", None)
    with pytest.raises(ValueError, match="base URL"):
        ApiClient("example.com/api", None)
    with pytest.raises(ValueError, match="max_retries"):
        ApiClient("http://127.0.0.1:9", None, max_retries=-1)
    with pytest.raises(ValueError, match="CA bundle"):
        ApiClient("https://127.0.0.1:9", None, verify="/nonexistent/ca.pem")


async def test_repr_has_no_secrets() -> None:
    async with ApiClient(
        "https://user:hunter2@bh.example.com/", SignatureAuth("6f1e2d3c-4b5a-4968-8776-655443322110", "K3Y")
    ) as client:
        text = repr(client)
    assert text == "ApiClient(base_url='https://bh.example.com', auth=SignatureAuth, prefer='wait=30')"
    assert "hunter2" not in text and "K3Y" not in text


async def test_completed_tasks_warns_once_per_session(server: RecordingServer) -> None:
    """The deprecated endpoint, chosen (or learnt as the server's: test_task_endpoint.py), warns once a session."""
    old = ListQuery(endpoint="completed-tasks")
    async with client_for(server) as client:
        with pytest.warns(DeprecationWarning, match="completed-tasks is deprecated") as record:
            await client.tasks.list(CLIENT_ID, old)
            await client.tasks.list(CLIENT_ID, ListQuery(limit=1, endpoint="completed-tasks"))
            async for _ in client.tasks.iter(CLIENT_ID, old, page_size=2):
                pass
        assert len(record) == 1
        assert client.deprecation_notices == [COMPLETED_TASKS_NOTICE]
    assert {r.path for r in server.requests} == {f"/api/v2/clients/{CLIENT_ID}/completed-tasks"}


async def test_completed_jobs_has_a_hyphen_and_no_notice(server: RecordingServer) -> None:
    notices: list[str] = []
    async with client_for(server, on_deprecation=notices.append) as client:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            page = await client.tasks.list(CLIENT_ID, ListQuery(hydrate_domains=False, endpoint="completed-jobs"))
        assert client.deprecation_notices == []
        with pytest.raises(ValueError, match="with a hyphen"):
            await client.tasks.list(CLIENT_ID, ListQuery(endpoint="completed_jobs"))  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="one endpoint"):  # the endpoint is a tasks query's: nothing else has two
            await client.events.list(ListQuery(endpoint="completed-jobs"))
        await client.tasks.list(CLIENT_ID)  # none named: completed-jobs, the default (issue 26), no notice
        assert notices == []
        await client.tasks.list(CLIENT_ID, ListQuery(endpoint="completed-tasks"))
        await client.tasks.list(CLIENT_ID, ListQuery(endpoint="completed-tasks"))
    assert notices == [COMPLETED_TASKS_NOTICE]
    assert [task.status_label for task in page.data][:3] == ["Complete", "Complete", "Failed"]
    assert server.requests[0].path == f"/api/v2/clients/{CLIENT_ID}/completed-jobs"
    assert server.requests[0].param("hydrate_domains") == "false"
    assert [request.path.rsplit("/", 1)[1] for request in server.requests] == [
        "completed-jobs",
        "completed-jobs",
        "completed-tasks",
        "completed-tasks",
    ]


async def test_selectors_limit_minus_one_is_all(server: RecordingServer) -> None:
    async with client_for(server) as client:
        page = await client.selectors.list(1, ListQuery((Filter.build(SELECTORS, "is_default", "eq", "f"),), limit=-1))
    assert page.count == 4 and len(page.data.selectors) == 4
    assert server.requests[0].param("limit") == "-1"
    assert server.requests[0].param("is_default") == "eq:false"


async def test_get_and_delete_selector(server: RecordingServer) -> None:
    async with client_for(server) as client:
        selector = await client.selectors.get(1, 2)
        assert (selector.id, selector.asset_group_tag_id, selector.name) == (2, 1, "selector 2")
        await client.selectors.delete(1, 2)
        with pytest.raises(NotFound) as info:
            await client.selectors.delete(1, 2)
        assert info.value.messages == ["resource not found"]
        server.enqueue(Reply(200, {"data": None}))
        await client.selectors.delete(1, 3)
        server.enqueue(Reply(202, ""))
        with pytest.raises(ResponseShapeError, match="expected 204 or 200"):
            await client.selectors.delete(1, 4)
    assert [(r.method, r.path) for r in server.requests] == [
        ("GET", "/api/v2/asset-group-tags/1/selectors/2"),
        ("DELETE", "/api/v2/asset-group-tags/1/selectors/2"),
        ("DELETE", "/api/v2/asset-group-tags/1/selectors/2"),
        ("DELETE", "/api/v2/asset-group-tags/1/selectors/3"),
        ("DELETE", "/api/v2/asset-group-tags/1/selectors/4"),
    ]


async def test_tags_list(server: RecordingServer) -> None:
    async with client_for(server) as client:
        tags = await client.tags.list()
    assert [(tag.id, tag.type_label) for tag in tags] == [(1, "tier"), (2, "owned")]


async def test_base_url_with_a_path_prefix_keeps_it(server: RecordingServer) -> None:
    auth = SignatureAuth(server.token_id, server.token_key)
    async with ApiClient(server.base_url + "/prefix/", auth, max_retries=0) as client:
        with pytest.raises(NotFound):
            await client.events.list(ListQuery((Filter.build(EVENTS, "id", "eq", "1"),)))
    assert server.requests[0].path == "/prefix/api/v2/events"
    assert server.requests[0].param("id") == "eq:1"
    assert server.requests[0].verified


async def test_requests_sent_counts_what_reaches_the_wire(server: RecordingServer) -> None:
    async with client_for(server) as client:
        assert client.requests_sent == 0
        await client.events.list()
        await client.tags.list()
        assert client.requests_sent == len(server.requests) == 2


def test_an_http_client_loads_no_ca_bundle_and_its_unused_tls_context_fails_closed() -> None:
    from svctui.api.client import _plain_http_context

    context = _plain_http_context()
    assert context.cert_store_stats()["x509_ca"] == 0  # nothing loaded: the first frame does not pay for certifi
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname  # a handshake could never pass
