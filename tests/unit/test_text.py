"""The one `a, b, c … and N more` wording the command line, the engine and the dashboard share."""

from __future__ import annotations

from svctui.text import (
    and_more,
    cell_width,
    cut_before,
    id_ranges,
    most_that_fits,
    ranges_and_more,
    shown_and_more,
)


def test_nothing_left_out_says_nothing_more() -> None:
    assert shown_and_more([], 3) == ""
    assert shown_and_more([1, 2], 3) == "1, 2"
    assert shown_and_more([1, 2, 3], 3) == "1, 2, 3"  # exactly the number shown: no "… and 0 more"
    assert and_more(3, 3) == "" and and_more(2, 3) == ""


def test_one_past_the_number_shown_counts_it() -> None:
    assert shown_and_more([1, 2, 3, 4], 3) == "1, 2, 3 … and 1 more"


def test_thousands_are_separated() -> None:
    assert shown_and_more(list(range(1_237)), 3) == "0, 1, 2 … and 1,234 more"
    assert and_more(1_003, 3, word="earlier") == "… and 1,000 earlier"


def test_each_item_goes_through_show_and_sep() -> None:
    names = {1: "'Old DCs' (1)"}
    shown = shown_and_more([1, 2, 3], 2, show=lambda i: names.get(i, str(i)), sep="; ")
    assert shown == "'Old DCs' (1); 2 … and 1 more"


def test_plural_says_one_row_and_counts_with_separators() -> None:
    """`Exported 1 rows` (newcomer audit): one wording for counts of things, svctui.text.plural."""
    from svctui.text import plural

    assert [plural(n, "row") for n in (0, 1, 2, 1000)] == ["0 rows", "1 row", "2 rows", "1,000 rows"]
    assert plural(1, "marked row") == "1 marked row"


def test_cut_start_keeps_the_end_that_tells_runs_apart() -> None:
    from svctui.text import cell_width, cut_start

    assert cut_start("20261124T185501Z-3f9a", 13) == "…185501Z-3f9a"
    assert cut_start("20261124T185501Z-3f9a", 40) == "20261124T185501Z-3f9a"
    assert cut_start("abc", 1) == "abc", "under 2 columns the text is left whole"
    assert cell_width(cut_start("運用サーバー東京", 6)) <= 6, "wide characters count two columns"


def test_the_selector_name_column_cuts_wide_names_to_its_width() -> None:
    """The table cuts the name cell by terminal columns (a name in wide characters must not take twice its column)."""
    from rich.text import Text

    from svctui.api.models import Selector
    from svctui.tui.screens.selectors.columns import selector_adapter
    from svctui.tui.widgets.row_table import ellipsized

    adapter = selector_adapter(lambda name: "")
    name = adapter.column("name")
    assert name is not None
    cell = ellipsized(name.render(Selector(id=1, asset_group_tag_id=1, name="東京" * 30)))
    assert isinstance(cell, Text)
    cell.truncate(name.fit.least, overflow=cell.overflow)  # as the table lays the cell out in its column
    assert cell.cell_len <= name.fit.least and cell.plain.endswith("…")


def test_id_ranges_fold_runs_of_ids_and_read_back_as_typed_ids() -> None:
    """The restore dialog's `56 skipped, …: 97-150, 160`: sorted, repeats dropped, each range readable as typed."""
    from svctui.ops.selector_ids import collect_ids

    ids = [160, *range(97, 151), 99, 3]
    assert id_ranges(ids) == "3, 97-150, 160"
    assert id_ranges(ids, sep=" ") == "3 97-150 160"
    assert id_ranges([]) == ""
    assert collect_ids((token, "typed") for token in id_ranges(ids, sep=" ").split()) == sorted(set(ids))


def test_ranges_and_more_counts_the_ids_left_out_not_the_ranges() -> None:
    ids = [4, 5, 12, 16, 18, 19, 20]
    assert ranges_and_more(ids, 2, sep=" ") == "4-5 12 … and 4 more"
    assert ranges_and_more(ids, 9, sep=" ") == "4-5 12 16 18-20"
    assert ranges_and_more(ids, 0) == "… and 7 more"


def test_most_that_fits_shows_as_many_as_the_width_holds() -> None:
    items = [str(number) for number in range(100, 200)]

    def make(shown: int) -> str:
        return f"ids {shown_and_more(items, shown)}"

    for width in (20, 37, 80):
        text = most_that_fits(make, len(items), width)
        shown = next(count for count in range(len(items) + 1) if make(count) == text)
        assert cell_width(text) <= width < cell_width(make(shown + 1)), "it fits, and one more would not"
    assert most_that_fits(make, len(items), 1000) == make(len(items))
    assert most_that_fits(make, len(items), 5) == make(0), "nothing fits: none shown (the caller cuts it)"


def test_cut_before_keeps_the_new_id_after_the_arrow() -> None:
    """The Audit tab's `restored: 24 →…` hid the new id; the words before the arrow are cut instead."""
    assert cut_before("restored → 1201", 20, " → ") == "restored → 1201"
    assert cut_before("restored → 1201", 13, " → ") == "resto… → 1201"
    assert cut_before("restored → 1201", 6, " → ") == "… 1201", "too narrow for the words: the end is kept"
    assert cut_before("no arrow here", 6, " → ") == "no ar…"
