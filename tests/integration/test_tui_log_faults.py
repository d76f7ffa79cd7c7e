"""The log pane against a misbehaving server over real HTTP (tests/support/bad_server.py): a log that is not
text, an answer that is not JSON, a last line cut short, a log over the pane's cap, a run without a log and a
community server each read as such in the pane's top line, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from svctui.api.client import ApiClient
from svctui.api.models import CompletedTask
from svctui.api.signing import SignatureAuth
from svctui.runlog import LogLine, LogSummary
from svctui.tui.screens.tasks import log_tab
from svctui.tui.screens.tasks.log_tab import LogPane
from tests.support.bad_server import BadServer, answer
from tests.support.tasks import text_of
from tests.support.tui import settle

pytestmark = pytest.mark.anyio
TOKEN_ID = "6f1e2d3c-4b5a-4968-8776-655443322110"
LINE = "2026-03-01T02:00:05.1234567-05:00|INFORMATION|Status: 40641 objects finished (+0 2.38)/s -- Using 197 MB RAM"
TASK = CompletedTask.model_validate({"id": 7, "client_id": "c", "status": 5, "session_collection": True})


@dataclass
class Shown:
    """What the pane held once the read ended."""

    lines: list[LogLine]
    summaries: dict[int, LogSummary | None]


class PaneApp(App[None]):
    """The log pane alone."""

    def compose(self) -> ComposeResult:
        yield LogPane()


async def head_of(bad: BadServer) -> tuple[str, Shown]:
    """Open run 7's log from `bad` in the pane alone: its top line, and what the pane held."""
    async with ApiClient(bad.base_url, SignatureAuth(TOKEN_ID, "k"), max_retries=0) as client:

        async def client_of() -> ApiClient:
            return client

        app = PaneApp()
        async with app.run_test(size=(120, 30)) as pilot:
            pane = app.query_one(LogPane)
            pane.open(TASK, client_of)
            await settle(pilot)
            head = text_of(pane.query_one("#log-head", Static))
            held = Shown(list(pane.view.lines), dict(pane.summaries))
    return head, held


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as server:
        yield server


async def test_binary_log(bad: BadServer) -> None:
    bad.enqueue(answer(200, {"data": {"log": "\x00\x01\x02PK\x03\x04" * 2000}}))
    head, pane = await head_of(bad)
    assert head == "the log of run 7 is not text (binary data)" and pane.lines == []
    summary = pane.summaries[7]
    assert summary is not None and summary.binary


async def test_not_json(bad: BadServer) -> None:
    bad.enqueue(answer(200, "<html>sign in</html>", content_type="text/html"))
    head, _ = await head_of(bad)
    assert "the answer is not JSON" in head


async def test_cut_mid_line_and_no_format(bad: BadServer) -> None:
    bad.enqueue(answer(200, {"data": {"log": f"{LINE}\n   at Main()\n{LINE[:50]}"}}))
    head, pane = await head_of(bad)
    assert [line.level for line in pane.lines] == ["INFORMATION", None, "INFORMATION"]
    assert pane.lines[-1].cut and "last line cut short" in head


async def test_over_the_cap_shows_the_first_part(bad: BadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(log_tab, "LOG_VIEW_MAX_BYTES", 20_000)
    bad.enqueue(answer(200, json.dumps({"data": {"log": f"{LINE}\n" * 1000}})))
    head, pane = await head_of(bad)
    assert head.startswith("only the first 20,000 bytes of a larger log are shown (svctui tasks log streams it whole)")
    assert 150 < len(pane.lines) < 200 and pane.lines[0].message.startswith("Status: 40641")


async def test_no_log_and_community(bad: BadServer) -> None:
    bad.enqueue(answer(404, {"http_status": 404, "timestamp": "", "request_id": "r-1", "errors": [
        {"context": "", "message": "resource not found"}]}))  # fmt: skip
    head, _ = await head_of(bad)
    assert head == "run 7 kept no log (the server answered 404)"
    bad.enqueue(answer(404, "404 page not found\n", content_type="text/plain; charset=utf-8"))
    head, _ = await head_of(bad)
    assert head.startswith("Run logs are an enterprise feature")
