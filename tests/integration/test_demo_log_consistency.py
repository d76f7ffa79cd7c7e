"""Every demo run log agrees with its run, checked over every run of the seed data (and of other seeds): the
methods it resolves are the ones the run asked for (a partial run may lack CertServices only when no result counts
an AD CS object), its lines stay inside the run's times, it closes exactly when the status says the run finished,
its `Enumeration finished in` is the run's duration, each domain result has its part (in order, with a domain
controller of that domain), its message on the right level, and a successful domain's count ends at the objects its
result counts (one that counts nothing included: an Ingesting or Analyzing run has collected its objects).

A newcomer found a log naming another domain's controller, counts that ended where the result did not, and a
partial run whose log skipped CertServices while its results counted certificate templates."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from svctui.api.fields import CERT_SERVICES_COUNTS, COUNT_NAMES
from svctui.demo.config import FIXED_ANCHOR, DemoSizes
from svctui.demo.dataset import prepare_database
from svctui.demo.db import read_meta, stored_anchor
from svctui.demo.runlogs import BIG_EVERY, run_log
from svctui.demo.timefmt import ZERO_TIME
from svctui.runlog import LogLine, LogReader
from svctui.runlog.summary import FLAG_METHODS

FINISHED = (2, 6, 7, 8)  # complete, ingesting, analyzing, partially complete: the collector closed its log
DC_LINE = re.compile(r"\[CommonLib LDAPUtils\]Found usable Domain Controller for (\S+) : (\S+)$")
STATUS = re.compile(r"Status: (\d+) objects finished")


def _micros(line: LogLine) -> int:
    assert line.time is not None
    return int(line.time.timestamp() * 1_000_000)


def _problems(conn: sqlite3.Connection, task: sqlite3.Row, seed: str, now: int) -> list[str]:
    """What in run `task`'s log contradicts the run (empty when it has no log)."""
    text = run_log(conn, int(task["id"]), seed)
    if text is None:
        return []
    reader = LogReader()
    lines = reader.feed(text) + reader.finish()
    summary = reader.summary()
    results = conn.execute("SELECT * FROM domain_results WHERE job_id = ? ORDER BY id", (task["id"],)).fetchall()
    status, start, end = int(task["status"]), int(task["start_time"]), int(task["end_time"])
    said: list[str] = []
    asked = [method for name, methods in FLAG_METHODS if task[name] for method in methods]
    resolved = list(summary.resolved or ())
    certificates = any(result[count] for result in results for count in CERT_SERVICES_COUNTS)
    if resolved != asked and not (
        status == 8 and not certificates and resolved == [m for m in asked if m != "CertServices"]
    ):
        said.append(f"resolves {resolved}, the run asked for {asked}")
    times = [_micros(line) for line in lines if line.time is not None]
    if times != sorted(times):
        said.append("its times go backwards")
    if abs(times[0] - start) > 1_000:
        said.append("it starts before or after the run")
    if times[-1] > (end if end != ZERO_TIME else now) + 1_000:
        said.append("it has lines after the run's end (or the data's now)")
    if summary.completed != (status in FINISHED):
        said.append(f"status {status} but the log {'closes' if summary.completed else 'does not close'}")
    if status in FINISHED and abs(times[-1] - end) > 1_000:
        said.append("its closing line is not at the run's end")
    if summary.finished is not None:
        hours, minutes, seconds = summary.finished.split(":")
        if abs(int(hours) * 3600 + int(minutes) * 60 + float(seconds) - (end - start) / 1e6) > 1:
            said.append(f"finished in {summary.finished}, the run took {(end - start) / 1e6:.0f} s")
    if status == 5 and summary.errors == 0:
        said.append("a failed run without an ERROR line")
    if status == 4 and summary.stuck is None:
        said.append("a timed-out run whose count never stalls")
    if status in (2, 6, 7) and summary.stuck is not None:
        said.append(f"a run that succeeded looks stuck: {summary.stuck.words()}")
    if results and [part.domain for part in summary.domains] != [str(r["domain_name"]) for r in results]:
        said.append("its domains are not the results' domains")
    messages = {(line.level, line.message) for line in lines}
    for result in results:
        level = "WARNING" if result["success"] else "ERROR"
        if result["message"] and status != 4 and (level, result["message"]) not in messages:
            said.append(f"no {level} line for {result['domain_name']}'s message")
    for line in lines:
        found = DC_LINE.match(line.message)
        if found and not found.group(2).upper().endswith("." + found.group(1).upper()):
            said.append(f"{found.group(1)} is searched on {found.group(2)}, another domain's controller")
    if status in (6, 7) and any(r["success"] and not sum(int(r[c]) for c in COUNT_NAMES) for r in results):
        said.append(f"status {status} (collected, now ingested or analyzed) but a successful result counts nothing")
    said += _count_problems(lines, results)
    return said


def _count_problems(lines: list[LogLine], results: list[sqlite3.Row]) -> list[str]:
    """A successful domain whose last status count is not the objects its result counts: every one, those that count
    nothing included (issue 28: an Analyzing run's log said 41,446 objects finished beside zero counts)."""
    counted: dict[str, int] = {}
    domain, before, last = "", 0, 0
    for line in lines:
        if line.message.startswith("Beginning LDAP search for "):
            domain, before = line.message.rsplit(" ", 1)[1], last
        elif (found := STATUS.match(line.message)) is not None and domain:
            last = int(found.group(1))
            counted[domain] = last - before
    said = []
    for result in results:
        objects = sum(int(result[name]) for name in COUNT_NAMES)
        name = str(result["domain_name"])
        if result["success"] and "Timed out" not in result["message"] and counted.get(name) != objects:
            said.append(f"{name} counts {counted.get(name)}, not {objects}")
    return said


def _check_all(path: Path, every: int = 1) -> dict[int, list[str]]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        seed = read_meta(conn).get("seed", "0")
        anchor = stored_anchor(conn)
        assert anchor is not None
        now = int(anchor.timestamp() * 1_000_000)
        found: dict[int, list[str]] = {}
        checked = 0
        for task in conn.execute("SELECT * FROM tasks ORDER BY id").fetchall():
            if task["id"] % BIG_EVERY == 5 or task["id"] % every:  # the several-MB logs: one test each elsewhere
                continue
            checked += 1
            problems = _problems(conn, task, seed, now)
            if problems:
                found[int(task["id"])] = problems
        assert checked > 100
        return found
    finally:
        conn.close()


@pytest.mark.slow
def test_every_log_of_the_seed_data_agrees_with_its_run(demo_template_db: Path) -> None:
    found = _check_all(demo_template_db)
    assert not found, f"{len(found)} runs, e.g. " + "; ".join(f"run {k}: {v}" for k, v in list(found.items())[:5])


@pytest.mark.parametrize("seed", [2, 7, 31])
def test_logs_of_other_seeds_agree_too(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "demo.sqlite3"
    prepare_database(path, seed=seed, sizes=DemoSizes(tasks=800), anchor=FIXED_ANCHOR)
    found = _check_all(path)
    assert not found, f"{len(found)} runs, e.g. " + "; ".join(f"run {k}: {v}" for k, v in list(found.items())[:5])
