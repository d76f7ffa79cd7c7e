"""Output formats of the read commands: table fitting, JSON round trip, JSON lines, CSV flattening."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest
from pydantic import TypeAdapter

from svctui.api.models import AssetGroupTag, CollectionClient, CompletedTask, DomainResult, Event, Selector
from svctui.commands.output import CsvWriter, Format, JsonArrayWriter, JsonLinesWriter, csv_columns, make_writer
from svctui.commands.table import TABLE_COLUMNS, ColumnFit, Role, TableColumn, TableWriter, fit_columns
from svctui.text import ELLIPSIS, cell_width, cut_end, shrink_widths

NOW = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)  # the time a command reads once (an event's next run is worked out at it)


def event(event_id: int, *, domains: int = 2, long_rrule: bool = False) -> Event:
    rrule = "DTSTART:20240909T100000Z\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU" + (";BYHOUR=1" * 30 if long_rrule else "")
    return Event(
        id=event_id,
        client_id="0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
        rrule=rrule,
        session_collection=True,
        domains=[
            {"objectid": f"S-1-5-21-1-2-{n}", "name": f"D{n}.EXAMPLE.COM", "type": "Domain"} for n in range(domains)
        ],
        ous=[{"objectid": "6a0c3b52-0000-4000-8000-000000000001", "name": "Servers"}],
        created_at=datetime(2026, 1, 31, 23, 0, tzinfo=UTC),
        surprise_field="kept",
    )


def task(task_id: int) -> CompletedTask:
    results = [
        DomainResult(id=1, domain_name="CORP.EXAMPLE.COM", success=True, user_count=10),
        DomainResult(id=2, domain_name="LAB.EXAMPLE.COM", success=False, message="timeout"),
        DomainResult(id=3, domain_name="DEV.EXAMPLE.COM", success=True),
    ]
    return CompletedTask(
        id=task_id,
        client_id="0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
        event_id=7,
        status=8,
        status_message="partially complete: 1 of 3 domains failed",
        execution_time=datetime(2026, 2, 1, 3, 0, tzinfo=UTC),
        domains=[{"objectid": "S-1", "name": "CORP.EXAMPLE.COM"}, "S-2"],
        domain_results=results,
    )


def test_shrink_widths_shrinks_flexible_columns_first() -> None:
    widths = shrink_widths([4, 30, 10, 40], [2, 4, 10, 4], [False, True, False, True], 60)
    assert sum(widths) + 2 * 3 == 60
    assert widths[0] == 4 and widths[2] == 10  # fixed columns untouched while flexible ones can give
    assert widths[1] < 30 and widths[3] < 40


def test_shrink_widths_leaves_fitting_rows_alone() -> None:
    assert shrink_widths([3, 5], [1, 1], [True, True], 80) == [3, 5]


def _fits(natural: list[int], minimum: list[int], rank: list[int], drop: list[int]) -> list[ColumnFit]:
    return [ColumnFit(n, m, m, m, r, d) for n, m, r, d in zip(natural, minimum, rank, drop, strict=True)]


def test_fit_columns_leaves_out_the_lowest_drop_rank_first_and_takes_back_what_fits() -> None:
    # an id (never cut), a name (least 20), two droppable fixed columns (10 and 3 cells), free text (least 8)
    fits = _fits([21, 30, 10, 3, 40], [21, 20, 10, 3, 8], [0, 1, 2, 2, 3], [0, 0, 1, 2, 0])
    assert fit_columns(fits, 200) == [21, 30, 10, 3, 40]  # it fits: as it is
    # 21+20+10+3+8 + 8 = 70 > 66: the 10-cell column (drop 1) goes; the 3-cell one stays; the text gives first
    assert fit_columns(fits, 66) == [21, 28, None, 3, 8]
    # 58 > 56 after the first: the 3-cell one goes too (and does not fit back); the name has the room left
    assert fit_columns(fits, 56) == [21, 23, None, None, 8]
    # nothing left to leave out: the least widths stand (the caller cuts the line)
    assert fit_columns(fits, 30) == [21, 20, None, None, 8]


def test_fit_columns_leaves_optional_columns_out_before_an_essential_is_cut() -> None:
    """Issue 28: at 80 columns `events list` cut NEXT RUN while the KINDS and DOMAINS counts stayed. An essential
    column is whole while any optional one can go; only then is it cut, to its `last` width, after everything else."""
    #        ID                     NEXT RUN (essential)           KINDS (opt 2)          NOTE (text, least 10, last 8)
    fits = [ColumnFit(3, 3, 3, 3, 0, 0), ColumnFit(28, 28, 28, 18, 0, 0), ColumnFit(7, 7, 7, 7, 2, 1)]
    fits.append(ColumnFit(30, 10, 10, 8, 3, 0))
    assert fit_columns(fits, 80) == [3, 28, 7, 30]
    assert fit_columns(fits, 50) == [3, 28, None, 15]  # the count goes; the next run stays whole
    assert fit_columns(fits, 43) == [3, 28, None, 8]  # the text gives its last cells first
    assert fit_columns(fits, 40) == [3, 25, None, 8]  # then the essential, to no less than its last width
    assert fit_columns(fits, 30) == [3, 18, None, 8]


def test_a_room_is_given_up_before_a_column_that_outranks_it_is_left_out() -> None:
    """`tasks list` at 80 columns left out RESULTS to keep the message's 40-cell room. With `room_drop` 4 the message
    gives its room up (to its least width) after EVENT (drop 4) goes and before RESULTS (drop 5) would."""
    #       ID                          EVENT (opt 4)                 RESULTS (essential, opt 5)
    fits = [ColumnFit(4, 4, 4, 4, 0, 0), ColumnFit(5, 5, 5, 5, 0, 4), ColumnFit(15, 15, 15, 15, 0, 5)]
    fits.append(ColumnFit(60, 40, 18, 8, 3, 0, room_drop=4))  # MESSAGE: claims 40, least 18
    assert fit_columns(fits, 100) == [4, 5, 15, 60]  # 4+5+15+40 + 6 fits: all kept, the message whole
    assert fit_columns(fits, 60) == [4, None, 15, 37]  # EVENT goes first, then the room: RESULTS stays
    assert fit_columns(fits, 40) == [4, None, None, 34]  # 4+15+18 + 4 > 40: RESULTS goes at last
    without = [*fits[:3], ColumnFit(60, 40, 18, 8, 3, 0)]  # no room_drop: the room outranks every optional column
    assert fit_columns(without, 60) == [4, None, None, 54]


def test_a_name_claims_its_width_before_an_optional_column_is_kept() -> None:
    """Issue 28: `selectors list` at 80 columns cut every name to make room for counts and `DESCRIP…`. A name claims
    its whole width (up to NAME_ROOM) before an optional column is kept; the optional ones are said on stderr."""
    name = "Accounts like Citrix delivery controllers APAC"
    out, err = io.StringIO(), io.StringIO()
    writer = TableWriter(TABLE_COLUMNS[Selector], out, 80, "selectors", err)
    writer.write_page([Selector(id=9, asset_group_tag_id=1, name=name, description="Selects accounts like " * 3)])
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["ID", "NAME", "DISABLED", "CREATED", "(UTC)"]
    assert lines[1].startswith(f" 9  {name}  no")
    assert err.getvalue() == (
        "note: 4 columns left out at 80 columns (DESCRIPTION, AUTO CERTIFY, DEFAULT, SEEDS); "
        "-o json or a wider terminal shows them\n"
    )


def _row_table(width: int, rows: list[dict[str, str]]) -> tuple[list[str], str]:
    columns = (
        TableColumn("RUN", lambda r: r["run"], Role.ESSENTIAL),
        TableColumn("CLIENT", lambda r: r["client"], Role.NAME),
        TableColumn("SERVER", lambda r: r["server"], Role.TEXT, drop=1),
        TableColumn("STARTED", lambda r: r["started"], min_width=19, drop=2),
        TableColumn("NOTE", lambda r: r["note"], Role.TEXT),
    )
    out, err = io.StringIO(), io.StringIO()
    writer = TableWriter(columns, out, width, "runs", err)
    writer.write_page(rows)  # type: ignore[arg-type]  # dicts: the columns read them by key
    writer.close()
    return out.getvalue().splitlines(), err.getvalue()


ROW = {
    "run": "20261126T121844Z-ab12",
    "client": "SHARPHOUND-FRA-03.adventureworks.org",
    "server": "https://bloodhound.example.com:8443",
    "started": "2026-11-26 12:18:44",
    "note": "task 4001: partially complete: 1 of 3 domains failed",
}


def test_narrow_table_keeps_ids_whole_and_names_usable_and_drops_low_value_columns() -> None:
    lines, err = _row_table(95, [ROW])
    assert all(cell_width(line) <= 95 for line in lines)
    assert lines[0].split() == ["RUN", "CLIENT", "STARTED", "NOTE"]  # SERVER left out, the rest kept
    assert lines[1].startswith(f"20261126T121844Z-ab12  {ROW['client']}  ")  # whole id, the name whole
    assert err == "note: 1 column left out at 95 columns (SERVER); -o json or a wider terminal shows them\n"
    lines, err = _row_table(80, [ROW])  # the name claims its width before the start time is kept
    assert lines[0].split() == ["RUN", "CLIENT", "NOTE"]
    assert lines[1].startswith(f"20261126T121844Z-ab12  {ROW['client']}  ")
    assert "2 columns left out at 80 columns (SERVER, STARTED)" in err
    lines, err = _row_table(60, [ROW])
    assert lines[0].split() == ["RUN", "CLIENT", "NOTE"]
    assert lines[1].startswith("20261126T121844Z-ab12  SHARPHOUND-FRA-03.ad")  # >= 20 cells of name
    assert "2 columns left out at 60 columns (SERVER, STARTED)" in err


def test_wide_or_piped_table_is_whole_and_says_nothing() -> None:
    lines, err = _row_table(100_000, [ROW])
    assert lines[1].split() == [ROW["run"], ROW["client"], ROW["server"], *ROW["started"].split(), *ROW["note"].split()]
    assert err == ""


def test_short_names_are_never_cut_on_a_narrow_terminal() -> None:
    short = {**ROW, "client": "SHARPHOUND-DC01"}
    lines, _ = _row_table(70, [short])
    assert lines[1].split()[:2] == [ROW["run"], "SHARPHOUND-DC01"]
    assert ELLIPSIS in lines[1]  # the note gave way


def test_cut_end_marks_the_cut() -> None:
    assert cut_end("abcdef", 4) == "abc" + ELLIPSIS
    assert cut_end("abc", 4) == "abc"
    assert cut_end("abc", 0) == ""


@pytest.mark.parametrize("width", [40, 80, 200])
def test_table_fits_the_width(width: int) -> None:
    out, err = io.StringIO(), io.StringIO()
    writer = make_writer(Format.TABLE, Event, out, noun="events", err=err, width=width)
    writer.write_page([event(1, long_rrule=True), event(22, domains=6)])
    writer.write_page([event(333)])
    writer.close()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("ID  ")
    assert len(lines) == 4
    assert all(len(line) <= width for line in lines)
    assert all("\n" not in line and "\t" not in line for line in lines)
    if width < 200:
        assert ELLIPSIS in out.getvalue()
        assert "left out at" in err.getvalue()  # low-value columns gave way (one note)
    else:
        assert err.getvalue() == ""


def test_table_columns_are_aligned_across_pages() -> None:
    out = io.StringIO()
    writer = TableWriter(TABLE_COLUMNS[Selector], out, 100, "selectors", io.StringIO())
    writer.write_page([Selector(id=1, asset_group_tag_id=1, name="a", description="first")])
    writer.write_page([Selector(id=2, asset_group_tag_id=1, name="much longer name", description="second")])
    lines = out.getvalue().splitlines()
    assert lines[1].index("first") == lines[2].index("second")


def test_numbers_on_later_pages_are_never_cut() -> None:
    out = io.StringIO()
    writer = make_writer(Format.TABLE, Selector, out, noun="selectors", err=io.StringIO(), width=60)
    writer.write_page([Selector(id=9, asset_group_tag_id=1, name="n" * 80)])
    writer.write_page([Selector(id=123456, asset_group_tag_id=1, name="n" * 80)])
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["9", "123456"]
    assert all(len(line) <= 60 for line in lines)


def test_empty_table_says_so_on_stderr() -> None:
    out, err = io.StringIO(), io.StringIO()
    writer = make_writer(Format.TABLE, AssetGroupTag, out, noun="tags", err=err, width=80)
    writer.write_page([])
    writer.close()
    assert out.getvalue() == ""
    assert err.getvalue() == "no tags found\n"


def test_json_array_round_trips_through_the_models() -> None:
    items = [event(1), event(2, domains=0)]
    out = io.StringIO()
    writer = JsonArrayWriter(out)
    writer.write_page(items[:1])
    writer.write_page(items[1:])
    writer.close()
    parsed = TypeAdapter(list[Event]).validate_json(out.getvalue())
    assert parsed == items
    assert json.loads(out.getvalue())[0]["surprise_field"] == "kept"


def test_json_array_empty_and_unfinished() -> None:
    out = io.StringIO()
    JsonArrayWriter(out).close()
    assert json.loads(out.getvalue()) == []
    broken = io.StringIO()
    writer = JsonArrayWriter(broken)
    writer.write_page([event(1)])
    writer.close(complete=False)
    with pytest.raises(json.JSONDecodeError):
        json.loads(broken.getvalue())


def test_jsonl_one_object_per_line_round_trips() -> None:
    items = [task(1), task(2)]
    out = io.StringIO()
    writer = JsonLinesWriter(out)
    writer.write_page(items)
    writer.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert [CompletedTask.model_validate_json(line) for line in lines] == items


def test_csv_flattens_nested_lists() -> None:
    out = io.StringIO()
    writer = CsvWriter(CompletedTask, out, NOW)
    writer.write_page([task(5)])
    writer.close()
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 1
    row = rows[0]
    assert list(row)[:2] == ["id", "client_id"]
    assert row["id"] == "5"
    assert row["status"] == "8" and row["status_label"] == "Partially complete"
    assert row["domains_count"] == "2"
    assert row["domains"] == "CORP.EXAMPLE.COM;S-2"
    assert row["domain_results_ok"] == "2" and row["domain_results_failed"] == "1"
    assert row["failed_domains"] == "LAB.EXAMPLE.COM"
    assert row["execution_time"] == "2026-02-01T03:00:00Z"
    assert row["session_collection"] == "false"
    assert row["log_path"] == ""


def test_csv_event_writes_its_two_line_rrule_on_one_line() -> None:
    """Issue 28: the rule's line break made each event two lines of the file; it is written `\\n`, as in JSON."""
    out = io.StringIO()
    writer = CsvWriter(Event, out, NOW)
    writer.write_page([event(9, domains=2)])
    assert len(out.getvalue().splitlines()) == 2, "the header and one line"
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert rows[0]["rrule"] == "DTSTART:20240909T100000Z\\nRRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU"
    assert rows[0]["domains"] == "D0.EXAMPLE.COM;D1.EXAMPLE.COM"
    assert rows[0]["ous_count"] == "1" and rows[0]["ous"] == "Servers"


