"""The tags pane's columns fitted by svctui.table_fit (`fit_pane`): names first, giving way to the selectors only as
far as they need, the pane as wide as its columns (issue 27: the numbers the pane had under its own width rule), a
marks column only while a selector is marked."""

from __future__ import annotations

import pytest

from svctui.tui.screens.selectors.tags_pane import fit_pane

WIDE = {"kind": 5, "count": 4, "pos": 3}
NARROW = {"count": 4}


@pytest.mark.parametrize(
    ("narrow", "longest", "terminal", "no_scrollbar", "listed", "marks", "name", "width"),
    [
        (False, 20, 160, 2, True, 0, 20, 42),  # as wide as the longest name
        (False, 30, 160, 2, True, 0, 24, 46),  # up to NAME_MOST
        (False, 5, 160, 2, True, 0, 14, 36),  # at least 14 on a wide terminal
        (False, 24, 100, 0, True, 0, 24, 46),  # at 100 columns the selectors keep their room beside the widest pane
        (False, 0, 160, 0, False, 0, 14, 42),  # no list yet (loading, an error, the tag-id prompt): room to say why
        (True, 20, 80, 2, True, 0, 20, 29),  # whole at 80 columns: the selectors keep id, a name cut to 16, the flags
        (True, 24, 80, 0, True, 3, 24, 40),  # a scrollbar's room kept, marks shown: the name whole still
        (True, 24, 80, 0, True, 5, 22, 40),  # `●9999`: the name gives way by two cells, no more
        (True, 20, 60, 2, True, 0, 12, 21),  # the selectors need the room: down to NAME_LEAST
        (True, 20, 30, 2, True, 3, 12, 26),  # never below NAME_LEAST, however narrow
        (True, 0, 80, 0, False, 0, 12, 30),  # no list (loading, an error, the tag-id prompt): room to say why
    ],
)
def test_the_tags_pane_fits_names_first_and_is_as_wide_as_its_columns(
    narrow: bool, longest: int, terminal: int, no_scrollbar: int, listed: bool, marks: int, name: int, width: int
) -> None:
    """The marks column (issue: 6 blank cells at 80 columns while the selector names were cut) only with marks."""
    widths, pane = fit_pane(narrow, longest, terminal, no_scrollbar, listed, marks)
    assert widths == {"name": name, **(NARROW if narrow else WIDE), **({"marked": marks} if marks else {})}
    assert list(widths) == [key for key in ("name", "kind", "count", "pos", "marked") if key in widths]
    assert pane == width
