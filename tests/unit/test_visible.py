"""`visible`: no control character from outside reaches a terminal raw."""

from __future__ import annotations

import io
import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from svctui.visible import VisibleStream, json_safe, visible


def test_an_osc_title_and_a_clear_screen_are_shown_not_done() -> None:
    assert visible("esc \x1b]0;pwned\x07\x1b[2J title") == "esc ␛]0;pwned␇␛[2J title"


def test_c1_del_and_bidi_overrides_are_shown() -> None:
    assert visible("a\x9b31mb\x7f") == "a\\x9b31mb␡"
    assert visible("evil\u202etxt.exe") == "evil<U+202E>txt.exe"


def test_newlines_and_tabs_stay_only_where_lines_are_asked_for() -> None:
    assert visible("a\nb\tc") == "a␊b␉c"
    assert visible("a\nb\tc\x1b", lines=True) == "a\nb\tc␛"


def test_a_lone_surrogate_becomes_the_replacement_character() -> None:
    assert visible("x\udcff") == "x\ufffd"


def test_printable_text_is_returned_as_it_is() -> None:
    text = "Tier Zero — 東京 café"
    assert visible(text) is text


@given(st.text())
def test_nothing_a_terminal_acts_on_survives(text: str) -> None:
    shown = visible(text)
    assert not any(unicodedata.category(ch) == "Cc" for ch in shown)
    assert not any("\u202a" <= ch <= "\u202e" or "\u2066" <= ch <= "\u2069" for ch in shown)
    assert visible(shown) == shown


@given(st.text())
def test_json_safe_reads_back_whole_and_holds_nothing_raw(text: str) -> None:
    document = json_safe(json.dumps({"name": text}, ensure_ascii=False))
    assert json.loads(document) == {"name": text}
    assert visible(document) == document, "no control character, bidi override or lone surrogate left raw"


def test_a_visible_stream_shows_what_is_written_and_keeps_lines() -> None:
    out = io.StringIO()
    stream = VisibleStream(out)
    assert stream.write("error: \x1b]0;pwned\x07 \x9b2J\n\tnext") == len("error: \x1b]0;pwned\x07 \x9b2J\n\tnext")
    assert out.getvalue() == "error: ␛]0;pwned␇ \\x9b2J\n\tnext"
    assert not hasattr(stream, "buffer"), "click writes to the stream, not to the bytes beneath it"
