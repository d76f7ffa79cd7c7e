"""The one rule that fits a dashboard table's columns to its width (`svctui.table_fit`), and its natural widths."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from svctui.table_fit import Column, NaturalWidths, filled, fit_columns, left_out_hint, wrapped

PADDING = 2
# natural width, least width, cut-to width or None, may be dropped, a name column, rank
SPEC = st.tuples(
    st.integers(0, 60),
    st.integers(0, 30),
    st.one_of(st.none(), st.integers(1, 20)),
    st.booleans(),
    st.booleans(),
    st.integers(0, 3),
)
SPECS = st.lists(SPEC, min_size=1, max_size=10)
Spec = tuple[int, int, int | None, bool, bool, int]


def columns_of(specs: list[Spec]) -> tuple[list[Column], dict[str, int]]:
    columns = [
        Column(f"c{index}", f"c{index}", least=least, cut_to=cut, droppable=drop, names=names, rank=rank)
        for index, (_natural, least, cut, drop, names, rank) in enumerate(specs)
    ]
    return columns, {f"c{index}": spec[0] for index, spec in enumerate(specs)}


def uncut_least(column: Column, natural: int) -> int:
    """A column's least width before any cut: its least width, its natural one when 0 or narrower."""
    return max(1, min(column.least or natural, natural))


def least_of(column: Column, natural: int) -> int:
    """The narrowest the rule may make a column: its least width (its natural one when 0), or its cut-to width."""
    least = min(column.least or max(natural, 1), max(natural, 1))
    return max(1, min(least, column.cut_to)) if column.cut_to is not None else max(1, least)


@given(SPECS, st.integers(1, 250))
def test_never_wider_than_the_room_while_a_droppable_column_could_give_way(specs: list[Spec], room: int) -> None:
    columns, natural = columns_of(specs)
    fitted = fit_columns(columns, natural, room, PADDING)
    ranked = sorted(columns, key=lambda column: column.rank)  # (stable: equal ranks in display order)
    kept = [column for column in columns if not column.droppable] or ranked[:1]
    if sum(uncut_least(column, natural[column.key]) + PADDING for column in kept) <= room:
        assert sum(width + PADDING for width in fitted.widths.values()) <= room
    assert all(column.key in fitted.widths for column in kept), "a column that may not be dropped was dropped"
    assert set(fitted.widths) | set(fitted.left_out) == {column.key for column in columns}


@given(SPECS, st.integers(1, 250))
def test_never_below_the_least_width_nor_above_the_natural_one(specs: list[Spec], room: int) -> None:
    columns, natural = columns_of(specs)
    fitted = fit_columns(columns, natural, room, PADDING)
    for column in columns:
        if column.key in fitted.widths:
            assert least_of(column, natural[column.key]) <= fitted.widths[column.key] <= max(natural[column.key], 1)


@given(SPECS, st.integers(1, 250))
def test_free_room_goes_to_names_first(specs: list[Spec], room: int) -> None:
    columns, natural = columns_of(specs)
    fitted = fit_columns(columns, natural, room, PADDING)
    names_cut = [c for c in columns if c.names and c.key in fitted.widths and fitted.widths[c.key] < natural[c.key]]
    if names_cut:
        for column in columns:
            if not column.names and column.key in fitted.widths:
                grew = fitted.widths[column.key] > uncut_least(column, natural[column.key])
                assert not grew, f"{column.key} grew while {names_cut[0].key} was cut"


@given(SPECS, st.integers(1, 250))
def test_deterministic_and_everything_natural_when_it_fits(specs: list[Spec], room: int) -> None:
    columns, natural = columns_of(specs)
    fitted = fit_columns(columns, natural, room, PADDING)
    assert fit_columns(columns, dict(reversed(natural.items())), room, PADDING) == fitted
    assert list(fitted.widths) == [column.key for column in columns if column.key in fitted.widths], "display order"
    if sum(max(width, 1) + PADDING for width in natural.values()) <= room:
        assert fitted.widths == {key: max(width, 1) for key, width in natural.items()}, "it fits: nothing cut"


@given(st.lists(st.tuples(st.integers(1, 60), st.integers(1, 30)), min_size=1, max_size=10), st.integers(1, 250))
def test_the_rank_is_strict_the_columns_shown_are_the_first_ones(specs: list[tuple[int, int]], room: int) -> None:
    columns = [Column(f"c{i}", f"c{i}", least=least, droppable=i > 0) for i, (_natural, least) in enumerate(specs)]
    fitted = fit_columns(columns, {f"c{i}": natural for i, (natural, _least) in enumerate(specs)}, room, PADDING)
    assert list(fitted.widths) == [column.key for column in columns[: len(fitted.widths)]]


