"""The demo's run logs (`GET /api/v2/jobs/{job_id}/log`): SharpHound's own text, generated on request from the
run's row and the data set's seed, so nothing of it is stored and the same run always has the same log.

The log agrees with the run (tests/integration/test_demo_log_consistency.py checks every run of several seeds): it
spans the run's start to its end (a running run's none after the data's now), resolves the methods its flags ask
for (a partial run drops CertServices only when no result counts an AD CS object), has a part per domain on a
controller of that domain with a rising `Status` count that adds, for a domain that succeeded, exactly the objects
its result counts, an ERROR line with a failed domain's own message and a WARNING with a
partial one's; a timed-out run repeats its last count until it stops mid-way (no closing lines); a failed run that
has no domain results fails at the start with a stack trace (lines without the format); a canceled one stops
where it was canceled. One run in BIG_EVERY with AD structure collection logs every object (DEBUG) and runs to
several MB. Runs that never started (no start time, no log path) and one in NO_LOG_EVERY of the rest kept no log.
"""

from __future__ import annotations

import functools
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from svctui.api.fields import CERT_SERVICES_COUNTS, COUNT_NAMES
from svctui.demo.db import read_meta, stored_anchor
from svctui.demo.handlers import MSG_ID_MALFORMED, MSG_NOT_FOUND, Call
from svctui.demo.query import Problem, go_atoi
from svctui.demo.timefmt import ZERO_TIME, from_micros
from svctui.runlog.summary import FLAG_METHODS

NO_LOG_EVERY = 23  # task ids ≡ 11 (mod 23) kept no log
BIG_EVERY = 41  # task ids ≡ 5 (mod 41) with AD structure collection log every object
BIG_OBJECTS = 48_000  # DEBUG lines of a big log: ~5 MB
STATUS_SECONDS = 30
OFFSETS = (-5, -4, 0, 1, 2, 10)  # the collectors' local UTC offsets, hours
WARNINGS = (
    "Computer {host}: port 445 is not open, skipping session enumeration",
    "Computer {host}: NetWkstaUserEnum returned ERROR_ACCESS_DENIED",
    "Unable to resolve SID S-1-5-21-{a}-{b}-{c}-{rid} to a principal",
    "Computer {host}: failed to read the registry: The network path was not found.",
)
STACK = (
    "   at SharpHoundCommonLib.LdapConnectionPool.GetConnectionAsync()",
    "   at SharpHound.Runtime.ObjectProcessors.ProcessObject(IDirectoryObject entry)",
    "   at SharpHound.Client.Main(String[] args)",
)


@dataclass(frozen=True)
class Result:
    """A domain result as the log needs it."""

    domain: str
    success: bool
    message: str
    objects: int
    certificates: int = 0  # the AD CS objects among them: a run whose results have some resolved CertServices


def keeps_log(job_id: int, status: int, start: int, log_path: str | None) -> bool:
    """Whether the demo has a log for a run (see the module's docstring)."""
    return log_path is not None and start != ZERO_TIME and status not in (-1, 0) and job_id % NO_LOG_EVERY != 11


def run_log(conn: sqlite3.Connection, job_id: int, seed: str) -> str | None:
    """The log of run `job_id`, None when it kept none (or there is no such run)."""
    row = conn.execute("SELECT * FROM tasks WHERE id = ?", (job_id,)).fetchone()
    if row is None or not keeps_log(job_id, int(row["status"]), int(row["start_time"]), row["log_path"]):
        return None
    results = tuple(
        Result(
            str(r["domain_name"]),
            bool(r["success"]),
            str(r["message"]),
            sum(int(r[c]) for c in COUNT_NAMES),
            sum(int(r[c]) for c in CERT_SERVICES_COUNTS),
        )
        for r in conn.execute("SELECT * FROM domain_results WHERE job_id = ? ORDER BY id", (job_id,))
    )
    if not results:  # no results (failed early, canceled, running): the run's targets by name
        names = conn.execute(
            "SELECT d.name FROM task_domains t JOIN domains d ON d.objectid = t.objectid WHERE t.task_id = ? "
            "ORDER BY t.position",
            (job_id,),
        ).fetchall()
        results = tuple(Result(str(n["name"]), False, "", 0) for n in names)
    flags = tuple(bool(row[name]) for name, _ in FLAG_METHODS)
    end = int(row["end_time"])
    if end == ZERO_TIME:  # still running: its first minutes so far, none after the data's "now"
        end = int(row["start_time"]) + 600_000_000
        anchor = stored_anchor(conn)
        if anchor is not None:
            end = min(end, int(anchor.timestamp() * 1_000_000))
    run = LoggedRun(
        job_id,
        int(row["start_time"]),
        max(end, int(row["start_time"]) + 60_000_000),
        int(row["status"]),
        str(row["status_message"]),
        flags,
        str(row["domain_controller"] or ""),
        results,
        str(row["client_id"]),
    )
    return _built(run, seed)


