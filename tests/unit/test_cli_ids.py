"""Selector ids and ranges from arguments and files: validated before any request."""

from __future__ import annotations

import pytest

from svctui.api.limits import INT32_MAX
from svctui.ops.selector_ids import MAX_IDS, IdError, collect_ids, lines_to_tokens, parse_id_token


def test_single_ids_and_inclusive_ranges() -> None:
    assert list(parse_id_token("7")) == [7]
    assert list(parse_id_token("10-13")) == [10, 11, 12, 13]
    assert list(parse_id_token(f"{INT32_MAX}")) == [INT32_MAX]


@pytest.mark.parametrize(
    ("token", "fragment"),
    [
        ("0", "out of range"),
        (str(INT32_MAX + 1), "out of range"),
        ("-3", "'-3' is negative"),
        ("--dry-rn", "is no option of this command"),
        ("-5-7", "not a selector id or range"),
        ("abc", "not a selector id"),
        ("1.5", "not a selector id"),
        ("٣", "not a selector id"),  # a non-ASCII digit
        ("20-10", "runs backwards"),
        ("5-", "not a selector id or range"),
        (f"1-{MAX_IDS + 1}", "at most"),
    ],
)
def test_bad_tokens_name_what_is_allowed(token: str, fragment: str) -> None:
    with pytest.raises(IdError, match=fragment) as caught:
        parse_id_token(token, where="argument")
    assert str(caught.value).startswith("argument: ")


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("1-99999999999999", "'1-99999999999999' is out of range"),
        ("5--7", "'5--7' is not a selector id or range"),
        ("0-4", "'0-4' is out of range"),
        ("3-x", "'3-x' is not a selector id or range"),
    ],
)
def test_a_bad_end_of_a_range_quotes_the_whole_range_as_typed(token: str, said: str) -> None:
    # the walk: `1-99999999999999` was said as `'99999999999999' is out of range`, `5--7` as `'-7' is not ...`
    with pytest.raises(IdError) as caught:
        parse_id_token(token, where="typed")
    assert str(caught.value).startswith(f"typed: {said}; allowed: ")


def test_file_lines_skip_comments_and_blanks_and_name_the_line() -> None:
    lines = ["# selectors to drop\n", "\n", "12\n", "  14-15  # old ones\n", "x\n"]
    tokens = lines_to_tokens(lines, "ids.txt")
    assert [token for token, _ in tokens] == ["12", "14-15", "x"]
    with pytest.raises(IdError, match=r"ids.txt line 5: 'x' is not a selector id"):
        collect_ids(tokens)


def test_collect_drops_repeats_in_order() -> None:
    assert collect_ids([("3", "a"), ("1-4", "b"), ("3", "c")]) == [3, 1, 2, 4]


def test_too_many_ids_in_total() -> None:
    with pytest.raises(IdError, match="more than"):
        collect_ids([("1-10000", "a"), ("20001", "b")])


def test_every_refused_token_is_named_at_once() -> None:
    with pytest.raises(IdError) as caught:
        collect_ids([("abc", "argument 'abc'"), ("12", "argument '12'"), ("99x", "argument '99x'"), ("7-3", "typed")])
    lines = str(caught.value).splitlines()
    assert lines[0] == "3 ids refused (allowed: a positive integer up to 2147483647 or a range like 10-20):"
    assert lines[1:] == [
        "  argument 'abc': 'abc' is not a selector id",
        "  argument '99x': '99x' is not a selector id",
        "  typed: range '7-3' runs backwards; write the smaller id first, e.g. 3-7",
    ]


def test_a_long_list_of_refused_tokens_is_cut_and_counted() -> None:
    with pytest.raises(IdError) as caught:
        collect_ids([(f"x{n}", "typed") for n in range(25)])
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("25 ids refused")
    assert len(lines) == 1 + 20 + 1 and lines[-1] == "  … and 5 more"


def test_a_negative_id_on_the_command_line_is_a_refused_id_not_an_option() -> None:
    """Newcomer walk: `selectors delete 1 0 -5 abc` said `No such option '-5'`; each refused id is named, exit 2."""
    from click.testing import CliRunner

    from svctui.cli import cli

    result = CliRunner().invoke(cli, ["selectors", "delete", "1", "0", "-5", "abc", "--yes"], env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert "No such option" not in result.output
    for refused in ("argument '0': '0' is out of range", "argument '-5': '-5' is negative", "argument 'abc'"):
        assert refused in result.output, result.output
