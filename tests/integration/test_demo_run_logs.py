"""The demo's run logs over HTTP: SharpHound's format, consistent with each run's status, times and domain results,
the same on every read, a 404 for runs that kept none, and the community edition's plain-text 404 before auth."""

from __future__ import annotations

from datetime import datetime

from svctui.demo.runlogs import NO_LOG_EVERY
from svctui.demo.server import DemoServer
from svctui.runlog import LogReader, LogSummary
from tests.support.demo_http import error_of, raw, signed
from tests.support.tasks import query


def read_log(demo: DemoServer, task_id: int) -> tuple[str, LogSummary]:
    with signed(demo) as http:
        response = http.get(f"/api/v2/jobs/{task_id}/log")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    text = response.json()["data"]["log"]
    reader = LogReader()
    reader.feed(text)
    reader.finish()
    return text, reader.summary()


def runs(demo: DemoServer, status: int, count: int = 3) -> list[tuple[int, int, int]]:
    """(id, start, end) of runs of `status` that kept a log."""
    rows = query(
        demo,
        f"SELECT id, start_time, end_time FROM tasks WHERE status = ? AND id % {NO_LOG_EVERY} != 11 "
        "AND start_time > 0 AND log_path IS NOT NULL ORDER BY id LIMIT ?",
        status,
        count,
    )
    return [(int(a), int(b), int(c)) for a, b, c in rows]


def micros(moment: datetime | None) -> int:
    assert moment is not None
    return int(moment.timestamp() * 1_000_000)


def test_a_complete_run_spans_its_times_and_closes(demo_server: DemoServer) -> None:
    for task_id, start, end in runs(demo_server, 2):
        text, summary = read_log(demo_server, task_id)
        assert summary.formatted and summary.plain == 0 and summary.errors == 0
        assert summary.completed and summary.finished is not None and not summary.cut
        reader = LogReader()
        lines = reader.feed(text) + reader.finish()
        assert abs(micros(lines[0].time) - start) < 1_000 and abs(micros(lines[-1].time) - end) < 1_000
        assert text == read_log(demo_server, task_id)[0], "the same log on every read"


def test_a_timed_out_run_is_stuck_and_stops_mid_way(demo_server: DemoServer) -> None:
    for task_id, _start, _end in runs(demo_server, 4):
        _, summary = read_log(demo_server, task_id)
        assert summary.stuck is not None and summary.stuck.lines >= 3
        assert summary.finished is None and not summary.completed


def test_failed_domains_have_their_error_line(demo_server: DemoServer) -> None:
    """(A timed-out run's last domain is the exception: the collector was stopped, the server wrote the message.)"""
    rows = query(
        demo_server,
        "SELECT job_id, message FROM domain_results r JOIN tasks t ON t.id = r.job_id WHERE r.success = 0 "
        f"AND t.status != 4 AND job_id % {NO_LOG_EVERY} != 11 LIMIT 8",
    )
    for task_id, message in rows:
        text, _ = read_log(demo_server, int(task_id))
        assert f"|ERROR|{message}\n" in text


def test_a_failed_run_without_results_has_a_stack_trace(demo_server: DemoServer) -> None:
    row = query(
        demo_server,
        f"SELECT id, status_message FROM tasks t WHERE status = 5 AND id % {NO_LOG_EVERY} != 11 AND start_time > 0 "
        "AND NOT EXISTS (SELECT 1 FROM domain_results r WHERE r.job_id = t.id) LIMIT 1",
    )[0]
    _, summary = read_log(demo_server, int(row[0]))
    assert summary.first_error is not None and summary.first_error.message == row[1]
    assert summary.plain >= 1, "the stack trace's lines have no format"


def test_runs_without_a_log_are_404(demo_server: DemoServer) -> None:
    never = query(demo_server, "SELECT id FROM tasks WHERE status = 0 LIMIT 1")[0][0]
    dropped = query(demo_server, f"SELECT id FROM tasks WHERE id % {NO_LOG_EVERY} = 11 LIMIT 1")[0][0]
    with signed(demo_server) as http:
        for task_id in (never, dropped, 10**9):
            assert error_of(http.get(f"/api/v2/jobs/{task_id}/log"), 404) == "resource not found"
        assert error_of(http.get("/api/v2/jobs/abc/log"), 404) == "id is malformed."


def test_community_edition_has_no_run_logs(demo_server_community: DemoServer) -> None:
    with raw(demo_server_community) as http:
        response = http.get("/api/v2/jobs/1/log")
    assert response.status_code == 404 and response.text == "404 page not found\n"
    assert response.headers["content-type"].startswith("text/plain")


def test_a_few_logs_are_several_megabytes(demo_server: DemoServer) -> None:
    big = query(
        demo_server,
        f"SELECT id FROM tasks WHERE id % 41 = 5 AND ad_structure_collection = 1 AND id % {NO_LOG_EVERY} != 11 "
        "AND start_time > 0 ORDER BY id LIMIT 1",
    )[0][0]
    text, summary = read_log(demo_server, int(big))
    assert len(text.encode()) > 3_000_000 and summary.lines > 30_000
