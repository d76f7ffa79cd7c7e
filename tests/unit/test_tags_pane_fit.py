"""The tags pane's columns fitted by svctui.table_fit (`fit_pane`): names first, giving way to the selectors only as
far as they need, the pane as wide as its columns (issue 27: the numbers the pane had under its own width rule)."""

from __future__ import annotations

import pytest

from svctui.tui.screens.selectors.tags_pane import fit_pane

WIDE = {"kind": 5, "count": 4, "pos": 3, "marked": 4}
NARROW = {"count": 4, "marked": 4}


@pytest.mark.parametrize(
    ("narrow", "longest", "terminal", "no_scrollbar", "listed", "name", "width"),
    [
        (False, 20, 160, 2, True, 20, 48),  # as wide as the longest name
        (False, 30, 160, 2, True, 24, 52),  # up to NAME_MOST
        (False, 5, 160, 2, True, 14, 42),  # at least 14 on a wide terminal
        (False, 24, 100, 0, True, 24, 52),  # at 100 columns the selectors keep their room beside the widest pane
        (False, 0, 160, 0, False, 14, 42),  # no list yet
        (True, 20, 80, 2, True, 20, 35),  # whole at 80 columns: the selectors keep id, a name cut to 16, the flags
        (True, 24, 80, 0, True, 23, 40),  # a scrollbar's room kept: the name gives way by one cell, no more
        (True, 20, 60, 2, True, 12, 27),  # the selectors need the room: down to NAME_LEAST
        (True, 20, 30, 2, True, 12, 27),  # never below NAME_LEAST, however narrow
        (True, 0, 80, 0, False, 12, 30),  # no list (loading, an error, the tag-id prompt): room to say why
    ],
)
def test_the_tags_pane_fits_names_first_and_is_as_wide_as_its_columns(
    narrow: bool, longest: int, terminal: int, no_scrollbar: int, listed: bool, name: int, width: int
) -> None:
    widths, pane = fit_pane(narrow, longest, terminal, no_scrollbar, listed)
    assert widths == {"name": name, **(NARROW if narrow else WIDE)}
    assert list(widths) == [key for key in ("name", "kind", "count", "pos", "marked") if key in widths]
    assert pane == width
