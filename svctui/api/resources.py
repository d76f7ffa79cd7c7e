"""Resource namespaces of the API client: `client.events`, `client.tasks`, `client.jobs`, `client.clients`,
`client.tags`, `client.selectors`.

Every list call checks its filters, sort keys, skip and limit against the endpoint's column spec before any
request; `pages()` and `iter()` walk all pages, stopping at `skip + len(data) >= count` or an empty page.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import re
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

from svctui.api.errors import NotFound, ResponseShapeError, request_id_of, route_missing, shorten
from svctui.api.filters import (
    CLIENTS,
    COMPLETED_TASKS,
    EVENTS,
    SELECTORS,
    TAGS,
    VALUE_PATTERNS,
    EndpointSpec,
    Filter,
    FilterError,
    Kind,
    SortKey,
    query_params,
)
from svctui.api.fleet_models import FleetRun
from svctui.api.limits import (
    COMPLETED_TASKS_NOTICE,
    DEFAULT_PAGE_SIZE,
    DEPRECATED_TASK_ENDPOINT,
    INT32_MAX,
    MAX_PAGE_SIZE,
    REPLACEMENT_TASK_ENDPOINT,
    TASK_ENDPOINTS,
)
from svctui.api.models import (
    AssetGroupTag,
    ClientResponse,
    CollectionClient,
    CompletedTask,
    Event,
    MemberCounts,
    MemberCountsResponse,
    Page,
    Selector,
    SelectorCreated,
    SelectorPage,
    SelectorResponse,
    TagList,
)
from svctui.api.query import ListQuery
from svctui.runlog.decode import LogBodyError, LogDecoder

if TYPE_CHECKING:
    from svctui.api.client import ApiClient


class Counted(Protocol):
    """A page: anything with a total `count`."""

    @property
    def count(self) -> int:
        """Total number of results on the server."""
        ...


NO_QUERY = ListQuery()
PageT = TypeVar("PageT", bound=Counted)
T = TypeVar("T")
Params = ParamSpec("Params")


def check_id(name: str, value: int) -> int:
    """An int32 path id >= 0, or ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT32_MAX:
        raise ValueError(f"{name} must be a whole number from 0 to {INT32_MAX}; got {value!r}")
    return value


def check_client_id(client_id: str) -> str:
    """A collection client id (uuid), lower-cased, or ValueError."""
    if not isinstance(client_id, str) or not VALUE_PATTERNS[Kind.UUID].fullmatch(client_id.strip()):
        raise ValueError(f"client_id must be a uuid like 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0; got {client_id!r}")
    return client_id.strip().lower()


def check_page_size(page_size: int) -> int:
    """A page size from 1 to MAX_PAGE_SIZE, or ValueError."""
    if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"page_size must be a whole number from 1 to {MAX_PAGE_SIZE}; got {page_size!r}")
    return page_size


def list_params(spec: EndpointSpec, query: ListQuery, *, hydrate_default: bool | None = None) -> list[tuple[str, str]]:
    """Check `query` against `spec` and build the request's query string (FilterError when wrong).

    `hydrate_default` stands in for hydration flags the query leaves at None.
    """
    if query.endpoint is not None and spec is not COMPLETED_TASKS:
        raise ValueError(f"{spec.name} has one endpoint; the query names {query.endpoint!r}")
    checked: list[Filter] = []
    for item in query.filters:
        if not isinstance(item, Filter):
            raise TypeError(f"filters must be svctui.api.filters.Filter objects; got {item!r}")
        checked.append(Filter.build(spec, item.column, item.op, item.value))
    for key in query.sort:
        if not isinstance(key, SortKey):
            raise TypeError(f"sort must be svctui.api.filters.SortKey objects; got {key!r}")
        SortKey.parse(spec, key.render())
    skip, limit = query.skip, query.limit
    if isinstance(skip, bool) or not isinstance(skip, int) or skip < 0:
        raise FilterError(f"skip must be a whole number >= 0; got {skip!r}", column="skip", allowed="an integer >= 0")
    lowest = -1 if spec.limit_all else 0
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < lowest):
        allowed = "an integer >= 0, or -1 for all" if spec.limit_all else "an integer >= 0"
        raise FilterError(f"limit for {spec.name} must be {allowed}; got {limit!r}", column="limit", allowed=allowed)
    hydrate_domains = hydrate_default if query.hydrate_domains is None else query.hydrate_domains
    hydrate_ous = hydrate_default if query.hydrate_ous is None else query.hydrate_ous
    return query_params(
        checked, query.sort, skip=skip, limit=limit, hydrate_domains=hydrate_domains, hydrate_ous=hydrate_ous
    )


