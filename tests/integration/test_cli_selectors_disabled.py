"""`svctui selectors list` says which selectors are disabled (a DISABLED column, kept at 80 columns) and filters
them the way the real server wants: `disabled_at=neq:null` (IS NOT NULL) and `eq:null` (IS NULL), sent as typed.

A newcomer cleaning up found no disabled column and `-f disabled_at=neq:null` refused as "not a valid time"."""

from __future__ import annotations

import re

import pytest

from svctui.api.filters import SELECTORS, Filter, FilterError
from svctui.demo.server import DemoServer
from tests.support.cli import DemoLike, invoke, json_items, use_demo_env
from tests.support.tasks import query

TAG = 1


@pytest.fixture
def env(demo_server: DemoLike, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    return use_demo_env(monkeypatch, demo_server, COLUMNS="80")


def _ids(*args: str) -> set[int]:
    result = invoke(["selectors", "list", str(TAG), "--all", "-o", "json", *args])
    assert result.exit_code == 0, result.stderr
    return {int(item["id"]) for item in json_items(result.stdout)}


def test_disabled_at_null_filters_disabled_and_enabled_selectors(env: dict[str, str], demo_server: DemoServer) -> None:
    disabled = {
        int(row[0])
        for row in query(
            demo_server, "SELECT id FROM selectors WHERE asset_group_tag_id = ? AND disabled_at IS NOT NULL", TAG
        )
    }
    everyone = {int(row[0]) for row in query(demo_server, "SELECT id FROM selectors WHERE asset_group_tag_id = ?", TAG)}
    assert disabled and disabled != everyone
    assert _ids("-f", "disabled_at=neq:null") == disabled
    assert _ids("-f", "disabled_at=eq:NULL") == everyone - disabled, "any case of null is the server's `null`"
    assert _ids("-f", "disabled_by=neq:null") == disabled


def test_the_table_has_a_disabled_column_at_80_columns(env: dict[str, str], demo_server: DemoServer) -> None:
    disabled = {
        int(row[0])
        for row in query(
            demo_server, "SELECT id FROM selectors WHERE asset_group_tag_id = ? AND disabled_at IS NOT NULL", TAG
        )
    }
    result = invoke(["selectors", "list", str(TAG), "--limit", "40", "--sort", "id"])
    assert result.exit_code == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert "DISABLED" in re.split(r"\s{2,}", header.strip()) and all(
        len(line) <= 80 for line in result.stdout.splitlines()
    )
    at = header.index("DISABLED")
    shown = {int(row.split()[0]): row[at : at + 8].strip() for row in rows}
    assert {key for key, value in shown.items() if value == "yes"} == disabled & set(shown)
    assert set(shown.values()) == {"yes", "no"}


def test_null_compares_only_for_equality_and_only_where_the_server_keeps_it(env: dict[str, str]) -> None:
    assert Filter.build(SELECTORS, "disabled_at", "neq", "null").param() == ("disabled_at", "neq:null")
    with pytest.raises(FilterError, match="null compares only with eq or neq"):
        Filter.build(SELECTORS, "disabled_at", "gt", "null")
    with pytest.raises(FilterError, match="not a valid time"):
        Filter.build(SELECTORS, "created_at", "neq", "null")  # never unset: no null there
    refused = invoke(["selectors", "list", str(TAG), "-f", "disabled_at=lt:null"])
    assert refused.exit_code == 2 and "null compares only with eq or neq" in refused.stderr


def test_a_dry_run_says_the_disabled_ones_come_back_enabled_if_restored(
    env: dict[str, str], demo_server: DemoServer
) -> None:
    """The command's side of the review's warning: a restore's POST cannot disable (docs/AUDIT.md)."""
    rows = query(
        demo_server,
        "SELECT id FROM selectors WHERE asset_group_tag_id = ? AND is_default = 0 ORDER BY disabled_at IS NULL, id",
        TAG,
    )
    disabled = [int(row[0]) for row in rows[:2]]
    enabled = int(rows[-1][0])
    result = invoke(["selectors", "delete", str(TAG), *map(str, disabled), str(enabled), "--dry-run"])
    assert result.exit_code == 0, result.stderr
    ids = f"{disabled[0]}, {disabled[1]}" if disabled[1] != disabled[0] + 1 else f"{disabled[0]}-{disabled[1]}"
    assert (
        f"dry run: 2 of them disabled ({ids}): A restore brings the 2 disabled ones back enabled (POST can't disable)."
        in result.stderr
    ), result.stderr
    plain = invoke(["selectors", "delete", str(TAG), str(enabled), "--dry-run"])
    assert "disabled" not in plain.stderr
