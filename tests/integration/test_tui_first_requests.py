"""The dashboard's first requests, as the server receives them: the first screen's page, then the edition probe."""

from __future__ import annotations

import pytest

from svctui.store.model import build_profile
from tests.support.recording_server import RecordingServer
from tests.support.tui import events_screen, make_app, running

pytestmark = pytest.mark.anyio


async def test_the_first_page_goes_out_before_the_edition_probe(server: RecordingServer) -> None:
    profile = build_profile(
        name="recorded", base_url=server.base_url, token_id=server.token_id, token_key=server.token_key, storage="env"
    )
    app = make_app(profile=profile)
    async with running(app):
        assert [event.id for event in events_screen(app).table.items] == [1, 2, 3, 4, 5, 6, 7]
        assert app.header_info.edition == "enterprise"  # asked once the page was on screen
    events = [(r.param("limit"), r.param("skip")) for r in server.requests if r.path == "/api/v2/events"]
    assert events == [("100", "0"), ("1", None)]  # the page, then the probe (limit=1)
