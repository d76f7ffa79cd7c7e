"""Issue 30: how the deletion engine reads a tag's selectors (`fetch_selector_records`: pages of 1,000, never one
GET per selector, and an end even on a server whose count or paging is wrong), over real loopback to
`RecordingServer`, whose every request is checked on the wire."""

from __future__ import annotations

import pytest

from svctui.ops.delete_run import fetch_selector_records
from tests.support.recording_server import Recorded, RecordingServer, Reply, client_for


def pages_asked(server: RecordingServer) -> list[tuple[str | None, str | None]]:
    """(skip, limit) of every list request the server received."""
    return [(request.param("skip"), request.param("limit")) for request in server.requests]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("count", "pages"),
    [
        (2500, [("0", "1000"), ("1000", "1000"), ("2000", "1000")]),
        (2000, [("0", "1000"), ("1000", "1000")]),  # the last page full: no empty page asked after it
        (3, [("0", "1000")]),
    ],
)
async def test_every_selector_is_read_in_pages_of_a_thousand(count: int, pages: list[tuple[str, str]]) -> None:
    with RecordingServer(selectors=count) as server:
        async with client_for(server, max_retries=0) as api:
            found = await fetch_selector_records(api, 1)
        assert pages_asked(server) == pages
    assert list(found) == list(range(1, count + 1))
    assert all(found[selector_id].id == selector_id for selector_id in (1, count))


@pytest.mark.anyio
async def test_a_count_the_pages_never_reach_ends_at_the_first_empty_page(server: RecordingServer) -> None:
    server.count_override = 10  # says 10 selectors, has 4
    async with client_for(server, max_retries=0) as api:
        found = await fetch_selector_records(api, 1)
    assert list(found) == [1, 2, 3, 4]
    assert pages_asked(server) == [("0", "1000"), ("4", "1000")]


@pytest.mark.anyio
async def test_a_server_that_ignores_skip_ends_at_the_first_page_with_nothing_new(server: RecordingServer) -> None:
    """Each page is the first again (a proxy dropping the query): the second one brings nothing new, the end."""
    first_page = Reply(200, {"count": 10, "skip": 0, "limit": 1000, "data": {"selectors": server.selectors[1]}})

    def route(recorded: Recorded) -> Reply:
        return first_page

    server.route = route  # type: ignore[method-assign]
    async with client_for(server, max_retries=0) as api:
        found = await fetch_selector_records(api, 1)
    assert list(found) == [1, 2, 3, 4]
    assert pages_asked(server) == [("0", "1000"), ("4", "1000")]