def table(*specs: tuple[str, int, int, int | None]) -> tuple[list[Column], dict[str, int]]:
    """(key, natural, least, cut-to) in rank order, the first never dropped."""
    columns = [Column(key, key, least, cut, droppable=i > 0) for i, (key, _n, least, cut) in enumerate(specs)]
    return columns, {key: natural for key, natural, _least, _cut in specs}


def test_the_widest_are_cut_first_and_what_does_not_fit_goes_by_rank() -> None:
    columns, natural = table(
        ("when", 20, 20, None), ("state", 11, 11, None), ("counts", 38, 12, None), ("who", 30, 12, None),
        ("tag", 11, 10, None),
    )  # fmt: skip
    assert fit_columns(columns, natural, 100).widths == {"when": 20, "state": 11, "counts": 24, "who": 24, "tag": 11}
    fitted = fit_columns(columns, natural, 50)
    assert fitted.widths == {"when": 20, "state": 11, "counts": 13}
    assert fitted.left_out_titles() == ["who", "tag"]


def test_a_small_later_column_does_not_take_the_room_an_earlier_one_was_left_out_for() -> None:
    columns, natural = table(("id", 6, 6, None), ("client", 18, 18, None), ("next", 30, 30, None), ("ous", 5, 5, None))
    assert fit_columns(columns, natural, 55).widths == {"id": 6, "client": 18}


def test_what_may_be_cut_is_cut_before_the_first_column_that_does_not_fit_is_lost() -> None:
    columns, natural = table(("id", 6, 6, None), ("name", 30, 30, 12), ("status", 10, 10, None), ("x", 8, 8, None))
    assert fit_columns(columns, natural, 80).widths == {"id": 6, "name": 30, "status": 10, "x": 8}
    assert fit_columns(columns, natural, 40).widths == {"id": 6, "name": 30}  # status may not be cut: it goes
    assert fit_columns(columns, natural, 36).widths == {"id": 6, "name": 14, "status": 10}  # name cut, not lost
    columns, natural = table(("id", 6, 6, None), ("status", 10, 10, None), ("name", 30, 30, 12))
    assert fit_columns(columns, natural, 30).widths == {"id": 6, "status": 10}  # even cut, name does not fit


def test_names_take_the_free_room_first_and_room_past_a_most_width_last() -> None:
    columns = [Column("name", "name", 9, most=28, names=True), Column("msg", "message", 10), Column("id", "id")]
    natural = {"name": 50, "msg": 40, "id": 4}
    assert fit_columns(columns, natural, 60).widths == {"name": 28, "msg": 22, "id": 4}  # name to its most first
    assert fit_columns(columns, natural, 90).widths == {"name": 40, "msg": 40, "id": 4}  # then past its most
    assert fit_columns(columns, natural, 0).widths == {"name": 28, "msg": 40, "id": 4}  # not laid out: no fitting


def test_the_hint_names_what_is_left_out() -> None:
    assert left_out_hint(["kinds", "domains", "OUs"], "p") == "+3 columns (p): kinds, domains, OUs"
    assert left_out_hint(["who"]) == "+1 column: who"
    assert left_out_hint(["a", "b", "c", "d"], "p") == "+4 columns (p)"
    assert left_out_hint([]) == ""


@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("set"), st.integers(0, 5), st.integers(0, 12), st.integers(0, 12)),
            st.tuples(st.just("remove"), st.integers(0, 5), st.just(0), st.just(0)),
        ),
        max_size=40,
    )
)
def test_natural_widths_kept_row_by_row_are_the_widest_cells(ops: list[tuple[str, int, int, int]]) -> None:
    widths = NaturalWidths({"a": "aa", "b": "bbbb"})
    rows: dict[str, dict[str, int]] = {}
    for op, row, a, b in ops:
        if op == "set":
            widths.set_row(f"r{row}", {"a": a, "b": b})
            rows[f"r{row}"] = {"a": a, "b": b}
        else:
            widths.remove_row(f"r{row}")
            rows.pop(f"r{row}", None)
        for key, title in (("a", 2), ("b", 4)):
            assert widths.widest[key] == max([title, *(cells[key] for cells in rows.values())])


def test_natural_widths_measure_every_row_again_only_when_the_widest_goes() -> None:
    widths = NaturalWidths({"name": "client"})
    widths.set_rows((f"r{index}", {"name": 10 + index % 7}) for index in range(1000))
    assert widths.widest["name"] == 16 and widths.full_passes == 0
    widths.set_row("r6", {"name": 3})  # one of the rows at 16 narrows: others still hold it
    widths.remove_row("r13")
    assert widths.full_passes == 0
    for index in range(6, 1000, 7):
        widths.remove_row(f"r{index}")
    assert widths.widest["name"] == 15 and widths.full_passes == 1


