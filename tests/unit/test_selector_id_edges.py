"""Issue 30: the id parser's edges the mutation run found unpinned (where an error came from, range sizes, the
byte-order mark, comments, the MAX_IDS limit itself)."""

from __future__ import annotations

import pytest

from svctui.ops.selector_ids import MAX_IDS, IdError, collect_ids, lines_to_tokens, parse_id, parse_id_token


def test_an_error_says_where_the_id_came_from_only_when_told() -> None:
    with pytest.raises(IdError) as bare:
        parse_id("x1")
    assert str(bare.value).startswith("'x1' is not a selector id; allowed: ")
    with pytest.raises(IdError) as placed:
        parse_id_token("5-x", where="ids.txt line 3")
    assert str(placed.value).startswith("ids.txt line 3: '5-x' is not a selector id or range")
    with pytest.raises(IdError) as end:
        parse_id_token("x-5", where="ids.txt line 4")
    assert str(end.value).startswith("ids.txt line 4: 'x-5' is not a selector id or range")
    with pytest.raises(IdError) as backwards:
        parse_id_token("9-5")
    assert str(backwards.value).startswith("range '9-5' runs backwards")


def test_leading_zeros_are_dropped_and_a_one_id_range_is_fine() -> None:
    assert parse_id("007") == 7 and parse_id("0000000000000005") == 5 and parse_id_token("5-5") == range(5, 6)
    with pytest.raises(IdError, match="out of range"):
        parse_id("000")


def test_a_range_one_over_the_limit_says_how_many_ids_it_holds() -> None:
    assert len(parse_id_token(f"1-{MAX_IDS}")) == MAX_IDS
    with pytest.raises(IdError) as info:
        parse_id_token(f"2-{MAX_IDS + 2}")
    assert str(info.value) == f"range '2-{MAX_IDS + 2}' holds {MAX_IDS + 1:,} ids; at most {MAX_IDS:,} per run"


def test_exactly_max_ids_distinct_ids_may_be_collected() -> None:
    assert len(collect_ids([(f"1-{MAX_IDS - 1}", "a"), ("1", "b"), (str(MAX_IDS), "c")])) == MAX_IDS
    with pytest.raises(IdError, match="more than"):
        collect_ids([(f"1-{MAX_IDS}", "a"), (str(MAX_IDS + 1), "b")])


def test_only_the_first_line_loses_a_byte_order_mark_and_a_comment_starts_at_the_first_hash() -> None:
    lines = ["\ufeff12 # first", "\ufeff13", "14 # a # b", "  ", "15-16#x"]
    assert lines_to_tokens(lines, "ids.txt") == [
        ("12", "ids.txt line 1"),
        ("\ufeff13", "ids.txt line 2"),
        ("14", "ids.txt line 3"),
        ("15-16", "ids.txt line 5"),
    ]
    assert lines_to_tokens(["12\ufeff"], "f") == [("12\ufeff", "f line 1")]


def test_a_token_with_two_dashes_is_refused_as_typed() -> None:
    with pytest.raises(IdError) as info:
        parse_id_token("5-6-7")
    assert str(info.value).startswith("'5-6-7' is not a selector id or range")  # whole: `'6-7'` read as a range
