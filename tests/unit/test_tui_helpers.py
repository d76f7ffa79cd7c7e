"""Pure helpers of the dashboard: sort cycling and labels, page window text, theme files, error views, clock."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from textual.theme import BUILTIN_THEMES

from svctui.api.errors import (
    ApiConnectionError,
    DeadlineExceeded,
    EnterpriseOnly,
    ResponseCutShort,
    ResponseShapeError,
    ResponseTooLarge,
    ServerError,
    Unauthorized,
)
from svctui.api.filters import Filter, SortKey
from svctui.clock import make_clock
from svctui.tui.keymap import CONTEXTS, bindings_of, keymap_problems
from svctui.tui.palette import theme_help
from svctui.tui.screens.help import HELP_WIDTH, TITLE_WITH_IDS, TITLE_WITHOUT_IDS, KeyRow, help_content
from svctui.tui.theme import DEFAULT_THEME, load_theme_file, load_themes, pick_theme, shipped_themes_dir
from svctui.tui.widgets.app_header import HeaderInfo, Tab, header_content
from svctui.tui.widgets.filter_chips import chip_text
from svctui.tui.widgets.paged_table import PageWindow, cycle_sort, reverse_sort, sort_label
from svctui.tui.widgets.state_panel import StateKind, error_view

ID, NEXT = SortKey("id"), SortKey("next_scheduled_at")


def test_cycle_sort_adds_ascending_then_descending_then_removes() -> None:
    assert cycle_sort((), "id") == (ID,)
    assert cycle_sort((ID,), "id") == (SortKey("id", True),)
    assert cycle_sort((SortKey("id", True),), "id") == ()


def test_cycle_sort_keeps_priority_of_other_columns() -> None:
    assert cycle_sort((NEXT,), "id") == (NEXT, ID)
    assert cycle_sort((ID, NEXT), "id") == (SortKey("id", True), NEXT)


def test_reverse_sort() -> None:
    assert reverse_sort((), "id") == (SortKey("id", True),)
    assert reverse_sort((NEXT, ID), "id") == (NEXT, SortKey("id", True))


def test_sort_label_shows_priority_only_with_several_keys() -> None:
    assert sort_label("id", "id", (ID,)) == "id ▲"
    assert sort_label("id", "id", (NEXT, SortKey("id", True))) == "id ▼2"
    assert sort_label("client", None, (ID,)) == "client"


@pytest.mark.parametrize(
    ("window", "text"),
    [
        (PageWindow(skip=50, limit=50, count=1204, shown=50), "rows 51\u2013100 of 1,204"),
        (PageWindow(skip=0, limit=100, count=0, shown=0), "no rows"),
        (PageWindow(skip=1200, limit=100, count=1204, shown=4), "rows 1,201\u20131,204 of 1,204"),
    ],
)
def test_page_window_label(window: PageWindow, text: str) -> None:
    assert window.label() == text


def test_page_window_navigation() -> None:
    window = PageWindow(skip=0, limit=100, count=250, shown=100)
    assert window.previous_skip() is None
    assert window.next_skip() == 100
    window.skip = 200
    assert window.next_skip() is None
    assert window.previous_skip() == 100


def test_chip_text_shortens_long_values() -> None:
    assert chip_text(Filter("id", "gte", "5")) == "id ≥ 5 ✕"
    assert chip_text(Filter("rrule", "~eq", "x" * 40)).endswith("… ✕")


def test_error_views_by_kind() -> None:
    enterprise = error_view(EnterpriseOnly(404, ["404 page not found"]), "events")
    assert enterprise.kind is StateKind.ENTERPRISE_ONLY and enterprise.title == "Events are an enterprise feature"
    auth = error_view(Unauthorized(401, ["digest validation failed"], request_id="r-1"))
    assert auth.kind is StateKind.AUTH_FAILURE
    assert auth.lines == ("digest validation failed",) and auth.request_id == "r-1"
    assert any("Switch profile" in hint for hint in auth.hints)
    server = error_view(ServerError(500, ["boom"], request_id="r-2"))
    assert (server.kind, server.status, server.title) == (StateKind.ERROR, 500, "The server answered 500")
    down = error_view(ApiConnectionError("cannot reach http://x: refused"))
    assert down.title == "Cannot reach the server" and down.lines == ("cannot reach http://x: refused",)
    cut = error_view(ResponseCutShort("GET http://x/e: the server's answer (HTTP 200) was cut short", status=200))
    assert cut.title == "The server's answer was cut short" and cut.status == 200
    late = error_view(DeadlineExceeded("GET http://x/e: no whole answer within 35 s", deadline=35.0))
    assert late.title == "The server did not answer in time"
    shape = error_view(ResponseShapeError("unexpected response to GET /e (HTTP 200): body: Invalid JSON", status=200))
    assert shape.title == "The server's answer is not the API's" and shape.lines[0].startswith("unexpected response")
    large = error_view(ResponseTooLarge("GET http://x/e: the answer is over 64 MiB", limit=64))
    assert large.title == "The server's answer is over the size cap"
    other = error_view(ValueError("odd"))
    assert other.title == "Unexpected error (ValueError)" and other.lines == ("odd",)


def test_shipped_themes_are_valid() -> None:
    loaded = load_themes([shipped_themes_dir()])
    assert loaded.problems == ()
    assert {theme.name for theme in loaded.themes} >= {"svctui-dusk", "svctui-paper"}


def test_broken_theme_files_are_all_reported(tmp_path: Path) -> None:
    (tmp_path / "ok.toml").write_text('name = "ok"\nprimary = "#112233"\n')
    (tmp_path / "color.toml").write_text('name = "bad-color"\nprimary = "#12345"\n')
    (tmp_path / "toml.toml").write_text("name = \n")
    (tmp_path / "key.toml").write_text('name = "k"\nprimary = "red"\nshiny = "blue"\n')
    (tmp_path / "var.toml").write_text('name = "v"\nprimary = "red"\n[variables]\nstatus-failed = "nope"\n')
    loaded = load_themes([tmp_path])
    assert [theme.name for theme in loaded.themes] == ["ok"]
    assert len(loaded.problems) == 4
    text = "\n".join(loaded.problems)
    for fragment in (
        "color.toml: primary",
        "toml.toml: not valid TOML",
        "unknown key(s) shiny",
        "variables.status-failed",
    ):
        assert fragment in text


def test_theme_file_values_reach_the_theme(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('name = "t"\ndark = false\nprimary = "#102030"\nerror = "#ff0000"\n[variables]\nmark = "#00ff00"\n')
    theme = load_theme_file(path)
    assert (theme.name, theme.dark, theme.primary, theme.error, theme.variables) == (
        "t",
        False,
        "#102030",
        "#ff0000",
        {"mark": "#00ff00"},
    )


def test_pick_theme_falls_back() -> None:
    assert pick_theme("nord", ["nord", DEFAULT_THEME]) == ("nord", None)
    name, problem = pick_theme("nope", [DEFAULT_THEME])
    assert name == DEFAULT_THEME and problem is not None and "'nope'" in problem


def test_every_theme_says_what_it_is_in_the_picker(tmp_path: Path) -> None:
    """Newcomer: "Change theme" said "made for svctui's tables and marks" under each of svctui's four themes and
    nothing under Textual's; now each says dark or light and what it is, no two alike (a theme file may say it)."""
    (tmp_path / "mine.toml").write_text(
        'name = "mine"\ndescription = "our colours"\ndark = false\nprimary = "#102030"\n'
    )
    loaded = load_themes([shipped_themes_dir(), tmp_path])
    themes = {**BUILTIN_THEMES, **{theme.name: theme for theme in loaded.themes}}
    lines = {name: theme_help(theme, "svctui-dusk", loaded.descriptions) for name, theme in themes.items()}
    assert len(set(lines.values())) == len(lines), lines
    assert all(line.startswith(("dark, ", "light, ", "the current theme: ")) for line in lines.values()), lines
    assert lines["svctui-contrast"].startswith("dark, high contrast")
    assert lines["svctui-paper"].startswith("light, ") and lines["mine"] == "light, our colours"
    assert lines["svctui-dusk"] == "the current theme: dark, calm: blue primary, warm accents"


