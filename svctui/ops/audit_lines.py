"""The lines of a deletion run in the audit log — plan, intent, outcome, end — exactly as docs/AUDIT.md lays out.

Each builder returns a dict without `ts` (the writer stamps it). Nothing here can carry a secret: the profile's
name and token id, never its key or a JWT.
"""

from __future__ import annotations

import getpass
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from svctui.api.models import Selector
from svctui.ops.outcomes import DeleteResult, Outcome, Stopped

DELETE_ACTION = "selectors.delete"
RECORD_FIELDS = (
    "id",
    "asset_group_tag_id",
    "name",
    "description",
    "auto_certify",
    "is_default",
    "allow_disable",
    "disabled_at",
    "disabled_by",
    "created_at",
    "created_by",
    "updated_at",
    "updated_by",
    "rule_key",
    "extension_id",
)
OWNER_FIELDS = ("rule_key", "extension_id")  # set on a selector an extension owns (REAL-SERVER.md)
EXTENSION_RECREATES = "the extension re-creates it at its next sync"


def restored_enabled_words(disabled: int) -> str:
    """Why deleting disabled selectors deserves a word: a restore re-creates them by POST, which has no `disabled`,
    so they come back enabled and tag objects again (docs/AUDIT.md). The review's line and the command's note."""
    ones = "the disabled one" if disabled == 1 else f"the {disabled:,} disabled ones"
    return f"A restore brings {ones} back enabled (POST can't disable)."


def owner_fields(record: dict[str, Any] | None) -> dict[str, Any]:
    """`rule_key` and `extension_id` of an extension-owned selector's record (an outcome line keeps them), else {}."""
    if not record or all(record.get(name) is None for name in OWNER_FIELDS):
        return {}
    return {name: record.get(name) for name in OWNER_FIELDS}


def owner_words(record: dict[str, Any] | None) -> str:
    """`extension 1, rule entra-global-admins` for an extension-owned selector's record, else ''."""
    owner = owner_fields(record)
    if not owner:
        return ""
    parts = [f"extension {owner['extension_id']}" if owner["extension_id"] is not None else "an extension"]
    if owner["rule_key"] is not None:
        parts.append(f"rule {owner['rule_key']}")
    return ", ".join(parts)


def local_user() -> str:
    """The local login name, or '' when the system can't say."""
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return ""


@dataclass(frozen=True)
class AuditContext:
    """Who runs the deletion against which server: the plan line's `profile`, `token_id`, `server` and `user`."""

    profile: str
    token_id: str | None  # None with a bearer token
    server: str  # base URL, no credentials
    user: str = ""  # the local login name

    @classmethod
    def of(cls, profile_name: str, token_id: str | None, server: str) -> AuditContext:
        """A context for this profile and server, with the local login name filled in."""
        return cls(profile=profile_name, token_id=token_id, server=server, user=local_user())


def selector_record(selector: Selector) -> dict[str, Any]:
    """The selector's full record as the intent line keeps it (enough to re-create it: name, seeds, ...)."""
    data = selector.model_dump(mode="json")
    record = {name: data.get(name) for name in RECORD_FIELDS}
    record["seeds"] = [{"type": seed.type, "value": seed.value} for seed in selector.seeds]
    return record


def plan_line(
    run_id: str,
    context: AuditContext,
    tag_id: int,
    tag_name: str,
    ids: Sequence[int],
    concurrency: int,
    *,
    action: str = DELETE_ACTION,
    **link: str | None,
) -> dict[str, Any]:
    """Written before anything is sent: what the run may touch, who runs it, where, and the run it continues.

    `link` is `resumes=` for a deletion (None for a new one) or `restores=` for a restore.
    """
    return {
        "run": run_id,
        "event": "plan",
        "action": action,
        "profile": context.profile,
        "token_id": context.token_id,
        "user": context.user,
        "server": context.server,
        "tag_id": tag_id,
        "tag_name": tag_name,
        "ids": list(ids),
        "concurrency": concurrency,
        **link,
    }


def intent_line(run_id: str, tag_id: int, selector_id: int, record: dict[str, Any] | None) -> dict[str, Any]:
    """Written (and fsynced) before the DELETE of one selector (or the POST that restores it)."""
    return {"run": run_id, "event": "intent", "tag_id": tag_id, "selector_id": selector_id, "selector": record}


class Settled(Protocol):
    """What an outcome line records of one selector's result (a deletion's or a restore's)."""

    @property
    def selector_id(self) -> int:
        """The (old) selector id."""

    @property
    def outcome(self) -> str:
        """The outcome, as the audit log spells it."""

    @property
    def status(self) -> int | None:
        """The HTTP status of the answer, if any."""

    @property
    def request_id(self) -> str | None:
        """The server's request id, if any."""

    @property
    def message(self) -> str:
        """What the server (or svctui) said."""


def outcome_line(run_id: str, tag_id: int, result: Settled, **extra: Any) -> dict[str, Any]:
    """Written after the server answered (or did not); `extra` adds a restore's `new_id`."""
    return {
        "run": run_id,
        "event": "outcome",
        "tag_id": tag_id,
        "selector_id": result.selector_id,
        "outcome": str(result.outcome),
        "status": result.status,
        "request_id": result.request_id,
        "message": result.message,
        **extra,
    }


def end_line(run_id: str, results: Sequence[DeleteResult], stopped: Stopped | None) -> dict[str, Any]:
    """Written when the run finishes, is cancelled or stops: outcomes over every planned id, and why it stopped."""
    counts = Counter(str(result.outcome) for result in results)
    ordered = {str(outcome): counts[str(outcome)] for outcome in Outcome if counts[str(outcome)]}
    return {"run": run_id, "event": "end", "counts": ordered, "stopped": None if stopped is None else str(stopped)}