def test_csv_header_alone_when_empty_and_none_after_failure() -> None:
    out = io.StringIO()
    CsvWriter(Selector, out, NOW).close()
    assert out.getvalue().startswith("id,asset_group_tag_id,name")
    failed = io.StringIO()
    CsvWriter(Selector, failed, NOW).close(complete=False)
    assert failed.getvalue() == ""


def test_every_model_has_table_and_csv_columns() -> None:
    for model in (Event, CompletedTask, AssetGroupTag, Selector, CollectionClient):
        assert csv_columns(model, NOW)[0][0] == "id"
        make_writer(Format.TABLE, model, io.StringIO(), noun="x", err=io.StringIO(), width=80)


def test_wide_characters_are_measured_in_terminal_columns() -> None:
    assert cell_width("Tier Zero") == 9
    assert cell_width("東京サーバー") == 12
    assert cell_width("e\u0301") == 1  # e + combining acute accent
    assert cut_end("東京サーバー管理", 7) == "東京サ" + ELLIPSIS
    assert cell_width(cut_end("東京サーバー管理", 7)) == 7
    out = io.StringIO()
    writer = make_writer(Format.TABLE, AssetGroupTag, out, noun="tags", err=io.StringIO(), width=60)
    writer.write_page(
        [
            AssetGroupTag(id=1, name="東京データセンターの管理者グループ", description="全社の特権アカウントを含む"),
            AssetGroupTag(id=22, name="Tier Zero", description="Assets with control of the whole environment"),
        ]
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert all(cell_width(line) <= 60 for line in lines), [cell_width(line) for line in lines]
    # the description column starts at the same terminal column on both rows
    assert cell_width(lines[1][: lines[1].index("全")]) == cell_width(lines[2][: lines[2].index("Assets")])


def test_control_characters_from_the_server_never_reach_the_terminal() -> None:
    out = io.StringIO()
    writer = make_writer(Format.TABLE, Selector, out, noun="selectors", err=io.StringIO(), width=120)
    writer.write_page([Selector(id=1, asset_group_tag_id=1, name="evil\x1b[2J\x1b]0;pwned\x07", description="a\x00b")])
    text = out.getvalue()
    assert not any(ch in text for ch in "\x1b\x07\x00")
    assert "evil␛[2J␛]0;pwned␇" in text and "a␀b" in text
