"""Helpers for the cleanup review/run/audit tests: a demo server with a big tag, plans built from it, a gate."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from svctui.api.models import AssetGroupTag, Selector, SelectorPage
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.tui.screens.selectors.plan import CleanupPlan
from tests.support.audit import BIG_TAG
from tests.support.demo_http import signed

DELETE_PATH = re.compile(r"^/api/v2/asset-group-tags/(\d+)/selectors/(\d+)$")
COUNTS_PATH = re.compile(r"^/api/v2/asset-group-tags/(\d+)/selectors/(\d+)/members/counts$")
BIG_TAG_ID = 1


class DeleteGate:
    """Holds each DELETE of a selector in `held` until `release()` (the demo runs in a thread); counts answers."""

    def __init__(self, member_counts: dict[int, dict[str, int]] | None = None, *, counts_missing: bool = False) -> None:
        self.member_counts = member_counts  # when given: answers members/counts (as REAL-SERVER.md shows it)
        self.counts_missing = counts_missing  # answers members/counts as a server without it: Go's plain-text 404
        self.held: set[int] = set()
        self.opened = threading.Event()
        self.statuses: Counter[int] = Counter()  # every answer's status, as the server sent it

    def release(self) -> None:
        """Let the held DELETEs through."""
        self.opened.set()

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """The ASGI app that waits at the gate, then hands over to `app`."""

        async def gated(scope: Scope, receive: Receive, send: Send) -> None:
            match = DELETE_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
            counts = COUNTS_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
            if counts is not None and self.counts_missing:
                await send(
                    {"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/plain")]}
                )
                await send({"type": "http.response.body", "body": b"404 page not found"})
                return
            if counts is not None and self.member_counts is not None:
                await answer_counts(self.member_counts.get(int(counts.group(2)), {}), send)
                return
            if match is not None and scope.get("method") == "DELETE" and int(match.group(2)) in self.held:
                await asyncio.to_thread(self.opened.wait)

            async def counting(message: Message) -> None:
                if message["type"] == "http.response.start":
                    self.statuses[int(message["status"])] += 1
                await send(message)

            await app(scope, receive, counting)

        return gated


async def answer_counts(counts: dict[str, int], send: Send) -> None:
    """`{"data": {"total_count": N, "counts": {kind: n}}}` with 200."""
    body = json.dumps({"data": {"total_count": sum(counts.values()), "counts": counts}}).encode()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


@contextmanager
def big_tag_server(directory: Path, *, rate_limit: int = 0, gate: DeleteGate | None = None) -> Iterator[DemoServer]:
    """A demo server whose tag 1 has 400 selectors (8 default); DELETEs pass `gate` when one is given."""
    demo = DemoServer(
        db_path=directory / "demo.sqlite3",
        sizes=BIG_TAG,
        rate_limit=rate_limit,
        anchor=FIXED_ANCHOR,
        wrap=gate.wrap if gate is not None else None,
    )
    with demo:
        try:
            yield demo
        finally:
            if gate is not None:
                gate.release()


def tag_selectors(demo: DemoServer, tag_id: int = BIG_TAG_ID) -> list[Selector]:
    """Every selector of the tag, in id order (plain HTTP, outside the app)."""
    with signed(demo) as http:
        body = http.get(f"/api/v2/asset-group-tags/{tag_id}/selectors", params={"limit": "1000"}).json()
    return sorted(SelectorPage.model_validate(body).data.selectors, key=lambda selector: selector.id)


def tag_of(demo: DemoServer, tag_id: int = BIG_TAG_ID) -> AssetGroupTag:
    """The tag as the list of tags has it."""
    with signed(demo) as http:
        tags = http.get("/api/v2/asset-group-tags").json()["data"]["tags"]
    return next(AssetGroupTag.model_validate(tag) for tag in tags if tag["id"] == tag_id)


def plan_of(
    demo: DemoServer, selectors: list[Selector], unknown_ids: tuple[int, ...] = (), why: str = "name ~ old"
) -> CleanupPlan:
    """A plan for tag 1 with these selectors."""
    return CleanupPlan(tag_of(demo), tuple(selectors), unknown_ids, why)


def delete_now(demo: DemoServer, selector_id: int, tag_id: int = BIG_TAG_ID) -> None:
    """Delete a selector behind the app's back (it is then "already gone" for the run)."""
    with signed(demo) as http:
        response = http.delete(f"/api/v2/asset-group-tags/{tag_id}/selectors/{selector_id}")
    assert response.status_code in (200, 204), response.text


def remaining_ids(demo: DemoServer, tag_id: int = BIG_TAG_ID) -> set[int]:
    """Ids the tag still has."""
    return {selector.id for selector in tag_selectors(demo, tag_id)}


def as_dicts(lines: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    """The audit lines of one event."""
    return [line for line in lines if line.get("event") == event]


def interrupted_log(demo: DemoServer, selectors: list[Selector], run_id: str = "20261124T101500Z-0abc") -> str:
    """What a run killed mid-way leaves: a plan for `selectors`, the first deleted, the second's intent unanswered.

    The lines are the engine's own (plan_line, intent_line, outcome_line), appended to the real audit log.
    """
    from svctui.ops.audit_lines import AuditContext, intent_line, outcome_line, plan_line, selector_record
    from svctui.ops.outcomes import DeleteResult, Outcome
    from svctui.store.audit import append_audit

    context = AuditContext("demo", demo.token_id, demo.base_url.rstrip("/"), "tester")
    ids = [selector.id for selector in selectors]
    append_audit(plan_line(run_id, context, BIG_TAG_ID, "Tier Zero", ids, 4, resumes=None))
    first, second = selectors[0], selectors[1]
    append_audit(intent_line(run_id, BIG_TAG_ID, first.id, selector_record(first)))
    delete_now(demo, first.id)
    append_audit(outcome_line(run_id, BIG_TAG_ID, DeleteResult(first.id, Outcome.DELETED, status=204, request_id=None)))
    append_audit(intent_line(run_id, BIG_TAG_ID, second.id, selector_record(second)))
    delete_now(demo, second.id)  # the server did it; the process was killed before the outcome line
    return run_id
