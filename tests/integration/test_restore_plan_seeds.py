"""Issue 25: the restore plan shows every seed it will re-create, in full, before asking.

It showed the first five names (`… and 16 more`) and no seed at all, so a person confirmed a POST of Cypher they had
not read. Now the command's plan and the Audit tab's restore dialog list each selector with every seed whole (a
multi-line Cypher on its lines); the dialog's listing scrolls.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from svctui.api.models import Selector
from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.audit_tab import AuditTab
from svctui.tui.screens.selectors.confirm import ConfirmScreen
from tests.integration.test_tui_selectors_audit import delete_through_engine
from tests.support.cli import demo_env, invoke
from tests.support.demo_http import signed
from tests.support.selectors import AuditHost
from tests.support.selectors_run import BIG_TAG_ID, big_tag_server
from tests.support.tui import settle, with_screen

COUNT = 22


def _cypher(number: int) -> str:
    """A long Cypher seed on several lines, its end unlike any other's."""
    where = " OR ".join(f"n.name = 'HOST{number:02d}-{part:03d}.CORP.EXAMPLE.COM'" for part in range(12))
    return f"MATCH (n:Computer)\nWHERE {where}\nRETURN n // end of seed {number}"


def _created(demo: DemoServer) -> list[Selector]:
    """COUNT selectors of the big tag, each with an object id seed and a long multi-line Cypher one."""
    made = []
    with signed(demo) as http:
        for number in range(COUNT):
            body = {"name": f"restore plan {number}", "seeds": [{"type": 2, "value": _cypher(number)}]}
            answer = http.post(f"/api/v2/asset-group-tags/{BIG_TAG_ID}/selectors", json=body)
            assert answer.status_code == 201, answer.text
            made.append(Selector.model_validate(answer.json()["data"]))
    return made


def test_the_command_shows_every_seed_in_full_before_asking(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = _created(demo)
        run_id = asyncio.run(delete_through_engine(demo, selectors))
        result = invoke(["selectors", "restore", run_id, "--yes"], env=demo_env(demo))
    assert result.exit_code == 0, result.stderr
    plan = result.stderr.split(f"run {run_id}:", 1)[0]  # what is said before the first POST
    assert "more" not in plan
    for number, selector in enumerate(selectors):
        assert f"  {selector.id} 'restore plan {number}': 1 seed" in plan
        for line in _cypher(number).splitlines():
            assert line in plan, line


@pytest.mark.anyio
async def test_the_audit_tabs_restore_dialog_lists_every_seed_whole_and_scrolls(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = _created(demo)
        await delete_through_engine(demo, selectors)
        async with with_screen(demo, AuditHost(), size=(120, 36)) as (app, pilot):
            app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable).focus()
            await pilot.press("u")
            await settle(pilot)
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            shown = "\n".join(dialog.listing)
            for number in range(COUNT):
                for line in _cypher(number).splitlines():
                    assert line in shown, line
            listing = dialog.query_one("#confirm-listing", VerticalScroll)
            assert str(listing.query_one(Static).render()).count("end of seed") == COUNT  # the widget holds it all
            assert listing.max_scroll_y > 0  # taller than the screen: it scrolls, nothing is cut
            listing.scroll_end(animate=False)
            await settle(pilot)
            assert listing.scroll_y == listing.max_scroll_y
            await pilot.press("escape")


@pytest.mark.anyio
async def test_a_long_seed_wraps_under_its_own_indent_at_80x24(tmp_path: Path) -> None:
    """The newcomer's walk: at 80x24 a long Cypher seed wrapped to the dialog's left margin (`RETURN` / `  n`); each
    listing line wraps under its own indent."""
    with big_tag_server(tmp_path) as demo:
        selectors = _created(demo)[:2]
        await delete_through_engine(demo, selectors)
        async with with_screen(demo, AuditHost(), size=(80, 24)) as (app, pilot):
            app.screen.query_one(AuditTab).query_one("#audit-runs", DataTable).focus()
            await pilot.press("u")
            await settle(pilot)
            text = app.screen.query_one("#confirm-listing", VerticalScroll).query_one(Static)
            rendered = [text.render_line(y).text.rstrip() for y in range(text.size.height)]
            assert any("end of seed" in line for line in rendered), rendered
            at_margin = [line for line in rendered if line and not line.startswith("  ")]
            assert not at_margin, at_margin
            wrapped_where = [line for line in rendered if "n.name" in line and "WHERE" not in line]
            assert wrapped_where and all(line.startswith(" " * 14) for line in wrapped_where), rendered
