"""Properties of `cap_widths`, the column widths of a table that must fit its width (the Audit tab's)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from svctui.text import cap_widths, fit_ranked

COLUMN = st.tuples(st.integers(1, 60), st.integers(1, 30))  # natural width, least width
PADDING = 2


@given(st.lists(COLUMN, min_size=1, max_size=10), st.integers(1, 250))
def test_the_columns_fit_keep_their_least_width_and_the_first_is_never_left_out(
    specs: list[tuple[int, int]], room: int
) -> None:
    columns = [(f"c{index}", natural, least) for index, (natural, least) in enumerate(specs)]
    widths = cap_widths(columns, room, PADDING)
    assert "c0" in widths
    for key, natural, least in columns:
        if key in widths:
            assert min(least, natural) <= widths[key] <= max(natural, 1)
    used = sum(width + PADDING for width in widths.values())
    assert used <= room or list(widths) == ["c0"], "only a lone first column wider than the room may overflow"
    if sum(natural + PADDING for _, natural, _ in columns) <= room:
        assert widths == {key: natural for key, natural, _ in columns}, "when everything fits, nothing is cut"


def test_the_widest_are_cut_first_and_what_does_not_fit_goes_by_rank() -> None:
    columns = [("when", 20, 20), ("state", 11, 11), ("counts", 38, 12), ("who", 30, 12), ("tag", 11, 10)]
    assert cap_widths(columns, 100) == {"when": 20, "state": 11, "counts": 24, "who": 24, "tag": 11}
    assert cap_widths(columns, 50) == {"when": 20, "state": 11, "counts": 13}


@given(st.lists(COLUMN, min_size=1, max_size=10), st.integers(1, 250))
def test_the_rank_is_strict_the_columns_shown_are_the_first_ones(specs: list[tuple[int, int]], room: int) -> None:
    columns = [(f"c{index}", natural, least) for index, (natural, least) in enumerate(specs)]
    widths = cap_widths(columns, room, PADDING)
    assert list(widths) == [key for key, _, _ in columns[: len(widths)]], "a later column shown, an earlier left out"


def test_a_small_later_column_does_not_take_the_room_an_earlier_one_was_left_out_for() -> None:
    columns = [("id", 6, 6), ("client", 18, 18), ("next", 30, 30), ("ous", 5, 5)]
    assert cap_widths(columns, 55) == {"id": 6, "client": 18}  # was id, client and ous, the next run left out


def test_fit_ranked_cuts_what_may_be_cut_before_losing_the_first_column_that_does_not_fit() -> None:
    """The one rule of the dashboard's fitted tables (PagedTable and Clients alike)."""
    columns = [("id", 6, 6, None), ("name", 30, 30, 12), ("status", 10, 10, None), ("extra", 8, 8, None)]
    assert fit_ranked(columns, 80) == {"id": 6, "name": 30, "status": 10, "extra": 8}  # all fit: nothing cut
    assert fit_ranked(columns, 40) == {"id": 6, "name": 30}  # name fits whole: status, which may not be cut, goes
    assert fit_ranked(columns, 36) == {"id": 6, "name": 14, "status": 10}  # name cut (not lost); extra goes
    assert fit_ranked([("id", 6, 6, None), ("status", 10, 10, None), ("name", 30, 30, 12)], 30) == {
        "id": 6,
        "status": 10,
    }  # the first column left out (name) may be cut, but even cut it does not fit
