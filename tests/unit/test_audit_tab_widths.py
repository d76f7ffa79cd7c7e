"""The Audit tab's runs fitted by `fit_columns` alone (issue 27, item 3) at an 80- and a 160-column tab: the tag and
the counts read whole before the run, who and server columns show (`whole_first`), the counts take the tag's room
while it saves them lines and give a state its last cells when that costs none (`wraps`). The widths are those of the
three rules the tab layered over the fit before (names_whole_first, counts_first, state_whole)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from svctui.table_fit import fit_columns, wrapped
from svctui.tui.screens.selectors.audit_tab import RUN_COLUMNS

TAB_80, TAB_160 = 78, 158  # the tab's room at 80 and 160 columns: its width less the table's scrollbar
WHO, HERE = "demo (token 3f25abcd…) / alice", "this server (demo server)"
STOPPED = ["20261204T181500Z-9f00", "2026-12-04 18:15:00", "delete", "stopped: cancelled", WHO, HERE, "1 Tier Zero",
           "1 deleted, 7 skipped"]  # fmt: skip
LONG_TAG = ["20261204T181500Z-9f00", "2026-12-04 18:15:00", "delete", "INTERRUPTED", WHO, HERE,
            "1 Tier Zero administrators", "161 deleted, 4 in doubt, 227 not attempted"]  # fmt: skip
ALL_LONG = ["20261204T181500Z-9f00", "2026-12-04 18:15:00", "delete", "finished", WHO, HERE,
            "1 Tier Zero: domain admins and enterprise admins",
            "1,161 deleted, 14 in doubt, 227 not attempted, 3 failed"]  # fmt: skip


def runs_fitted(row: list[str], room: int) -> dict[str, int]:
    """The runs table's widths for one run, as the tab fits them."""
    natural = {column.key: max(cell_len(column.title), cell_len(row[i])) for i, column in enumerate(RUN_COLUMNS)}
    return fit_columns(RUN_COLUMNS, natural, room, texts={"counts": [row[-1]]}).widths


@pytest.mark.parametrize(
    ("row", "room", "widths"),
    [
        # the state whole (`stopped: cancelled`) from the counts: `1 deleted,` / `7 skipped` on two lines either way
        (STOPPED, TAB_80, {"when": 19, "action": 6, "state": 18, "tag": 11, "counts": 14}),
        (
            STOPPED,
            TAB_160,
            {"run": 21, "when": 19, "action": 6, "state": 18, "who": 24, "server": 23, "tag": 11, "counts": 20},
        ),
        # the tag gives the counts the one cell that saves them a line (15 + 17, not 16 + 16)
        (LONG_TAG, TAB_80, {"when": 19, "action": 6, "state": 11, "tag": 15, "counts": 17}),
        (
            LONG_TAG,
            TAB_160,
            {"run": 14, "when": 19, "action": 6, "state": 11, "who": 12, "server": 12, "tag": 26, "counts": 42},
        ),
        # the tag and counts cut even at 160: run, who and server give way rather than show beside them
        (ALL_LONG, TAB_80, {"when": 19, "action": 6, "state": 8, "tag": 17, "counts": 18}),
        (ALL_LONG, TAB_160, {"when": 19, "action": 6, "state": 8, "tag": 48, "counts": 55}),
    ],
)
def test_the_runs_at_80_and_160_columns(row: list[str], room: int, widths: dict[str, int]) -> None:
    fitted = runs_fitted(row, room)
    assert fitted == widths
    assert sum(width + 2 for width in fitted.values()) <= room
    assert max(map(cell_len, wrapped(row[-1], fitted["counts"]))) <= fitted["counts"], "the counts never cut"
