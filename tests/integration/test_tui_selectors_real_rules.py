"""The cleanup screen and its review against what the real server answers (issue 26), on demo servers.

A disabled selector's member counts are a 409: it tags nothing, and the review's impact stays complete. A failure
to count one selector names it and keeps the total of the others. Extension-owned selectors are flagged, named in
the detail pane, and left out of a deletion unless the review's box is ticked. ETAC (403 on selector reads) is
said in words, the review says the impact cannot be shown and still deletes typed ids. The tags pane takes each
tag's selector count from the one tag list request (`counts=true`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp, Receive, Scope, Send
from textual.widgets import Button, Checkbox, DataTable, Input, Static

from svctui.api.filters import Filter
from svctui.demo.config import FIXED_ANCHOR, Faults
from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.prompts import TypeIds
from svctui.tui.screens.selectors.review import LEFT_OUT_EXTENSION, ReviewScreen
from tests.support.audit import BIG_TAG
from tests.support.selectors import on_cleanup
from tests.support.selectors_run import big_tag_server, plan_of, tag_of, tag_selectors
from tests.support.tui import settle, with_screen

pytestmark = pytest.mark.anyio


def text_of(screen: Any, selector: str) -> str:
    """The text a Static shows."""
    return str(screen.query_one(selector, Static).render())


def column(screen: ReviewScreen, key: str) -> list[str]:
    """A column of the review's table, as text."""
    return [str(cell) for cell in screen.query_one("#review-table", DataTable).get_column(key)]


