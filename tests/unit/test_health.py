"""The morning check's rules: each verdict, the worst one wins, the strip, and what --fail-on selects."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from svctui.api.models import CompletedTask, TaskStatus
from svctui.triage.drops import Drop
from svctui.triage.health import (
    STRIP_RUNS,
    ClientHealth,
    Problem,
    Verdict,
    assess,
    unhealthy,
    worst_first,
)

NOW = datetime(2026, 11, 25, 8, 0, tzinfo=UTC)
CLIENT = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"


def run(task_id: int, hours_ago: float, status: TaskStatus = TaskStatus.COMPLETE) -> CompletedTask:
    return CompletedTask(
        id=task_id, client_id=CLIENT, status=int(status), execution_time=NOW - timedelta(hours=hours_ago)
    )


def drop_in(task_id: int) -> Drop:
    return Drop(task_id=task_id, domain_name="CORP.EXAMPLE.COM", field="user_count", previous=100, current=40,
                previous_task_id=task_id - 1)  # fmt: skip


def check(
    tasks: list[CompletedTask], drops: tuple[Drop, ...] = (), checkin_hours_ago: float | None = 1
) -> ClientHealth:
    checkin = None if checkin_hours_ago is None else NOW - timedelta(hours=checkin_hours_ago)
    return assess(CLIENT, "LAB", tasks, drops, NOW, last_checkin=checkin)


def test_healthy_client_is_ok() -> None:
    health = check([run(1, 30), run(2, 6)])
    assert health.verdict is Verdict.OK and health.problems == frozenset()
    assert health.runs_in_window == 1 and health.last_run is not None and health.last_run.id == 2


def test_a_not_ok_run_in_the_window_is_failing_and_outside_it_is_not() -> None:
    for status in (TaskStatus.FAILED, TaskStatus.TIMED_OUT, TaskStatus.PARTIALLY_COMPLETE):
        health = check([run(1, 30), run(2, 5, status), run(3, 1)])
        assert health.verdict is Verdict.FAILING and health.not_ok_in_window == 1
        assert [task.id for task in health.last_failures] == [2]
    assert check([run(1, 30, TaskStatus.FAILED), run(2, 1)]).verdict is Verdict.OK
    assert check([run(1, 2, TaskStatus.CANCELED)]).verdict is Verdict.OK  # canceled is not a failure


def test_stale_drops_and_never_ran() -> None:
    assert check([run(1, 2)], checkin_hours_ago=30).verdict is Verdict.STALE
    assert check([run(1, 2)], checkin_hours_ago=None).stale is None  # the server does not say: not judged
    assert check([run(1, 30), run(2, 2)], (drop_in(2),)).verdict is Verdict.DROPS
    assert check([run(1, 30), run(2, 28)], (drop_in(2),)).verdict is Verdict.OK  # the drop is older than the window
    never = check([])
    assert never.verdict is Verdict.NEVER_RAN and never.problems == {Problem.NEVER_RAN}


def test_the_worst_verdict_wins_and_every_problem_is_kept() -> None:
    health = check([run(1, 30), run(2, 3, TaskStatus.FAILED), run(3, 2)], (drop_in(3),), checkin_hours_ago=40)
    assert health.verdict is Verdict.FAILING
    assert health.problems == {Problem.NOT_OK, Problem.DROPS, Problem.STALE}
    assert check([run(2, 2)], (drop_in(2),), checkin_hours_ago=40).verdict is Verdict.STALE


def test_strip_holds_the_last_runs_oldest_first() -> None:
    tasks = [run(n, 100 - n, TaskStatus.FAILED if n % 7 == 0 else TaskStatus.COMPLETE) for n in range(1, 31)]
    health = check(list(reversed(tasks)))  # any order in
    assert len(health.strip) == STRIP_RUNS
    assert health.strip == tuple(task.status for task in tasks[-STRIP_RUNS:])


def test_worst_first_and_fail_on() -> None:
    ok = assess(CLIENT, "b-ok", [run(1, 2)], [], NOW)
    failing = assess(CLIENT, "z-failing", [run(2, 2, TaskStatus.FAILED)], [], NOW)
    drops = assess(CLIENT, "a-drops", [run(3, 2)], (drop_in(3),), NOW)
    never = assess(CLIENT, "c-never", [], [], NOW)
    assert [h.name for h in worst_first([ok, never, drops, failing])] == ["z-failing", "a-drops", "c-never", "b-ok"]
    assert unhealthy([ok, failing, drops, never], {Problem.DROPS}) == [drops]
    assert unhealthy([ok, failing, drops, never], {Problem.NOT_OK, Problem.NEVER_RAN}) == [failing, never]
    assert unhealthy([ok], set(Problem)) == []


def test_the_strip_reads_without_colour() -> None:
    from svctui.triage.health import strip_text

    statuses = [TaskStatus.COMPLETE, TaskStatus.FAILED, TaskStatus.PARTIALLY_COMPLETE, TaskStatus.TIMED_OUT, 99]
    assert strip_text(statuses) == ".FPT?"


def test_the_strip_legend_names_each_glyph_once_in_order() -> None:
    from svctui.triage.health import strip_legend

    statuses = [TaskStatus.FAILED, TaskStatus.COMPLETE, TaskStatus.FAILED, TaskStatus.ANALYZING, 99]
    assert strip_legend(statuses) == "F failed · . complete · A analyzing · ? unknown (99)"
    assert strip_legend([]) == ""