@dataclass(frozen=True)
class LoggedRun:
    """What a run's log is written from (times in microseconds; `flags` in FLAG_METHODS' order)."""

    job_id: int
    start: int
    end: int
    status: int
    status_message: str
    flags: tuple[bool, ...]
    dc: str
    results: tuple[Result, ...]
    client_id: str


@functools.lru_cache(maxsize=4)  # a few recent logs: the dashboard and the bench read one big log again and again
def _built(run: LoggedRun, seed: str) -> str:
    rng = random.Random(f"{seed}:log:{run.job_id}")
    offset = timezone(timedelta(hours=OFFSETS[sum(run.client_id.encode()) % len(OFFSETS)]))
    big = run.job_id % BIG_EVERY == 5 and run.flags[0]
    return "".join(_lines(rng, _Writer(offset), run, big))


class _Writer:
    """Lines in SharpHound's format at a given local offset (7-digit fractions, as .NET writes them)."""

    def __init__(self, offset: timezone) -> None:
        self.offset = offset
        self.suffix = datetime(2000, 1, 1, tzinfo=offset).isoformat()[-6:]

    def line(self, micros: int, level: str, message: str) -> str:
        moment = from_micros(micros).astimezone(self.offset)
        return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond:06d}{micros % 10}{self.suffix}|{level}|{message}\n"

    def local(self, micros: int) -> datetime:
        return from_micros(micros).astimezone(self.offset)


