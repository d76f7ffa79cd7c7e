"""The run log's search finds a level by its word, as the log writes it or as the view shows it (`WARN`)."""

from __future__ import annotations

from svctui.runlog import parse_line
from svctui.tui.widgets.log_view import search_rows

LOG = [
    "2025-12-11T23:04:46.2411-05:00|INFORMATION|Beginning LDAP search for WINGTIP.LAB",
    "2025-12-11T23:05:15.5382-05:00|WARNING|Computer WS8965.WINGTIP.LAB: NetWkstaUserEnum returned ERROR_ACCESS_DENIED",
    "2025-12-11T23:05:16.2382-05:00|INFORMATION|Status: 743 objects finished",
    "2025-12-11T23:06:41.0000-05:00|ERROR|Timed out waiting for LDAP",
]


def test_a_level_word_finds_its_lines_as_written_or_as_shown() -> None:
    lines = [parse_line(number, raw) for number, raw in enumerate(LOG, 1)]
    assert search_rows(lines, None, "WARN") == [1], "the tag the view shows"
    assert search_rows(lines, None, "warning") == [1], "the word the log writes"
    assert search_rows(lines, None, "err") == [1, 3], "`ERR` shown for ERROR; `ERROR_ACCESS_DENIED` in a message"
    assert search_rows(lines, None, "info") == [0, 2]


def test_part_of_a_level_word_is_no_level_match() -> None:
    lines = [parse_line(number, raw) for number, raw in enumerate(LOG, 1)]
    assert search_rows(lines, None, "warni") == [], "no message has it; WARNING's letters do not count"
    assert search_rows(lines, None, "format") == [], "nor INFORMATION's"
    assert search_rows(lines, None, "objects") == [2], "a message's words as before"
