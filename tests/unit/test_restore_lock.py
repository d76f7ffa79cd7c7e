"""The restore lock (store.audit.try_lock_restores): one restore at a time, and a waiting restore stays cancellable
without keeping the lock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest

from svctui.ops.audit_lines import AuditContext
from svctui.ops.selector_restore import RestorePlan, restore_run
from svctui.store.audit import try_lock_restores, unlock_restores
from svctui.store.audit_read import AuditLog, AuditRun


def test_the_restore_lock_is_held_by_one_at_a_time_and_free_once_let_go(tmp_path: Path) -> None:
    log = tmp_path / "state" / "audit.jsonl"
    first = try_lock_restores(log)
    assert first is not None
    assert try_lock_restores(log) is None, "a second restore waits"
    unlock_restores(first)
    again = try_lock_restores(log)
    assert again is not None
    unlock_restores(again)
    assert (log.parent / "audit.restore.lock").stat().st_mode & 0o777 == 0o600


@pytest.mark.anyio
async def test_a_restore_cancelled_while_waiting_for_the_lock_leaves_it_free() -> None:
    """A restore waiting in a thread blocked in flock would take the lock after its cancel and keep it for the
    process's life (the next restore in the same app waiting on itself); it polls instead."""
    held = try_lock_restores()
    assert held is not None
    plan = RestorePlan(AuditRun("20261126T000000Z-0000"))
    replanned: list[int] = []

    def read_log() -> AuditLog:
        replanned.append(1)
        return AuditLog([])

    waiting = asyncio.ensure_future(
        restore_run(
            cast(Any, None),
            plan,
            context=AuditContext("demo", "token-id", "http://127.0.0.1:1", "root"),
            run_id="20261126T000001Z-0001",
            audit=lambda _line: None,
            read_log=read_log,
        )
    )
    await asyncio.sleep(0.5)
    assert not waiting.done() and not replanned, "it waits while another restore holds the lock"
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    unlock_restores(held)
    free = try_lock_restores()
    assert free is not None, "the cancelled restore did not take the lock"
    unlock_restores(free)