def _lines(rng: random.Random, out: _Writer, run: LoggedRun, big: bool) -> Iterator[str]:
    start, end, status, status_message = run.start, run.end, run.status, run.status_message
    flags, dc, results = run.flags, run.dc, run.results
    asked = [method for (_, methods), on in zip(FLAG_METHODS, flags, strict=True) if on for method in methods]
    resolved = list(asked)
    certificates = any(result.certificates for result in results)
    if status == 8 and "CertServices" in resolved and not certificates and rng.random() < 0.7:
        resolved.remove("CertServices")  # partial: no enterprise CA answered (so no result counts an AD CS object)
    t = start
    yield out.line(t, "INFORMATION", "This version of SharpHound is compatible with the 5.0.0 Release of BloodHound")
    yield out.line(t + 1_200, "INFORMATION", "Resolved Collection Methods: " + ", ".join(resolved or ["None"]))
    local = out.local(t)
    yield out.line(t + 9_000, "INFORMATION", f"Initializing SharpHound at {local:%-I:%M %p} on {local:%-m/%-d/%Y}")
    yield out.line(t + 15_000, "INFORMATION", "Flags: " + ", ".join(resolved or ["None"]))
    if len(resolved) < len(asked):
        missing = ", ".join(m for m in asked if m not in resolved)
        yield out.line(t + 17_000, "WARNING", f"{missing}: no Enterprise CA answered; skipping certificate services")
    t += 2_000_000
    if status == 5 and not any(r.message for r in results):  # failed before any domain
        yield out.line(t, "ERROR", status_message or "SharpHound exited with code 1")
        yield from (f"{frame}\n" for frame in STACK)
        return
    span = max(end - t - 5_000_000, len(results) * 1_000_000)
    share = span // max(len(results), 1)
    objects_done = 0
    ram = rng.randint(38, 90)
    for index, result in enumerate(results):
        last = index == len(results) - 1
        part_end = t + share
        # the run's domain controller serves its own domain; another domain's part names one of that domain
        host = dc if dc.upper().endswith(f".{result.domain.upper()}") else f"DC01.{result.domain}"
        yield out.line(
            t,
            "INFORMATION",
            f"[CommonLib LDAPUtils]Found usable Domain Controller for {result.domain} : "
            f"{host.upper() if '.' in host else host}",
        )
        yield out.line(t + 3_000, "INFORMATION", f"Beginning LDAP search for {result.domain}")
        objects = result.objects or rng.randint(800, 40_000)
        stuck = (status == 4 and last) or "Timed out after" in result.message
        failed = not result.success and bool(result.message)
        stop_at = t + share // (3 if stuck else 1)  # a stuck part stops counting a third of the way in
        if failed and not stuck:
            stop_at = t + share // 4
        steps = max(1, (stop_at - t) // (STATUS_SECONDS * 1_000_000))
        per_step = max(1, objects // steps)
        # a domain that succeeded ends its count at exactly the objects its result counts
        exact = objects_done + objects if result.success and result.objects and not stuck else None
        if exact is not None:  # a few objects over a long part: counted early (one or more a line), not "stuck"
            stop_at = min(stop_at, t + objects * STATUS_SECONDS * 1_000_000)
        clock = t + STATUS_SECONDS * 1_000_000
        if exact is not None and clock >= part_end:  # a part shorter than one status period still reports once
            yield out.line(part_end - 500_000, "INFORMATION", _status_line(exact, exact - objects_done, ram))
            objects_done = exact
        while clock < part_end:
            if clock <= stop_at:
                step = per_step + rng.randint(-per_step // 10, per_step // 10)
                if exact is not None:  # what is left over the counts left, the part's last one to the object
                    left = (min(stop_at, part_end - 1) - clock) // (STATUS_SECONDS * 1_000_000) + 1
                    share_left = (exact - objects_done) // max(left, 1)
                    step = share_left + rng.randint(-(share_left // 10), share_left // 10) if left > 1 else 0
                    step = exact - objects_done if left <= 1 else min(step, exact - objects_done)
                objects_done += max(step, 0)
                rate = max(step, 0) / STATUS_SECONDS
                if big:
                    per_status = max(1, BIG_OBJECTS // max(len(results), 1) // steps)
                    for k in range(per_status):
                        rid = rng.randint(1100, 99_999)
                        yield out.line(
                            clock - (per_status - k) * 5_000,
                            "DEBUG",
                            f"[CommonLib ACLProc]Processed {rng.randint(4, 60)} ACEs for CN=user{rid},OU=Users,"
                            + ",".join(f"DC={p.lower()}" for p in result.domain.split(".")),
                        )
                if rng.random() < 0.04:
                    warning = rng.choice(WARNINGS).format(
                        host=f"WS{rng.randint(1000, 9999)}.{result.domain}",
                        a=rng.randint(10**8, 10**9),
                        b=rng.randint(10**8, 10**9),
                        c=rng.randint(10**8, 10**9),
                        rid=rng.randint(1100, 9999),
                    )
                    yield out.line(clock - 700_000, "WARNING", warning)
            else:
                rate = 0.0
                if not stuck:
                    break
            ram += rng.randint(-2, 3)
            yield out.line(clock, "INFORMATION", _status_line(objects_done, round(rate * STATUS_SECONDS), ram))
            clock += STATUS_SECONDS * 1_000_000
        if stuck and status == 4 and last:
            return  # timed out: the collector was stopped mid-way, nothing closes the log
        if failed:
            yield out.line(min(clock, part_end - 1_000_000), "ERROR", result.message)
        elif result.message:
            yield out.line(min(clock, part_end - 1_000_000), "WARNING", result.message)
        if status == 3 and last:
            yield out.line(part_end - 500_000, "WARNING", f"Cancellation requested: {status_message or 'canceled'}")
            return
        yield out.line(part_end - 400_000, "INFORMATION", "Producer has finished, closing LDAP channel")
        yield out.line(part_end - 300_000, "INFORMATION", "LDAP channel closed, waiting for consumers")
        yield out.line(part_end - 200_000, "INFORMATION", "Consumers finished, closing output channel")
        t = part_end
    if status in (5, 3, 1):  # failed or canceled: no closing lines; running: its log so far
        if status == 5:
            yield out.line(end - 1_000_000, "ERROR", status_message or "SharpHound exited with code 1")
        return
    took = timedelta(microseconds=end - start)
    whole = int(took.total_seconds())
    yield out.line(
        end - 900_000,
        "INFORMATION",
        f"Enumeration finished in {whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"
        f".{rng.randint(0, 9_999_999):07d}",
    )
    yield out.line(
        end - 500_000, "INFORMATION", f"Saving cache with stats: {rng.randint(2000, 90000)} ID to type mappings."
    )
    local = out.local(end)
    yield out.line(
        end,
        "INFORMATION",
        f"SharpHound Enumeration Completed at {local:%-I:%M %p} on {local:%-m/%-d/%Y}! Happy Graphing!",
    )


def _status_line(done: int, added: int, ram: int) -> str:
    """SharpHound's periodic count: `Status: 40641 objects finished (+1200 40.00)/s -- Using 197 MB RAM`."""
    return f"Status: {done} objects finished (+{added} {added / STATUS_SECONDS:.2f})/s -- Using {ram} MB RAM"


def job_log(conn: sqlite3.Connection, call: Call) -> tuple[int, Any]:
    """GET /api/v2/jobs/{job_id}/log (enterprise only): `{"data": {"log": "..."}}`, 404 when the run kept none."""
    try:
        job_id = go_atoi(call.path["job_id"])
    except ValueError:
        raise Problem(404, MSG_ID_MALFORMED) from None
    log = run_log(conn, job_id, read_meta(conn).get("seed", "0"))
    if log is None:
        raise Problem(404, MSG_NOT_FOUND)
    return 200, {"data": {"log": log}}
