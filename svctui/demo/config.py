"""Options of the demo server: data sizes, faults, the default database path and the data anchor time."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

DEFAULT_SEED = 1
DEFAULT_RATE_LIMIT = 55
DEFAULT_FAULT_RATE = 0.1
# `svctui --demo` serves here when the port is free (else on any free port), so the demo's address, and with it
# the server named in the audit log, stays the same from one session to the next: an interrupted demo run resumes
DEMO_PORT = 47361
DEMO_SERVER_PORT = 47362  # `svctui demo-server`'s without --port: a saved profile keeps working after a restart
DEFAULT_SLOW_SECONDS = 3.0
FAULT_KINDS = ("html", "malformed", "truncated", "reset", "slow")
EDITIONS = ("enterprise", "community")
# Endpoints `--without` can take away, as an older server lacks them: completed-jobs (before 2024) and jobs/finished.
OPTIONAL_ROUTES = ("completed-jobs", "jobs-finished")
# A fixed anchor for tests and snapshots: the generated data ends here instead of at the current hour.
FIXED_ANCHOR = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class DemoSizes:
    """How much data to generate: clients, events (schedules), completed tasks, tags and selectors (total)."""

    clients: int = 6
    events: int = 200
    tasks: int = 4000
    tags: int = 7
    selectors: int = 1000

    def validate(self) -> None:
        """Raise ValueError naming a size that is out of range."""
        limits = {
            "clients": (1, 5000),
            "events": (1, 20_000),
            "tasks": (0, 1_000_000),
            "tags": (1, 500),
            "selectors": (0, 100_000),
        }
        for name, (low, high) in limits.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise ValueError(f"--{name} must be between {low} and {high}, got {value}")

    def key(self) -> str:
        """A stable text form, stored with the database to know whether it matches these sizes."""
        return ",".join(f"{name}={getattr(self, name)}" for name in ("clients", "events", "tasks", "tags", "selectors"))


@dataclass(frozen=True)
class Faults:
    """Injected failures, all off by default.

    `latency_ms` delays every API response; `error_rate` answers a share of authenticated requests with the 500
    envelope; `kinds` maps a fault kind (html, malformed, truncated, reset, slow) to the share of API requests it
    hits. `slow_seconds` is how long a `slow` response stalls (a `Prefer: wait` shorter than that times out).
    `only_path`, when set, keeps every fault to the API requests whose path contains it (e.g. one client's
    `/api/v2/clients/<id>/`: its runs fail while the client list answers).
    """

    latency_ms: int = 0
    error_rate: float = 0.0
    kinds: dict[str, float] = field(default_factory=dict)
    slow_seconds: float = DEFAULT_SLOW_SECONDS
    only_path: str = ""

    def validate(self) -> None:
        """Raise ValueError naming an option that is out of range."""
        if self.latency_ms < 0:
            raise ValueError(f"--latency must be >= 0 milliseconds, got {self.latency_ms}")
        if not 0.0 <= self.error_rate <= 1.0:
            raise ValueError(f"--error-rate must be between 0 and 1, got {self.error_rate}")
        for kind, rate in self.kinds.items():
            if kind not in FAULT_KINDS:
                raise ValueError(f"unknown fault {kind!r}; known faults: {', '.join(FAULT_KINDS)}")
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"fault {kind} rate must be between 0 and 1, got {rate}")

    @property
    def active(self) -> bool:
        """True when any fault can fire."""
        return bool(self.latency_ms or self.error_rate or any(self.kinds.values()))


def parse_faults(text: str, default_rate: float = DEFAULT_FAULT_RATE) -> dict[str, float]:
    """Parse `html,reset:0.5,slow` into {kind: rate}; a kind without `:rate` gets `default_rate`."""
    kinds: dict[str, float] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, rate_text = part.partition(":")
        name = name.strip().lower()
        if name not in FAULT_KINDS:
            raise ValueError(f"unknown fault {name!r}; known faults: {', '.join(FAULT_KINDS)}")
        try:
            if rate_text.strip() and not re.fullmatch(r"[0-9]*\.?[0-9]+|[0-9]+\.", rate_text.strip(" ")):
                raise ValueError(rate_text)  # float() also reads nan and full-width digits
            rate = float(rate_text) if rate_text.strip() else default_rate
        except ValueError:
            raise ValueError(f"fault {name}: rate {rate_text!r} is not a number between 0 and 1") from None
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault {name}: rate must be between 0 and 1, got {rate}")
        kinds[name] = rate
    return kinds


def default_db_path() -> Path:
    """The demo database in the user data dir (SVCTUI_DATA_DIR wins), e.g. ~/.local/share/svctui/demo.sqlite3."""
    override = os.environ.get("SVCTUI_DATA_DIR", "").strip()
    base = Path(override).expanduser() if override else platformdirs.user_data_path("svctui", appauthor=False)
    return base / "demo.sqlite3"


def current_anchor() -> datetime:
    """The current UTC time floored to the hour: generated data ends here."""
    return datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