async def test_the_review_of_20_disabled_selectors_shows_a_complete_impact(tmp_path: Path) -> None:
    """Must show (issue 26): members/counts answers 409 for each; the impact is complete: 0, said as disabled."""
    with big_tag_server(tmp_path) as demo:
        disabled = [s for s in tag_selectors(demo) if s.disabled_at is not None and not s.is_default][:20]
        assert len(disabled) == 20
        async with with_screen(demo, ReviewScreen(plan_of(demo, disabled))) as (app, _pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            assert text_of(screen, "#review-impact") == "Impact: 0 tagged objects; 20 disabled (tag nothing)"
            assert column(screen, "members") == ["disabled"] * 20
            assert column(screen, "kinds") == ["tags nothing"] * 20
            assert screen.sending_ids() == [s.id for s in disabled]  # deleting disabled ones is the usual clean-up


async def test_disabled_ones_count_0_and_a_failure_names_its_selector_and_keeps_the_others_total(
    tmp_path: Path,
) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = tag_selectors(demo)
        disabled = [s for s in selectors if s.disabled_at is not None and not s.is_default][:3]
        enabled = [s for s in selectors if s.disabled_at is None and not s.is_default and not s.extension_owned][:3]
        failing = enabled[0]
        demo.faults = Faults(error_rate=1.0, only_path=f"/selectors/{failing.id}/members/counts")
        async with with_screen(demo, ReviewScreen(plan_of(demo, [*disabled, *enabled]))) as (app, _pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            impact = screen.impact
            assert impact is not None and set(impact.uncounted) == {failing.id}
            others = sum(sum(impact.per_selector[s.id].values()) for s in enabled[1:])
            line = text_of(screen, "#review-impact")
            assert line == (
                f"Impact: incomplete: 1 not counted ({failing.id}): HTTP 500 Internal Server Error; the other 5: "
                f"{others:,} tagged objects; 3 disabled (tag nothing)"
            )
            assert column(screen, "members")[:4] == ["disabled", "disabled", "disabled", "—"]
            assert column(screen, "kinds")[3].startswith("HTTP 500 Internal Server Error — an internal error")


async def test_extension_owned_selectors_are_left_out_unless_the_box_is_ticked(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        selectors = tag_selectors(demo)
        owned = [s for s in selectors if s.extension_owned]
        plain = [s for s in selectors if not s.is_default and not s.extension_owned][:2]
        assert [s.rule_key for s in owned] == ["entra-global-admins", "entra-privileged-auth-admins"]
        async with with_screen(demo, ReviewScreen(plan_of(demo, [*plain, *owned]))) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            box = screen.query_one("#review-extension", Checkbox)
            assert box.display and not box.value
            label = str(box.label)
            assert f"Also delete the 2 an extension owns ({owned[0].id}-{owned[1].id})" in label
            assert "it re-creates them at its next sync; a restore never will" in label
            impact = screen.impact
            assert impact is not None
            sent = sum(sum(impact.per_selector[s.id].values()) for s in plain)
            every = sum(sum(impact.per_selector[s.id].values()) for s in [*plain, *owned])
            assert text_of(screen, "#review-impact").startswith(f"Impact: {sent:,} tagged objects")
            assert column(screen, "preview") == ["would delete", "would delete", LEFT_OUT_EXTENSION, LEFT_OUT_EXTENSION]
            assert [s.id for s in screen.plan_to_send().selectors] == [s.id for s in plain]
            assert text_of(screen, "#review-title").startswith("Delete 2 of the 4 marked selectors")
            assert str(screen.query_one("#review-delete", Button).label) == "Delete 2"
            box.toggle()
            await settle(pilot)
            assert [s.id for s in screen.plan_to_send().selectors] == [s.id for s in [*plain, *owned]]
            assert column(screen, "preview") == ["would delete"] * 4
            assert str(screen.query_one("#review-delete", Button).label) == "Delete 4"
            assert text_of(screen, "#review-impact").startswith(f"Impact: {every:,} tagged objects")


async def test_only_extension_owned_marked_keeps_delete_off_until_chosen(tmp_path: Path) -> None:
    with big_tag_server(tmp_path) as demo:
        owned = [s for s in tag_selectors(demo) if s.extension_owned]
        async with with_screen(demo, ReviewScreen(plan_of(demo, owned))) as (app, pilot):
            screen = app.screen
            assert isinstance(screen, ReviewScreen)
            delete = screen.query_one("#review-delete", Button)
            assert delete.disabled
            assert "Only selectors owned by an extension are left" in text_of(screen, "#review-left-out")
            screen.query_one("#review-extension", Checkbox).toggle()
            await settle(pilot)
            assert not delete.disabled and str(delete.label) == "Delete 2"


async def test_the_flag_and_the_detail_pane_name_the_extension(demo_server: DemoServer) -> None:
    async with on_cleanup(demo_server) as (_app, pilot, screen):
        screen.set_filters([Filter("name", "~eq", "Entra")])
        await settle(pilot)
        table = screen.selector_table
        assert [item.rule_key for item in table.items] == ["entra-global-admins", "entra-privileged-auth-admins"]
        flags = [str(table.get_cell(str(item.id), "flags")) for item in table.items]
        assert flags == ["extension", "extension"]
        await pilot.press("p")
        await settle(pilot)
        body = str(screen.detail.query_one("#detail-body").render())
        assert "extension 1, rule entra-global-admins: the extension re-creates it at its next sync" in body


@contextmanager
def restricted_server(directory: Path) -> Iterator[DemoServer]:
    """A demo server with tag 1's 400 selectors and environment access control on (`--restricted-user`)."""
    demo = DemoServer(
        db_path=directory / "etac.sqlite3", sizes=BIG_TAG, rate_limit=0, anchor=FIXED_ANCHOR, restricted_user=True
    )
    with demo:
        yield demo


async def test_etac_is_said_in_words_and_i_then_ctrl_d_deletes_typed_ids_without_an_impact(tmp_path: Path) -> None:
    with restricted_server(tmp_path) as demo:
        async with on_cleanup(demo) as (app, pilot, screen):
            shown = " ".join(str(widget.render()) for widget in screen.query(Static) if widget.display)
            assert "No access to selectors on this server" in shown
            assert "this user cannot browse selectors" in shown.lower() and "the token works" in shown
            assert "Authentication failed" not in shown
            await pilot.press("i")
            await settle(pilot)
            assert isinstance(app.screen, TypeIds)
            app.screen.query_one("#ids", Input).value = "20-21"
            await pilot.press("enter")
            await settle(pilot)
            tag = screen.tag
            assert tag is not None and list(screen.marks.of(tag.id).unknown) == [20, 21]
            assert "2 typed ids marked unchecked: this user cannot browse selectors" in app.notes[-1].message
            await pilot.press("ctrl+d")
            await settle(pilot)
            review = app.screen
            assert isinstance(review, ReviewScreen)
            assert column(review, "preview") == ["would try (selector lookup unavailable)"] * 2
            assert text_of(review, "#review-impact") == (
                "Impact: member counts cannot be shown: this user cannot read selectors on this server "
                "(environment access control)"
            )
            delete = review.query_one("#review-delete", Button)
            assert not delete.disabled and str(delete.label) == "Delete 2"
            await pilot.click("#review-delete")
            await settle(pilot)
            for _ in range(100):  # the run's results land as messages
                if not isinstance(app.screen, ReviewScreen) and not _selectors_left(demo, (20, 21)):
                    break
                await pilot.pause(0.05)
        assert _selectors_left(demo, (20, 21)) == 0, "DELETE is not gated by ETAC: both are gone"


def _selectors_left(demo: DemoServer, ids: tuple[int, ...]) -> int:
    with sqlite3.connect(demo.db_path) as conn:
        marks = ", ".join("?" * len(ids))
        return int(conn.execute(f"SELECT COUNT(*) FROM selectors WHERE id IN ({marks})", ids).fetchone()[0])


COUNT_PAGE = re.compile(r"/selectors\?(skip=0&)?limit=1$")  # a tag's count read from a one-selector page


class PathRecorder:
    """Every request's path and query the demo server received."""

    def __init__(self) -> None:
        self.requests: list[str] = []

    def wrap(self, app: ASGIApp) -> ASGIApp:
        async def recording(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http":
                self.requests.append(f"{scope['path']}?{scope.get('query_string', b'').decode()}")
            await app(scope, receive, send)

        return recording


async def test_the_tags_pane_takes_its_counts_from_the_one_tag_list_request(tmp_path: Path) -> None:
    recorder = PathRecorder()
    demo = DemoServer(db_path=tmp_path / "c.sqlite3", sizes=BIG_TAG, rate_limit=0, anchor=FIXED_ANCHOR,
                      wrap=recorder.wrap)  # fmt: skip
    with demo:
        async with on_cleanup(demo) as (_app, _pilot, screen):
            tag = tag_of(demo)
            assert screen.tags_pane.counts[tag.id] == len(tag_selectors(demo)) == 402  # and the extension's 2
    assert "/api/v2/asset-group-tags?counts=true" in recorder.requests
    per_tag = [path for path in recorder.requests if COUNT_PAGE.search(path)]
    assert per_tag == [], per_tag  # no request per tag for its count


class OlderTagList:
    """The tag list as a server released before counts=true answers it: no `counts` (it ignores the parameter)."""

    def wrap(self, app: ASGIApp) -> ASGIApp:
        async def older(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http" or scope["path"] != "/api/v2/asset-group-tags":
                await app(scope, receive, send)
                return
            start: dict[str, Any] = {}
            body = bytearray()

            async def hold(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    start.update(message)
                    return
                body.extend(message.get("body", b""))
                if message.get("more_body"):
                    return
                answer = json.loads(bytes(body))
                for tag in answer.get("data", {}).get("tags", []):
                    tag.pop("counts", None)
                payload = json.dumps(answer).encode()
                headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
                await send({**start, "headers": [*headers, (b"content-length", str(len(payload)).encode())]})
                await send({"type": "http.response.body", "body": payload})

            await app(scope, receive, hold)  # type: ignore[arg-type]

        return older


async def test_a_tag_list_without_counts_is_counted_per_tag(tmp_path: Path) -> None:
    recorder, older = PathRecorder(), OlderTagList()
    demo = DemoServer(db_path=tmp_path / "o.sqlite3", sizes=BIG_TAG, rate_limit=0, anchor=FIXED_ANCHOR,
                      wrap=lambda app: recorder.wrap(older.wrap(app)))  # fmt: skip
    with demo:
        async with on_cleanup(demo) as (_app, _pilot, screen):
            tag = tag_of(demo)
            assert tag.counts is None
            assert screen.tags_pane.counts[tag.id] == len(tag_selectors(demo))
            tags = len(screen.tags_pane.tags)
    per_tag = [path for path in recorder.requests if COUNT_PAGE.search(path)]
    assert len(per_tag) == tags, recorder.requests
