"""Deterministic completed tasks for the triage widget tests and snapshots (one client, two events, three domains)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from svctui.api.fields import COUNT_NAMES
from svctui.api.models import CompletedTask, DomainResult

CLIENT_ID = "7d3c1a2b-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
T0 = datetime(2026, 3, 1, 2, 0, tzinfo=UTC)
FROZEN_NOW = datetime(2026, 3, 10, 9, 30, tzinfo=UTC)
BASE_COUNTS: dict[str, dict[str, int]] = {
    "CORP.EXAMPLE.COM": {"user_count": 1200, "group_count": 340, "computer_count": 860, "gpo_count": 45},
    "EU.CORP.EXAMPLE.COM": {"user_count": 410, "group_count": 120, "computer_count": 300, "gpo_count": 12},
    "LAB.EXAMPLE.NET": {"user_count": 35, "group_count": 18, "computer_count": 22, "gpo_count": 4},
}


def domain_result(result_id: int, job_id: int, domain: str, day: int, **overrides: Any) -> DomainResult:
    """A domain result whose counts grow slowly with `day`."""
    counts = dict.fromkeys(COUNT_NAMES, 0)
    for name, value in BASE_COUNTS[domain].items():
        counts[name] = value + day * 3
    counts.update(ou_count=25, container_count=60, aiaca_count=1, rootca_count=1, enterpriseca_count=2)
    counts.update(ntauthstore_count=1, certtemplate_count=33, deleted_count=day)
    fields: dict[str, Any] = {"id": result_id, "job_id": job_id, "domain_name": domain, "success": True, **counts}
    fields.update(overrides)
    return DomainResult(**fields)


def sample_tasks() -> list[CompletedTask]:
    """Eight nightly runs of event 4 plus two of event 9; a users drop on day 5, a failure on day 6, a partial run."""
    tasks: list[CompletedTask] = []
    result_id = 100
    for day in range(8):
        task_id = 200 + day
        results = []
        for domain in ("CORP.EXAMPLE.COM", "EU.CORP.EXAMPLE.COM"):
            overrides: dict[str, Any] = {}
            if day == 5 and domain == "CORP.EXAMPLE.COM":
                overrides = {"user_count": 640}
            if day == 6 and domain == "EU.CORP.EXAMPLE.COM":
                overrides = {"success": False, "message": "LDAP bind failed: 49 invalid credentials", "user_count": 0}
            result_id += 1
            results.append(domain_result(result_id, task_id, domain, day, **overrides))
        if day >= 3:
            result_id += 1
            results.append(domain_result(result_id, task_id, "LAB.EXAMPLE.NET", day))
        status = 8 if day == 6 else 2
        tasks.append(make_task(task_id, 4, T0 + timedelta(days=day), results, status=status))
    tasks.append(make_task(300, 9, T0 + timedelta(days=2, hours=12), [], status=5, status_message="agent offline"))
    tasks.append(make_task(301, 9, T0 + timedelta(days=7, hours=12), [], status=4, status_message="timed out"))
    return tasks


def make_task(
    task_id: int, event_id: int, executed: datetime, results: list[DomainResult], *, status: int = 2, **extra: Any
) -> CompletedTask:
    """A task executed at `executed`, started 5 s later, ended 12 minutes after that."""
    failed = sum(1 for result in results if not result.success)
    message = "completed" if status == 2 else ("partially complete" if failed else "")
    fields: dict[str, Any] = {
        "id": task_id,
        "client_id": CLIENT_ID,
        "client_name": "collector-01",
        "event_id": event_id,
        "execution_time": executed,
        "start_time": executed + timedelta(seconds=5),
        "end_time": executed + timedelta(minutes=12, seconds=5),
        "status": status,
        "status_message": message,
        "domain_controller": "DC01.CORP.EXAMPLE.COM",
        "session_collection": True,
        "local_group_collection": True,
        "ad_structure_collection": True,
        "cert_services_collection": True,
        "domain_results": results,
    }
    fields.update(extra)
    return CompletedTask(**fields)