AHEAD = 2  # requests kept on their way while the caller handles a page
# Set for one request, `ApiClient.get` shows the bytes of its 2xx answer to this before validating them.
BODY_ARRIVED: contextvars.ContextVar[Callable[[bytes], None] | None] = contextvars.ContextVar(
    "svctui_body_arrived", default=None
)
LEADING_COUNT = re.compile(rb"\A\s*\{\s*\"count\"\s*:\s*(\d{1,10})\s*[,}]")  # the envelope as servers send it


def leading_count(content: bytes) -> int | None:
    """The `count` of a page envelope that starts with it (as the API's does), read without parsing the page."""
    found = LEADING_COUNT.match(content)
    return int(found.group(1)) if found else None


async def paginate(
    fetch: Callable[[int, int], Awaitable[PageT]], size: Callable[[PageT], int], skip: int, page_size: int
) -> AsyncIterator[PageT]:
    """Pages from `fetch(skip, limit)`, `page_size` at a time, until `skip + len(data) >= count` or an empty page.

    The following pages are requested as soon as a page has arrived, before the caller gets it: the next one, and
    (while the pages are full and the count goes beyond them) the one after it, so the server works on them while
    the caller writes or draws this one and there is always one more for the server to start on. The first page's
    two followers go out as soon as its bytes are in, before it is validated, when its envelope starts with the
    count (see `leading_count`). At most AHEAD requests are in flight, and AHEAD + 1 pages held with the caller's.
    A request that this page proves was for the wrong place (a short page, a changed count) is cancelled and the
    right page requested. A caller that stops early (closing the iterator) cancels what is in flight; an error of a
    later page is raised after every page before it has been handed over.
    """
    check_page_size(page_size)
    pending: deque[tuple[int, asyncio.Future[PageT]]] = deque()  # (skip, the request), in page order

    def first_arrived(content: bytes) -> None:
        BODY_ARRIVED.set(None)  # once, and not for the requests started here (they copy this context)
        count = leading_count(content)
        at = skip + page_size
        while count is not None and len(pending) < AHEAD and at < count:
            pending.append((at, asyncio.ensure_future(fetch(at, page_size))))
            at += page_size

    first = contextvars.copy_context()
    first.run(BODY_ARRIVED.set, first_arrived)
    current: asyncio.Future[PageT] = asyncio.get_running_loop().create_task(
        _awaited(fetch(skip, page_size)), context=first
    )
    try:
        while True:
            page = await current
            got = size(page)
            if got == 0 or skip + got >= page.count:
                yield page
                return
            skip += got
            if pending and pending[0][0] != skip:  # asked where this page said the next would start; it did not
                while pending:
                    _drop(pending.popleft()[1])
            full = got == page_size
            while len(pending) < AHEAD:
                at = pending[-1][0] + page_size if pending else skip
                if pending and (not full or at >= page.count):
                    break
                pending.append((at, asyncio.ensure_future(fetch(at, page_size))))
            await asyncio.sleep(0)  # let the new requests go out before the caller works on this page
            current = pending.popleft()[1]
            yield page
    finally:
        _drop(current)
        for _, request in pending:
            _drop(request)


async def _awaited(awaitable: Awaitable[T]) -> T:
    """`awaitable` as a coroutine (a task with its own context needs one)."""
    return await awaitable


def _drop(task: asyncio.Future[Any]) -> None:
    """Cancel a request no one will read (a no-op once done) and retrieve its outcome, so asyncio does not report
    an error of it as never retrieved."""
    task.cancel()
    task.add_done_callback(forget)


def forget(task: asyncio.Future[Any]) -> None:
    """Retrieve the outcome of a task no one awaits (a dropped request, a validator build whose request failed
    first), so asyncio does not report its error as never retrieved; a done callback."""
    if not task.cancelled():
        task.exception()


def each_item(
    pages: Callable[Params, AsyncIterator[PageT]], items: Callable[[PageT], Iterable[T]]
) -> Callable[Params, AsyncIterator[T]]:
    """An item iterator taking the same arguments as `pages`: every item of every page, in order."""

    @functools.wraps(pages)
    async def iterate(*args: Params.args, **kwargs: Params.kwargs) -> AsyncIterator[T]:
        async for page in pages(*args, **kwargs):
            for item in items(page):
                yield item

    iterate.__doc__ = "Every item across all pages (the arguments of `pages`)."
    return iterate


