"""A run's log that is not what it should be, over real HTTP (tests/support/bad_server.py): not text, no line
format, cut short mid-line or mid-answer, over the size cap. Each reads as such, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from svctui.api.client import ApiClient
from svctui.api.errors import ResponseCutShort, ResponseShapeError, ResponseTooLarge
from svctui.api.signing import SignatureAuth
from svctui.runlog import LogReader
from tests.support.bad_server import BadServer, Misbehaviour, answer
from tests.support.cli import invoke

TOKEN_ID = "6f1e2d3c-4b5a-4968-8776-655443322110"
LINE = "2026-03-01T02:00:05.1234567-05:00|INFORMATION|Status: 40641 objects finished (+0 2.38)/s -- Using 197 MB RAM"


def log_body(text: str) -> dict[str, object]:
    return {"data": {"log": text}}


@pytest.fixture
def bad() -> Iterator[BadServer]:
    with BadServer() as server:
        yield server


@pytest.fixture
def cli_env(bad: BadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SVCTUI_BASE_URL", bad.base_url)
    monkeypatch.setenv("SVCTUI_TOKEN_ID", TOKEN_ID)
    monkeypatch.setenv("SVCTUI_TOKEN_KEY", "a-key")


async def read_all(bad: BadServer, max_bytes: int | None = None) -> tuple[str, Exception | None]:
    """The text the client handed on, and the error that ended it (None when it ended well)."""
    text = ""
    async with ApiClient(bad.base_url, SignatureAuth(TOKEN_ID, "a-key"), max_retries=0) as client:
        try:
            async for piece in client.jobs.log_text(7, max_bytes=max_bytes):
                text += piece
        except Exception as exc:  # the test looks at which
            return text, exc
    return text, None


def test_binary_log_is_not_text(bad: BadServer, cli_env: None) -> None:
    bad.enqueue(answer(200, log_body("\x00\x01\x02PK\x03\x04" * 2000)))
    result = invoke(["tasks", "log", "7"])
    assert result.exit_code == 5
    assert "the log is not text (binary data)" in result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


def test_a_log_that_is_not_a_string_is_not_text(bad: BadServer, cli_env: None) -> None:
    bad.enqueue(answer(200, {"data": {"log": 12}}))
    result = invoke(["tasks", "log", "7"])
    assert result.exit_code == 5
    assert "the log is not text (a JSON int)" in result.stderr


def test_an_answer_that_is_not_json(bad: BadServer, cli_env: None) -> None:
    bad.enqueue(answer(200, "<html>sign in</html>", content_type="text/html"))
    result = invoke(["tasks", "log", "7"])
    assert result.exit_code == 5 and "the answer is not JSON" in result.stderr


def test_lines_without_the_format_are_printed_as_they_are(bad: BadServer, cli_env: None) -> None:
    bad.enqueue(answer(200, log_body("hello\n\x1b[2Jworld\n")))
    result = invoke(["tasks", "log", "7", "-o", "jsonl"])
    assert result.exit_code == 0
    items = [json.loads(line) for line in result.stdout.splitlines()]
    assert [item["level"] for item in items] == [None, None]
    assert items[1]["message"] == "\x1b[2Jworld" and "\x1b" not in result.stdout, "escaped in the JSON text"
    assert "no line is in SharpHound's format" in result.stderr
    bad.enqueue(answer(200, log_body("hello\n\x1b[2Jworld\n")))
    text = invoke(["tasks", "log", "7"])
    assert text.stdout == "hello\n␛[2Jworld\n", "the terminal never gets the escape"


def test_a_log_cut_mid_line(bad: BadServer, cli_env: None) -> None:
    bad.enqueue(answer(200, log_body(f"{LINE}\n{LINE[:60]}")))
    result = invoke(["tasks", "log", "7", "-o", "jsonl"])
    assert result.exit_code == 0
    last = json.loads(result.stdout.splitlines()[-1])
    assert last["cut"] is True and last["line"] == 2
    assert "the log's last line is cut short (line 2)" in result.stderr


def test_an_answer_cut_mid_body(bad: BadServer, cli_env: None) -> None:
    whole = json.dumps(log_body(f"{LINE}\n" * 200)).encode()
    bad.enqueue(Misbehaviour("chunked_cut", body=whole[: len(whole) // 2]))
    result = invoke(["tasks", "log", "7"])
    assert result.exit_code == 5
    assert "cut short" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout.count("\n") >= 20, "the lines that arrived were printed"


@pytest.mark.anyio
async def test_over_the_size_cap_hands_on_the_part_before(bad: BadServer) -> None:
    bad.enqueue(Misbehaviour("chunked_cut", body=json.dumps(log_body(f"{LINE}\n" * 200)).encode()[:-3]))
    text, error = await read_all(bad, max_bytes=5000)
    assert isinstance(error, ResponseTooLarge)
    assert 4000 < len(text) <= 5000 and text.startswith(LINE)
    reader = LogReader()
    lines = reader.feed(text) + reader.finish()
    assert lines[0].message.startswith("Status: 40641") and lines[-1].cut


@pytest.mark.anyio
async def test_api_errors_name_the_fault(bad: BadServer) -> None:
    bad.enqueue(answer(200, {"data": {"log": None}}))
    _, error = await read_all(bad)
    assert isinstance(error, ResponseShapeError) and 'no "data.log"' in str(error)
    bad.enqueue(Misbehaviour("reset", body=b'{"data":{"log":"' + LINE.encode()))
    _, error = await read_all(bad)
    assert isinstance(error, (ResponseCutShort, ResponseShapeError))