def test_frozen_clock() -> None:
    clock, frozen = make_clock({"SVCTUI_FROZEN_NOW": "2026-11-22T12:00:00Z"})
    assert frozen and clock() == datetime(2026, 11, 22, 12, tzinfo=UTC)
    real, frozen = make_clock({})
    assert not frozen and real().tzinfo is not None


def test_dashboard_modules_defer_httpx_and_pydantic() -> None:
    """The first frame must not wait for httpx or pydantic: the app and the events screen import neither."""
    import subprocess
    import sys

    code = (
        "import sys, svctui.tui.app, svctui.tui.screens.events; "
        "print(sorted(m for m in ('httpx', 'pydantic', 'svctui.api.client') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_filter_chip_reads_status_by_label() -> None:
    from svctui.api.filters import COMPLETED_TASKS, parse_filter
    from svctui.tui.widgets.filter_chips import chip_text

    active = parse_filter(COMPLETED_TASKS, "status=neq:failed")
    assert active.render() == "neq:5"
    assert chip_text(active, COMPLETED_TASKS) == "status ≠ failed ✕"
    assert chip_text(active) == "status ≠ 5 ✕"


def test_every_binding_has_an_id_and_a_tooltip() -> None:
    for targets in CONTEXTS.values():
        for target in targets:
            for binding in bindings_of(target):
                assert binding.id and binding.tooltip, f"{target}: {binding.key} needs an id and a tooltip"


def test_keymap_problems_name_unknown_ids_and_clashing_keys() -> None:
    assert keymap_problems({"list.refresh": "f5", "table.down": "j,down"}) == []
    problems = keymap_problems({"list.refresh": "R", "nope.id": "z"})
    assert problems[0] == "unknown binding id(s): nope.id (press ? to see the ids)"
    assert any("'R' does two things on Completed tasks: list.refresh, tasks.tab.results" in line for line in problems)


def test_header_fits_narrow_terminals_keeping_the_edition() -> None:
    tabs = [Tab("events", "1", "Events"), Tab("tasks", "2", "Completed tasks")]
    info = HeaderInfo("default", "https://bloodhound.example.com:8443", "enterprise")
    wide = header_content(info, tabs, "events", 120).plain
    assert wide.startswith("svctui") and "https://bloodhound.example.com:8443 | enterprise" in wide
    narrow = header_content(info, tabs, "events", 88).plain
    assert len(narrow) <= 88 and narrow.endswith("… | enterprise") and "profile default" in narrow


def test_header_at_80_columns_keeps_the_profile_name() -> None:
    """Seen in tmux at 80x24 with a profile named `alpha`: the header ended `profile` with the name cut off the right
    edge (`demo` fitted by one cell). The server, the edition and the word `profile` give way first; the name is
    cut with `…` only when even that does not fit."""
    tabs = [
        Tab("events", "1", "Events"),
        Tab("tasks", "2", "Completed tasks"),
        Tab("selectors", "3", "Selector cleanup"),
        Tab("clients", "4", "Clients"),
    ]

    def header(name: str, width: int) -> str:
        return header_content(HeaderInfo(name, "http://127.0.0.1:47391", "enterprise"), tabs, "events", width).plain

    assert header("demo", 78).endswith("4 Clients    profile demo"), "as it was where it fits"
    assert header("alpha", 78).endswith("4 Clients   alpha") and len(header("alpha", 78)) <= 78
    assert header("prod-eu-west-1", 78).endswith(" prod-eu-west…") and len(header("prod-eu-west-1", 78)) == 78
    assert header("alpha", 98).endswith("profile alpha | enterprise"), "the server goes before the edition"
    off = HeaderInfo("prod-eu-west-1", "http://127.0.0.1:47391", "enterprise", read_only=True)
    for width in (98, 160):
        shown = header_content(off, tabs, "events", width).plain
        assert " read-only" in shown and len(shown) <= width, "deletion off is said at every width"
    narrow = header_content(off, tabs, "events", 78).plain
    assert narrow.endswith("… r/o") and len(narrow) <= 78, "a long name is cut, the short mark kept"
    demo = header_content(
        HeaderInfo("demo", "http://127.0.0.1:47391", "enterprise", read_only=True), tabs, "events", 78
    )
    assert demo.plain.endswith(" demo r/o") and len(demo.plain) <= 78, "the short mark before the name is cut (de…)"


def test_help_rows_fit_the_dialog() -> None:
    long_tip = "tasks with a count drop beyond the threshold; client-side, over the tasks loaded for the plot"
    rows = [
        KeyRow("f", "Failed, last 24 h", "status Failed and execution time within the last 24 hours", "screen", "a.b"),
        KeyRow("d", "Runs with drops", long_tip, "screen", "tasks.quick.drops"),
    ]
    lines = help_content(rows, "completed tasks").plain.splitlines()
    assert all(len(line) <= HELP_WIDTH for line in lines)
    assert lines[1].index("binding id") == lines[2].index("a.b") == lines[3].index("tasks.quick.drops")
    tip_column = lines[3].index("tasks with")
    assert lines[4].index("the tasks loaded") == tip_column, "a long tooltip wraps in its own column"


def test_help_title_says_where_the_binding_ids_are_when_they_are_left_out() -> None:
    """Newcomer audit: at 80 columns the title said to remap keys by binding id, and the list showed none (which
    title and list show is the help screen's breakpoint: test_tui_help_breakpoint.py)."""
    narrow = help_content([KeyRow("f", "Failed", "tip", "screen", "a.b")], "tasks", HELP_WIDTH - 1, ids=False).plain
    assert "a.b" not in narrow
    assert TITLE_WITHOUT_IDS == "Keys  (esc closes; the binding ids to remap keys show from 116 columns)"
    assert TITLE_WITH_IDS.endswith("by binding id)")


def test_the_status_line_gives_way_time_sort_and_page_before_the_marks() -> None:
    """At 80 columns the selectors' marks were cut off the end of the status line; now the least important parts
    give way (the time, the sort, the page, the filter count, live, the age, a screen's own counts, retry, the tag),
    only as far as needed;
    stale and the marks never do."""
    from svctui.tui import status_line as rank
    from svctui.tui.status_line import StatusPart, fit_status

    def ranked(*parts: tuple[str, int] | str) -> list[str]:
        return [part if isinstance(part, str) else StatusPart(*part) for part in parts]

    parts = ranked(
        ("tag Tier Zero (tier 1)", rank.TAG),
        ("rows 1-100 of 400", rank.ROWS),
        ("page 1/4", rank.PAGE),
        ("sort -id", rank.SORT),
        ("2 filters", rank.FILTERS),
        ("52 ms", rank.TIMING),
        ("47 marked", rank.KEEP_ALWAYS),
    )
    assert fit_status(parts, 200) == "  ·  ".join(parts)
    assert (
        fit_status(parts, 90) == "tag Tier Zero (tier 1)  ·  rows 1-100 of 400  ·  page 1/4  ·  2 filters  ·  47 marked"
    )
    assert fit_status(parts, 60) == "tag Tier Zero (tier 1)  ·  rows 1-100 of 400  ·  47 marked"
    assert fit_status(parts, 40) == "rows 1-100 of 400  ·  47 marked"
    assert fit_status(parts, 10) == "47 marked", "never the marks"
    stale = ranked(
        ("stale: The server answered 502", rank.KEEP_ALWAYS),
        ("r to retry", rank.RETRY),
        ("rows 1-100 of 200", rank.ROWS),
        ("page 1/2", rank.PAGE),
        ("1 marked", rank.KEEP_ALWAYS),
        ("updated 1 min ago", rank.AGE),
        ("live every 1 min", rank.LIVE),
    )
    assert fit_status(stale, 78) == "stale: The server answered 502  ·  rows 1-100 of 200  ·  1 marked"
    clients = ranked(
        ("stale: The server answered 502", rank.KEEP_ALWAYS),
        ("r to retry", rank.RETRY),
        "7/7 clients checked",  # a plain string ranks as a screen's own part
        "4 need a look",
        ("enter: runs", rank.KEY_HINT),
    )
    assert fit_status(clients, 78) == "stale: The server answered 502  ·  r to retry  ·  7/7 clients checked", (
        "how to recover outranks a screen's own counts (the Clients screen at 80 columns lost `r to retry`)"
    )
    sorted_clients = [
        StatusPart("7/7 clients checked", short="7/7 checked", short_rank=rank.ORDER),
        "4 need a look",
        StatusPart("sorted: check-in (oldest first) (s)", rank.ORDER, short="sorted: check-in (s)"),
        StatusPart("updated 23:36:14Z", rank.AGE),
        StatusPart("enter: runs", rank.KEY_HINT),
    ]
    assert fit_status(sorted_clients, 78) == (
        "7/7 checked  ·  4 need a look  ·  sorted: check-in (s)  ·  updated 23:36:14Z"
    ), "issue 28: the short forms come before the order gives way"
    assert fit_status(sorted_clients, 200) == "  ·  ".join(sorted_clients), "whole where there is room"


def test_the_status_line_gives_a_note_way_before_the_page() -> None:
    """A walker at 80 columns: sorted by next run, the events' status line kept `2 without DTSTART: placed by the
    server` whole and left out the page. The note shortens (with the names of the columns left out), then goes,
    before the page does; the sort and the time go first."""
    from svctui.tui import status_line as rank
    from svctui.tui.status_line import StatusPart, fit_status

    parts = [
        StatusPart("rows 1-100 of 200", rank.ROWS),
        StatusPart("page 1/2", rank.PAGE),
        StatusPart("+3 columns (p): kinds, domains, OUs", rank.LEFT_OUT, short="+3 columns (p)", short_rank=rank.NOTE),
        StatusPart("sorted by next run ▲", rank.SORT),
        StatusPart("2 without DTSTART: placed by the server", rank.NOTE, short="2 without DTSTART"),
        StatusPart("52 ms", rank.TIMING),
    ]
    assert fit_status(parts, 78) == "rows 1-100 of 200  ·  page 1/2  ·  +3 columns (p)  ·  2 without DTSTART"
    assert fit_status(parts, 60) == "rows 1-100 of 200  ·  page 1/2  ·  +3 columns (p)", "the note goes first"
    assert fit_status(parts, 40) == "rows 1-100 of 200  ·  +3 columns (p)", "the columns left out outrank the page"
    assert fit_status(parts, 144) == (
        "rows 1-100 of 200  ·  page 1/2  ·  +3 columns (p): kinds, domains, OUs  ·  sorted by next run ▲  ·  "
        "2 without DTSTART: placed by the server"
    )