def _page_size(page: Page[T]) -> int:
    return len(page.data)


def _page_items(page: Page[T]) -> list[T]:
    return page.data


def query_pages(
    read: Callable[[ListQuery], Awaitable[Page[T]]], query: ListQuery, page_size: int
) -> AsyncIterator[Page[T]]:
    """Every page `read` gives from `query.skip` on, `page_size` items at a time (`paginate` over the query)."""
    return paginate(lambda at, size: read(query.page(at, size)), _page_size, query.skip, page_size)


class EventsResource:
    """`client.events`: collection schedules (enterprise only)."""

    def __init__(self, client: ApiClient) -> None:
        self._client = client

    async def list(self, query: ListQuery = NO_QUERY) -> Page[Event]:
        """One page of `GET /api/v2/events` (domains and OUs hydrated unless the query says otherwise)."""
        params = list_params(EVENTS, query, hydrate_default=True)
        return await self._client.get(Page[Event], "/api/v2/events", params)

    def pages(self, query: ListQuery = NO_QUERY, *, page_size: int = DEFAULT_PAGE_SIZE) -> AsyncIterator[Page[Event]]:
        """Every page from `query.skip` on, `page_size` events at a time."""
        return query_pages(self.list, query, page_size)

    iter = each_item(pages, _page_items)


