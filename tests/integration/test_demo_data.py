"""The generated demo data: deterministic for a seed, sized as asked, realistic, with drift well under the drop
threshold and a few seeded drops recorded in `seeded_drops` (real SQLite files, no server needed).
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from svctui.api.fields import COUNT_NAMES, FLAG_NAMES
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.dataset import prepare_database
from svctui.demo.db import SeededDrop, seeded_drops

DATA_TABLES = (
    "clients",
    "domains",
    "ous",
    "events",
    "event_domains",
    "event_ous",
    "tasks",
    "task_domains",
    "task_ous",
    "domain_results",
    "seeded_drops",
    "tags",
    "selectors",
    "selector_seeds",
)


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(str(path)) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in DATA_TABLES}


def generate(path: Path, seed: int = 1, sizes: DemoSizes | None = None) -> Path:
    prepare_database(path, seed=seed, sizes=sizes or DemoSizes(), anchor=FIXED_ANCHOR, reset=True)
    return path


def test_same_seed_same_data_other_seed_other_data(tmp_path: Path, demo_template_db: Path) -> None:
    again = dump(generate(tmp_path / "again.sqlite3"))
    assert again == dump(demo_template_db)
    other = dump(generate(tmp_path / "other.sqlite3", seed=2))
    assert other["clients"] != again["clients"] and other["tasks"] != again["tasks"]


def test_tokens_differ_between_databases_but_stay_with_one(tmp_path: Path) -> None:
    sizes = DemoSizes(clients=1, events=5, tasks=30, tags=1, selectors=2)
    first = prepare_database(tmp_path / "a.sqlite3", seed=1, sizes=sizes, anchor=FIXED_ANCHOR)
    reused = prepare_database(tmp_path / "a.sqlite3", seed=1, sizes=sizes)
    other = prepare_database(tmp_path / "b.sqlite3", seed=1, sizes=sizes, anchor=FIXED_ANCHOR)
    assert not reused.generated and reused.credentials == first.credentials
    assert other.credentials.admin.key != first.credentials.admin.key
    fixed = prepare_database(
        tmp_path / "a.sqlite3", seed=1, sizes=sizes, token_id="11111111-2222-4333-8444-555555555555", token_key="k"
    )
    assert (fixed.credentials.admin.id, fixed.credentials.admin.key) == ("11111111-2222-4333-8444-555555555555", "k")


def test_reusing_a_warm_database_writes_nothing_and_new_tokens_are_still_stored(tmp_path: Path) -> None:
    """`svctui --demo` on a warm database only reads it (no commit waits for the disk); a change is still written."""
    import os

    sizes = DemoSizes(clients=1, events=5, tasks=30, tags=1, selectors=2)
    path = tmp_path / "a.sqlite3"
    first = prepare_database(path, seed=1, sizes=sizes, anchor=FIXED_ANCHOR)
    os.utime(path, ns=(0, 0))
    reused = prepare_database(path, seed=1, sizes=sizes)
    assert reused.credentials == first.credentials and os.stat(path).st_mtime_ns == 0
    fixed = prepare_database(path, seed=1, sizes=sizes, token_id="11111111-2222-4333-8444-555555555555", token_key="k")
    again = prepare_database(path, seed=1, sizes=sizes)
    assert again.credentials == fixed.credentials != first.credentials and os.stat(path).st_mtime_ns != 0


def test_other_sizes_regenerate(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite3"
    small = DemoSizes(clients=2, events=10, tasks=100, tags=2, selectors=9)
    prepare_database(path, seed=1, sizes=small, anchor=FIXED_ANCHOR)
    bigger = prepare_database(path, seed=1, sizes=DemoSizes(clients=3, events=12, tasks=150, tags=3, selectors=11))
    assert bigger.generated
    counts = {t: len(rows) for t, rows in dump(path).items()}
    assert (counts["clients"], counts["events"], counts["tasks"], counts["tags"], counts["selectors"]) == (
        3,
        12,
        150,
        3,
        11 + 3,  # and the three an extension owns (data_tags.EXTENSION_RULES: tags 1 and 3)
    )


def test_default_sizes(demo_template_db: Path) -> None:
    counts = {t: len(rows) for t, rows in dump(demo_template_db).items()}
    assert (counts["clients"], counts["events"], counts["tasks"], counts["tags"], counts["selectors"]) == (
        6 + 1,  # and the registered client that never ran (data_health)
        200,
        4000,
        7,
        1000 + 3,  # and the three an extension owns (data_tags.EXTENSION_RULES)
    )
    assert counts["domains"] >= 6 and counts["ous"] >= 18 and counts["domain_results"] > 3000


def test_default_selectors_make_a_real_cleanup(demo_template_db: Path) -> None:
    """One tag holds 350+ deletable selectors (a 300-deletion run is real); defaults and disabled ones exist."""
    conn = sqlite3.connect(demo_template_db)
    try:
        deletable = conn.execute(
            "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM selectors WHERE is_default = 0 GROUP BY asset_group_tag_id)"
        ).fetchone()[0]
        defaults = conn.execute("SELECT COUNT(*) FROM selectors WHERE is_default = 1").fetchone()[0]
        disabled = conn.execute("SELECT COUNT(*) FROM selectors WHERE disabled_at IS NOT NULL").fetchone()[0]
        tags_with_selectors = conn.execute("SELECT COUNT(DISTINCT asset_group_tag_id) FROM selectors").fetchone()[0]
    finally:
        conn.close()
    assert deletable >= 350
    assert defaults >= 5 and disabled >= 20 and tags_with_selectors == 7


@pytest.mark.slow
def test_fifty_thousand_tasks(tmp_path: Path) -> None:
    path = tmp_path / "big.sqlite3"
    prepared = prepare_database(path, seed=7, sizes=DemoSizes(tasks=50_000), anchor=FIXED_ANCHOR)
    print(f"generated 50,000 tasks in {prepared.seconds:.2f} s")
    with sqlite3.connect(str(path)) as conn:
        assert conn.execute("SELECT COUNT(*) FROM tasks").fetchone()[0] == 50_000
        assert conn.execute("SELECT COUNT(DISTINCT status) FROM tasks").fetchone()[0] == 10
    assert 3 <= len(seeded_drops(path)) <= 8 + 1  # and the last day's drop of the fleet's drops client


def test_client_names_and_domains_look_real(demo_template_db: Path) -> None:
    data = dump(demo_template_db)
    assert any(name == "SHARPHOUND-DC01" for _, name, *_ in data["clients"])
    for _objectid, _client, name, *_ in data["domains"]:
        assert name == name.upper() and "." in name


def like_for_like_pairs(path: Path) -> list[tuple[int, str, str, int, int]]:
    """(task id, domain, field, previous, current) for consecutive successful results with the same kinds."""
    flags = ", ".join(f"t.{flag}" for flag in FLAG_NAMES)
    counts = ", ".join(f"r.{name}" for name in COUNT_NAMES)
    sql = (
        f"SELECT t.id, t.client_id, r.domain_name, {flags}, {counts} FROM domain_results r "
        "JOIN tasks t ON t.id = r.job_id WHERE r.success = 1 ORDER BY t.execution_time, t.id"
    )
    last: dict[tuple[Any, ...], tuple[int, ...]] = {}
    pairs: list[tuple[int, str, str, int, int]] = []
    with sqlite3.connect(str(path)) as conn:
        for row in conn.execute(sql):
            key = (row[1], row[2], *row[3 : 3 + len(FLAG_NAMES)])
            values = row[3 + len(FLAG_NAMES) :]
            before = last.get(key)
            if before is not None:
                for name, previous, current in zip(COUNT_NAMES, before, values, strict=True):
                    pairs.append((row[0], row[2], name, previous, current))
            last[key] = values
    return pairs


def test_natural_drift_stays_well_under_twenty_percent(demo_template_db: Path) -> None:
    drops = {(d.task_id, d.domain_name, d.field) for d in seeded_drops(demo_template_db)}
    worst = 0.0
    for task_id, domain, field, previous, current in like_for_like_pairs(demo_template_db):
        if (task_id, domain, field) in drops or previous < 10:
            continue
        worst = max(worst, (previous - current) / previous)
    assert 0 < worst < 0.15, worst


def test_seeded_drops_are_at_least_thirty_percent(demo_template_db: Path) -> None:
    drops = seeded_drops(demo_template_db)
    assert 3 <= len(drops) <= 8 and all(isinstance(drop, SeededDrop) for drop in drops)
    assert drops == sorted(drops, key=lambda d: (d.task_id, d.domain_name, d.field))
    pairs = {(t, d, f): (p, c) for t, d, f, p, c in like_for_like_pairs(demo_template_db)}
    for drop in drops:
        previous, current = pairs[(drop.task_id, drop.domain_name, drop.field)]
        assert (previous - current) / previous >= 0.3, (drop, previous, current)


def test_counts_follow_collection_kinds(demo_template_db: Path) -> None:
    with sqlite3.connect(str(demo_template_db)) as conn:
        no_structure = conn.execute(
            "SELECT MAX(r.user_count) FROM domain_results r JOIN tasks t ON t.id = r.job_id "
            "WHERE t.ad_structure_collection = 0"
        ).fetchone()[0]
        with_structure = conn.execute(
            "SELECT MIN(r.user_count) FROM domain_results r JOIN tasks t ON t.id = r.job_id "
            "WHERE t.ad_structure_collection = 1 AND r.success = 1"
        ).fetchone()[0]
    assert no_structure == 0 and with_structure > 0


def test_domains_keep_their_drift_model(demo_template_db: Path) -> None:
    with sqlite3.connect(str(demo_template_db)) as conn:
        models = [json.loads(row[0]) for row in conn.execute("SELECT base_json FROM domains")]
    assert all(-0.1 <= trend <= 0.15 for model in models for trend in model["trend"].values())
    assert len({json.dumps(model["base"], sort_keys=True) for model in models}) == len(models)


def test_every_status_has_its_kind_of_results(demo_template_db: Path) -> None:
    per_status: dict[int, set[int]] = defaultdict(set)
    with sqlite3.connect(str(demo_template_db)) as conn:
        for status, success in conn.execute(
            "SELECT t.status, r.success FROM tasks t JOIN domain_results r ON r.job_id = t.id"
        ):
            per_status[status].add(success)
    assert per_status[2] == {1} and per_status[4] == {0} and per_status[5] == {0} and per_status[8] == {0, 1}
    assert not per_status[0] and not per_status[1] and not per_status[3] and not per_status[-1]


def test_tiny_sizes_work_and_seed_no_drops(tmp_path: Path) -> None:
    empty = generate(tmp_path / "empty.sqlite3", sizes=DemoSizes(clients=1, events=1, tasks=0, tags=1, selectors=0))
    assert {t: len(rows) for t, rows in dump(empty).items()}["tasks"] == 0
    tiny = generate(tmp_path / "tiny.sqlite3", sizes=DemoSizes(clients=1, events=1, tasks=5, tags=1, selectors=1))
    assert len(dump(tiny)["tasks"]) == 5 and seeded_drops(tiny) == []