def test_a_cut_lets_no_later_column_in_while_a_name_is_cut_short() -> None:
    """Selectors at 160 columns with the detail pane: the flags column was cut in (its `cut_to`), which cut the
    name to its `cut_to` too, and `created`, ranked after flags, took the room: `Accounts like A…` beside a date.
    A column ranked after the one cut in shows only once the names have their width."""
    columns = [
        Column("id", "id", rank=0, droppable=False),
        Column("name", "name", cut_to=16, rank=1, names=True),
        Column("flags", "flags", cut_to=8, rank=2),
        Column("created", "created", rank=3),
    ]
    natural = {"id": 3, "name": 44, "flags": 8, "created": 17}
    fitted = fit_columns(columns, natural, 52)
    assert fitted.left_out == ("created",)
    assert fitted.widths == {"id": 3, "name": 35, "flags": 8}
    assert fit_columns(columns, natural, 90).widths == {"id": 3, "name": 44, "flags": 8, "created": 17}
    # the name itself cut in (too wide beside the id): the column right after it stays, the later one goes
    assert fit_columns(columns, {**natural, "name": 50}, 49).widths == {"id": 3, "name": 32, "flags": 8}


def test_a_whole_column_grows_to_its_natural_width_or_not_at_all() -> None:
    """Issue 28: a next run's countdown half shown (`2026-12-05 15:18Z  i…`) reads as nothing; a `whole` column
    keeps its least width until the room has its natural one, and the room left stays free rather than half of it."""
    columns = [
        Column("schedule", "schedule", least=18, names=True),
        Column("next", "next run", least=18, whole=True),
    ]
    natural = {"schedule": 26, "next": 29}
    assert fit_columns(columns, natural, 26 + 2 + 18 + 2 + 4).widths == {"schedule": 26, "next": 18}
    assert fit_columns(columns, natural, 26 + 2 + 29 + 2).widths == {"schedule": 26, "next": 29}
    assert fit_columns(columns, natural, 22 + 2 + 18 + 2).widths == {"schedule": 22, "next": 18}


def test_a_whole_first_column_cut_leaves_out_the_columns_ranked_after_it() -> None:
    """The Audit tab's runs: a run's tag is what it is chosen by; while it is cut, the who column (ranked after it)
    goes, rather than show beside `1 Tier Ze…`; once the tag is whole it comes back."""
    columns = [
        Column("when", "when", least=10, droppable=False),
        Column("tag", "tag", least=8, rank=1, names=True, whole_first=True),
        Column("who", "who", least=6, rank=2),
    ]
    natural = {"when": 10, "tag": 30, "who": 12}
    fitted = fit_columns(columns, natural, 40)
    assert fitted.widths == {"when": 10, "tag": 26}
    assert fitted.left_out_titles() == ["who"]
    assert fit_columns(columns, natural, 52).widths == {"when": 10, "tag": 30, "who": 6}
    plain = [Column(c.key, c.title, c.least, rank=c.rank, droppable=c.droppable, names=c.names) for c in columns]
    assert fit_columns(plain, natural, 40).widths == {"when": 10, "tag": 18, "who": 6}  # without: who beside it


def test_a_wrapping_column_takes_a_names_room_while_it_saves_lines_and_gives_a_whole_column_its_last_cells() -> None:
    """The Audit tab's counts wrap in their column, never cut: they take the tag's cells when that saves them lines
    (the fewest that do), and give a `whole` state its last cell when that costs them none."""
    columns = [
        Column("state", "state", least=8, whole=True),
        Column("tag", "tag", least=4, rank=1, names=True),
        Column("counts", "counts", least=6, rank=2, names=True, wraps=True),
    ]
    natural = {"state": 9, "tag": 12, "counts": 20}
    texts = {"counts": ["1 deleted, 7 skipped"]}
    assert fit_columns(columns, natural, 30).widths == {"state": 8, "tag": 8, "counts": 8}
    assert fit_columns(columns, natural, 30, texts=texts).widths == {"state": 8, "tag": 6, "counts": 10}
    assert wrapped("1 deleted, 7 skipped", 10) == ["1 deleted,", "7 skipped"]
    assert fit_columns(columns, natural, 36).widths == {"state": 8, "tag": 11, "counts": 11}
    assert fit_columns(columns, natural, 36, texts=texts).widths == {"state": 9, "tag": 11, "counts": 10}
    assert fit_columns(columns, natural, 38, texts=texts).widths == {"state": 8, "tag": 4, "counts": 20}  # one line
    assert fit_columns(columns, natural, 0, texts=texts).widths == natural  # not laid out: no fitting


def test_filled_keeps_the_columns_some_row_has_a_value_in_else_every_one() -> None:
    assert filled([["1", "", "x"], ["2", "", ""]], 3) == [0, 2]
    assert filled([["", ""], ["", ""]], 2) == [0, 1], "no value anywhere: the header alone, not no table"
    assert filled([], 2) == [0, 1]
