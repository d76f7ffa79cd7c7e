"""The cleanup screen's marks model: per tag, ordered, defaults refused, pages counted (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from svctui.api.models import Selector
from svctui.ops.selector_ids import collect_ids
from svctui.tui.screens.selectors.marks import Marks, format_ids


def selector(selector_id: int, tag_id: int = 1, *, default: bool = False) -> Selector:
    """A selector record for the model."""
    return Selector(id=selector_id, asset_group_tag_id=tag_id, name=f"s{selector_id}", is_default=default)


ops = st.lists(
    st.tuples(
        st.sampled_from(["mark", "unmark", "clear"]),
        st.integers(1, 3),
        st.lists(st.tuples(st.integers(1, 40), st.integers(0, 5), st.booleans()), max_size=8),
    ),
    max_size=30,
)


@given(ops)
def test_marks_match_a_simple_reference(steps: list[tuple[str, int, list[tuple[int, int, bool]]]]) -> None:
    """Any sequence of mark / unmark / clear keeps the same ids, order and pages as a plain dict per tag."""
    marks = Marks()
    reference: dict[int, dict[int, int]] = {}
    for op, tag, items in steps:
        wanted = reference.setdefault(tag, {})
        if op == "mark":
            result = marks.mark(tag, [(selector(i, tag, default=d), page) for i, page, d in items], "by hand")
            for i, page, default in items:
                if not default and i not in wanted:
                    wanted[i] = page
            assert set(result.refused_default) == {i for i, _, d in items if d}
        elif op == "unmark":
            marks.unmark(tag, [i for i, _, _ in items])
            for i, _, _ in items:
                wanted.pop(i, None)
        else:
            marks.clear(tag)
            wanted.clear()
    for tag, wanted in reference.items():
        assert marks.ids(tag) == tuple(wanted)
        assert marks.of(tag).pages == wanted
        assert marks.of(tag).page_count == len(set(wanted.values()))
    assert marks.total() == sum(len(wanted) for wanted in reference.values())


def test_default_selectors_are_refused_and_tags_are_kept_apart() -> None:
    """A default selector is never marked; marks of tag 2 don't show on tag 1."""
    marks = Marks()
    result = marks.mark(1, [(selector(5, default=True), 0), (selector(6), 0)], "by hand")
    assert result.refused_default == (5,)
    assert result.added == (6,)
    marks.mark(2, [(selector(7, 2), 1), (selector(8, 2), 3)], "filter name ~ old-")
    assert marks.ids(1) == (6,)
    assert marks.counter(1) == "1 marked on 1 page  ·  other tags tag 2: 2"
    assert marks.counter(2) == "2 marked on 2 pages  ·  other tags tag 1: 1"
    assert list(marks.of(2).reasons) == ["filter name ~ old-"]


def test_unknown_typed_ids_are_counted_until_cleared() -> None:
    """Typed ids not in the tag are kept for the plan and said in the counter."""
    marks = Marks()
    marks.add_unknown(1, [900, 901])
    assert marks.counter(1) == "2 typed ids not in this tag"
    assert marks.clear(1) == 2
    assert marks.counter(1) == ""


@given(st.sets(st.integers(1, 300), max_size=40))
def test_format_ids_parses_back_to_the_same_ids(ids: set[int]) -> None:
    """`format_ids` writes what svctui.ops.selector_ids reads back."""
    text = format_ids(ids)
    assert set(collect_ids((token, "typed") for token in text.split())) == ids


def test_typed_ids_accept_spaces_commas_and_newlines_and_refuse_junk() -> None:
    """`12 15-17, 31` parses; junk and nothing are IdErrors that quote at most 100 characters."""
    import pytest

    from svctui.ops.selector_ids import IdError
    from svctui.tui.screens.selectors.prompts import parse_typed_ids

    assert parse_typed_ids("12 15-17,\n31 12") == [12, 15, 16, 17, 31]
    with pytest.raises(IdError, match="no ids typed"):
        parse_typed_ids(" , ")
    with pytest.raises(IdError) as raised:
        parse_typed_ids("1 " + "x" * 500)
    assert len(str(raised.value)) < 200


@given(st.lists(st.integers(1, 60), unique=True, max_size=40), st.lists(st.integers(1, 80), max_size=20))
def test_mark_listed_places_pages_and_rejects_unknown_ids(listed: list[int], typed: list[int]) -> None:
    """Typed ids in the listing are marked with page = position // size; the others are returned, in order, and
    not marked (issue 28: rejected ids are not marks)."""
    marks = Marks()
    listing = [selector(i, default=i % 7 == 0) for i in listed]
    result, unknown = marks.mark_listed(1, listing, 10, "typed", typed)
    wanted = list(dict.fromkeys(typed))
    assert unknown == tuple(i for i in wanted if i not in listed)
    assert marks.ids(1) == tuple(i for i in wanted if i in listed and i % 7)
    assert set(result.refused_default) == {i for i in wanted if i in listed and not i % 7}
    assert all(marks.of(1).pages[i] == listed.index(i) // 10 for i in marks.ids(1))
    assert not marks.of(1).unknown
    assert "not in this tag" not in marks.counter(1)


def test_typed_ids_are_kept_for_the_why_until_everything_is_unmarked() -> None:
    """The typed ids that were marked are the plan's why, as ids the review cuts to its width; rejected ids (a
    default, an id not in the tag) are neither marks nor part of the why."""
    marks = Marks()
    marks.mark_typed(1, [selector(5, default=True)], 100, [5])  # a default alone: refused, nothing kept
    assert not marks.of(1).typed
    result, unknown = marks.mark_typed(1, [selector(6), selector(7)], 100, [6, 900])
    assert result.added == (6,) and unknown == (900,)
    _, unknown = marks.mark_typed(1, [], 100, [901])  # only an id not in the tag: rejected
    assert unknown == (901,)
    assert list(marks.of(1).typed) == [6] and not marks.of(1).reasons and not marks.of(1).unknown
    assert marks.ids(1) == (6,)
    marks.unmark(1, [6])
    assert not marks.of(1).typed
