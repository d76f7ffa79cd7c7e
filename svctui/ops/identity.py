"""Whether the selector a GET found under an id is the one an audit record kept, or another one under that id.

Ids should never repeat (the real server's don't), but on a server that reuses one a resume would delete a newcomer
and a restore take a newcomer for the old selector. So a re-check compares what it found with the record: another
name or another creation time is another selector.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from svctui.api.models import Selector
from svctui.ops.audit_lines import selector_record


def _moment(value: object) -> datetime | None:
    """A record's time (an RFC 3339 string as the intent line kept it), or None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _told(values: dict[str, Any]) -> str:
    """`'Old DCs' created 2026-03-01T10:00:00Z` (the name alone when the time is unknown)."""
    created = values.get("created_at")
    return f"{str(values.get('name') or '')!r}" + (f" created {created}" if created else "")


def another_selector(found: Selector, record: dict[str, Any] | None) -> str | None:
    """Words saying that `found` is another selector than the kept `record` under the same id (`id 12 now holds
    'B' created …, not 'A' created …`): its creation time differs, or its name does and a time is unknown. None
    when it is the one the record kept, renamed or not (`renamed`), or there is no record to compare with."""
    if not record:
        return None
    now = selector_record(found)
    then_at, now_at = _moment(record.get("created_at")), _moment(now.get("created_at"))
    if then_at is not None and now_at is not None:
        differ = then_at != now_at
    else:
        differ = "name" in record and (now.get("name") or "") != (record.get("name") or "")
    return f"id {found.id} now holds {_told(now)}, not {_told(record)}" if differ else None


def renamed(found: Selector, record: dict[str, Any] | None) -> str | None:
    """`renamed 'A' → 'B'` when `found` is the kept selector (same creation time) under another name, else None."""
    if not record or "name" not in record or another_selector(found, record) is not None:
        return None
    then, now = str(record.get("name") or ""), found.name or ""
    return f"renamed {then!r} → {now!r}" if then != now else None
