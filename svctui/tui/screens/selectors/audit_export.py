"""The palette's commands while the Audit tab shows: reload the audit log, export the runs it lists.

The list screen's commands (reload this page of selectors, export it, sort it) act on the Selectors tab, out of
sight here: on the Audit tab the palette offers the tab's own instead, as its keys are its own."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from textual.app import SystemCommand

from svctui.text import plural
from svctui.tui.app import SvcTuiApp
from svctui.tui.palette import export_dir
from svctui.tui.screens.selectors.audit_tab import RUN_COLUMNS, AuditTab
from svctui.visible import json_safe


def export_audit_runs(tab: AuditTab, fmt: str, directory: Path) -> Path:
    """Write the runs the tab lists (newest first) as CSV (the runs' columns, cells whole, `when` ISO-8601 UTC) or
    JSON (each run's plan and end lines as the log holds them, with its state and counts) in `directory`, atomically
    and 0600; returns the absolute path."""
    from svctui.tui.export_file import csv_of_rows, write_export

    target = directory.resolve() / f"svctui-audit-runs-{datetime.now().strftime('%Y%m%d-%H%M%S')}.{fmt}"
    if fmt == "csv":
        headers = [column.title for column in RUN_COLUMNS]
        rows = ([run.run_id, run.started, *tab.run_cells(run)[2:]] for run in tab.log_runs)  # when: ISO-8601 UTC
        return write_export(target, csv_of_rows(headers, rows))
    records = [
        {"run_id": run.run_id, "state": run.state, "counts": run.counts_text, "plan": run.plan, "end": run.end}
        for run in tab.log_runs
    ]
    return write_export(target, json_safe(json.dumps(records, indent=2, ensure_ascii=False)) + "\n")


def audit_commands(app: SvcTuiApp, tab: AuditTab) -> Iterable[SystemCommand]:
    """The Audit tab's palette commands: read the log again, export its runs (CSV or JSON)."""
    yield SystemCommand("Refresh", "Read the audit log again (its runs, the chosen run's selectors)", tab.action_reload)

    def export(fmt: str) -> None:
        if not tab.log_runs:
            app.notify("Nothing to export: the audit log has no runs.", severity="warning")
            return
        try:
            path = export_audit_runs(tab, fmt, export_dir(app.settings))
        except OSError as exc:
            app.notify(f"Export failed: {exc.strerror or exc}", severity="error", markup=False)
            return
        app.notify(f"Exported {plural(len(tab.log_runs), 'audit run')}: {path}", markup=False)

    yield SystemCommand("Export view as CSV", "The audit runs listed, their columns as shown", lambda: export("csv"))
    yield SystemCommand(
        "Export view as JSON", "The audit runs listed: each run's plan and end lines", lambda: export("json")
    )
