"""Properties of a deletion run under any mix of answers, audit failures and cancellation (hypothesis).

Whatever happens: no DELETE is sent before its intent line is written, every id gets exactly one result, at most
one outcome line, nothing escapes the engine, and the end line (when it can be written) counts every id.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from svctui.api.errors import (
    ApiConnectionError,
    DeadlineExceeded,
    Forbidden,
    NotFound,
    ResponseShapeError,
    ServerError,
    Unauthorized,
)
from svctui.api.models import Selector, SelectorPage
from svctui.api.query import ListQuery
from svctui.api.resources import Deletion
from svctui.ops.selector_delete import AuditContext, Outcome, delete_selectors
from svctui.store.errors import StoreError

CONTEXT = AuditContext(profile="lab", token_id=None, server="https://bh.example.com", user="tester")
NO_QUERY = ListQuery()
ANSWERS: dict[str, Callable[[], Exception | None]] = {
    "204": lambda: None,
    "gone": lambda: NotFound(404, ["resource not found"], from_api=True),
    "default": lambda: Forbidden(403, ["cannot delete a default selector"]),
    "500": lambda: ServerError(500, ["an internal error has occurred"]),
    "reset": lambda: ApiConnectionError("cannot reach https://bh.example.com: connection reset"),
    "deadline": lambda: DeadlineExceeded("DELETE …: the server's answer did not complete", deadline=1.0),
    "html": lambda: ResponseShapeError("unexpected answer to DELETE …: its body is not the API's", status=200),
    "401": lambda: Unauthorized(401, ["digest validation failed"]),
    "bug": lambda: RuntimeError("a bug in a library"),
}


class Server:
    """Answers each DELETE as scripted and notes whether its intent was already in the log."""

    def __init__(self, answers: dict[int, str], written: list[dict[str, Any]]) -> None:
        self.answers = answers
        self.written = written
        self.sent: list[tuple[int, bool]] = []

    async def list(self, tag_id: int, query: ListQuery = NO_QUERY) -> SelectorPage:
        listed = [{"id": i, "asset_group_tag_id": tag_id, "name": f"sel {i}"} for i in self.answers]
        return SelectorPage.model_validate({"count": len(listed), "data": {"selectors": listed}})

    async def get(self, tag_id: int, selector_id: int) -> Selector:
        raise NotFound(404, ["resource not found"], from_api=True)

    async def delete(self, tag_id: int, selector_id: int) -> Deletion:
        intended = any(line["event"] == "intent" and line["selector_id"] == selector_id for line in self.written)
        self.sent.append((selector_id, intended))
        await asyncio.sleep(0)
        error = ANSWERS[self.answers[selector_id]]()
        if error is not None:
            raise error
        return Deletion(204, None)


class Client:
    def __init__(self, server: Server) -> None:
        self.selectors = server


@settings(max_examples=60, deadline=None)
@given(
    answers=st.lists(st.sampled_from(sorted(ANSWERS)), min_size=1, max_size=25),
    fail_at=st.none() | st.integers(min_value=0, max_value=60),
    cancel_after=st.none() | st.integers(min_value=0, max_value=25),
    concurrency=st.integers(min_value=1, max_value=8),
)
def test_every_run_keeps_the_audit_promises(
    answers: list[str], fail_at: int | None, cancel_after: int | None, concurrency: int
) -> None:
    ids = list(range(1, len(answers) + 1))
    written: list[dict[str, Any]] = []
    server = Server(dict(zip(ids, answers, strict=True)), written)
    results_seen: list[int] = []

    def sink(line: dict[str, Any]) -> None:
        if fail_at is not None and len(written) >= fail_at:
            raise StoreError("cannot append to the audit log '/x/audit.jsonl': No space left on device")
        written.append(line)

    async def main() -> Any:
        cancel = asyncio.Event()

        def on_result(result: Any) -> None:
            results_seen.append(result.selector_id)
            if cancel_after is not None and len(results_seen) >= cancel_after:
                cancel.set()

        return await delete_selectors(
            Client(server), 1, ids, context=CONTEXT, concurrency=concurrency, on_result=on_result, cancel=cancel,
            audit=sink,
        )  # fmt: skip

    report = asyncio.run(main())
    assert all(intended for _, intended in server.sent), server.sent  # never a DELETE before its intent
    assert len({selector_id for selector_id, _ in server.sent}) == len(server.sent)  # never one twice
    assert [result.selector_id for result in report.results] == ids
    assert sorted(results_seen) == ids  # every id reported once
    outcome_ids = [line["selector_id"] for line in written if line["event"] == "outcome"]
    assert len(outcome_ids) == len(set(outcome_ids))
    sent_ids = {selector_id for selector_id, _ in server.sent}
    for result in report.results:
        assert (result.outcome is Outcome.SKIPPED) == (result.selector_id not in sent_ids)
    if report.audit_error is None:
        assert written[-1]["event"] == "end"
        assert written[-1]["counts"] == dict(Counter(str(result.outcome) for result in report.results))
        assert set(outcome_ids) == sent_ids


def test_three_unanswered_in_a_row_stop_the_run_and_an_answer_between_resets_the_count() -> None:
    answers = ["reset", "reset", "204", "reset", "deadline", "reset", "204", "204"]
    ids = list(range(1, len(answers) + 1))
    written: list[dict[str, Any]] = []
    server = Server(dict(zip(ids, answers, strict=True)), written)
    report = asyncio.run(delete_selectors(Client(server), 1, ids, context=CONTEXT, concurrency=1, audit=written.append))
    assert [str(result.outcome) for result in report.results] == [
        "no answer", "no answer", "deleted", "no answer", "no answer", "no answer", "skipped", "skipped",
    ]  # fmt: skip
    assert str(report.stopped) == "server unreachable" and [selector_id for selector_id, _ in server.sent] == ids[:6]
    assert written[-1]["stopped"] == "server unreachable"