class TasksResource:
    """`client.tasks`: completed collection tasks of a client (`completed-jobs`, or `completed-tasks`, deprecated)."""

    def __init__(self, client: ApiClient) -> None:
        self._client = client

    def _path(self, client_id: str, endpoint: str) -> str:
        if endpoint not in TASK_ENDPOINTS:
            raise ValueError(
                f'endpoint must be "{DEPRECATED_TASK_ENDPOINT}" (deprecated) or "{REPLACEMENT_TASK_ENDPOINT}" '
                f"(with a hyphen); got {endpoint!r}"
            )
        checked = check_client_id(client_id)
        if endpoint == DEPRECATED_TASK_ENDPOINT:
            self._client.deprecated(COMPLETED_TASKS_NOTICE)
        return f"/api/v2/clients/{checked}/{endpoint}"

    async def list(self, client_id: str, query: ListQuery = NO_QUERY) -> Page[CompletedTask]:
        """One page of a client's completed tasks from `query.endpoint` (domains and OUs hydrated unless the query
        says otherwise). A query that names no endpoint reads the client's `task_endpoint` (`completed-jobs` until
        the server answers it with the router's 404: then `completed-tasks`, learnt once and kept)."""
        return await self._read(Page[CompletedTask], client_id, query)

    async def fleet_runs(self, client_id: str, query: ListQuery = NO_QUERY) -> Page[FleetRun]:
        """`list`, each run read as judging reads it (svctui.api.fleet_models): a client's history for its health."""
        return await self._read(Page[FleetRun], client_id, query)

    async def _read(self, model: type[PageT], client_id: str, query: ListQuery) -> PageT:
        params = list_params(COMPLETED_TASKS, query, hydrate_default=True)
        endpoint = query.endpoint or self._client.task_endpoint
        try:
            return await self._client.get(model, self._path(client_id, endpoint), params)
        except NotFound as error:
            if query.endpoint is not None or endpoint != REPLACEMENT_TASK_ENDPOINT or not route_missing(error):
                raise
        self._client.learned("task_endpoint", DEPRECATED_TASK_ENDPOINT)  # an older server: it has only this one
        return await self._client.get(model, self._path(client_id, DEPRECATED_TASK_ENDPOINT), params)

    def pages(
        self, client_id: str, query: ListQuery = NO_QUERY, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[Page[CompletedTask]]:
        """Every page from `query.skip` on, `page_size` tasks at a time."""
        return query_pages(functools.partial(self.list, client_id), query, page_size)

    iter = each_item(pages, _page_items)


LOG_PIECE_BYTES = 16 * 1024  # the log's text is handed on at most this much of the answer at a time


class JobsResource:
    """`client.jobs`: finished runs of every client at once (`GET /api/v2/jobs/finished`, enterprise servers of
    2025 on; an older or community server answers the router's 404: `route_missing`) and a run's log (enterprise
    only: EnterpriseOnly on a community server)."""

    def __init__(self, client: ApiClient) -> None:
        self._client = client

    async def finished(self, query: ListQuery = NO_QUERY) -> Page[CompletedTask]:
        """One page of finished runs, shaped like `completed-jobs`' and filtered alike (domains and OUs hydrated
        unless the query says otherwise)."""
        return await self._finished(Page[CompletedTask], query)

    def finished_pages(
        self, query: ListQuery = NO_QUERY, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[Page[CompletedTask]]:
        """Every page of finished runs from `query.skip` on, `page_size` runs at a time."""
        return query_pages(self.finished, query, page_size)

    async def fleet_runs(self, query: ListQuery = NO_QUERY) -> Page[FleetRun]:
        """`finished`, each run read as judging reads it (svctui.api.fleet_models): the fleet's runs for its health."""
        return await self._finished(Page[FleetRun], query)

    async def _finished(self, model: type[PageT], query: ListQuery) -> PageT:
        params = list_params(COMPLETED_TASKS, query, hydrate_default=True)
        return await self._client.get(model, "/api/v2/jobs/finished", params)

    def fleet_run_pages(
        self, query: ListQuery = NO_QUERY, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[Page[FleetRun]]:
        """Every page of `fleet_runs` from `query.skip` on, `page_size` runs at a time."""
        return query_pages(self.fleet_runs, query, page_size)

    async def log_text(self, job_id: int, *, max_bytes: int | None = None) -> AsyncIterator[str]:
        """The log of run `job_id` (`GET /api/v2/jobs/{job_id}/log`) as it arrives, a piece of text at a time, in
        constant memory when the answer is laid out as the server writes it (svctui.runlog.decode).

        NotFound when the run kept no log; ResponseShapeError when the answer holds no log text (not JSON, a log
        that is not a string, an answer cut inside it); ResponseTooLarge past `max_bytes`, after the text before.
        """
        path = f"/api/v2/jobs/{check_id('job_id', job_id)}/log"
        hold = max_bytes if max_bytes is not None else self._client.max_response_bytes
        decoder = LogDecoder(hold)
        try:
            async for chunk in self._client.stream_get(path, max_bytes=max_bytes):
                for start in range(0, len(chunk), LOG_PIECE_BYTES):  # small pieces: a caller on an event loop
                    text = decoder.feed(chunk[start : start + LOG_PIECE_BYTES])  # can let it run between them
                    if text:
                        yield text
            rest = decoder.finish()
        except LogBodyError as exc:
            raise ResponseShapeError(
                f"unexpected response to GET {path}: {exc}", status=200, method="GET", url=path
            ) from None
        if rest:
            yield rest


class ClientsResource:
    """`client.clients`: collection clients (enterprise only: EnterpriseOnly on a community server)."""

    def __init__(self, client: ApiClient) -> None:
        self._client = client

    async def list(self, query: ListQuery = NO_QUERY) -> Page[CollectionClient]:
        """One page of `GET /api/v2/clients` (their schedules' domains and OUs hydrated unless the query says not)."""
        params = list_params(CLIENTS, query, hydrate_default=True)
        return await self._client.get(Page[CollectionClient], "/api/v2/clients", params)

    def pages(
        self, query: ListQuery = NO_QUERY, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[Page[CollectionClient]]:
        """Every page from `query.skip` on, `page_size` clients at a time."""
        return query_pages(self.list, query, page_size)

    iter = each_item(pages, _page_items)

    async def get(self, client_id: str) -> CollectionClient:
        """One client by its uuid (NotFound when there is none)."""
        path = f"/api/v2/clients/{check_client_id(client_id)}"
        return (await self._client.get(ClientResponse, path)).data


class TagsResource:
    """`client.tags`: asset group tags (no paging)."""

    def __init__(self, client: ApiClient) -> None:
        self._client = client

    async def list(self, query: ListQuery = NO_QUERY, *, counts: bool = False) -> list[AssetGroupTag]:
        """All asset group tags matching the query's filters (the server neither pages nor sorts them); `counts`
        asks for each tag's selector and member counts (`AssetGroupTag.counts`: None where the server gives none)."""
        params = [pair for pair in list_params(TAGS, ListQuery(query.filters)) if pair[0] not in ("skip", "limit")]
        if counts:
            params.append(("counts", "true"))
        return (await self._client.get(TagList, "/api/v2/asset-group-tags", params)).data.tags


class SelectorsResource:
    """`client.selectors`: browse, fetch and delete the selectors of an asset group tag."""

    def __init__(self, client: ApiClient) -> None:
        self._client = client

    async def list(self, tag_id: int, query: ListQuery = NO_QUERY) -> SelectorPage:
        """One page of a tag's selectors (`limit=-1` = all)."""
        params = list_params(SELECTORS, query)
        path = f"/api/v2/asset-group-tags/{check_id('tag_id', tag_id)}/selectors"
        return await self._client.get(SelectorPage, path, params)

    def pages(
        self, tag_id: int, query: ListQuery = NO_QUERY, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[SelectorPage]:
        """Every page from `query.skip` on, `page_size` selectors at a time."""
        return paginate(
            lambda at, size: self.list(tag_id, query.page(at, size)),
            lambda page: len(page.data.selectors),
            query.skip,
            page_size,
        )

    iter = each_item(pages, lambda page: page.data.selectors)

    def _path(self, tag_id: int, selector_id: int) -> str:
        return f"/api/v2/asset-group-tags/{check_id('tag_id', tag_id)}/selectors/{check_id('selector_id', selector_id)}"

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        """One selector."""
        return (await self._client.get(SelectorResponse, self._path(tag_id, selector_id))).data.selector

    async def create(
        self, tag_id: int, name: str, seeds: Sequence[Mapping[str, Any]], description: str = "", auto_certify: int = 0
    ) -> Creation:
        """Create a selector of the tag (POST, answered 201 `{"data": selector}`); sent once, not retried but
        after a 429 (a POST that got no answer may have created it: the caller must check before sending again).
        The new selector with the answer's status and request id (the audit log keeps them)."""
        path = f"/api/v2/asset-group-tags/{check_id('tag_id', tag_id)}/selectors"
        body = {"name": name, "description": description, "auto_certify": auto_certify, "seeds": list(seeds)}
        response = await self._client.request("POST", path, json_body=json.dumps(body).encode("utf-8"))
        created = self._client.parse(SelectorCreated, response).data
        return Creation(created, response.status_code, request_id_of(response.headers))

    async def member_counts(self, tag_id: int, selector_id: int) -> MemberCounts:
        """How many objects the selector tags, by kind (NotFound on a server without the endpoint)."""
        path = f"{self._path(tag_id, selector_id)}/members/counts"
        return (await self._client.get(MemberCountsResponse, path)).data

    async def delete(self, tag_id: int, selector_id: int) -> Deletion:
        """Delete one selector: 204, or a 200 with an empty body or the API's `{"data": ...}` envelope, is a deletion.

        Any other success (a proxy's sign-in page, malformed JSON, wrong types, an error envelope) deleted nothing
        that anyone can vouch for: ResponseShapeError. An answer over the size cap is ResponseTooLarge; a repeat
        delete is NotFound (`resource not found`).
        """
        response = await self._client.request("DELETE", self._path(tag_id, selector_id))
        request_id = request_id_of(response.headers)
        if response.status_code == 204 or (response.status_code == 200 and _is_delete_envelope(response.content)):
            return Deletion(response.status_code, request_id)
        what = "its body is not the API's" if response.status_code == 200 else "expected 204 or 200"
        excerpt = shorten(response.content[:400].decode("utf-8", "replace"), 120)
        raise ResponseShapeError(
            f"unexpected answer to DELETE {response.request.url.path} (HTTP {response.status_code}): {what}; "
            f"body starts: {excerpt or '(empty)'}; nothing confirms the deletion",
            status=response.status_code,
            excerpt=excerpt,
            method="DELETE",
            url=str(response.request.url),
        )


@dataclass(frozen=True)
class Deletion:
    """A DELETE the API answered as done: its status (204, or 200) and the server's request id."""

    status: int
    request_id: str | None = None


@dataclass(frozen=True)
class Creation:
    """A POST the API answered as done: the new selector, the status (201) and the server's request id."""

    selector: Selector
    status: int
    request_id: str | None = None


def _is_delete_envelope(content: bytes) -> bool:
    """True for an empty body, or a JSON object with `data` (an object or null) and no `errors`."""
    if not content.strip():
        return True
    try:
        body = json.loads(content)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return (
        isinstance(body, dict)
        and "data" in body
        and isinstance(body["data"], dict | None)
        and not {"errors", "http_status"} & set(body)
    )
