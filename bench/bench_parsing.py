"""Parsing a 1000-item page: cached TypeAdapter.validate_json on bytes vs json.loads + per-item model_validate."""

from __future__ import annotations

import json
import random

from bench.harness import Comparison, compare
from svctui.api.models import CompletedTask, Page, parse_json


def _task(rng: random.Random, index: int) -> dict[str, object]:
    domains = [f"S-1-5-21-{rng.randint(10**8, 10**9)}-{rng.randint(10**8, 10**9)}-{rng.randint(10**8, 10**9)}"]
    return {
        "id": index,
        "client_id": "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0",
        "client_name": "SHARPHOUND-DC01",
        "event_id": {"int32": rng.randint(1, 200), "valid": True},
        "execution_time": "2026-11-01T10:00:00.123456789Z",
        "start_time": "2026-11-01T10:00:01Z",
        "end_time": "0001-01-01T00:00:00Z",
        "status": rng.choice([2, 2, 2, 5, 8]),
        "status_message": "The service collected successfully",
        "session_collection": True,
        "local_group_collection": True,
        "ad_structure_collection": True,
        "cert_services_collection": False,
        "ca_registry_collection": False,
        "dc_registry_collection": False,
        "all_trusted_domains": False,
        "domain_controller": "DC01.CORP.EXAMPLE.COM",
        "ous": [],
        "domains": [{"objectid": d, "name": "CORP.EXAMPLE.COM", "exists": True, "type": "domain"} for d in domains],
        "domain_results": [
            {
                "id": index * 10 + k,
                "created_at": "2026-11-01T10:05:00Z",
                "updated_at": "2026-11-01T10:05:00Z",
                "deleted_at": {"Time": "0001-01-01T00:00:00Z", "Valid": False},
                "job_id": index,
                "domain_name": f"DOMAIN{k}.EXAMPLE.COM",
                "success": True,
                "message": "",
                **{f: rng.randint(0, 50000) for f in ("user_count", "group_count", "computer_count", "gpo_count")},
            }
            for k in range(2)
        ],
    }


def run() -> list[Comparison]:
    """Compare the two parse paths on the same bytes."""
    rng = random.Random(7)
    page = {"count": 1000, "skip": 0, "limit": 1000, "data": [_task(rng, i) for i in range(1000)]}
    content = json.dumps(page).encode()

    def naive() -> object:
        raw = json.loads(content)
        return [CompletedTask.model_validate(item) for item in raw["data"]]

    def cached() -> object:
        return parse_json(Page[CompletedTask], content)

    def loads_only() -> object:
        return json.loads(content)

    return [
        compare(
            "parse-page",
            f"1000 completed tasks ({len(content) // 1024} KiB)",
            ("json.loads + model_validate per item", naive),
            ("cached TypeAdapter.validate_json(bytes)", cached),
            repeats=15,
        ),
        compare(
            "parse-vs-loads",
            "same page: full validation vs bare json.loads (cost of validation)",
            ("json.loads only", loads_only),
            ("cached TypeAdapter.validate_json(bytes)", cached),
            repeats=15,
        ),
    ]
