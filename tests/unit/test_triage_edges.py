"""Issue 30: triage behaviours the mutation run found unpinned — what a comparison says of each side, the
collection kinds of a domain's points, the order of equally bad clients, a run of zero length."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from svctui.api.fields import COUNT_NAMES
from svctui.api.models import CompletedTask, DomainResult, flag_marks
from svctui.triage.compare import Change, compare_runs, compare_with_previous
from svctui.triage.drops import domain_series
from svctui.triage.health import ClientHealth, Verdict, worst_first
from svctui.triage.summary import task_duration

CLIENT = "7d3c1a2b-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
T0 = datetime(2026, 3, 1, 2, 0, tzinfo=UTC)


def result(domain: str, success: bool = True, **counts: int) -> DomainResult:
    """A domain result, every count 100 unless given."""
    base = dict.fromkeys(COUNT_NAMES, 100) | counts
    return DomainResult(id=0, domain_name=domain, success=success, message="" if success else "boom", **base)


def task(task_id: int, day: int, *results: DomainResult, **extra: Any) -> CompletedTask:
    """A full-collection task of event 1 on day `day`."""
    fields: dict[str, Any] = {
        "id": task_id, "client_id": CLIENT, "event_id": 1, "execution_time": T0 + timedelta(days=day), "status": 2,
        "ad_structure_collection": True, "session_collection": True, "domain_results": list(results),
    }  # fmt: skip
    return CompletedTask(**(fields | extra))


def test_compare_runs_says_each_sides_success_and_which_task_a_domain_is_compared_with() -> None:
    before = task(1, 0, result("A", success=False), result("B"))
    after = task(2, 1, result("A"), result("C"))
    comparison = compare_runs(after, before)
    assert comparison.task is after and compare_runs(after, None).task is after
    assert compare_runs(after, None).previous is None
    rows = {row.domain_name: row for row in comparison.domains}
    assert (rows["A"].previous_success, rows["A"].current_success, rows["A"].previous_task) == (False, True, before)
    assert (rows["B"].previous_success, rows["B"].current_success, rows["B"].previous_task) == (True, None, before)
    assert (rows["C"].previous_success, rows["C"].current_success, rows["C"].previous_task) == (None, True, None)
    assert rows["C"].change is Change.ADDED


def test_compare_with_previous_says_each_sides_success() -> None:
    older = task(1, 0, result("A"))
    latest = task(2, 1, result("A", success=False), result("NEW"))
    comparison = compare_with_previous(latest, [older, latest])
    assert comparison.task is latest and comparison.previous is older
    rows = {row.domain_name: row for row in comparison.domains}
    assert (rows["A"].change, rows["A"].previous_success, rows["A"].current_success) == (Change.SAME, True, False)
    assert (rows["NEW"].change, rows["NEW"].previous_success, rows["NEW"].current_success) == (
        Change.ADDED,
        None,
        True,
    )


def test_a_domains_points_carry_their_tasks_collection_kinds() -> None:
    full = task(1, 0, result("A"))
    sessions = task(2, 1, result("A"), ad_structure_collection=False)
    points = domain_series([full, sessions])["A"]
    assert [point.kinds for point in points] == [flag_marks(full), flag_marks(sessions)]
    assert points[0].kinds != points[1].kinds


def test_equally_bad_clients_are_ordered_by_name_ignoring_case() -> None:
    names = ["beta", "_lab", "Alpha"]  # `_` sorts between upper and lower case letters: only lower() puts it first
    healths = [ClientHealth(client_id=f"id-{name}", name=name, verdict=Verdict.FAILING) for name in names]
    healths.append(ClientHealth(client_id="id-ok", name="aaa", verdict=Verdict.OK))
    assert [health.name for health in worst_first(healths)] == ["_lab", "Alpha", "beta", "aaa"]


def test_a_run_that_ended_as_it_started_took_no_time() -> None:
    started = task(1, 0, start_time=T0, end_time=T0)
    assert task_duration(started) == timedelta(0)
    assert task_duration(task(2, 0, start_time=T0, end_time=T0 - timedelta(seconds=1))) is None


def test_assess_counts_a_run_at_the_windows_very_start_and_a_checkin_at_the_limit_is_not_stale() -> None:
    from svctui.triage.drops import Drop
    from svctui.triage.health import assess

    now = T0 + timedelta(days=10)
    window, stale_after = timedelta(days=2), timedelta(hours=6)
    edge = task(1, 8)  # exactly `window` before now
    older = task(2, 7, status=5)  # failed, but before the window
    newer = task(3, 9, result("A"))
    latest = task(4, 9, result("A"), execution_time=now - timedelta(hours=1))
    drops = [
        Drop(3, "A", "user_count", 100, 70, 1),
        Drop(3, "A", "group_count", 100, 10, 1),
        Drop(4, "A", "user_count", 70, 10, 3),
    ]
    health = assess(
        "id-1", "lab", [latest, older, edge, newer], drops, now,
        window=window, stale_after=stale_after, last_checkin=now - stale_after,
    )  # fmt: skip
    assert (health.client_id, health.name, health.last_checkin, health.stale) == (
        "id-1",
        "lab",
        now - stale_after,
        False,
    )
    assert health.runs_in_window == 3 and health.verdict is Verdict.DROPS and health.last_run is latest
    assert [(drop.task_id, drop.field) for drop in health.window_drops] == [
        (4, "user_count"),
        (3, "group_count"),
        (3, "user_count"),
    ]
    late = assess("id-1", "lab", [edge], [], now, stale_after=stale_after, last_checkin=now - stale_after * 2)
    assert late.stale is True and late.verdict is Verdict.STALE


def test_task_time_falls_back_to_the_end_and_timeless_tasks_sort_before_any_time() -> None:
    from svctui.triage.summary import chronological, task_time

    ended = task(1, 0, execution_time=None, start_time=None, end_time=T0, created_at=T0 - timedelta(days=1))
    assert task_time(ended) == T0
    before_epoch = task(2, 0, execution_time=datetime(1969, 12, 31, tzinfo=UTC))  # before the epoch: a negative stamp
    timeless = task(3, 0, execution_time=None, start_time=None, end_time=None, created_at=None)
    assert [t.id for t in chronological([before_epoch, ended, timeless])] == [3, 2, 1]


def test_a_rise_of_one_is_a_plus() -> None:
    from svctui.triage.compare import CountDelta, format_delta

    assert format_delta(CountDelta("user_count", 10, 11)) == "+1 (+10.0 %)"
    assert format_delta(CountDelta("user_count", 11, 10)) == "-1 (-9.1 %)"
