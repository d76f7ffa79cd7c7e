"""The selector deletion engine's public API, in one place for the command line and the dashboard.

- `delete_selectors(client, tag_id, ids, *, context, concurrency, on_result, cancel, records, tag_name, resumes)`
  runs one audited deletion run and returns a `DeleteReport` (run id, results in order, why it stopped).
- `choose_run(read_audit(), run_id or None)` picks the run to resume (the last interrupted one by default);
  `resume_run(client, run, *, context, concurrency, on_result, cancel)` resumes it as a new run (re-check with
  GET, delete only what still exists). Both raise NothingToResume (ResumeRefused: can't be resumed here).
- `fetch_selector_records(client, tag_id)` is the tag's selector list, fetched once (names for prompts, records
  for the intent lines).
- `preview_selectors(client, tag_id, ids, ...)` is the dry run (UNCHECKED when a lookup got no real answer).
- `svctui.store.read_only.read_only_reason(profile)` says why destructive actions are refused (None: allowed).

The modules behind it: `outcomes` (what happened), `audit_lines` (the log's lines), `delete_run` (the run),
`resume` (resuming), `preview` (the dry run), `identity` (whether a selector found by id is the one a record kept).
"""

from __future__ import annotations

from svctui.ops.audit_lines import AuditContext
from svctui.ops.delete_run import (
    MAX_CONCURRENCY,
    UNREACHABLE_STREAK,
    AuditSink,
    ResultCallback,
    SelectorClient,
    delete_selectors,
    fetch_selector_records,
)
from svctui.ops.outcomes import (
    DeleteReport,
    DeleteResult,
    Outcome,
    Stopped,
    classify,
    is_auth_failure,
    is_server_trouble,
)
from svctui.ops.preview import Preview, PreviewResult, preview_selectors
from svctui.ops.resume import NothingToResume, ResumeRefused, choose_run, resume_run

__all__ = [
    "MAX_CONCURRENCY",
    "UNREACHABLE_STREAK",
    "AuditContext",
    "AuditSink",
    "DeleteReport",
    "DeleteResult",
    "NothingToResume",
    "Outcome",
    "Preview",
    "PreviewResult",
    "ResultCallback",
    "ResumeRefused",
    "SelectorClient",
    "Stopped",
    "choose_run",
    "classify",
    "delete_selectors",
    "fetch_selector_records",
    "is_auth_failure",
    "is_server_trouble",
    "preview_selectors",
    "resume_run",
]
