"""Non-secret settings (theme, keymap, page size, recent clients, drop threshold, response size cap, where exports
and screenshots go, live refresh and its bell) in config_dir()/settings.toml.
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from svctui.api.limits import MAX_PAGE_SIZE
from svctui.store.atomic import locked, write_private
from svctui.store.bounds import MAX_HEALTH_HOURS, MAX_RECENT_CLIENTS, MAX_REFRESH_SECONDS, MAX_RESPONSE_MB
from svctui.store.errors import StoreError
from svctui.store.model import explain
from svctui.store.paths import settings_path

_HEADER = b"# svctui settings (no secrets here). Unknown keys are ignored.\n"


class Settings(BaseModel):
    """User preferences; every field has a default so a missing file means defaults."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    theme: str = "textual-dark"
    keymap: dict[str, str] = Field(default_factory=dict)  # binding id -> keys, as App.set_keymap takes them
    page_size: int = Field(default=100, ge=1, le=MAX_PAGE_SIZE)
    recent_clients: list[str] = Field(default_factory=list)  # most recent first; from before lists were per profile
    recent_clients_by_profile: dict[str, list[str]] = Field(default_factory=dict)  # profile name -> most recent first
    drop_threshold: float = Field(default=0.2, ge=0.0, le=1.0)
    max_response_mb: int = Field(default=64, ge=1, le=MAX_RESPONSE_MB)  # a larger answer is refused, not read
    export_dir: str = ""  # where exports and screenshots go ("" = exports/ in the data dir; ~ is expanded)
    refresh_seconds: int = Field(default=0, ge=0, le=MAX_REFRESH_SECONDS)  # live refresh of list screens; 0 = off
    bell_on_failure: bool = False  # ring the terminal bell when live refresh sees a new not-OK run
    health_window_hours: int = Field(default=24, ge=1, le=MAX_HEALTH_HOURS)  # Clients: runs judged (not OK, drops)
    stale_after_hours: int = Field(default=24, ge=1, le=MAX_HEALTH_HOURS)  # Clients: a check-in older is stale

    @property
    def max_response_bytes(self) -> int:
        """The response size cap in bytes."""
        return self.max_response_mb * 1024 * 1024

    @field_validator("recent_clients")
    @classmethod
    def _cap_recent(cls, clients: list[str]) -> list[str]:
        return _dedupe(clients)[:MAX_RECENT_CLIENTS]

    @field_validator("recent_clients_by_profile")
    @classmethod
    def _cap_recent_by_profile(cls, lists: dict[str, list[str]]) -> dict[str, list[str]]:
        return {name: _dedupe(clients)[:MAX_RECENT_CLIENTS] for name, clients in lists.items()}

    def recent_for(self, profile: str) -> list[str]:
        """The recent clients of `profile`, most recent first (a profile without its own list starts from the list
        kept before lists were per profile)."""
        return list(self.recent_clients_by_profile.get(profile, self.recent_clients))

    def with_recent_client(self, client_id: str, profile: str | None = None) -> Settings:
        """A copy with `client_id` first among the recent clients of `profile` (no duplicates, at most 10); without
        a profile, first in the list from before lists were per profile."""
        if profile is None:
            return self.model_copy(
                update={"recent_clients": _dedupe([client_id, *self.recent_clients])[:MAX_RECENT_CLIENTS]}
            )
        chosen = _dedupe([client_id, *self.recent_for(profile)])[:MAX_RECENT_CLIENTS]
        lists = {**self.recent_clients_by_profile, profile: chosen}
        return self.model_copy(update={"recent_clients_by_profile": lists})


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


MAX_SETTINGS_BYTES = 1024 * 1024


def load_settings(path: Path | None = None) -> Settings:
    """Read the settings file (defaults when it does not exist); StoreError names the file and the bad key."""
    target = path if path is not None else settings_path()
    try:
        if not stat.S_ISREG(target.stat().st_mode):  # a device or a pipe (settings.toml -> /dev/zero) never ends
            raise StoreError(f"cannot read '{target}': not a regular file")
        with target.open("rb") as handle:
            raw = handle.read(MAX_SETTINGS_BYTES + 1)
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        raise StoreError(f"cannot read '{target}': {exc.strerror}") from None
    if len(raw) > MAX_SETTINGS_BYTES:
        raise StoreError(f"{target}: larger than {MAX_SETTINGS_BYTES // 1024 // 1024} MiB; not a settings file")
    try:
        document: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise StoreError(f"{target}: not valid TOML ({exc})") from None
    try:
        return Settings.model_validate(document)
    except ValidationError as exc:
        raise StoreError(f"{target}: {explain(exc)}") from None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings file atomically."""
    target = path if path is not None else settings_path()
    with locked(target):
        write_private(target, _HEADER + tomli_w.dumps(settings.model_dump()).encode("utf-8"))
