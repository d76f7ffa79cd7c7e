"""svctui.runlog: SharpHound's line format, the streamed decoding of `{"data": {"log": ...}}` cut anywhere, the
summary (first error, stuck count, methods, domain times) and telling a log that is not text."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svctui.api.models import CompletedTask
from svctui.runlog import (
    LineSplitter,
    LogBodyError,
    LogDecoder,
    LogReader,
    NotText,
    asked_methods,
    looks_binary,
    parse_line,
    summarise,
)

T = "2026-03-01T02:00:05.1234567-05:00"


def lines_of(text: str) -> list:  # type: ignore[type-arg]
    reader = LogReader()
    return reader.feed(text) + reader.finish()


def test_a_line_in_the_format() -> None:
    line = parse_line(3, f"{T}|WARNING|Computer WS1: port 445 | closed")
    assert (line.number, line.stamp, line.level, line.message) == (3, T, "WARNING", "Computer WS1: port 445 | closed")
    assert line.time is not None and line.time.utcoffset() is not None and line.time.microsecond == 123456
    assert line.warns and not line.severe and line.text() == f"{T}|WARNING|Computer WS1: port 445 | closed"


@pytest.mark.parametrize(
    "raw",
    [
        "   at SharpHound.Client.Main(String[] args)",
        "no|format|here",
        f"{T}|warning|lower-case level",
        f"{T}||empty level",
        "2026-13-99 not a time|ERROR|x",
        "",
    ],
)
def test_lines_without_the_format_are_plain(raw: str) -> None:
    line = parse_line(1, raw)
    assert line.level is None and line.message == raw and line.time is None and line.text() == raw


def test_windows_line_endings_and_a_cut_last_line() -> None:
    splitter = LineSplitter()
    out = list(splitter.feed(f"{T}|INFORMATION|a\r\n{T}|ERR"))
    out += list(splitter.feed("OR|b\r\npartial"))
    last = splitter.finish()
    assert [line.message for line in out] == ["a", "b"] and [line.level for line in out] == ["INFORMATION", "ERROR"]
    assert last is not None and last.cut and last.message == "partial" and last.number == 3


@given(st.text(max_size=300), st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30))
@settings(max_examples=200, deadline=None)
def test_the_decoder_gives_the_log_back_however_the_answer_is_cut(log: str, cuts: list[int]) -> None:
    for ascii_only in (True, False):
        body = (json.dumps({"data": {"log": log}}, separators=(",", ":"), ensure_ascii=ascii_only) + "\n").encode(
            "utf-8", "surrogatepass"
        )
        decoder = LogDecoder(10**6)
        out, at, index = "", 0, 0
        while at < len(body):
            size = cuts[index % len(cuts)]
            out += decoder.feed(body[at : at + size])
            at, index = at + size, index + 1
        out += decoder.finish()
        expected = log.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if not ascii_only else log
        assert out == expected


def test_the_decoder_holds_little_while_it_streams() -> None:
    decoder = LogDecoder(hold_limit=100)  # far less than the log: the server's layout is never held whole
    log = f"{T}|INFORMATION|Status: 1 objects finished\n" * 5000
    body = json.dumps({"data": {"log": log}}, separators=(",", ":")).encode()
    out = "".join(decoder.feed(body[at : at + 4096]) for at in range(0, len(body), 4096)) + decoder.finish()
    assert out == log and len(decoder.pending) <= 12 and decoder.held == []


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"data":{"log":null}}', 'no "data.log"'),
        (b'{"data":{"log":["a"]}}', "not text (a JSON list)"),
        (b"Limit exceeded", "not JSON"),
        (b'{"data":{"log":"abc', "cut short"),
        (b'{"data":{"log":"a\\qb"}}', "not a valid JSON string"),
        (b'{"data":{"log":"a"}} trailing', "unexpected text after the log"),
    ],
)
def test_the_decoder_names_what_is_wrong(body: bytes, says: str) -> None:
    decoder = LogDecoder(1000)
    with pytest.raises(LogBodyError, match=re.escape(says)):
        decoder.feed(body)
        decoder.finish()


def test_another_layout_is_read_whole_under_the_limit() -> None:
    body = json.dumps({"meta": 1, "data": {"other": [1, 2], "log": "x\ny\n"}}, indent=2).encode()
    decoder = LogDecoder(1000)
    assert decoder.feed(body) == "" and decoder.finish() == "x\ny\n"
    with pytest.raises(LogBodyError, match="not laid out as the server writes it"):
        LogDecoder(10).feed(body)


def test_binary_is_not_text() -> None:
    assert looks_binary("\x00\x01\x02\x03 abc")
    assert not looks_binary(f"{T}|INFORMATION|é ü 漢字\ttab\n" * 10)
    with pytest.raises(NotText):
        lines_of("\x00PK\x03\x04" * 2000)


def stamp(minute: int, second: int = 0) -> str:
    return f"2026-03-01T02:{minute:02d}:{second:02d}.0000000+00:00"


def test_the_summary_reads_the_log() -> None:
    log = "\n".join(
        [
            f"{stamp(0)}|INFORMATION|Resolved Collection Methods: Group, Session, LocalAdmin",
            f"{stamp(0, 1)}|INFORMATION|Beginning LDAP search for CORP.EXAMPLE.COM",
            f"{stamp(1)}|INFORMATION|Status: 10 objects finished (+10 0.3)/s -- Using 50 MB RAM",
            f"{stamp(2)}|WARNING|Computer WS1: port 445 is not open",
            f"{stamp(3, 1)}|INFORMATION|Beginning LDAP search for DEV.EXAMPLE.COM",
            f"{stamp(4)}|INFORMATION|Status: 40 objects finished (+30 1.0)/s -- Using 50 MB RAM",
            f"{stamp(5)}|INFORMATION|Status: 40 objects finished (+0 0)/s -- Using 50 MB RAM",
            f"{stamp(6)}|ERROR|LDAP bind failed: Invalid credentials (49)",
            "   at SharpHound.Client.Main(String[] args)",
            f"{stamp(7)}|INFORMATION|Status: 40 objects finished (+0 0)/s -- Using 51 MB RAM",
            f"{stamp(8)}|INFORMATION|Status: 40 objects finished (+0 0)/s -- Using 51 MB RAM",
            f"{stamp(9, 1)}|INFORMATION|Enumeration finished in 00:09:01.1234567",
            "",
        ]
    )
    task = CompletedTask.model_validate(
        {"id": 1, "client_id": "c", "status": 2, "ad_structure_collection": True, "session_collection": True}
    )
    reader = LogReader(asked_methods(task))
    reader.feed(log)
    reader.finish()
    summary = reader.summary()
    assert (summary.lines, summary.plain, summary.errors, summary.warnings) == (12, 1, 1, 1)
    assert summary.first_error is not None and summary.first_error.number == 8
    assert summary.stuck is not None and (summary.stuck.count, summary.stuck.lines) == (40, 4)
    assert (summary.stuck.first.number, summary.stuck.last.number) == (6, 11)
    assert summary.resolved == ("Group", "Session", "LocalAdmin")
    assert summary.missing == ["Trusts", "ACL", "Container", "ObjectProps", "GPOLocalGroup", "SPNTargets"]
    assert [(part.domain, part.first, part.last, part.seconds) for part in summary.domains] == [
        ("CORP.EXAMPLE.COM", 2, 4, 180.0),
        ("DEV.EXAMPLE.COM", 5, 12, 360.0),
    ]
    assert summary.finished == "00:09:01.1234567" and not summary.completed and not summary.cut
    headline = summary.headline()
    assert headline.startswith("first error 02:06:00Z: LDAP bind failed") and "stuck at 40 objects" in headline
    assert "not resolved: Trusts" in headline
    text = "\n".join(summary.lines_of_text())
    assert "DEV.EXAMPLE.COM: took 6m 00s (lines 5-12)" in text and "lines 6-11" in text


def test_summary_of_odd_logs() -> None:
    assert summarise([]).headline() == "the log is empty"
    plain = summarise(lines_of("a\nb\n"))
    assert plain.headline() == "no line in SharpHound's format (2 lines as they are)" and not plain.formatted
    ok = summarise(lines_of(f"{stamp(0)}|INFORMATION|Enumeration finished in 00:01:23.4567\n"))
    assert ok.headline() == "finished in 1m 23s, 0 errors, 0 warnings"
    cut = summarise(lines_of(f"{stamp(0)}|ERROR|boom\n{stamp(1)}|INFORM"))
    assert cut.cut and cut.headline().endswith("ends mid-line")


LEVEL_WORDS = st.sampled_from(["INFORMATION", "WARNING", "ERROR", "DEBUG", "TRACE"])
MESSAGES = st.text(alphabet=st.characters(blacklist_characters="\n\r"), max_size=80)


@given(st.lists(st.one_of(st.tuples(LEVEL_WORDS, MESSAGES), MESSAGES), max_size=30), st.booleans())
@settings(max_examples=200, deadline=None)
def test_every_line_comes_back_as_it_was(items: list[object], newline_at_end: bool) -> None:
    raw = [f"{T}|{item[0]}|{item[1]}" if isinstance(item, tuple) else str(item) for item in items]
    text = "\n".join(raw) + ("\n" if newline_at_end and raw else "")
    splitter = LineSplitter()
    lines = list(splitter.feed(text))
    last = splitter.finish()
    if last is not None:
        lines.append(last)
    expected = raw if (newline_at_end or not raw or raw[-1]) else raw[:-1]
    assert [line.text() for line in lines] == expected
    assert [line.number for line in lines] == list(range(1, len(lines) + 1))
    for item, line in zip(items, lines, strict=False):
        if isinstance(item, tuple):
            assert (line.level, line.message) == item


def test_times_are_told_in_utc_like_every_other_time() -> None:
    """Issue 28: `08:58:59` (the collector's +10:00) beside runs shown as `22:58Z`; the summary says UTC, marked."""
    log = "\n".join(
        [
            "2026-12-05T08:58:57.8776033+10:00|INFORMATION|Beginning LDAP search for DC01.CORP",
            "2026-12-05T08:58:58.1000000+10:00|INFORMATION|Status: 40 objects finished (+0 0)/s -- Using 50 MB RAM",
            "2026-12-05T08:58:59.2000000+10:00|INFORMATION|Status: 40 objects finished (+0 0)/s -- Using 50 MB RAM",
            "2026-12-05T08:58:59.5000000+10:00|INFORMATION|Status: 40 objects finished (+0 0)/s -- Using 50 MB RAM",
            "2026-12-05T08:58:59.9000000+10:00|ERROR|Kerberos authentication failed: KRB_AP_ERR_SKEW",
            "",
        ]
    )
    lines = lines_of(log)
    first = lines[0]
    assert first.clock() == "22:58:57Z" and first.clock(fraction=True) == "22:58:57.877Z"
    assert first.utc_stamp() == "2026-12-04T22:58:57.877603Z"
    summary = summarise(lines)
    assert summary.headline().startswith("first error 22:58:59Z: Kerberos authentication failed")
    assert "stuck at 40 objects 22:58:58Z → 22:58:59Z (3 status lines)" in summary.headline()
    assert "first error (line 5, 22:58:59Z)" in "\n".join(summary.lines_of_text())


def test_a_time_without_an_offset_is_shown_as_written() -> None:
    """No offset: no zone is guessed, the clock is the log's and not marked `Z`; no duration across the two kinds."""
    naive = parse_line(1, "2026-12-05T08:58:57.8776033|ERROR|x")
    assert naive.clock() == "08:58:57" and naive.clock(fraction=True) == "08:58:57.877" and naive.utc_stamp() is None
    assert parse_line(2, "plain text").clock() == ""
    mixed = summarise(
        lines_of(
            "2026-12-05T08:58:57+10:00|INFORMATION|Beginning LDAP search for A.CORP\n"
            "2026-12-05T08:59:57|INFORMATION|Enumeration finished in 00:01:00\n"
        )
    )
    assert [part.seconds for part in mixed.domains] == [None]


def test_a_time_on_another_utc_day_than_the_log_start_has_its_date() -> None:
    """A run over midnight UTC: `first error 00:06:41Z +1d` (the tasks table's mark), the first day's times bare."""
    summary = summarise(
        lines_of(
            "2026-12-05T09:04:46.2410000+10:00|INFORMATION|Beginning LDAP search for A.CORP\n"
            "2026-12-05T09:25:16.0000000+10:00|INFORMATION|Status: 30 objects finished (+0 0)/s -- Using 5 MB RAM\n"
            "2026-12-05T09:45:16.0000000+10:00|INFORMATION|Status: 30 objects finished (+0 0)/s -- Using 5 MB RAM\n"
            "2026-12-05T10:06:16.0000000+10:00|INFORMATION|Status: 30 objects finished (+0 0)/s -- Using 5 MB RAM\n"
            "2026-12-05T10:06:41.8690000+10:00|ERROR|Timed out\n"
        )
    )
    headline = summary.headline()
    assert headline.startswith("first error 00:06:41Z +1d: Timed out"), headline
    assert "stuck at 30 objects 23:25:16Z → 00:06:16Z +1d (3 status lines)" in headline
