"""Issue 26 item 6: one task endpoint. completed-jobs everywhere by default; a server without it (the router's 404)
falls back to completed-tasks once per profile and the profile remembers it; the deprecation note only while the
deprecated endpoint is in use, once a run. Real HTTP to demo servers, one of them without completed-jobs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Static

from svctui.api.limits import CLI_DEPRECATION_NOTE
from svctui.demo.config import FIXED_ANCHOR
from svctui.demo.server import DemoServer
from svctui.store.server_facts import facts_path, load_facts
from tests.support.cli import add_profile, copy_template, run_cli
from tests.support.paths_seen import PathsSeen
from tests.support.tasks import client_ids, on_tasks

NOW = FIXED_ANCHOR.isoformat().replace("+00:00", "Z")


def server(template: Path, factory: pytest.TempPathFactory, seen: PathsSeen, *without: str) -> DemoServer:
    """A demo server of its own (a copy of the session's data) whose requests `seen` records."""
    return DemoServer(db_path=copy_template(template, factory), rate_limit=0, anchor=FIXED_ANCHOR, wrap=seen.wrap,
                      without=without)  # fmt: skip


@pytest.fixture
def current(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoServer, PathsSeen]]:
    """A server that has completed-jobs, saved as profile `current`."""
    seen = PathsSeen()
    with server(demo_template_db, tmp_path_factory, seen) as demo:
        assert add_profile("current", demo.base_url, demo.token_id, demo.token_key).exit_code == 0
        yield demo, seen


@pytest.fixture
def older(demo_template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DemoServer, PathsSeen]]:
    """A server of before completed-jobs (and jobs/finished), saved as profile `older`."""
    seen = PathsSeen()
    with server(demo_template_db, tmp_path_factory, seen, "completed-jobs", "jobs-finished") as demo:
        assert add_profile("older", demo.base_url, demo.token_id, demo.token_key).exit_code == 0
        yield demo, seen


def test_tasks_list_prints_no_deprecation_note_where_the_server_has_completed_jobs(
    current: tuple[DemoServer, PathsSeen],
) -> None:
    """The issue's must-show: `svctui tasks list CLIENT` against a server with completed-jobs reads it, and says
    nothing about the deprecated endpoint."""
    demo, seen = current
    client = client_ids(demo)[0]
    result = run_cli("tasks", "list", client, "--profile", "current", "-o", "json")
    assert result.exit_code == 0 and json.loads(result.stdout), result.stderr
    assert "deprecated" not in result.stderr and CLI_DEPRECATION_NOTE not in result.stderr
    assert seen.ending("/completed-jobs") and not seen.ending("/completed-tasks")
    explicit = run_cli("tasks", "list", client, "--profile", "current", "--endpoint", "completed-tasks", "-o", "json")
    assert explicit.exit_code == 0 and explicit.stderr.count(CLI_DEPRECATION_NOTE) == 1, "chosen: said, once"


def test_a_server_without_completed_jobs_falls_back_once_and_the_profile_remembers_it(
    older: tuple[DemoServer, PathsSeen], monkeypatch: pytest.MonkeyPatch
) -> None:
    demo, seen = older
    client = client_ids(demo)[0]
    first = run_cli("tasks", "list", client, "--profile", "older", "--all", "-o", "json")
    assert first.exit_code == 0 and len(json.loads(first.stdout)) > 1, first.stderr
    assert first.stderr.count(CLI_DEPRECATION_NOTE) == 1, "in use: said once in the run, not once a page"
    assert len(seen.ending("/completed-jobs")) == 1, "asked once: the 404 is not asked again for the next pages"
    assert load_facts("older", demo.base_url) == {"task_endpoint": "completed-tasks"}
    assert facts_path("older").stat().st_mode & 0o077 == 0
    seen.paths.clear()
    second = run_cli("tasks", "list", client, "--profile", "older", "-o", "json")
    assert second.exit_code == 0 and second.stderr.count(CLI_DEPRECATION_NOTE) == 1
    assert not seen.ending("/completed-jobs") and seen.ending("/completed-tasks"), "remembered: not asked again"
    chosen = run_cli("tasks", "list", client, "--profile", "older", "--endpoint", "completed-jobs")
    assert chosen.exit_code == 4 and "404" in chosen.stderr and "Traceback" not in chosen.stderr, "asked for: told"
    monkeypatch.setenv("SVCTUI_FROZEN_NOW", NOW)
    checked = run_cli("health", "--profile", "older", "--client", client, "-o", "json")
    assert checked.exit_code in (0, 6) and json.loads(checked.stdout)[0]["verdict"] != "error", checked.stderr


def test_an_unknown_client_on_a_current_server_is_not_taken_for_a_missing_endpoint(
    current: tuple[DemoServer, PathsSeen],
) -> None:
    """The API's own 404 (`resource not found`) is a missing client, exit 4: no fallback, nothing remembered."""
    demo, seen = current
    result = run_cli("tasks", "list", "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", "--profile", "current")
    assert result.exit_code == 4 and not seen.ending("/completed-tasks")
    assert load_facts("current", demo.base_url) == {}


@pytest.mark.anyio
async def test_the_dashboard_lists_completed_tasks_on_a_server_without_completed_jobs_and_says_it_is_deprecated(
    older: tuple[DemoServer, PathsSeen],
) -> None:
    demo, seen = older
    async with on_tasks(demo, client_ids(demo)[0]) as (_app, _pilot, screen):
        assert screen.shown_endpoint() == "completed-tasks" and (screen.window.count or 0) > 0
        notice = screen.query_one("#endpoint-notice", Static)
        assert not notice.has_class("-hidden") and "deprecated" in str(notice.render())
    # the page and the history go out together at first: both may meet the 404 before either learnt; nothing after
    assert 1 <= len(seen.ending("/completed-jobs")) <= 2 and len(seen.ending("/completed-tasks")) > 2
