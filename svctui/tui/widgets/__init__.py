"""Reusable dashboard widgets: paged table, filter editor, chips, state panel, detail pane, raw JSON."""
