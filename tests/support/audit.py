"""Helpers for the audit tests: a demo server that records every DELETE it sees, and what the log held then."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.server import DemoServer

DELETE_PATH = re.compile(r"^/api/v2/asset-group-tags/(\d+)/selectors/(\d+)$")
POLL_LIMIT = 120.0  # seconds: a guard against a hung run, not an assertion on speed
BIG_TAG = DemoSizes(clients=1, events=1, tasks=0, tags=2, selectors=500)  # tag 1 has 400 selectors, 8 default


@dataclass
class SeenDelete:
    """One DELETE as the server saw it: the selector, whether its intent line was on disk then, and the answer."""

    selector_id: int
    intent_on_disk: bool
    status: int = 0


@dataclass
class DeleteRecorder:
    """Wraps the demo app: before each DELETE reaches it, reads the audit log for that selector's intent line."""

    audit_log: Path
    answer_delay: float = 0.0  # seconds a DELETE's answer is held after the server did it (the kill lands there)
    seen: list[SeenDelete] = field(default_factory=list)
    gets: list[int] = field(default_factory=list)  # the selector of every single-selector GET, in arrival order
    lock: threading.Lock = field(default_factory=threading.Lock)

    def intents_on_disk(self) -> set[int]:
        """Selector ids with an intent line in the log right now (any run)."""
        if not self.audit_log.exists():
            return set()
        found = set()
        for raw in self.audit_log.read_bytes().splitlines():
            try:
                line = json.loads(raw)
            except ValueError:
                continue
            if isinstance(line, dict) and line.get("event") == "intent":
                found.add(line["selector_id"])
        return found

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """The ASGI app that records, then hands over to `app`."""

        async def recording(scope: Scope, receive: Receive, send: Send) -> None:
            match = DELETE_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
            if match is not None and scope.get("method") == "GET":
                with self.lock:
                    self.gets.append(int(match.group(2)))
            if match is None or scope.get("method") != "DELETE":
                await app(scope, receive, send)
                return
            entry = SeenDelete(int(match.group(2)), int(match.group(2)) in self.intents_on_disk())
            with self.lock:
                self.seen.append(entry)

            async def noting(message: Message) -> None:
                if message["type"] == "http.response.start":
                    entry.status = int(message["status"])
                    if self.answer_delay and entry.status == 204:
                        await asyncio.sleep(self.answer_delay)
                await send(message)

            await app(scope, receive, noting)

        return recording

    def statuses(self) -> dict[int, list[int]]:
        """Per selector, the status of every DELETE the server answered, in arrival order."""
        by_id: dict[int, list[int]] = {}
        with self.lock:
            for entry in self.seen:
                by_id.setdefault(entry.selector_id, []).append(entry.status)
        return by_id


@contextmanager
def recording_server(
    template_dir: Path,
    audit_log: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    rate_limit: int = 0,
    answer_delay: float = 0.0,
    **options: Any,
) -> Iterator[tuple[DemoServer, DeleteRecorder]]:
    """A demo server (tag 1 with 400 selectors) whose DELETEs are recorded with the audit log's state."""
    import svctui.demo.server as server_module

    recorder = DeleteRecorder(audit_log, answer_delay)
    from svctui.demo.app import create_app

    monkeypatch.setattr(server_module, "create_app", lambda state: recorder.wrap(create_app(state)))
    demo = DemoServer(
        db_path=template_dir / "demo.sqlite3", sizes=BIG_TAG, rate_limit=rate_limit, anchor=FIXED_ANCHOR, **options
    )
    with demo:
        yield demo, recorder


def audit_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of the log, parsed; a torn or foreign line fails the test."""
    lines = []
    for number, raw in enumerate(path.read_bytes().splitlines(), 1):
        line = json.loads(raw)  # raises on a torn line
        assert isinstance(line, dict), f"line {number} is not a JSON object: {raw[:100]!r}"
        lines.append(line)
    return lines


def outcome_lines(path: Path) -> int:
    """How many outcome lines the log holds right now (0 before it exists)."""
    return path.read_bytes().count(b'"event":"outcome"') if path.exists() else 0


def start_delete(ids: list[int], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """`svctui selectors delete 1 IDS --yes --concurrency 8` in a child process (stderr piped, stdout dropped)."""
    return start_svctui(["selectors", "delete", "1", *map(str, ids), "--yes", "--concurrency", "8"], env)


def start_svctui(arguments: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    """`svctui ARGUMENTS` in a child process (stderr piped, stdout dropped), e.g. a resume to be killed midway."""
    args = [sys.executable, "-m", "svctui", *arguments]
    return subprocess.Popen(
        args, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
